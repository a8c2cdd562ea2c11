// Test sample: the same reload of x after the Add, ordered by a V -> MTE2
// flag as hardware kernels must: no race, and the result is right.
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
    TBuf<QuePosition::VECCALC> bx, by, bz;
    pipe.InitBuffer(bx, n * sizeof(half));
    pipe.InitBuffer(by, n * sizeof(half));
    pipe.InitBuffer(bz, n * sizeof(half));
    LocalTensor<half> a = bx.Get<half>();
    LocalTensor<half> b = by.Get<half>();
    LocalTensor<half> c = bz.Get<half>();
    DataCopy(a, xGm, n);
    DataCopy(b, yGm, n);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Add(c, a, b, n);
    SetFlag<HardEvent::V_MTE2>(EVENT_ID1);
    WaitFlag<HardEvent::V_MTE2>(EVENT_ID1);
    DataCopy(a, xGm, n);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(zGm, c, n);
}
