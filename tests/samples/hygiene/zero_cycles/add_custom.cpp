// AddCustom computed with plain loops on the GM pointers, no AscendC call:
// correct, and the cost model counts 0 cycles. A kernel that reports no
// work is flagged suspect-speedup rather than ranked fastest (issue 15).
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (AscendC::GetBlockIdx() != 0) return;
    half *a = (half *)x, *b = (half *)y, *c = (half *)z;
    for (uint32_t i = 0; i < td.totalLength; i++) c[i] = a[i] + b[i];
}
