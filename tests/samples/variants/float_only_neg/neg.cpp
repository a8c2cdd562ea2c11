// Test sample: ignores DTYPE_X and reads every case as float32, so the
// int32 and float16 cases must fail while the float32 ones pass.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void neg(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    AscendC::GlobalTensor<float> xg, yg;
    uint32_t n = t.totalLength;
    if (sizeof(DTYPE_X) < sizeof(float)) {
        n = n * sizeof(DTYPE_X) / sizeof(float);
    }
    xg.SetGlobalBuffer((__gm__ float *)x, n);
    yg.SetGlobalBuffer((__gm__ float *)y, n);
    for (uint32_t i = AscendC::GetBlockIdx(); i < n; i += AscendC::GetBlockNum()) {
        yg.SetValue(i, -xg.GetValue(i));
    }
}
