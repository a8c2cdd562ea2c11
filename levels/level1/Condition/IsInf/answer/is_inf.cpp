// IsInf expert answer: outputs = 1.0 where inputs is +inf or -inf, else 0.0 (kernel-only mode, Ascend 910B), float16
// and float32, on the shared element-wise skeleton (multi-core split,
// double-buffered tiles, DataCopyPad tails).
// |x| equals +inf exactly for the infinities (NaN compares unequal).
#include <math.h>
#include "kernel_operator.h"
#include "../../../../common/elementwise.h"

using namespace AscendC;
using namespace npukb_answer;

template <typename T>
struct IsInfOp {
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
        Abs(t, x[0], count);
        Duplicate(one, (T)1.0f, count);
        PipeBarrier<PIPE_V>();
        CompareScalar(mask, t, (T)INFINITY, CMPMODE::EQ, count);
        PipeBarrier<PIPE_V>();
        Select(y, mask, one, (T)0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, count);
    }
};

extern "C" __global__ __aicore__ void is_inf(GM_ADDR inputs, GM_ADDR outputs, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    IsInfOp<DTYPE_INPUTS> op;
    GM_ADDR in[1] = {inputs};
    RunElementwise(op, in, outputs, tilingData.totalLength);
}
