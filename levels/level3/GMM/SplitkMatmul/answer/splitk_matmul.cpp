// SplitkMatmul expert answer: c = a b with the reduction dimension K split
// across cores (kernel-only mode, Ascend 910B). With few 128 x 128 output
// tiles (128 x 512 has 4 for 24 cores) the cores would idle; splitting K
// into S slices gives tiles x S work items instead. The slices' products
// must meet in float32 (summing half-rounded partials would lose the
// accuracy the L0C keeps), so they meet in the workspace:
//   1. each block zeroes its share of a float32 [m, n] buffer in the
//      workspace (at most 1152 x 1433 x 4 bytes, 6.6 MB of the 16 MiB);
//   2. SyncAll; each work item (tile, K slice) runs the high-level Matmul
//      with atomic add into the buffer (Fixpipe accumulates float32 in GM);
//   3. SyncAll; each block casts its share of the buffer to half into c.
// Shares are contiguous runs of 16-element multiples, so no two blocks
// write the same 32 bytes of c.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "../../../../common/matmul_api_tiles.h"

using namespace AscendC;
using namespace npukb_answer;

using AType = MatmulType<TPosition::GM, CubeFormat::ND, DTYPE_A>;
using BType = MatmulType<TPosition::GM, CubeFormat::ND, DTYPE_B>;
using AccType = MatmulType<TPosition::GM, CubeFormat::ND, float>;

constexpr uint32_t CHUNK = 8192; // float32 elements per UB pass

extern "C" __global__ __aicore__ void splitk_matmul(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace,
                                                    GM_ADDR tiling)
{
    // one vector core per AI core drives its cube through the Matmul API, so
    // no two vector cores issue the same tile (with 1:2 both would)
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);
    GET_TILING_DATA(t, tiling);
    const uint32_t m = t.m, k = t.k, n = t.n;
    const uint64_t total = (uint64_t)m * n;
    const uint32_t blocks = GetBlockNum(), me = GetBlockIdx();
    GlobalTensor<DTYPE_A> ga;
    GlobalTensor<DTYPE_B> gb;
    GlobalTensor<DTYPE_C> gc;
    GlobalTensor<float> acc;
    ga.SetGlobalBuffer((__gm__ DTYPE_A *)a, (uint64_t)m * k);
    gb.SetGlobalBuffer((__gm__ DTYPE_B *)b, (uint64_t)k * n);
    gc.SetGlobalBuffer((__gm__ DTYPE_C *)c, total);
    acc.SetGlobalBuffer((__gm__ float *)GetUserWorkspace(workspace), total);

    // this block's share of the flat [m, n] buffer
    const uint64_t per = (total + blocks - 1) / blocks;
    const uint64_t share = (per + 15) / 16 * 16;
    const uint64_t lo = share * me < total ? share * me : total;
    const uint64_t hi = lo + share < total ? lo + share : total;

    // the Matmul first: the cube core of a mix kernel stays in
    // REGIST_MATMUL_OBJ serving it, and separated mode wants it before any
    // InitBuffer
    TPipe pipe;
    const uint32_t tm = (m + MM_TILE_M - 1) / MM_TILE_M, tn = (n + MM_TILE_N - 1) / MM_TILE_N;
    const uint32_t tiles = tm * tn;
    uint32_t s = blocks / tiles;
    s = s < 1 ? 1 : s;
    // slices in whole 64-element steps (the cube's K runs in 16s)
    const uint32_t kSlice = ((k + s - 1) / s + 63) / 64 * 64;
    s = (k + kSlice - 1) / kSlice;
    TCubeTiling mt;
    FillMatmulTiling(mt, m, n, kSlice < k ? kSlice : k, false);
    mt.Ka = k;
    mt.Kb = k;
    matmul::Matmul<AType, BType, AccType> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &mt);

    TQue<TPosition::VECIN, 1> qin;
    TQue<TPosition::VECOUT, 1> qout;
    pipe.InitBuffer(qin, 1, CHUNK * sizeof(float));
    pipe.InitBuffer(qout, 1, CHUNK * sizeof(float));

    // 1. zero
    {
        LocalTensor<float> z = qout.AllocTensor<float>();
        Duplicate(z, 0.0f, CHUNK);
        qout.EnQue(z);
        z = qout.DeQue<float>();
        for (uint64_t i = lo; i < hi; i += CHUNK) {
            const uint32_t len = hi - i < CHUNK ? (uint32_t)(hi - i) : CHUNK;
            DataCopyPad(acc[i], z, DataCopyExtParams(1, len * sizeof(float), 0, 0, 0));
        }
        qout.FreeTensor(z);
    }
    SyncAll();

    // 2. K slices of the output tiles, with atomic add
    mm.SetOrgShape(m, n, k);
    for (uint32_t w = me; w < tiles * s; w += blocks) {
        const uint32_t tile = w / s, slice = w % s;
        const uint32_t m0 = tile / tn * MM_TILE_M, n0 = tile % tn * MM_TILE_N;
        const uint32_t k0 = slice * kSlice;
        const uint32_t rows = m - m0 < MM_TILE_M ? m - m0 : MM_TILE_M;
        const uint32_t cols = n - n0 < MM_TILE_N ? n - n0 : MM_TILE_N;
        const uint32_t kl = k - k0 < kSlice ? k - k0 : kSlice;
        mm.SetSingleShape(rows, cols, kl);
        mm.SetTensorA(ga[(uint64_t)m0 * k + k0]);
        mm.SetTensorB(gb[(uint64_t)k0 * n + n0]);
        mm.IterateAll(acc[(uint64_t)m0 * n + n0], 1);
    }
    mm.End();
    SyncAll();

    // 3. float32 -> half, rounded to nearest even
    for (uint64_t i = lo; i < hi; i += CHUNK) {
        const uint32_t len = hi - i < CHUNK ? (uint32_t)(hi - i) : CHUNK;
        LocalTensor<float> x = qin.AllocTensor<float>();
        DataCopyPad(x, acc[i], DataCopyExtParams(1, len * sizeof(float), 0, 0, 0),
                    DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        qin.EnQue(x);
        x = qin.DeQue<float>();
        LocalTensor<DTYPE_C> y = qout.AllocTensor<DTYPE_C>();
        Cast(y, x, RoundMode::CAST_RINT, len);
        qin.FreeTensor(x);
        qout.EnQue(y);
        y = qout.DeQue<DTYPE_C>();
        DataCopyPad(gc[i], y, DataCopyExtParams(1, len * sizeof(DTYPE_C), 0, 0, 0));
        qout.FreeTensor(y);
    }
}
