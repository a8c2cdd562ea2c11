// Test sample: block 0 stores through a raw pointer 1,024 bytes past the
// end of z: beyond the allocation's 512-byte padding but inside its last
// page, where no fault happens. The poisoned bytes there must catch it.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,
                                                 GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (AscendC::GetBlockIdx() == 0)
        ((__gm__ half *)z)[td.totalLength + 512] = (half)1.0f;
}
