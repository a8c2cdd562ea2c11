// BasicMatmul expert answer: c = a b on the cube (kernel-only mode, Ascend
// 910B). The output is cut into 128 x 128 tiles shared round-robin over the
// 24 cores; each tile runs GM -> L1 (Nd2Nz) -> L0A/L0B -> Mmad (float32 in
// L0C) -> Fixpipe (float32 -> half) in levels/common/cube_matmul.h.
#include "kernel_operator.h"
#include "../../../../common/cube_matmul.h"

using namespace AscendC;
using namespace npukb_answer;

extern "C" __global__ __aicore__ void basic_matmul(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace,
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
