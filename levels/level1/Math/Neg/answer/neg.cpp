// Neg expert answer: y = -x for bfloat16, float16, float32, int32 and int8
// (kernel-only mode, Ascend 910B). The streaming, multi-core split and
// double buffering are the shared element-wise skeleton; this file is the
// arithmetic per dtype.
//  - half, float, int32: Muls by -1 (int32 wraps: -(-2^31) = -2^31).
//  - bfloat16 has no arithmetic: widened to float, negated, narrowed (exact).
//  - int8 has no arithmetic either: widened to half (exact for -128..127),
//    negated, and -(-128) = 128 wrapped to -128 as two's complement does:
//    y = v - 256 * relu(v - 127) before the narrowing cast.
#include "kernel_operator.h"
#include "../../../../common/elementwise.h"

using namespace AscendC;
using namespace npukb_answer;

template <typename T>
struct NegOp {
    using In = T;
    using Out = T;
    static constexpr int NIN = 1;
    static constexpr uint32_t TMP_BYTES_PER_ELEM =
        IsSameType<T, bfloat16_t>::value ? 4 : (IsSameType<T, int8_t>::value ? 4 : 0);

    __aicore__ inline void Compute(const LocalTensor<T>& y, const LocalTensor<T>* x,
                                   const LocalTensor<uint8_t>& tmp, uint32_t count)
    {
        if constexpr (IsSameType<T, bfloat16_t>::value) {
            LocalTensor<float> f = TmpAs<float>(tmp, 0);
            Cast(f, x[0], RoundMode::CAST_NONE, count);
            PipeBarrier<PIPE_V>();
            Muls(f, f, -1.0f, count);
            PipeBarrier<PIPE_V>();
            Cast(y, f, RoundMode::CAST_RINT, count);
        } else if constexpr (IsSameType<T, int8_t>::value) {
            LocalTensor<half> v = TmpAs<half>(tmp, 0);
            LocalTensor<half> w = TmpAs<half>(tmp, count * sizeof(half));
            Cast(v, x[0], RoundMode::CAST_NONE, count);
            PipeBarrier<PIPE_V>();
            Muls(v, v, (half)-1.0f, count);
            PipeBarrier<PIPE_V>();
            Adds(w, v, (half)-127.0f, count);
            PipeBarrier<PIPE_V>();
            Relu(w, w, count);
            PipeBarrier<PIPE_V>();
            Muls(w, w, (half)256.0f, count);
            PipeBarrier<PIPE_V>();
            Sub(v, v, w, count);
            PipeBarrier<PIPE_V>();
            Cast(y, v, RoundMode::CAST_RINT, count);
        } else {
            Muls(y, x[0], (T)-1, count);
        }
    }
};

extern "C" __global__ __aicore__ void neg(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    NegOp<DTYPE_X> op;
    GM_ADDR inputs[1] = {x};
    RunElementwise(op, inputs, y, tilingData.totalLength);
}
