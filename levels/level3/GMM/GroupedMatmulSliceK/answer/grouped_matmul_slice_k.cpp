// GroupedMatmulSliceK expert answer: out[g] = a_g^T b_g on the cube
// (kernel-only mode, Ascend 910B), a [k, m] and b [k, n] cut along k into
// the groups whose ends group_list holds (read on the device from GM).
//
// Every group has an m x n output block of the same shape, so the blocks'
// 128 x 128 tiles are numbered group after group and shared round-robin
// over the 24 cores. A tile sums its group's k rows in L1 chunks as in
// levels/common/cube_matmul.h with aKMajor set: a's [k_g, 128] slab comes
// into L1 by Nd2Nz and each fractal is transposed on its way to L0A, so
// no transposed copy of a is ever made. A group's length is any number of
// rows, so the chunk's last rows up to the next 16 are zero-filled in L1.
// An empty group's tiles (and a group list that stops short of k leaves
// the rows after it out) are written as zeros from a cleared L0C tile.
#include "kernel_operator.h"
#include "../../../../common/cube_matmul.h"

using namespace AscendC;
using namespace npukb_answer;

extern "C" __global__ __aicore__ void grouped_matmul_slice_k(GM_ADDR a, GM_ADDR b, GM_ADDR group_list, GM_ADDR out,
                                                             GM_ADDR workspace, GM_ADDR tiling)
{
    // cube instructions only: the kernel runs on the 24 AI cores' cube side
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    GET_TILING_DATA(t, tiling);
    const uint32_t m = t.m, k = t.k, n = t.n, groups = t.groups;
    using Cube = CubeMatmul<DTYPE_A>;
    GlobalTensor<DTYPE_A> ga;
    GlobalTensor<DTYPE_B> gb;
    GlobalTensor<DTYPE_GROUP_LIST> gl;
    GlobalTensor<DTYPE_OUT> gout;
    ga.SetGlobalBuffer((__gm__ DTYPE_A *)a, (uint64_t)k * m);
    gb.SetGlobalBuffer((__gm__ DTYPE_B *)b, (uint64_t)k * n);
    gl.SetGlobalBuffer((__gm__ DTYPE_GROUP_LIST *)group_list, groups);
    gout.SetGlobalBuffer((__gm__ DTYPE_OUT *)out, (uint64_t)groups * m * n);
    TPipe pipe;
    Cube mm;
    mm.Init(&pipe);
    mm.aKMajor = true;

    const uint32_t tm = (m + Cube::BASE_M - 1) / Cube::BASE_M, tn = (n + Cube::BASE_N - 1) / Cube::BASE_N;
    const uint32_t perGroup = tm * tn;
    const uint32_t cores = GetBlockNum(), me = GetBlockIdx();
    uint32_t start = 0;
    for (uint32_t g = 0; g < groups; g++) {
        // sorted ends; clamping keeps a malformed list inside a and b
        const int64_t e = gl.GetValue(g);
        const uint32_t end = e <= (int64_t)start ? start : (e >= (int64_t)k ? k : (uint32_t)e);
        // this core's first tile of the group in the numbering over all groups
        const uint32_t base = g * perGroup;
        for (uint32_t i = (me + cores - base % cores) % cores; i < perGroup; i += cores) {
            const uint32_t m0 = i / tn * Cube::BASE_M, n0 = i % tn * Cube::BASE_N;
            const uint32_t mt = m - m0 < Cube::BASE_M ? m - m0 : Cube::BASE_M;
            const uint32_t nt = n - n0 < Cube::BASE_N ? n - n0 : Cube::BASE_N;
            const GlobalTensor<DTYPE_OUT> c = gout[((uint64_t)g * m + m0) * n + n0];
            if (end == start)
                mm.ZeroTile<DTYPE_OUT>(c, n, mt, nt);
            else
                mm.Tile<DTYPE_OUT>(ga[(uint64_t)start * m + m0], gb[(uint64_t)start * n + n0], c, m, n, n, mt, nt, 0,
                                   end - start);
        }
        start = end;
    }
}
