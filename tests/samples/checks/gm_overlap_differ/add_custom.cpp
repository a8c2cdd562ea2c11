// Test sample: each block first clears the first 16 elements of the next
// block's range, then writes its own range, with no SyncAll between (the
// PipeBarrier orders only the core's own pipes): two
// cores write different values to the same bytes, and on the device the
// output depends on which is last (an error, sync-race). cpusim runs the
// blocks in order, so its numbers alone would pass.
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
    zGm.SetGlobalBuffer((__gm__ half*)z + base, n + 16);
    TPipe pipe;
    TBuf<QuePosition::VECCALC> bx, by;
    pipe.InitBuffer(bx, n * sizeof(half));
    pipe.InitBuffer(by, n * sizeof(half));
    LocalTensor<half> a = bx.Get<half>();
    LocalTensor<half> b = by.Get<half>();
    if (GetBlockIdx() + 1 < GetBlockNum()) {
        Duplicate(a, (half)0.0f, 16);
        PipeBarrier<PIPE_ALL>();
        DataCopy(zGm[n], a, 16);
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(a, xGm, n);
    DataCopy(b, yGm, n);
    PipeBarrier<PIPE_ALL>();
    Add(a, a, b, n);
    PipeBarrier<PIPE_ALL>();
    DataCopy(zGm, a, n);
}
