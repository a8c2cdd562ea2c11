// float_class.h - y = 1.0 where x is finite (IsFinite) or infinite (IsInf),
// else 0.0, in x's dtype (half, float): shared by the two answers.
//  - finite: x - x is 0 exactly when x is finite (inf - inf and NaN - NaN
//    are NaN, and NaN compares unequal to everything);
//  - infinite: |x| equals +inf exactly for the infinities.
// The compare gives a bit mask; Select picks 1.0 or 0.0.
#ifndef NPUKB_ANSWER_FLOAT_CLASS_H
#define NPUKB_ANSWER_FLOAT_CLASS_H

#include <math.h>
#include "elementwise.h"

namespace npukb_answer {

template <typename T, bool INF>
struct FloatClassOp {
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
        if constexpr (INF) {
            Abs(t, x[0], count);
        } else {
            Sub(t, x[0], x[0], count);
        }
        Duplicate(one, (T)1.0f, count);
        PipeBarrier<PIPE_V>();
        CompareScalar(mask, t, INF ? (T)INFINITY : (T)0.0f, CMPMODE::EQ, count);
        PipeBarrier<PIPE_V>();
        Select(y, mask, one, (T)0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, count);
    }
};

} // namespace npukb_answer

#endif
