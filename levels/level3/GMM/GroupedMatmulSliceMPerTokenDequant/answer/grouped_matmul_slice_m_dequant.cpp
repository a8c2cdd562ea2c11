// GroupedMatmulSliceMPerTokenDequant expert answer (kernel-only mode,
// Ascend 910B): the rows of int8 a fall into groups (group_list holds each
// group's end row); group g's rows times int8 b[g], summed exactly in int32
// on the cube, then times scale[g][j] and per_token_scale[i] on the vector
// unit in float32, rounded once to the output dtype.
//
// Every group's output rows are cut into tiles (128 x 128, smaller when
// that spreads a small product over more blocks), numbered one group after
// another and dealt round-robin over the blocks, so that the blocks share
// the work whatever the group sizes (empty groups have no tiles). Per tile the block's vector core has the cube compute the int32
// tile through the high-level Matmul into its workspace tile, then
// dequantises it (levels/common/dequant_matmul.h).
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "../../../../common/dequant_matmul.h"

using namespace AscendC;
using namespace npukb_answer;

using AType = MatmulType<TPosition::GM, CubeFormat::ND, DTYPE_A>;
using BType = MatmulType<TPosition::GM, CubeFormat::ND, DTYPE_B>;
using CType = MatmulType<TPosition::GM, CubeFormat::ND, int32_t>;

extern "C" __global__ __aicore__ void grouped_matmul_slice_m_dequant(GM_ADDR a, GM_ADDR b, GM_ADDR scale,
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
    ga.SetGlobalBuffer((__gm__ DTYPE_A *)a, (uint64_t)m * k);
    gb.SetGlobalBuffer((__gm__ DTYPE_B *)b, (uint64_t)groups * k * n);
    gscale.SetGlobalBuffer((__gm__ DTYPE_SCALE *)scale, (uint64_t)groups * n);
    gtoken.SetGlobalBuffer((__gm__ DTYPE_PER_TOKEN_SCALE *)per_token_scale, m);
    gends.SetGlobalBuffer((__gm__ DTYPE_GROUP_LIST *)group_list, groups);
    gout.SetGlobalBuffer((__gm__ DTYPE_OUT *)out, (uint64_t)m * n);

    TPipe pipe;
    DequantEpilogue<DTYPE_OUT, DTYPE_SCALE> epi;
    epi.Init(&pipe, workspace);
    GroupEnds ends;
    ends.Load(&pipe, gends, groups);
    uint32_t tileM, tileN;
    PickTile(tileM, tileN, k, [&](uint32_t tm, uint32_t tn) {
        uint32_t count = 0;
        for (uint32_t g = 0, start = 0, end; g < groups; g++, start = end) {
            end = ends.End(g, start, m);
            count += CeilDiv(end - start, tm) * CeilDiv(n, tn);
        }
        return count;
    });
    TCubeTiling mt;
    FillInt8MatmulTiling(mt, m, n, k, tileM, tileN);
    matmul::Matmul<AType, BType, CType> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &mt);

    const uint32_t cores = GetBlockNum(), me = GetBlockIdx();
    const uint32_t cols = CeilDiv(n, tileN);
    uint32_t start = 0, tile = 0;
    for (uint32_t g = 0; g < groups; g++) {
        const uint32_t end = ends.End(g, start, m), rows = end - start;
        const uint32_t tiles = CeilDiv(rows, tileM) * cols;
        // this block's first tile of the group in the numbering over all groups
        for (uint32_t i = (me + cores - tile % cores) % cores; i < tiles; i += cores) {
            const uint32_t m0 = start + i / cols * tileM, n0 = i % cols * tileN;
            const uint32_t tm = end - m0 < tileM ? end - m0 : tileM;
            const uint32_t tn = n - n0 < tileN ? n - n0 : tileN;
            const GlobalTensor<int32_t> acc = epi.NextAcc();
            // the workspace tile holds tn columns, rows tn apart
            mm.SetOrgShape(rows, n, k, k, tn);
            mm.SetSingleShape(tm, tn, k);
            mm.SetTensorA(ga[(uint64_t)m0 * k]);
            mm.SetTensorB(gb[(uint64_t)g * k * n + n0]);
            mm.IterateAll(acc);
            epi.Run(acc, gscale[(uint64_t)g * n + n0], gtoken[m0], gout[(uint64_t)m0 * n + n0], n, tm, tn);
        }
        tile += tiles;
        start = end;
    }
    mm.End();
}
