// addc.h - y = input_data + value * (x1 <op> x2), value a one-element
// tensor: the computation npukb's Addcmul (op *) and Addcdiv (op /) expert
// answers share. float16 and bfloat16 are computed in float and rounded
// once: in half, the two roundings of the product alone can exceed the
// 1/512 tolerance.
#ifndef NPUKB_ANSWER_ADDC_H
#define NPUKB_ANSWER_ADDC_H

#include "elementwise.h"

namespace npukb_answer {

template <typename T, bool DIVIDE>
struct AddcOp {
    using In = T;
    using Out = T;
    static constexpr int NIN = 3;
    static constexpr bool WIDE = !IsSameType<T, float>::value;
    static constexpr uint32_t TMP_BYTES_PER_ELEM = WIDE ? 12 : 4;
    float value;

    __aicore__ inline void Compute(const LocalTensor<T>& y, const LocalTensor<T>* x,
                                   const LocalTensor<uint8_t>& tmp, uint32_t count)
    {
        LocalTensor<float> p = TmpAs<float>(tmp, 0);
        if constexpr (WIDE) {
            LocalTensor<float> a = TmpAs<float>(tmp, count * 4);
            LocalTensor<float> b = TmpAs<float>(tmp, count * 8);
            Cast(a, x[1], RoundMode::CAST_NONE, count);
            Cast(b, x[2], RoundMode::CAST_NONE, count);
            PipeBarrier<PIPE_V>();
            Combine(p, a, b, count);
            Cast(a, x[0], RoundMode::CAST_NONE, count);
            PipeBarrier<PIPE_V>();
            Muls(p, p, value, count);
            PipeBarrier<PIPE_V>();
            Add(p, p, a, count);
            PipeBarrier<PIPE_V>();
            Cast(y, p, RoundMode::CAST_RINT, count);
        } else {
            Combine(p, x[1], x[2], count);
            PipeBarrier<PIPE_V>();
            Muls(p, p, value, count);
            PipeBarrier<PIPE_V>();
            Add(y, p, x[0], count);
        }
    }

private:
    __aicore__ inline void Combine(const LocalTensor<float>& d, const LocalTensor<float>& a,
                                   const LocalTensor<float>& b, uint32_t count)
    {
        if constexpr (DIVIDE) {
            Div(d, a, b, count);
        } else {
            Mul(d, a, b, count);
        }
    }
};

// The whole kernel body: value read once per core, then the stream.
template <typename T, bool DIVIDE>
__aicore__ inline void RunAddc(GM_ADDR input_data, GM_ADDR x1, GM_ADDR x2, GM_ADDR value, GM_ADDR y,
                               uint64_t total)
{
    GlobalTensor<T> v;
    AddcOp<T, DIVIDE> op;
    v.SetGlobalBuffer((__gm__ T*)value, 1);
    op.value = static_cast<float>(v.GetValue(0));
    GM_ADDR in[3] = {input_data, x1, x2};
    RunElementwise(op, in, y, total);
}

} // namespace npukb_answer

#endif
