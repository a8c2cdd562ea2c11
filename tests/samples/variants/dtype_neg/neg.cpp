// Test sample: one source for every dtype of the task, through DTYPE_X.
// Scalar on purpose: it tests the build, not the vector unit.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void neg(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    AscendC::GlobalTensor<DTYPE_X> xg;
    AscendC::GlobalTensor<DTYPE_Y> yg;
    static_assert(DTYPE_X_COMPLEX == 0, "no complex dtype in this task");
    xg.SetGlobalBuffer((__gm__ DTYPE_X *)x, t.totalLength);
    yg.SetGlobalBuffer((__gm__ DTYPE_Y *)y, t.totalLength);
    for (uint32_t i = AscendC::GetBlockIdx(); i < t.totalLength; i += AscendC::GetBlockNum()) {
        DTYPE_X v = xg.GetValue(i);
        yg.SetValue(i, (DTYPE_Y)(-(float)v));
    }
}
