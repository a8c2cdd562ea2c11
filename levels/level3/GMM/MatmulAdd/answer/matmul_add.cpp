// MatmulAdd expert answer: out = a b + c (kernel-only mode, Ascend 910B).
// Per 128 x 128 output tile of this block (levels/common/matmul_api_tiles.h),
// the vector side first copies the tile of c into out (GM -> UB -> GM, rows
// of any length by DataCopyPad), then the high-level Matmul writes a b onto
// it with atomic add (Fixpipe accumulates into GM), so no workspace is
// needed. a b is summed in float32 and rounded once to half before the add:
// with c in [-1, 1] that costs at most about 3 half ulps of the result,
// within the 1/256 tolerance.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "../../../../common/matmul_api_tiles.h"

using namespace AscendC;
using namespace npukb_answer;

using AType = MatmulType<TPosition::GM, CubeFormat::ND, DTYPE_A>;
using BType = MatmulType<TPosition::GM, CubeFormat::ND, DTYPE_B>;
using CType = MatmulType<TPosition::GM, CubeFormat::ND, DTYPE_OUT>;

extern "C" __global__ __aicore__ void matmul_add(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR out,
                                                 GM_ADDR workspace, GM_ADDR tiling)
{
    // one vector core per AI core drives its cube through the Matmul API, so
    // no two vector cores issue the same tile (with 1:2 both would)
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);
    GET_TILING_DATA(t, tiling);
    const uint32_t m = t.m, k = t.k, n = t.n;
    GlobalTensor<DTYPE_A> ga;
    GlobalTensor<DTYPE_B> gb;
    GlobalTensor<DTYPE_C> gc;
    GlobalTensor<DTYPE_OUT> gout;
    ga.SetGlobalBuffer((__gm__ DTYPE_A *)a, (uint64_t)m * k);
    gb.SetGlobalBuffer((__gm__ DTYPE_B *)b, (uint64_t)k * n);
    gc.SetGlobalBuffer((__gm__ DTYPE_C *)c, (uint64_t)m * n);
    gout.SetGlobalBuffer((__gm__ DTYPE_OUT *)out, (uint64_t)m * n);

    TPipe pipe;
    // one tile of c, each row padded in UB to 32 bytes
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> qc;
    pipe.InitBuffer(qc, 1, MM_TILE_M * MM_TILE_N * sizeof(DTYPE_C));
    TCubeTiling mt;
    FillMatmulTiling(mt, m, n, k, false);
    matmul::Matmul<AType, BType, CType> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &mt);
    mm.SetOrgShape(m, n, k);
    ForEachTile(m, n, [&](uint32_t m0, uint32_t n0, uint32_t tm, uint32_t tn) {
        const uint32_t rowBytes = tn * sizeof(DTYPE_C);
        const uint32_t gap = (n - tn) * sizeof(DTYPE_C);
        LocalTensor<DTYPE_C> ub = qc.AllocTensor<DTYPE_C>();
        DataCopyPadExtParams<DTYPE_C> noPad{false, 0, 0, 0};
        DataCopyPad(ub, gc[(uint64_t)m0 * n + n0], DataCopyExtParams(tm, rowBytes, gap, 0, 0), noPad);
        qc.EnQue(ub);
        ub = qc.DeQue<DTYPE_C>();
        DataCopyPad(gout[(uint64_t)m0 * n + n0], ub, DataCopyExtParams(tm, rowBytes, 0, gap, 0));
        qc.FreeTensor(ub);
        // the tile of c must be in GM before the cube adds onto it
        PipeBarrier<PIPE_ALL>();
        mm.SetSingleShape(tm, tn, k);
        mm.SetTensorA(ga[(uint64_t)m0 * k]);
        mm.SetTensorB(gb[n0]);
        mm.IterateAll(gout[(uint64_t)m0 * n + n0], 1);
    });
    mm.End();
}
