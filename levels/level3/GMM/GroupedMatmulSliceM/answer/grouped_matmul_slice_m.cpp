// GroupedMatmulSliceM expert answer: out[rows of group g] = a[those rows]
// b[g] on the cube (kernel-only mode, Ascend 910B). The group ends are read
// on the device from group_list in GM; each non-empty group is an ordinary
// [rows_g, k] x [k, n] product whose 128 x 128 output tiles continue one
// round-robin numbering over the 24 cores, so the small groups of one core
// are balanced by the next group's tiles landing on the following cores
// instead of always on core 0. Tiles and the L1/L0 pipeline are those of
// levels/common/cube_matmul.h; a group's M tail is simply not written back
// by Fixpipe, so groups need no padding between them.
#include "kernel_operator.h"
#include "../../../../common/cube_matmul.h"

using namespace AscendC;
using namespace npukb_answer;

extern "C" __global__ __aicore__ void grouped_matmul_slice_m(GM_ADDR a, GM_ADDR b, GM_ADDR group_list, GM_ADDR out,
                                                             GM_ADDR workspace, GM_ADDR tiling)
{
    // cube instructions only: the kernel runs on the 24 AI cores' cube side
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    GET_TILING_DATA(t, tiling);
    const uint32_t m = t.m, k = t.k, n = t.n, groups = t.groups;
    GlobalTensor<DTYPE_A> ga;
    GlobalTensor<DTYPE_B> gb;
    GlobalTensor<DTYPE_GROUP_LIST> gl;
    GlobalTensor<DTYPE_OUT> gout;
    ga.SetGlobalBuffer((__gm__ DTYPE_A *)a, (uint64_t)m * k);
    gb.SetGlobalBuffer((__gm__ DTYPE_B *)b, (uint64_t)groups * k * n);
    gl.SetGlobalBuffer((__gm__ DTYPE_GROUP_LIST *)group_list, groups);
    gout.SetGlobalBuffer((__gm__ DTYPE_OUT *)out, (uint64_t)m * n);
    TPipe pipe;
    CubeMatmul<DTYPE_A> mm;
    mm.Init(&pipe);
    uint32_t start = 0, tileBase = 0;
    for (uint32_t g = 0; g < groups && start < m; g++) {
        // the ends are sorted and the last is m; clamping keeps a malformed
        // list from reading or writing outside a and out
        const int64_t e = gl.GetValue(g);
        const uint32_t end = e <= (int64_t)start ? start : (e >= (int64_t)m ? m : (uint32_t)e);
        if (end > start)
            tileBase = mm.Run(ga[(uint64_t)start * k], gb[(uint64_t)g * k * n], gout[(uint64_t)start * n], end - start,
                              k, n, tileBase);
        start = end;
    }
}
