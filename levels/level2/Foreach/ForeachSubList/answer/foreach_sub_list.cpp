// ForeachSubList expert answer: y[m] = x1[m] - alpha * x2[m], for every member
// m of the tensor lists (kernel-only mode, Ascend 910B). The list walk (each
// member split over all cores, tiled to the UB, double-buffered, tails by
// DataCopyPad; half and bfloat16 computed in float and rounded once) is
// levels/common/foreach.h, the function of one tile SubListFn in
// levels/common/foreach_fns.h.
#include "kernel_operator.h"
#include "../../../../common/foreach_fns.h"

using namespace AscendC;
using namespace npukb_answer;

extern "C" __global__ __aicore__ void foreach_sub_list(GM_ADDR x1, GM_ADDR x2, GM_ADDR alpha,
                                                       GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GM_ADDR lists[2] = {x1, x2};
    RunForeach<DTYPE_X1, SubListFn, ForeachScalar::ONE, DTYPE_ALPHA>(lists, y, alpha);
}
