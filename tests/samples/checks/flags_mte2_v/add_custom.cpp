// Test sample: the same plain-buffer add, ordered with events as hardware
// kernels do (MTE2 -> V before the Add, V -> MTE3 before the copy-out):
// no race, and the result is right.
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
    LocalTensor<half> a = bx.Get<half>();
    LocalTensor<half> b = by.Get<half>();
    DataCopy(a, xGm, n);
    DataCopy(b, yGm, n);
    event_t toV = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_V));
    SetFlag<HardEvent::MTE2_V>(toV);
    WaitFlag<HardEvent::MTE2_V>(toV);
    Add(a, a, b, n);
    event_t toMte3 = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_MTE3));
    SetFlag<HardEvent::V_MTE3>(toMte3);
    WaitFlag<HardEvent::V_MTE3>(toMte3);
    DataCopy(zGm, a, n);
}
