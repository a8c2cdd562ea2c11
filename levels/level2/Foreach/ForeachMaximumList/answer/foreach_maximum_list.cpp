// ForeachMaximumList expert answer: y[m] = max(x1[m], x2[m]), for every member
// m of the tensor lists (kernel-only mode, Ascend 910B). The list walk (each
// member split over all cores, tiled to the UB, double-buffered, tails by
// DataCopyPad; half and bfloat16 computed in float and rounded once) is
// levels/common/foreach.h; this file is the function of one tile.
#include "kernel_operator.h"
#include "../../../../common/foreach.h"

using namespace AscendC;
using namespace npukb_answer;

struct MaximumListFn {
    static constexpr int NLIST = 2;
    static constexpr uint32_t SCRATCH = 0;

    template <typename C>
    __aicore__ static inline void Apply(const LocalTensor<C>& y, const LocalTensor<C>* x, const LocalTensor<C>* s,
                                        C v, uint32_t n)
    {
        (void)s; (void)v;
        Max(y, x[0], x[1], n);
    }
};

extern "C" __global__ __aicore__ void foreach_maximum_list(GM_ADDR x1, GM_ADDR x2, GM_ADDR y,
                                                           GM_ADDR workspace, GM_ADDR tiling)
{
    GM_ADDR lists[2] = {x1, x2};
    RunForeach<DTYPE_X1, MaximumListFn, ForeachScalar::NONE, float>(lists, y);
}
