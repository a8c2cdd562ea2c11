// ForeachSubList expert answer: y[m] = x1[m] - alpha * x2[m], for every member
// m of the tensor lists (kernel-only mode, Ascend 910B). The list walk (each
// member split over all cores, tiled to the UB, double-buffered, tails by
// DataCopyPad; half and bfloat16 computed in float and rounded once) is
// levels/common/foreach.h; this file is the function of one tile.
#include "kernel_operator.h"
#include "../../../../common/foreach.h"

using namespace AscendC;
using namespace npukb_answer;

struct SubListFn {
    static constexpr int NLIST = 2;
    static constexpr uint32_t SCRATCH = 1;

    template <typename C>
    __aicore__ static inline void Apply(const LocalTensor<C>& y, const LocalTensor<C>* x, const LocalTensor<C>* s,
                                        C v, uint32_t n)
    {
        Muls(s[0], x[1], v, n);
        PipeBarrier<PIPE_V>();
        Sub(y, x[0], s[0], n);
    }
};

extern "C" __global__ __aicore__ void foreach_sub_list(GM_ADDR x1, GM_ADDR x2, GM_ADDR alpha,
                                                       GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GM_ADDR lists[2] = {x1, x2};
    RunForeach<DTYPE_X1, SubListFn, ForeachScalar::ONE, DTYPE_ALPHA>(lists, y, alpha);
}
