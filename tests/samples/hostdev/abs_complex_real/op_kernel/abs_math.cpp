// Test sample (host+device): y = |x| as a complex64 (|x|, 0) per element,
// on the scalar unit.
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void abs_math(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, 2 * td.total);
    yg.SetGlobalBuffer((__gm__ float *)y, 2 * td.total);
    for (uint64_t i = 0; i < td.total; i++) {
        const float re = xg.GetValue(2 * i), im = xg.GetValue(2 * i + 1);
        yg.SetValue(2 * i, sqrtf(re * re + im * im));
        yg.SetValue(2 * i + 1, 0.0f);
    }
}
