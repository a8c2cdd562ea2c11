// Gemm expert answer: out = alpha a b + beta c, float32 (kernel-only mode,
// Ascend 910B). Per 128 x 128 output tile of this block
// (levels/common/matmul_api_tiles.h), the high-level Matmul writes a b
// (float32 on the cube, accumulated in L0C) into out; the vector side then
// reads that tile back with the tile of c, 32 rows at a time, and writes
// alpha * ab + beta * c over it. Each block rewrites only the tiles its own
// Matmul produced, so no block waits on another and no workspace is needed.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "../../../../common/matmul_api_tiles.h"

using namespace AscendC;
using namespace npukb_answer;

using T = DTYPE_OUT;
using AType = MatmulType<TPosition::GM, CubeFormat::ND, DTYPE_A>;
using BType = MatmulType<TPosition::GM, CubeFormat::ND, DTYPE_B>;
using CType = MatmulType<TPosition::GM, CubeFormat::ND, T>;

constexpr uint32_t ROWS = 32;

extern "C" __global__ __aicore__ void gemm(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR alpha, GM_ADDR beta,
                                           GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling)
{
    // one vector core per AI core drives its cube through the Matmul API, so
    // no two vector cores issue the same tile (with 1:2 both would)
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);
    GET_TILING_DATA(t, tiling);
    const uint32_t m = t.m, k = t.k, n = t.n;
    GlobalTensor<DTYPE_A> ga;
    GlobalTensor<DTYPE_B> gb;
    GlobalTensor<DTYPE_C> gc;
    GlobalTensor<float> gs;
    GlobalTensor<T> gout;
    ga.SetGlobalBuffer((__gm__ DTYPE_A *)a, (uint64_t)m * k);
    gb.SetGlobalBuffer((__gm__ DTYPE_B *)b, (uint64_t)k * n);
    gc.SetGlobalBuffer((__gm__ DTYPE_C *)c, (uint64_t)m * n);
    gout.SetGlobalBuffer((__gm__ T *)out, (uint64_t)m * n);
    gs.SetGlobalBuffer((__gm__ float *)alpha, 1);
    const float al = gs.GetValue(0);
    gs.SetGlobalBuffer((__gm__ float *)beta, 1);
    const float be = gs.GetValue(0);

    TPipe pipe;
    TQue<TPosition::VECIN, 1> qab, qc;
    TQue<TPosition::VECOUT, 1> qo;
    pipe.InitBuffer(qab, 1, ROWS * MM_TILE_N * sizeof(T));
    pipe.InitBuffer(qc, 1, ROWS * MM_TILE_N * sizeof(T));
    pipe.InitBuffer(qo, 1, ROWS * MM_TILE_N * sizeof(T));
    TCubeTiling mt;
    FillMatmulTiling(mt, m, n, k, false);
    matmul::Matmul<AType, BType, CType> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &mt);
    mm.SetOrgShape(m, n, k);
    constexpr uint32_t PER_BLOCK = 32 / sizeof(T);
    ForEachTile(m, n, [&](uint32_t m0, uint32_t n0, uint32_t tm, uint32_t tn) {
        mm.SetSingleShape(tm, tn, k);
        mm.SetTensorA(ga[(uint64_t)m0 * k]);
        mm.SetTensorB(gb[n0]);
        mm.IterateAll(gout[(uint64_t)m0 * n + n0]);
        // the vector side reads what the cube's Fixpipe wrote
        PipeBarrier<PIPE_ALL>();
        // rows padded in UB to whole 32-byte blocks, the pad zero-filled
        const uint32_t tnPad = (tn + PER_BLOCK - 1) / PER_BLOCK * PER_BLOCK;
        const uint32_t rowBytes = tn * sizeof(T), gap = (n - tn) * sizeof(T);
        DataCopyPadExtParams<T> pad{true, 0, (uint8_t)(tnPad - tn), (T)0};
        for (uint32_t r0 = 0; r0 < tm; r0 += ROWS) {
            const uint32_t rows = tm - r0 < ROWS ? tm - r0 : ROWS;
            const uint64_t at = (uint64_t)(m0 + r0) * n + n0;
            LocalTensor<T> xab = qab.AllocTensor<T>();
            LocalTensor<T> xc = qc.AllocTensor<T>();
            DataCopyPad(xab, gout[at], DataCopyExtParams(rows, rowBytes, gap, 0, 0), pad);
            DataCopyPad(xc, gc[at], DataCopyExtParams(rows, rowBytes, gap, 0, 0), pad);
            qab.EnQue(xab);
            qc.EnQue(xc);
            xab = qab.DeQue<T>();
            xc = qc.DeQue<T>();
            LocalTensor<T> o = qo.AllocTensor<T>();
            const uint32_t len = rows * tnPad;
            Muls(o, xab, (T)al, len);
            Muls(xc, xc, (T)be, len);
            Add(o, o, xc, len);
            qab.FreeTensor(xab);
            qc.FreeTensor(xc);
            qo.EnQue(o);
            o = qo.DeQue<T>();
            DataCopyPad(gout[at], o, DataCopyExtParams(rows, rowBytes, 0, gap, 0));
            qo.FreeTensor(o);
        }
    });
    mm.End();
}
