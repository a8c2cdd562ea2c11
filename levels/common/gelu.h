// gelu.h - GELU pieces shared by npukb's expert answers (Gelu, GeGluV2,
// GeGluGradV2), all in float with count-form vector instructions.
#ifndef NPUKB_ANSWER_GELU_H
#define NPUKB_ANSWER_GELU_H

#include "float_map.h"

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

// The tanh-form GELU x sigmoid(u), u = k (x + c x^3), k = sqrt(8 / pi),
// c = 0.044715: s = sigmoid(u) and d = its derivative s + x u' s (1 - s),
// u' = k (1 + 3 c x^2). q and r are scratch.
__aicore__ inline void GeluTanhDeriv(const LocalTensor<float>& s, const LocalTensor<float>& d,
                                     const LocalTensor<float>& x, const LocalTensor<float>& q,
                                     const LocalTensor<float>& r, uint32_t count)
{
    constexpr float K = 1.5957691216057308f;
    constexpr float C = 0.044715f;
    Mul(q, x, x, count);
    PipeBarrier<PIPE_V>();
    Muls(d, q, C, count);
    PipeBarrier<PIPE_V>();
    Adds(d, d, 1.0f, count);
    PipeBarrier<PIPE_V>();
    Mul(d, d, x, count); // u / k
    PipeBarrier<PIPE_V>();
    SigmoidK(s, d, r, K, count);
    PipeBarrier<PIPE_V>();
    Sub(r, r, s, count);
    Muls(q, q, 3.0f * C, count);
    PipeBarrier<PIPE_V>();
    Mul(r, r, s, count); // s (1 - s)
    Adds(q, q, 1.0f, count);
    PipeBarrier<PIPE_V>();
    Muls(q, q, K, count); // u'
    PipeBarrier<PIPE_V>();
    Mul(q, q, x, count);
    PipeBarrier<PIPE_V>();
    Mul(d, r, q, count);
    PipeBarrier<PIPE_V>();
    Add(d, d, s, count);
}

} // namespace npukb_answer

#endif
