// compare.h - the element-wise comparison shared by npukb's Equal, Less and
// LessEqual expert answers: y[i] = x1[i] <op> x2[i] as a bool (one byte).
//
// The vector unit compares half, float and int32 into a bit mask; other
// dtypes are widened first: bfloat16 to float, int8/uint8/bool to half
// (exact), int64 to float (exact for |x| < 2^24, which holds for the
// integer inputs these tasks draw). The mask selects 1 or 0 in half,
// narrowed to the output byte.
#ifndef NPUKB_ANSWER_COMPARE_H
#define NPUKB_ANSWER_COMPARE_H

#include "elementwise.h"

namespace npukb_answer {

template <typename T> struct CompareType { using type = T; };
template <> struct CompareType<bfloat16_t> { using type = float; };
template <> struct CompareType<int64_t> { using type = float; };
template <> struct CompareType<int8_t> { using type = half; };
template <> struct CompareType<uint8_t> { using type = half; };
template <> struct CompareType<bool> { using type = half; };

template <typename T, CMPMODE MODE>
struct CompareOp {
    // bool travels as its byte.
    using In = typename std::conditional<IsSameType<T, bool>::value, uint8_t, T>::type;
    using Out = uint8_t;
    using C = typename CompareType<T>::type;
    static constexpr bool WIDEN = !IsSameType<C, In>::value;
    static constexpr int NIN = 2;
    // widened operands, the 0/1 halves and the bit mask
    static constexpr uint32_t TMP_BYTES_PER_ELEM = (WIDEN ? 2 * sizeof(C) : 0) + 2 * sizeof(half) + 1;

    __aicore__ inline void Compute(const LocalTensor<uint8_t>& y, const LocalTensor<In>* x,
                                   const LocalTensor<uint8_t>& tmp, uint32_t count)
    {
        uint32_t off = 0;
        LocalTensor<C> a, b;
        if constexpr (WIDEN) {
            a = TmpAs<C>(tmp, off);
            off += count * sizeof(C);
            b = TmpAs<C>(tmp, off);
            off += count * sizeof(C);
            Cast(a, x[0], RoundMode::CAST_NONE, count);
            Cast(b, x[1], RoundMode::CAST_NONE, count);
            PipeBarrier<PIPE_V>();
        } else {
            a = x[0].template ReinterpretCast<C>();
            b = x[1].template ReinterpretCast<C>();
        }
        LocalTensor<half> one = TmpAs<half>(tmp, off);
        off += count * sizeof(half);
        LocalTensor<half> h = TmpAs<half>(tmp, off);
        off += count * sizeof(half);
        LocalTensor<uint8_t> mask = TmpAs<uint8_t>(tmp, off);
        Compare(mask, a, b, MODE, count);
        Duplicate(one, (half)1.0f, count);
        PipeBarrier<PIPE_V>();
        Select(h, mask, one, (half)0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, count);
        PipeBarrier<PIPE_V>();
        Cast(y, h, RoundMode::CAST_NONE, count);
    }
};

} // namespace npukb_answer

#endif
