// PaddingMatmul expert answer: c = a b on the cube (kernel-only mode, Ascend
// 910B), with shapes that are not multiples of the cube's 16 x 16 fractal
// (n = 210, 554, 619, 1433; m = 327), rows of b not 32-byte aligned in GM. The padding is done on
// the way into L1 rather than in a GM copy: the MTE2's Nd2Nz conversion lays
// each row out in 32-byte column blocks and zero-fills the last one, so the
// cube multiplies the pad by zero, and the M tail rows are simply not written
// back (Fixpipe's mSize). The workspace this would otherwise need is not
// provided. The tiles (128 x 128, round-robin over the 24 cores) and the
// pipeline are those of levels/common/cube_matmul.h.
#include "kernel_operator.h"
#include "../../../../common/cube_matmul.h"

using namespace AscendC;
using namespace npukb_answer;

extern "C" __global__ __aicore__ void padding_matmul(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace,
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
