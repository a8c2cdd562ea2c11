// hostile sample: write_past_output (expected: out-of-bounds)
#include "kernel_operator.h"


using namespace AscendC;

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    const uint32_t n = td.totalLength;
    GlobalTensor<half> gx, gy, gz;
    gx.SetGlobalBuffer((__gm__ half *)x, n);
    gy.SetGlobalBuffer((__gm__ half *)y, n);
    gz.SetGlobalBuffer((__gm__ half *)z, n);
    if (GetBlockIdx() != 0) {
        return;
    }
    
    for (uint32_t i = 0; i < n; i++) {
        gz.SetValue(i, gx.GetValue(i) + gy.GetValue(i));
    }
    // 8 KiB past z: beyond its allocation's padding, where a neighbour lives.
    gz.SetValue(n + 4096, (half)1.0f);
}
