// Test sample: y = x + bias, where bias is an optional input that a case
// may leave out; the kernel then gets a null GM_ADDR and copies x.
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void optional_add(GM_ADDR x, GM_ADDR bias, GM_ADDR y, GM_ADDR workspace,
                                                   GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<DTYPE_X> xg, bg, yg;
    xg.SetGlobalBuffer((__gm__ DTYPE_X *)x, td.totalLength);
    yg.SetGlobalBuffer((__gm__ DTYPE_Y *)y, td.totalLength);
    if (bias != nullptr) {
        bg.SetGlobalBuffer((__gm__ DTYPE_X *)bias, td.totalLength);
    }
    for (uint32_t i = 0; i < td.totalLength; i++) {
        float v = static_cast<float>(xg.GetValue(i));
        if (bias != nullptr) {
            v += static_cast<float>(bg.GetValue(i));
        }
        yg.SetValue(i, static_cast<DTYPE_Y>(v));
    }
}
