// ForeachAddcmulList expert answer: y[m] = x1[m] + scalars[m] * (x2[m] *
// x3[m]), for every member m of the tensor lists (kernel-only mode, Ascend
// 910B). The list walk (each member split over all cores, tiled to the UB,
// double-buffered, tails by DataCopyPad; half and bfloat16 computed in float
// and rounded once) is levels/common/foreach.h, the function of one tile
// AddcmulScalarFn in levels/common/foreach_fns.h.
#include "kernel_operator.h"
#include "../../../../common/foreach_fns.h"

using namespace AscendC;
using namespace npukb_answer;

extern "C" __global__ __aicore__ void foreach_addcmul_list(GM_ADDR x1, GM_ADDR x2, GM_ADDR x3,
                                                           GM_ADDR scalars, GM_ADDR y,
                                                           GM_ADDR workspace, GM_ADDR tiling)
{
    GM_ADDR lists[3] = {x1, x2, x3};
    RunForeach<DTYPE_X1, AddcmulScalarFn, ForeachScalar::PER_MEMBER, DTYPE_SCALARS>(lists, y, scalars);
}
