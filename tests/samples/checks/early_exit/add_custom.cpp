// Test sample: block 3 ends the whole process with exit(0), as a kernel
// that "finishes early" would; the launch never completed.
#include <stdlib.h>
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,
                                                 GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (AscendC::GetBlockIdx() == 3 && td.totalLength > 0)
        exit(0);
}
