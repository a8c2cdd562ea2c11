// Test sample (host+device): y = value, each block a contiguous share, on
// the scalar unit.
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void fill(GM_ADDR dims, GM_ADDR value, GM_ADDR y, GM_ADDR workspace,
                                           GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<half> vg, yg;
    vg.SetGlobalBuffer((__gm__ half *)value, 1);
    yg.SetGlobalBuffer((__gm__ half *)y, td.total);
    const half v = vg.GetValue(0);
    const uint64_t share = (td.total + GetBlockNum() - 1) / GetBlockNum();
    const uint64_t begin = share * GetBlockIdx();
    const uint64_t end = begin + share < td.total ? begin + share : td.total;
    for (uint64_t i = begin; i < end; i++) {
        yg.SetValue(i, v);
    }
}
