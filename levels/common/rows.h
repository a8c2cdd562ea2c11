// rows.h - moving whole rows between GM, where they are dense, and UB,
// where each starts on a 32-byte boundary (kernel-only expert answers).
#ifndef NPUKB_ANSWER_ROWS_H
#define NPUKB_ANSWER_ROWS_H

#include "elementwise.h"

namespace npukb_answer {

// Rows of d elements of T, between GM (dense) and UB (rows ubRow apart).
template <typename T>
__aicore__ inline DataCopyExtParams RowCopy(uint32_t nr, uint32_t d, uint32_t ubRow, bool toGm)
{
    constexpr uint32_t epb = 32 / sizeof(T);
    const uint32_t ubGap = (ubRow - (d + epb - 1) / epb * epb) / epb;
    return DataCopyExtParams{static_cast<uint16_t>(nr), static_cast<uint32_t>(d * sizeof(T)),
                             toGm ? ubGap : 0u, toGm ? 0u : ubGap, 0};
}

template <typename T>
__aicore__ inline void CopyRowsIn(const LocalTensor<T>& dst, const GlobalTensor<T>& src, uint32_t nr, uint32_t d,
                                  uint32_t ubRow)
{
    DataCopyPadExtParams<T> pad{false, 0, 0, 0};
    DataCopyPad(dst, src, RowCopy<T>(nr, d, ubRow, false), pad);
}

template <typename T>
__aicore__ inline void CopyRowsOut(const GlobalTensor<T>& dst, const LocalTensor<T>& src, uint32_t nr, uint32_t d,
                                   uint32_t ubRow)
{
    DataCopyPad(dst, src, RowCopy<T>(nr, d, ubRow, true));
}

// Copies row 0 of rows (ubRow elements apart, ubRow * sizeof(T) a multiple
// of 32 bytes) into rows 1 .. n-1, as 32-bit words: every element type
// moves, bit for bit.
template <typename T>
__aicore__ inline void ReplicateRow(const LocalTensor<T>& rows, uint32_t n, uint32_t ubRow)
{
    LocalTensor<int32_t> w = rows.template ReinterpretCast<int32_t>();
    const uint32_t words = ubRow * sizeof(T) / sizeof(int32_t);
    for (uint32_t i = 1; i < n; i++) {
        DataCopy(w[i * words], w, words);
    }
}

// rstd[i] = 1 / sqrt(rstd[i] * invD + eps) for i < n, in place, from row
// sums of squares; ones holds n ones. The scalar unit waits for the result
// (the callers read rstd[i] next).
__aicore__ inline void RstdFromSums(const LocalTensor<float>& rstd, const LocalTensor<float>& ones, float invD,
                                    float eps, uint32_t n)
{
    Muls(rstd, rstd, invD, n);
    PipeBarrier<PIPE_V>();
    Adds(rstd, rstd, eps, n);
    PipeBarrier<PIPE_V>();
    Sqrt(rstd, rstd, n);
    PipeBarrier<PIPE_V>();
    Div(rstd, ones, rstd, n);
    SetFlag<HardEvent::V_S>(0);
    WaitFlag<HardEvent::V_S>(0);
}

// dst row i = src row i * scale[i] * w for rows i < n of d elements,
// rowLen apart (scale read by the scalar unit, after RstdFromSums).
__aicore__ inline void ScaleRows(const LocalTensor<float>& dst, const LocalTensor<float>& src,
                                 const LocalTensor<float>& scale, const LocalTensor<float>& w, uint32_t n,
                                 uint32_t d, uint32_t rowLen)
{
    for (uint32_t i = 0; i < n; i++) {
        Muls(dst[i * rowLen], src[i * rowLen], scale.GetValue(i), d);
    }
    PipeBarrier<PIPE_V>();
    for (uint32_t i = 0; i < n; i++) {
        Mul(dst[i * rowLen], dst[i * rowLen], w, d);
    }
}

} // namespace npukb_answer

#endif
