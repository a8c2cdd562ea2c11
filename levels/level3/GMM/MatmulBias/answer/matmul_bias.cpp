// MatmulBias expert answer: out = a b + bias (kernel-only mode, Ascend 910B).
// The high-level Matmul adds the bias on the cube (the bias table feeds
// L0C's initial value), so the sum a b + bias is accumulated in float32 and
// rounded to half once; each block runs it over its 128 x 128 output tiles
// (levels/common/matmul_api_tiles.h), the bias sliced to the tile's columns.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "../../../../common/matmul_api_tiles.h"

using namespace AscendC;
using namespace npukb_answer;

using AType = MatmulType<TPosition::GM, CubeFormat::ND, DTYPE_A>;
using BType = MatmulType<TPosition::GM, CubeFormat::ND, DTYPE_B>;
using CType = MatmulType<TPosition::GM, CubeFormat::ND, DTYPE_OUT>;
using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, DTYPE_BIAS>;

extern "C" __global__ __aicore__ void matmul_bias(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR out,
                                                  GM_ADDR workspace, GM_ADDR tiling)
{
    // one vector core per AI core drives its cube through the Matmul API, so
    // no two vector cores issue the same tile (with 1:2 both would)
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);
    GET_TILING_DATA(t, tiling);
    const uint32_t m = t.m, k = t.k, n = t.n;
    GlobalTensor<DTYPE_A> ga;
    GlobalTensor<DTYPE_B> gb;
    GlobalTensor<DTYPE_BIAS> gbias;
    GlobalTensor<DTYPE_OUT> gout;
    ga.SetGlobalBuffer((__gm__ DTYPE_A *)a, (uint64_t)m * k);
    gb.SetGlobalBuffer((__gm__ DTYPE_B *)b, (uint64_t)k * n);
    gbias.SetGlobalBuffer((__gm__ DTYPE_BIAS *)bias, n);
    gout.SetGlobalBuffer((__gm__ DTYPE_OUT *)out, (uint64_t)m * n);

    TPipe pipe;
    TCubeTiling mt;
    FillMatmulTiling(mt, m, n, k, true);
    matmul::Matmul<AType, BType, CType, BiasType> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &mt);
    mm.SetOrgShape(m, n, k);
    ForEachTile(m, n, [&](uint32_t m0, uint32_t n0, uint32_t tm, uint32_t tn) {
        mm.SetSingleShape(tm, tn, k);
        mm.SetTensorA(ga[(uint64_t)m0 * k]);
        mm.SetTensorB(gb[n0]);
        mm.SetBias(gbias[n0]);
        mm.IterateAll(gout[(uint64_t)m0 * n + n0]);
    });
    mm.End();
}
