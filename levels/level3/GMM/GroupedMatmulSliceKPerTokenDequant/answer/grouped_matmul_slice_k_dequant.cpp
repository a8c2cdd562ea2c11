// GroupedMatmulSliceKPerTokenDequant expert answer (kernel-only mode,
// Ascend 910B): the reduction rows of int8 a [k, m] (K-major) and b [k, n]
// fall into groups (group_list holds each group's end; rows after the last
// end are not used); out[g] = a_g^T b_g summed exactly in int32 on the cube,
// then times scale[g][j] and per_token_scale[g][i] on the vector unit in
// float32, rounded once to the output dtype. An empty group's block is 0.
//
// Each group's m x n output block is cut into tiles (128 x 128, smaller when
// that spreads a small product over more blocks), numbered one group after
// another and dealt round-robin over the blocks. Per tile the
// block's vector core has the cube compute the int32 tile through the
// high-level Matmul (a read transposed: its group slice is [k_g, m], rows m
// apart) into its workspace tile, then dequantises it
// (levels/common/dequant_matmul.h); an empty group's tiles are written as
// zeros by the vector core alone.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "../../../../common/dequant_matmul.h"

using namespace AscendC;
using namespace npukb_answer;

using AType = MatmulType<TPosition::GM, CubeFormat::ND, DTYPE_A, true>;
using BType = MatmulType<TPosition::GM, CubeFormat::ND, DTYPE_B>;
using CType = MatmulType<TPosition::GM, CubeFormat::ND, int32_t>;

extern "C" __global__ __aicore__ void grouped_matmul_slice_k_dequant(GM_ADDR a, GM_ADDR b, GM_ADDR scale,
                                                                     GM_ADDR per_token_scale, GM_ADDR group_list,
                                                                     GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling)
{
    // one vector core per AI core drives its cube through the Matmul API, so
    // no two vector cores issue the same tile (with 1:2 both would)
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);
    GET_TILING_DATA(t, tiling);
    const uint32_t m = t.m, k = t.k, n = t.n, groups = t.groups;
    GlobalTensor<DTYPE_A> ga;
    GlobalTensor<DTYPE_B> gb;
    GlobalTensor<DTYPE_SCALE> gscale;
    GlobalTensor<DTYPE_PER_TOKEN_SCALE> gtoken;
    GlobalTensor<DTYPE_GROUP_LIST> gends;
    GlobalTensor<DTYPE_OUT> gout;
    ga.SetGlobalBuffer((__gm__ DTYPE_A *)a, (uint64_t)k * m);
    gb.SetGlobalBuffer((__gm__ DTYPE_B *)b, (uint64_t)k * n);
    gscale.SetGlobalBuffer((__gm__ DTYPE_SCALE *)scale, (uint64_t)groups * n);
    gtoken.SetGlobalBuffer((__gm__ DTYPE_PER_TOKEN_SCALE *)per_token_scale, (uint64_t)groups * m);
    gends.SetGlobalBuffer((__gm__ DTYPE_GROUP_LIST *)group_list, groups);
    gout.SetGlobalBuffer((__gm__ DTYPE_OUT *)out, (uint64_t)groups * m * n);

    TPipe pipe;
    DequantEpilogue<DTYPE_OUT, DTYPE_SCALE> epi;
    epi.Init(&pipe, workspace);
    GroupEnds ends;
    ends.Load(&pipe, gends, groups);
    uint32_t tileM, tileN;
    // a group's tiles cost what its own share of k moves: the mean share
    const uint32_t kMean = groups ? CeilDiv(ends.End(groups - 1, 0, k), groups) : 0;
    PickTile(tileM, tileN, kMean,
             [&](uint32_t tm, uint32_t tn) { return groups * CeilDiv(m, tm) * CeilDiv(n, tn); });
    TCubeTiling mt;
    FillInt8MatmulTiling(mt, m, n, k, tileM, tileN);
    matmul::Matmul<AType, BType, CType> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &mt);

    const uint32_t cores = GetBlockNum(), me = GetBlockIdx();
    const uint32_t cols = CeilDiv(n, tileN), tiles = CeilDiv(m, tileM) * cols;
    uint32_t start = 0;
    for (uint32_t g = 0; g < groups; g++) {
        const uint32_t end = ends.End(g, start, k), kg = end - start;
        const uint64_t outBase = (uint64_t)g * m * n;
        // this block's first tile of the group in the numbering over all groups
        const uint32_t first = (me + cores - (uint32_t)(((uint64_t)g * tiles) % cores)) % cores;
        for (uint32_t i = first; i < tiles; i += cores) {
            const uint32_t m0 = i / cols * tileM, n0 = i % cols * tileN;
            const uint32_t tm = m - m0 < tileM ? m - m0 : tileM;
            const uint32_t tn = n - n0 < tileN ? n - n0 : tileN;
            const GlobalTensor<DTYPE_OUT> o = gout[outBase + (uint64_t)m0 * n + n0];
            if (kg == 0) {
                epi.Zero(o, n, tm, tn);
                continue;
            }
            const GlobalTensor<int32_t> acc = epi.NextAcc();
            // the workspace tile holds tn columns, rows tn apart
            mm.SetOrgShape(m, n, kg, kg, tn);
            mm.SetSingleShape(tm, tn, kg);
            mm.SetTensorA(ga[(uint64_t)start * m + m0], true);
            mm.SetTensorB(gb[(uint64_t)start * n + n0]);
            mm.IterateAll(acc);
            epi.Run(acc, gscale[(uint64_t)g * n + n0], gtoken[(uint64_t)g * m + m0], o, n, tm, tn);
        }
        start = end;
    }
    mm.End();
}
