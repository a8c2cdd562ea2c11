// Test sample (host+device): y = x + bias, or x when the tiling says the
// case gave no bias.
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void optional_add(GM_ADDR x, GM_ADDR bias, GM_ADDR y, GM_ADDR workspace,
                                                   GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<DTYPE_X> xg, bg, yg;
    xg.SetGlobalBuffer((__gm__ DTYPE_X *)x, td.totalLength);
    yg.SetGlobalBuffer((__gm__ DTYPE_Y *)y, td.totalLength);
    if (td.hasBias) {
        bg.SetGlobalBuffer((__gm__ DTYPE_X *)bias, td.totalLength);
    }
    for (uint32_t i = 0; i < td.totalLength; i++) {
        float v = static_cast<float>(xg.GetValue(i));
        if (td.hasBias) {
            v += static_cast<float>(bg.GetValue(i));
        }
        yg.SetValue(i, static_cast<DTYPE_Y>(v));
    }
}
