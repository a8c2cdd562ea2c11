// Test sample: writes a stats file of its own claiming 1 cycle, then ends
// the process before the harness can write the real one.
#include <stdio.h>
#include <unistd.h>
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,
                                                 GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    FILE *f = fopen("stats.txt", "w");
    if (f && td.totalLength > 0) {
        fputs("cycles=1\ntime_us=0.001\n", f);
        fclose(f);
    }
    _exit(0);
}
