// ForeachMinimumScalar expert answer: y[m] = min(x[m], scalar), for every
// member m of the tensor lists (kernel-only mode, Ascend 910B). The list walk
// (each member split over all cores, tiled to the UB, double-buffered, tails
// by DataCopyPad; half and bfloat16 computed in float and rounded once) is
// levels/common/foreach.h, the function of one tile MinimumScalarFn in
// levels/common/foreach_fns.h.
#include "kernel_operator.h"
#include "../../../../common/foreach_fns.h"

using namespace AscendC;
using namespace npukb_answer;

extern "C" __global__ __aicore__ void foreach_minimum_scalar(GM_ADDR x, GM_ADDR scalar, GM_ADDR y,
                                                             GM_ADDR workspace, GM_ADDR tiling)
{
    GM_ADDR lists[1] = {x};
    RunForeach<DTYPE_X, MinimumScalarFn, ForeachScalar::ONE, DTYPE_SCALAR>(lists, y, scalar);
}
