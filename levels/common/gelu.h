// gelu.h - GELU pieces shared by npukb's expert answers (Gelu, GeGluV2,
// GeGluGradV2), all in float with count-form vector instructions.
#ifndef NPUKB_ANSWER_GELU_H
#define NPUKB_ANSWER_GELU_H

#include "kernel_operator.h"

namespace npukb_answer {

using namespace AscendC;

// q = Phi(-|x|) = erfc(|x| / sqrt 2) / 2 and a = |x|, by Abramowitz and
// Stegun 7.1.26: erfc(z) ~ t (a1 + t (a2 + ... a5 t)) exp(-z^2), t = 1 / (1 +
// p z), absolute error below 1.5e-7. erfc's tail is evaluated directly, so
// there is no cancellation for large |x|. t and e are scratch.
__aicore__ inline void PhiOfMinusAbs(const LocalTensor<float>& q, const LocalTensor<float>& a,
                                     const LocalTensor<float>& x, const LocalTensor<float>& t,
                                     const LocalTensor<float>& e, uint32_t count)
{
    constexpr float C[5] = {0.254829592f, -0.284496736f, 1.421413741f, -1.453152027f, 1.061405429f};
    Abs(a, x, count);
    Mul(e, x, x, count);
    PipeBarrier<PIPE_V>();
    Muls(t, a, 0.3275911f * 0.70710678118654752f, count); // p |x| / sqrt 2
    Muls(e, e, -0.5f, count);
    Duplicate(q, 1.0f, count);
    PipeBarrier<PIPE_V>();
    Adds(t, t, 1.0f, count);
    Exp(e, e, count); // exp(-x^2 / 2)
    PipeBarrier<PIPE_V>();
    Div(t, q, t, count);
    PipeBarrier<PIPE_V>();
    Duplicate(q, C[4], count);
    for (int i = 3; i >= 0; i--) {
        PipeBarrier<PIPE_V>();
        Mul(q, q, t, count);
        PipeBarrier<PIPE_V>();
        Adds(q, q, C[i], count);
    }
    PipeBarrier<PIPE_V>();
    Mul(q, q, t, count);
    PipeBarrier<PIPE_V>();
    Mul(q, q, e, count);
    PipeBarrier<PIPE_V>();
    Muls(q, q, 0.5f, count);
}

// y = x Phi(x), the exact GELU, as x / 2 + |x| (1/2 - Phi(-|x|)) for either
// sign (no select). y may be x; q, a, t, e are scratch.
__aicore__ inline void GeluErf(const LocalTensor<float>& y, const LocalTensor<float>& x,
                               const LocalTensor<float>& q, const LocalTensor<float>& a,
                               const LocalTensor<float>& t, const LocalTensor<float>& e, uint32_t count)
{
    PhiOfMinusAbs(q, a, x, t, e, count);
    PipeBarrier<PIPE_V>();
    Muls(q, q, -1.0f, count);
    PipeBarrier<PIPE_V>();
    Adds(q, q, 0.5f, count);
    PipeBarrier<PIPE_V>();
    Mul(q, q, a, count);
    Muls(y, x, 0.5f, count);
    PipeBarrier<PIPE_V>();
    Add(y, y, q, count);
}

} // namespace npukb_answer

#endif
