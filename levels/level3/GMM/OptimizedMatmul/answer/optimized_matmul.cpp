// OptimizedMatmul expert answer: c = a b on the cube (kernel-only mode,
// Ascend 910B), tiled for the cube's buffers and double-buffered at every
// level (levels/common/cube_matmul.h): 128 x 128 output tiles round-robin over
// the 24 cores; K in L1 chunks of 256 (two A and two B chunks in L1, 256 KiB,
// so the MTE2 fetches the next while the cube works on this one) and L0 steps
// of 64 (two of each in L0A/L0B, so the MTE1 feeds the next step during the
// Mmad); two L0C tiles, so Fixpipe drains one while the cube fills the next.
// Tiles of 128 x 128 keep each L0 step at 16 fractal MACs per fractal moved,
// and the long-K cases (k = 65536) stream K through the same two L1 chunks.
#include "kernel_operator.h"
#include "../../../../common/cube_matmul.h"

using namespace AscendC;
using namespace npukb_answer;

extern "C" __global__ __aicore__ void optimized_matmul(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace,
                                                   GM_ADDR tiling)
{
    // cube instructions only: the kernel runs on the 24 AI cores' cube side
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    GET_TILING_DATA(t, tiling);
    GlobalTensor<DTYPE_A> ga;
    GlobalTensor<DTYPE_B> gb;
    GlobalTensor<DTYPE_C> gc;
    ga.SetGlobalBuffer((__gm__ DTYPE_A *)a, (uint64_t)t.m * t.k);
    gb.SetGlobalBuffer((__gm__ DTYPE_B *)b, (uint64_t)t.k * t.n);
    gc.SetGlobalBuffer((__gm__ DTYPE_C *)c, (uint64_t)t.m * t.n);
    TPipe pipe;
    CubeMatmul<DTYPE_A> mm;
    mm.Init(&pipe);
    mm.Run(ga, gb, gc, t.m, t.k, t.n, 0);
}
