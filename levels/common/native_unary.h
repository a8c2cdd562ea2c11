// native_unary.h - y = f(x) for an instruction f of the vector unit that
// takes half and float (Sqrt, Rsqrt ...): half and float use it directly,
// bfloat16 (no arithmetic of its own) is widened to float and rounded back
// to nearest even. Shared by npukb's Sqrt and Rsqrt expert answers.
#ifndef NPUKB_ANSWER_NATIVE_UNARY_H
#define NPUKB_ANSWER_NATIVE_UNARY_H

#include "elementwise.h"

namespace npukb_answer {

// F: a class with `template <typename U> static void Apply(dst, src, count)`.
template <typename T, class F>
struct NativeUnaryOp {
    using In = T;
    using Out = T;
    static constexpr int NIN = 1;
    static constexpr uint32_t TMP_BYTES_PER_ELEM = IsSameType<T, bfloat16_t>::value ? 4 : 0;

    __aicore__ inline void Compute(const LocalTensor<T>& y, const LocalTensor<T>* x,
                                   const LocalTensor<uint8_t>& tmp, uint32_t count)
    {
        if constexpr (IsSameType<T, bfloat16_t>::value) {
            LocalTensor<float> f = TmpAs<float>(tmp, 0);
            Cast(f, x[0], RoundMode::CAST_NONE, count);
            PipeBarrier<PIPE_V>();
            F::Apply(f, f, count);
            PipeBarrier<PIPE_V>();
            Cast(y, f, RoundMode::CAST_RINT, count);
        } else {
            F::Apply(y, x[0], count);
        }
    }
};

} // namespace npukb_answer

#endif
