// hostile sample: preproc_bomb (expected: compile-timeout)
#include "kernel_operator.h"
#define A0 x x x x x x x x x x
#define A1 A0 A0 A0 A0 A0 A0 A0 A0 A0 A0
#define A2 A1 A1 A1 A1 A1 A1 A1 A1 A1 A1
#define A3 A2 A2 A2 A2 A2 A2 A2 A2 A2 A2
#define A4 A3 A3 A3 A3 A3 A3 A3 A3 A3 A3
#define A5 A4 A4 A4 A4 A4 A4 A4 A4 A4 A4
#define A6 A5 A5 A5 A5 A5 A5 A5 A5 A5 A5
#define A7 A6 A6 A6 A6 A6 A6 A6 A6 A6 A6
#define A8 A7 A7 A7 A7 A7 A7 A7 A7 A7 A7
#define A9 A8 A8 A8 A8 A8 A8 A8 A8 A8 A8
static int bomb[] = { A9 };

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
    
}
