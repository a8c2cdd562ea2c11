// Test sample: y = x + bias, reading bias even when the case leaves it out
// (a null GM_ADDR): those cases must fail out of bounds, the others pass.
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void optional_add(GM_ADDR x, GM_ADDR bias, GM_ADDR y, GM_ADDR workspace,
                                                   GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<DTYPE_X> xg, bg, yg;
    xg.SetGlobalBuffer((__gm__ DTYPE_X *)x, td.totalLength);
    bg.SetGlobalBuffer((__gm__ DTYPE_X *)bias, td.totalLength);
    yg.SetGlobalBuffer((__gm__ DTYPE_Y *)y, td.totalLength);
    for (uint32_t i = 0; i < td.totalLength; i++) {
        yg.SetValue(i, static_cast<DTYPE_Y>(static_cast<float>(xg.GetValue(i)) +
                                            static_cast<float>(bg.GetValue(i))));
    }
}
