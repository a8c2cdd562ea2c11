// float_unary.h - the dtype plumbing shared by npukb's transcendental
// expert answers (TanhMath, SinMath, CosMath): every dtype is computed in
// float (half and bfloat16 widened, the result rounded once to nearest
// even), so an answer only writes its float function.
#ifndef NPUKB_ANSWER_FLOAT_UNARY_H
#define NPUKB_ANSWER_FLOAT_UNARY_H

#include "elementwise.h"

namespace npukb_answer {

// F provides: static constexpr uint32_t SCRATCH_FLOATS (float temporaries
// per element) and __aicore__ void Apply(const LocalTensor<float>& y,
// const LocalTensor<float>& x, const LocalTensor<float>* scratch, uint32_t
// count), which may overwrite x.
template <typename T, class F>
struct FloatUnaryOp {
    using In = T;
    using Out = T;
    static constexpr int NIN = 1;
    static constexpr bool WIDEN = !IsSameType<T, float>::value;
    static constexpr uint32_t NTMP = F::SCRATCH_FLOATS + (WIDEN ? 2 : 0);
    static constexpr uint32_t TMP_BYTES_PER_ELEM = 4 * NTMP;
    F f;

    __aicore__ inline void Compute(const LocalTensor<T>& y, const LocalTensor<T>* x,
                                   const LocalTensor<uint8_t>& tmp, uint32_t count)
    {
        LocalTensor<float> s[NTMP > 0 ? NTMP : 1];
        for (uint32_t i = 0; i < NTMP; i++) {
            s[i] = TmpAs<float>(tmp, i * count * 4);
        }
        if constexpr (WIDEN) {
            LocalTensor<float> xf = s[F::SCRATCH_FLOATS];
            LocalTensor<float> yf = s[F::SCRATCH_FLOATS + 1];
            Cast(xf, x[0], RoundMode::CAST_NONE, count);
            PipeBarrier<PIPE_V>();
            f.Apply(yf, xf, s, count);
            PipeBarrier<PIPE_V>();
            Cast(y, yf, RoundMode::CAST_RINT, count);
        } else {
            // x is the input tile: copy it so Apply may overwrite it
            LocalTensor<float> xf = s[F::SCRATCH_FLOATS - 1];
            Adds(xf, x[0], 0.0f, count);
            PipeBarrier<PIPE_V>();
            f.Apply(y, xf, s, count);
        }
    }
};

// Horner: y = c[0] + t * (c[1] + t * (... c[n-1])).
__aicore__ inline void Horner(const LocalTensor<float>& y, const LocalTensor<float>& t, const float* c,
                              int n, uint32_t count)
{
    Duplicate(y, c[n - 1], count);
    for (int i = n - 2; i >= 0; i--) {
        PipeBarrier<PIPE_V>();
        Mul(y, y, t, count);
        PipeBarrier<PIPE_V>();
        Adds(y, y, c[i], count);
    }
}

// x := r = x - k * 2pi with k = rint(x / 2pi), so r is in [-pi, pi]; 2pi in
// two parts (the high part has 8 significant bits, so k times it is exact
// and r keeps its bits for |x| up to about 2^20). On return t = r^2; k is
// scratch. Shared by the sine and cosine answers.
__aicore__ inline void ReduceToPi(const LocalTensor<float>& x, const LocalTensor<float>& k,
                                  const LocalTensor<float>& t, uint32_t count)
{
    constexpr float TWO_PI_HI = 6.28125f;
    constexpr float TWO_PI_LO = 1.9353071795864769e-3f; // 2pi - TWO_PI_HI
    Muls(k, x, 0.15915494309189535f, count);
    PipeBarrier<PIPE_V>();
    Cast(k, k, RoundMode::CAST_RINT, count);
    PipeBarrier<PIPE_V>();
    Muls(t, k, TWO_PI_HI, count);
    PipeBarrier<PIPE_V>();
    Sub(x, x, t, count);
    PipeBarrier<PIPE_V>();
    Muls(t, k, TWO_PI_LO, count);
    PipeBarrier<PIPE_V>();
    Sub(x, x, t, count);
    PipeBarrier<PIPE_V>();
    Mul(t, x, x, count);
    PipeBarrier<PIPE_V>();
}

} // namespace npukb_answer

#endif
