// ForeachAddcmulList expert answer: y[m] = x1[m] + scalars[m] * (x2[m] *
// x3[m]), for every member m of the tensor lists (kernel-only mode, Ascend
// 910B). The list walk (each member split over all cores, tiled to the UB,
// double-buffered, tails by DataCopyPad; half and bfloat16 computed in float
// and rounded once) is levels/common/foreach.h; this file is the function of
// one tile.
#include "kernel_operator.h"
#include "../../../../common/foreach.h"

using namespace AscendC;
using namespace npukb_answer;

struct AddcmulListFn {
    static constexpr int NLIST = 3;
    static constexpr uint32_t SCRATCH = 1;

    template <typename C>
    __aicore__ static inline void Apply(const LocalTensor<C>& y, const LocalTensor<C>* x, const LocalTensor<C>* s,
                                        C v, uint32_t n)
    {
        Mul(s[0], x[1], x[2], n);
        PipeBarrier<PIPE_V>();
        Muls(s[0], s[0], v, n);
        PipeBarrier<PIPE_V>();
        Add(y, x[0], s[0], n);
    }
};

extern "C" __global__ __aicore__ void foreach_addcmul_list(GM_ADDR x1, GM_ADDR x2, GM_ADDR x3,
                                                           GM_ADDR scalars, GM_ADDR y,
                                                           GM_ADDR workspace, GM_ADDR tiling)
{
    GM_ADDR lists[3] = {x1, x2, x3};
    RunForeach<DTYPE_X1, AddcmulListFn, ForeachScalar::PER_MEMBER, DTYPE_SCALARS>(lists, y, scalars);
}
