// Lerp expert answer: y = start + weight * (end - start) for float16 and
// float32 (kernel-only mode, Ascend 910B), on the shared element-wise
// skeleton (multi-core split, double-buffered tiles, DataCopyPad tails).
// float16 is computed in float: end - start of two halves near +-100 loses
// bits in half, and the tolerance is relative to |ref| >= 1.
#include "kernel_operator.h"
#include "../../../../common/elementwise.h"

using namespace AscendC;
using namespace npukb_answer;

template <typename T>
struct LerpOp {
    using In = T;
    using Out = T;
    static constexpr int NIN = 3;
    static constexpr uint32_t TMP_BYTES_PER_ELEM = IsSameType<T, half>::value ? 12 : 4;

    __aicore__ inline void Compute(const LocalTensor<T>& y, const LocalTensor<T>* x,
                                   const LocalTensor<uint8_t>& tmp, uint32_t count)
    {
        if constexpr (IsSameType<T, half>::value) {
            LocalTensor<float> s = TmpAs<float>(tmp, 0);
            LocalTensor<float> e = TmpAs<float>(tmp, count * 4);
            LocalTensor<float> w = TmpAs<float>(tmp, count * 8);
            Cast(s, x[0], RoundMode::CAST_NONE, count);
            Cast(e, x[1], RoundMode::CAST_NONE, count);
            Cast(w, x[2], RoundMode::CAST_NONE, count);
            PipeBarrier<PIPE_V>();
            Sub(e, e, s, count);
            PipeBarrier<PIPE_V>();
            Mul(e, e, w, count);
            PipeBarrier<PIPE_V>();
            Add(e, e, s, count);
            PipeBarrier<PIPE_V>();
            Cast(y, e, RoundMode::CAST_RINT, count);
        } else {
            LocalTensor<float> d = TmpAs<float>(tmp, 0);
            Sub(d, x[1], x[0], count);
            PipeBarrier<PIPE_V>();
            Mul(d, d, x[2], count);
            PipeBarrier<PIPE_V>();
            Add(y, d, x[0], count);
        }
    }
};

extern "C" __global__ __aicore__ void lerp(GM_ADDR start, GM_ADDR end, GM_ADDR weight, GM_ADDR y,
                                           GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    LerpOp<DTYPE_START> op;
    GM_ADDR inputs[3] = {start, end, weight};
    RunElementwise(op, inputs, y, tilingData.totalLength);
}
