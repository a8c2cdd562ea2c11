// ForeachZeroInplace expert answer: x[m] = 0 for every member m of the list x,
// in place, for every member m of the tensor lists (kernel-only mode, Ascend
// 910B). The list walk (each member split over all cores, tiled to the UB,
// double-buffered, tails by DataCopyPad; half and bfloat16 computed in float
// and rounded once) is levels/common/foreach.h, the function of one tile
// ZeroInplaceFn in levels/common/foreach_fns.h.
#include "kernel_operator.h"
#include "../../../../common/foreach_fns.h"

using namespace AscendC;
using namespace npukb_answer;

extern "C" __global__ __aicore__ void foreach_zero_inplace(GM_ADDR x, GM_ADDR workspace,
                                                           GM_ADDR tiling)
{
    GM_ADDR lists[1] = {nullptr};
    RunForeach<DTYPE_X, ZeroInplaceFn, ForeachScalar::NONE, float>(lists, x);
}
