// IsFinite expert answer: y = 1.0 where x is finite, else 0.0 (kernel-only mode, Ascend 910B), float16
// and float32, on the shared element-wise skeleton (multi-core split,
// double-buffered tiles, DataCopyPad tails).
// x - x is 0 exactly when x is finite (inf - inf and NaN - NaN are NaN).
#include <math.h>
#include "kernel_operator.h"
#include "../../../../common/elementwise.h"

using namespace AscendC;
using namespace npukb_answer;

template <typename T>
struct IsFiniteOp {
    using In = T;
    using Out = T;
    static constexpr int NIN = 1;
    // the test operand, the 1.0 operand and the bit mask
    static constexpr uint32_t TMP_BYTES_PER_ELEM = 2 * sizeof(T) + 1;

    __aicore__ inline void Compute(const LocalTensor<T>& y, const LocalTensor<T>* x,
                                   const LocalTensor<uint8_t>& tmp, uint32_t count)
    {
        LocalTensor<T> t = TmpAs<T>(tmp, 0);
        LocalTensor<T> one = TmpAs<T>(tmp, count * sizeof(T));
        LocalTensor<uint8_t> mask = TmpAs<uint8_t>(tmp, 2 * count * sizeof(T));
        Sub(t, x[0], x[0], count);
        Duplicate(one, (T)1.0f, count);
        PipeBarrier<PIPE_V>();
        CompareScalar(mask, t, (T)0.0f, CMPMODE::EQ, count);
        PipeBarrier<PIPE_V>();
        Select(y, mask, one, (T)0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, count);
    }
};

extern "C" __global__ __aicore__ void is_finite(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    IsFiniteOp<DTYPE_X> op;
    GM_ADDR in[1] = {x};
    RunElementwise(op, in, y, tilingData.totalLength);
}
