// Test sample: a kernel named like the C library's sqrt (as NPUKernelBench's
// Sqrt kernel is); it must build and run on cpusim. Assumes the test task's
// one case: 640 floats over 2 blocks.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void sqrt(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    const uint32_t n = t.totalLength / AscendC::GetBlockNum();
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    AscendC::GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x + n * AscendC::GetBlockIdx(), n);
    yg.SetGlobalBuffer((__gm__ float *)y + n * AscendC::GetBlockIdx(), n);
    pipe.InitBuffer(buf, n * sizeof(float));
    AscendC::LocalTensor<float> v = buf.Get<float>();
    AscendC::DataCopy(v, xg, n);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Sqrt(v, v, n);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yg, v, n);
}
