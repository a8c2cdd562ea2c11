// Test sample: each block also adds the first 16 elements of the next
// block's range. Every value it writes is right, but two cores write those
// bytes with nothing ordering them: a race cpusim must report.
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,
                                                 GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    const uint32_t perCore = td.totalLength / GetBlockNum();
    const uint32_t base = perCore * GetBlockIdx();
    const uint32_t n = perCore + (GetBlockIdx() + 1 < GetBlockNum() ? 16 : 0);
    GlobalTensor<half> xGm, yGm, zGm;
    xGm.SetGlobalBuffer((__gm__ half*)x + base, n);
    yGm.SetGlobalBuffer((__gm__ half*)y + base, n);
    zGm.SetGlobalBuffer((__gm__ half*)z + base, n);
    TPipe pipe;
    TBuf<QuePosition::VECCALC> bx, by;
    pipe.InitBuffer(bx, n * sizeof(half));
    pipe.InitBuffer(by, n * sizeof(half));
    LocalTensor<half> a = bx.Get<half>();
    LocalTensor<half> b = by.Get<half>();
    DataCopy(a, xGm, n);
    DataCopy(b, yGm, n);
    PipeBarrier<PIPE_ALL>();
    Add(a, a, b, n);
    PipeBarrier<PIPE_ALL>();
    DataCopy(zGm, a, n);
}
