// Test sample (host+device): z = x + y on the scalar unit, each block a
// contiguous share; the kernel traps unless the tiling saw x's real data.
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,
                                                 GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<half> xg, yg, zg;
    xg.SetGlobalBuffer((__gm__ half *)x, td.totalLength);
    yg.SetGlobalBuffer((__gm__ half *)y, td.totalLength);
    zg.SetGlobalBuffer((__gm__ half *)z, td.totalLength);
    if (xg.GetValue(0).bits != td.firstBits || xg.GetValue(td.totalLength - 1).bits != td.lastBits) {
        __builtin_trap();
    }
    const uint32_t share = (td.totalLength + GetBlockNum() - 1) / GetBlockNum();
    const uint32_t begin = share * GetBlockIdx();
    const uint32_t end = begin + share < td.totalLength ? begin + share : td.totalLength;
    for (uint32_t i = begin; i < end; i++) {
        zg.SetValue(i, (half)((float)xg.GetValue(i) + (float)yg.GetValue(i)));
    }
}
