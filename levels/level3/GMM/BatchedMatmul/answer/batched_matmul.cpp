// BatchedMatmul expert answer: c[t] = a[t] b[t] on the cube (kernel-only
// mode, Ascend 910B). The 128 x 128 output tiles of all batches form one
// sequence shared round-robin over the 24 cores, so small batches (m = 64,
// n = 128) still spread over every core; each tile runs GM -> L1 (Nd2Nz) ->
// L0A/L0B -> Mmad (float32 in L0C) -> Fixpipe in levels/common/cube_matmul.h.
#include "kernel_operator.h"
#include "../../../../common/cube_matmul.h"

using namespace AscendC;
using namespace npukb_answer;

extern "C" __global__ __aicore__ void batched_matmul(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace,
                                                     GM_ADDR tiling)
{
    // cube instructions only: the kernel runs on the 24 AI cores' cube side
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    GET_TILING_DATA(t, tiling);
    const uint64_t sa = (uint64_t)t.m * t.k, sb = (uint64_t)t.k * t.n, sc = (uint64_t)t.m * t.n;
    GlobalTensor<DTYPE_A> ga;
    GlobalTensor<DTYPE_B> gb;
    GlobalTensor<DTYPE_C> gc;
    ga.SetGlobalBuffer((__gm__ DTYPE_A *)a, sa * t.batch);
    gb.SetGlobalBuffer((__gm__ DTYPE_B *)b, sb * t.batch);
    gc.SetGlobalBuffer((__gm__ DTYPE_C *)c, sc * t.batch);
    TPipe pipe;
    CubeMatmul<DTYPE_A> mm;
    mm.Init(&pipe);
    uint32_t tile = 0;
    for (uint32_t i = 0; i < t.batch; i++)
        tile = mm.Run(ga[sa * i], gb[sb * i], gc[sc * i], t.m, t.k, t.n, tile);
}
