// Test sample: a right add that also asks InitBuffer for 192 KiB it never
// uses, taking the pipe past the 910B's unified buffer. CANN checks the
// pool only in CPU-debug builds: the device computes the right output, so
// this is a defect (listed; --strict fails it), not an error.
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,
                                                 GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    const uint32_t n = td.totalLength / GetBlockNum();
    const uint32_t base = n * GetBlockIdx();
    GlobalTensor<half> xGm, yGm, zGm;
    xGm.SetGlobalBuffer((__gm__ half*)x + base, n);
    yGm.SetGlobalBuffer((__gm__ half*)y + base, n);
    zGm.SetGlobalBuffer((__gm__ half*)z + base, n);
    TPipe pipe;
    TBuf<QuePosition::VECCALC> bx, by;
    pipe.InitBuffer(bx, n * sizeof(half));
    pipe.InitBuffer(by, n * sizeof(half));
    TBuf<QuePosition::VECCALC> spare;
    pipe.InitBuffer(spare, 192 * 1024);
    LocalTensor<half> a = bx.Get<half>();
    LocalTensor<half> b = by.Get<half>();
    DataCopy(a, xGm, n);
    DataCopy(b, yGm, n);
    PipeBarrier<PIPE_ALL>();
    Add(a, a, b, n);
    PipeBarrier<PIPE_ALL>();
    DataCopy(zGm, a, n);
}
