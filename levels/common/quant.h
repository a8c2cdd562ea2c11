// quant.h - int8 quantisation pieces shared by npukb's expert answers
// (GeluQuant, AddRmsNormQuant, DequantSwigluQuant; kernel-only mode).
#ifndef NPUKB_ANSWER_QUANT_H
#define NPUKB_ANSWER_QUANT_H

#include "elementwise.h"

namespace npukb_answer {

using namespace AscendC;

// y = the int8 code of v: rounded to nearest, ties to even (CAST_RINT),
// then clamped to [-128, 127]. The integral float is exact in half, and
// half -> int8 of an integer in range is exact, so there is one rounding
// only (float -> half first would round twice above 2^11 / 2^10 ulps).
// v is overwritten; h is half scratch of count elements.
__aicore__ inline void QuantInt8(const LocalTensor<int8_t>& y, const LocalTensor<float>& v,
                                 const LocalTensor<half>& h, uint32_t count)
{
    Cast(v, v, RoundMode::CAST_RINT, count);
    PipeBarrier<PIPE_V>();
    Maxs(v, v, -128.0f, count);
    PipeBarrier<PIPE_V>();
    Mins(v, v, 127.0f, count);
    PipeBarrier<PIPE_V>();
    Cast(h, v, RoundMode::CAST_NONE, count);
    PipeBarrier<PIPE_V>();
    Cast(y, h, RoundMode::CAST_NONE, count);
}

// One element of a GM tensor of T (half, bfloat16_t, float) as float.
template <typename T>
__aicore__ inline float ScalarAsFloat(GM_ADDR p)
{
    GlobalTensor<T> g;
    g.SetGlobalBuffer((__gm__ T*)p, 1);
    return static_cast<float>(g.GetValue(0));
}

} // namespace npukb_answer

#endif
