// Test sample: block 0 stores through a raw pointer 16 bytes before the
// start of z (a negative index computed from a bad offset).
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,
                                                 GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    __gm__ half *out = (__gm__ half *)z;
    if (AscendC::GetBlockIdx() == 0 && td.totalLength > 0)
        out[-8] = (half)1.0f;
}
