// Test sample: block 0 stores through a raw pointer 200,000 bytes past the
// end of z. On the device that write corrupts whatever lives there; cpusim
// must name it out-of-bounds on z, not let it land in a neighbour.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,
                                                 GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (AscendC::GetBlockIdx() == 0)
        ((__gm__ half *)z)[td.totalLength + 100000] = (half)1.0f;
}
