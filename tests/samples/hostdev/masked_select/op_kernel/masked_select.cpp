// Test sample (host+device): y = x[mask] element by element; the count is
// y's real shape, written to the shape buffer as (rank 1, count).
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void masked_select(GM_ADDR x, GM_ADDR mask, GM_ADDR y, GM_ADDR shapeout,
                                                    GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<DTYPE_X> xg, yg;
    GlobalTensor<uint8_t> mg;
    GlobalTensor<uint64_t> sg;
    xg.SetGlobalBuffer((__gm__ DTYPE_X *)x, td.totalLength);
    mg.SetGlobalBuffer((__gm__ uint8_t *)mask, td.totalLength);
    yg.SetGlobalBuffer((__gm__ DTYPE_X *)y, td.totalLength);
    sg.SetGlobalBuffer((__gm__ uint64_t *)shapeout, 2);
    uint64_t count = 0;
    for (uint32_t i = 0; i < td.totalLength; i++) {
        if (mg.GetValue(i) != 0) {
            yg.SetValue(count++, xg.GetValue(i));
        }
    }
    sg.SetValue(0, 1);
    sg.SetValue(1, count);
}
