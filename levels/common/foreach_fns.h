// foreach_fns.h - the functions of one tile of npukb's ForeachXxx expert
// answers, one line each: NPUKB_FOREACH_FN(name, input lists, scratch
// tensors, body). The body sees y (the output tile), x[] (the input
// tiles), s[] (scratch), v (the scalar operand) and n (the element count,
// a multiple of 256 bytes), all of the compute type C (float, or int32_t
// for int32 lists); see foreach.h. Tasks with the same function (a scalar
// and a scalar-list variant) share its line.
#ifndef NPUKB_ANSWER_FOREACH_FNS_H
#define NPUKB_ANSWER_FOREACH_FNS_H

#include "foreach.h"

namespace npukb_answer {

#define NPUKB_FOREACH_FN(NAME, NL, SCR, ...)                                                              \
    struct NAME {                                                                                         \
        static constexpr int NLIST = NL;                                                                  \
        static constexpr uint32_t SCRATCH = SCR;                                                          \
        template <typename C>                                                                             \
        __aicore__ static inline void Apply(const LocalTensor<C>& y, const LocalTensor<C>* x,             \
                                            const LocalTensor<C>* s, C v, uint32_t n)                    \
        {                                                                                                 \
            (void)x;                                                                                      \
            (void)s;                                                                                      \
            (void)v;                                                                                      \
            __VA_ARGS__                                                                                   \
        }                                                                                                 \
    }

NPUKB_FOREACH_FN(AbsFn, 1, 0, Abs(y, x[0], n););
NPUKB_FOREACH_FN(AcosFn, 1, 0, Acos(y, x[0], n););
NPUKB_FOREACH_FN(AddListFn, 2, 1, Muls(s[0], x[1], v, n); PipeBarrier<PIPE_V>(); Add(y, x[0], s[0], n););
NPUKB_FOREACH_FN(AddScalarFn, 1, 0, Adds(y, x[0], v, n););
NPUKB_FOREACH_FN(AddcdivScalarFn, 3, 1, Div(s[0], x[1], x[2], n); PipeBarrier<PIPE_V>(); Muls(s[0], s[0], v, n); PipeBarrier<PIPE_V>(); Add(y, x[0], s[0], n););
NPUKB_FOREACH_FN(AddcmulScalarFn, 3, 1, Mul(s[0], x[1], x[2], n); PipeBarrier<PIPE_V>(); Muls(s[0], s[0], v, n); PipeBarrier<PIPE_V>(); Add(y, x[0], s[0], n););
NPUKB_FOREACH_FN(AsinFn, 1, 0, Asin(y, x[0], n););
NPUKB_FOREACH_FN(AtanFn, 1, 0, Atan(y, x[0], n););
NPUKB_FOREACH_FN(CopyFn, 1, 0, Muls(y, x[0], (C)1, n););
NPUKB_FOREACH_FN(CosFn, 1, 0, Cos(y, x[0], n););
NPUKB_FOREACH_FN(CoshFn, 1, 0, Cosh(y, x[0], n););
NPUKB_FOREACH_FN(DivListFn, 2, 0, Div(y, x[0], x[1], n););
NPUKB_FOREACH_FN(DivScalarFn, 1, 1, Duplicate(s[0], v, n); PipeBarrier<PIPE_V>(); Div(y, x[0], s[0], n););
NPUKB_FOREACH_FN(ErfFn, 1, 0, Erf(y, x[0], n););
NPUKB_FOREACH_FN(ErfcFn, 1, 0, Erfc(y, x[0], n););
NPUKB_FOREACH_FN(ExpFn, 1, 0, Exp(y, x[0], n););
NPUKB_FOREACH_FN(Expm1Fn, 1, 0, Exp(y, x[0], n); PipeBarrier<PIPE_V>(); Adds(y, y, (C)-1, n););
NPUKB_FOREACH_FN(LerpScalarFn, 2, 1, Sub(s[0], x[1], x[0], n); PipeBarrier<PIPE_V>(); Muls(s[0], s[0], v, n); PipeBarrier<PIPE_V>(); Add(y, x[0], s[0], n););
NPUKB_FOREACH_FN(LogFn, 1, 0, Ln(y, x[0], n););
NPUKB_FOREACH_FN(Log10Fn, 1, 0, Log10(y, x[0], n););
NPUKB_FOREACH_FN(Log1pFn, 1, 0, Adds(x[0], x[0], (C)1, n); PipeBarrier<PIPE_V>(); Ln(y, x[0], n););
NPUKB_FOREACH_FN(Log2Fn, 1, 0, Log2(y, x[0], n););
NPUKB_FOREACH_FN(MaximumListFn, 2, 0, Max(y, x[0], x[1], n););
NPUKB_FOREACH_FN(MaximumScalarFn, 1, 0, Maxs(y, x[0], v, n););
NPUKB_FOREACH_FN(MinimumListFn, 2, 0, Min(y, x[0], x[1], n););
NPUKB_FOREACH_FN(MinimumScalarFn, 1, 0, Mins(y, x[0], v, n););
NPUKB_FOREACH_FN(MulListFn, 2, 0, Mul(y, x[0], x[1], n););
NPUKB_FOREACH_FN(MulScalarFn, 1, 0, Muls(y, x[0], v, n););
NPUKB_FOREACH_FN(NegFn, 1, 0, Muls(y, x[0], (C)-1, n););
NPUKB_FOREACH_FN(PowScalarFn, 1, 0, Power(y, x[0], v, n););
NPUKB_FOREACH_FN(PowScalarAndTensorFn, 1, 1, Duplicate(s[0], v, n); PipeBarrier<PIPE_V>(); Ln(s[0], s[0], n); PipeBarrier<PIPE_V>(); Mul(y, x[0], s[0], n); PipeBarrier<PIPE_V>(); Exp(y, y, n););
NPUKB_FOREACH_FN(ReciprocalFn, 1, 0, Reciprocal(y, x[0], n););

// Nearest with ties to odd: where x is halfway (|x - trunc(x)| == 0.5),
// rint chose the even neighbour, and the odd one is 2x - rint(x).
__aicore__ inline void RoundTiesToOdd(const LocalTensor<float>& y, const LocalTensor<float>& x,
                                      const LocalTensor<float>* s, uint32_t n)
{
    Cast(y, x, RoundMode::CAST_RINT, n);
    Cast(s[0], x, RoundMode::CAST_TRUNC, n);
    PipeBarrier<PIPE_V>();
    Sub(s[0], x, s[0], n);
    Muls(s[1], x, 2.0f, n);
    PipeBarrier<PIPE_V>();
    Abs(s[0], s[0], n);
    Sub(s[1], s[1], y, n);
    PipeBarrier<PIPE_V>();
    LocalTensor<uint8_t> mask = s[2].ReinterpretCast<uint8_t>();
    CompareScalar(mask, s[0], 0.5f, CMPMODE::EQ, n);
    PipeBarrier<PIPE_V>();
    Select(y, mask, s[1], y, SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
}

// roundMode: 1 nearest even, 2 floor, 3 ceil, 4 nearest away from zero,
// 5 toward zero, 6 nearest odd, 7 the fraction; anything else a copy.
struct RoundOffNumberFn {
    static constexpr int NLIST = 1;
    static constexpr uint32_t SCRATCH = 3;

    template <typename C>
    __aicore__ static inline void Apply(const LocalTensor<C>& y, const LocalTensor<C>* x, const LocalTensor<C>* s,
                                        C v, uint32_t n)
    {
        if (v == (C)1) {
            Cast(y, x[0], RoundMode::CAST_RINT, n);
        } else if (v == (C)2) {
            Cast(y, x[0], RoundMode::CAST_FLOOR, n);
        } else if (v == (C)3) {
            Cast(y, x[0], RoundMode::CAST_CEIL, n);
        } else if (v == (C)4) {
            Cast(y, x[0], RoundMode::CAST_ROUND, n);
        } else if (v == (C)5) {
            Cast(y, x[0], RoundMode::CAST_TRUNC, n);
        } else if (v == (C)6) {
            RoundTiesToOdd(y, x[0], s, n);
        } else if (v == (C)7) {
            Cast(s[0], x[0], RoundMode::CAST_TRUNC, n);
            PipeBarrier<PIPE_V>();
            Sub(y, x[0], s[0], n);
        } else {
            Muls(y, x[0], (C)1, n);
        }
    }
};

NPUKB_FOREACH_FN(SigmoidFn, 1, 0, Sigmoid(y, x[0], n););
NPUKB_FOREACH_FN(SignFn, 1, 0, Sign(y, x[0], n););
NPUKB_FOREACH_FN(SinFn, 1, 0, Sin(y, x[0], n););
NPUKB_FOREACH_FN(SinhFn, 1, 0, Sinh(y, x[0], n););
NPUKB_FOREACH_FN(SqrtFn, 1, 0, Sqrt(y, x[0], n););
NPUKB_FOREACH_FN(SubListFn, 2, 1, Muls(s[0], x[1], v, n); PipeBarrier<PIPE_V>(); Sub(y, x[0], s[0], n););
NPUKB_FOREACH_FN(SubScalarFn, 1, 0, Adds(y, x[0], (C)(-v), n););
NPUKB_FOREACH_FN(TanFn, 1, 0, Tan(y, x[0], n););
NPUKB_FOREACH_FN(TanhFn, 1, 0, Tanh(y, x[0], n););
NPUKB_FOREACH_FN(ZeroInplaceFn, 0, 0, Duplicate(y, (C)0, n););

#undef NPUKB_FOREACH_FN

} // namespace npukb_answer

#endif
