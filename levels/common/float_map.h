// float_map.h - the dtype plumbing of npukb's element-wise expert answers
// with one or more inputs computed in float (Level 2 activations and their
// gradients): every input is widened to float (half and bfloat16 exactly,
// float copied so the operator may overwrite it), the operator computes in
// float, and the result is rounded once to nearest even. An operator only
// writes its float function; the streaming is elementwise.h's.
#ifndef NPUKB_ANSWER_FLOAT_MAP_H
#define NPUKB_ANSWER_FLOAT_MAP_H

#include "elementwise.h"

namespace npukb_answer {

// F provides: static constexpr int NIN (inputs), static constexpr uint32_t
// SCRATCH_FLOATS (float temporaries per element) and __aicore__ void
// Apply(const LocalTensor<float>& y, const LocalTensor<float>* x, const
// LocalTensor<float>* scratch, uint32_t count), which may overwrite x.
template <typename T, class F>
struct FloatMapOp {
    using In = T;
    using Out = T;
    static constexpr int NIN = F::NIN;
    static constexpr bool WIDEN = !IsSameType<T, float>::value;
    static constexpr uint32_t NTMP = F::SCRATCH_FLOATS + NIN + (WIDEN ? 1 : 0);
    static constexpr uint32_t TMP_BYTES_PER_ELEM = 4 * NTMP;
    F f;

    __aicore__ inline void Compute(const LocalTensor<T>& y, const LocalTensor<T>* x,
                                   const LocalTensor<uint8_t>& tmp, uint32_t count)
    {
        LocalTensor<float> s[NTMP];
        for (uint32_t i = 0; i < NTMP; i++) {
            s[i] = TmpAs<float>(tmp, i * count * 4);
        }
        LocalTensor<float>* xf = s + F::SCRATCH_FLOATS;
        for (int i = 0; i < NIN; i++) {
            if constexpr (WIDEN) {
                Cast(xf[i], x[i], RoundMode::CAST_NONE, count);
            } else {
                Adds(xf[i], x[i], 0.0f, count);
            }
        }
        PipeBarrier<PIPE_V>();
        if constexpr (WIDEN) {
            LocalTensor<float> yf = s[NTMP - 1];
            f.Apply(yf, xf, s, count);
            PipeBarrier<PIPE_V>();
            Cast(y, yf, RoundMode::CAST_RINT, count);
        } else {
            f.Apply(y, xf, s, count);
        }
    }
};

// s = sigmoid(k x) = 1 / (1 + exp(-k x)); one is scratch and holds 1 on
// return. exp overflowing to +inf gives s = 0, the correct limit.
__aicore__ inline void SigmoidK(const LocalTensor<float>& s, const LocalTensor<float>& x,
                                const LocalTensor<float>& one, float k, uint32_t count)
{
    Muls(s, x, -k, count);
    Duplicate(one, 1.0f, count);
    PipeBarrier<PIPE_V>();
    Exp(s, s, count);
    PipeBarrier<PIPE_V>();
    Adds(s, s, 1.0f, count);
    PipeBarrier<PIPE_V>();
    Div(s, one, s, count);
}

// y = x / (1 + exp(-k x)), i.e. x * sigmoid(k x); t is scratch. For k x
// very negative exp overflows to +inf and y is the correct -0 (or +0).
__aicore__ inline void XSigmoid(const LocalTensor<float>& y, const LocalTensor<float>& x,
                                const LocalTensor<float>& t, float k, uint32_t count)
{
    Muls(t, x, -k, count);
    PipeBarrier<PIPE_V>();
    Exp(t, t, count);
    PipeBarrier<PIPE_V>();
    Adds(t, t, 1.0f, count);
    PipeBarrier<PIPE_V>();
    Div(y, x, t, count);
}

} // namespace npukb_answer

#endif
