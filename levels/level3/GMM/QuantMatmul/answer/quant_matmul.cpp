// QuantMatmul expert answer: out = (a b) * scale[j] * per_token_scale[i]
// with int8 a and b (kernel-only mode, Ascend 910B). Each block takes
// output tiles round-robin (128 x 128, smaller when that spreads a small
// product over more blocks); per tile its vector core has the cube sum a b exactly in int32
// (the high-level Matmul, int8 in, int32 out, into one of the block's
// workspace tiles), then dequantises the tile on the vector unit in float32
// and rounds it once to half (levels/common/dequant_matmul.h).
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "../../../../common/dequant_matmul.h"

using namespace AscendC;
using namespace npukb_answer;

using AType = MatmulType<TPosition::GM, CubeFormat::ND, DTYPE_A>;
using BType = MatmulType<TPosition::GM, CubeFormat::ND, DTYPE_B>;
using CType = MatmulType<TPosition::GM, CubeFormat::ND, int32_t>;

extern "C" __global__ __aicore__ void quant_matmul(GM_ADDR a, GM_ADDR b, GM_ADDR scale, GM_ADDR per_token_scale,
                                                   GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling)
{
    // one vector core per AI core drives its cube through the Matmul API, so
    // no two vector cores issue the same tile (with 1:2 both would)
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);
    GET_TILING_DATA(t, tiling);
    const uint32_t m = t.m, k = t.k, n = t.n;
    GlobalTensor<DTYPE_A> ga;
    GlobalTensor<DTYPE_B> gb;
    GlobalTensor<DTYPE_SCALE> gscale;
    GlobalTensor<DTYPE_PER_TOKEN_SCALE> gtoken;
    GlobalTensor<DTYPE_OUT> gout;
    ga.SetGlobalBuffer((__gm__ DTYPE_A *)a, (uint64_t)m * k);
    gb.SetGlobalBuffer((__gm__ DTYPE_B *)b, (uint64_t)k * n);
    gscale.SetGlobalBuffer((__gm__ DTYPE_SCALE *)scale, n);
    gtoken.SetGlobalBuffer((__gm__ DTYPE_PER_TOKEN_SCALE *)per_token_scale, m);
    gout.SetGlobalBuffer((__gm__ DTYPE_OUT *)out, (uint64_t)m * n);

    TPipe pipe;
    DequantEpilogue<DTYPE_OUT, DTYPE_SCALE> epi;
    epi.Init(&pipe, workspace);
    uint32_t tileM, tileN;
    PickTile(tileM, tileN, k, [&](uint32_t tm, uint32_t tn) { return CeilDiv(m, tm) * CeilDiv(n, tn); });
    TCubeTiling mt;
    FillInt8MatmulTiling(mt, m, n, k, tileM, tileN);
    matmul::Matmul<AType, BType, CType> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &mt);
    const uint32_t cols = CeilDiv(n, tileN), tiles = CeilDiv(m, tileM) * cols;
    for (uint32_t i = GetBlockIdx(); i < tiles; i += GetBlockNum()) {
        const uint32_t m0 = i / cols * tileM, n0 = i % cols * tileN;
        const uint32_t tm = m - m0 < tileM ? m - m0 : tileM;
        const uint32_t tn = n - n0 < tileN ? n - n0 : tileN;
        const GlobalTensor<int32_t> acc = epi.NextAcc();
        // the workspace tile holds tn columns, rows tn apart
        mm.SetOrgShape(m, n, k, k, tn);
        mm.SetSingleShape(tm, tn, k);
        mm.SetTensorA(ga[(uint64_t)m0 * k]);
        mm.SetTensorB(gb[n0]);
        mm.IterateAll(acc);
        epi.Run(acc, gscale[n0], gtoken[m0], gout[(uint64_t)m0 * n + n0], n, tm, tn);
    }
    mm.End();
}
