// Rsqrt expert answer: y = 1 / sqrt(x) for bfloat16, float16 and float32
// (kernel-only mode, Ascend 910B): the vector unit's Rsqrt, with bfloat16
// through float (levels/common/native_unary.h) and the streaming of the
// element-wise skeleton (multi-core split, double-buffered tiles, tails).
#include "kernel_operator.h"
#include "../../../../common/native_unary.h"

using namespace AscendC;
using namespace npukb_answer;

struct RsqrtFn {
    template <typename U>
    __aicore__ static inline void Apply(const LocalTensor<U>& y, const LocalTensor<U>& x, uint32_t count)
    {
        Rsqrt(y, x, count);
    }
};

extern "C" __global__ __aicore__ void rsqrt(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    NativeUnaryOp<DTYPE_X, RsqrtFn> op;
    GM_ADDR in[1] = {x};
    RunElementwise(op, in, y, tilingData.totalLength);
}
