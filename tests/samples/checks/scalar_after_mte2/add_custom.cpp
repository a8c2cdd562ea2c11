// Test sample: copies x and y into plain buffers, adds them element by
// element on the scalar unit and copies the sum out, with no flag, queue
// or barrier anywhere. CANN builds kernels with --cce-auto-sync by default,
// which inserts the flags between the scalar unit and MTE2/MTE3: correct
// on the device, so cpusim must pass it.
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
    for (uint32_t i = 0; i < n; i++) {
        a.SetValue(i, (half)((float)a.GetValue(i) + (float)b.GetValue(i)));
    }
    DataCopy(zGm, a, n);
}
