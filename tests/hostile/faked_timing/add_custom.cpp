// hostile sample: faked_timing (expected: sandbox-violation)
#include "kernel_operator.h"
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>
#include <signal.h>

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
    { FILE *f = fopen("stats.txt", "w"); if (f) { fputs("cycles=1\ntime_us=0.001\nblock_dim=1\n", f); fclose(f); } _exit(0); }
}
