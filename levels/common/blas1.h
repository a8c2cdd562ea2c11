// blas1.h - what npukb's BLAS level-1 reduction answers (Sasum, Snrm2,
// Isamax, Isamin, Icamax, Icamin) share: the vector x of n elements with
// stride incx, loaded by one core into a compact float vector in UB.
//
// These reductions read at most a few thousand elements (16 KiB): one DMA
// into one core's UB and one reduction instruction, while splitting over
// cores would add a workspace round trip and a SyncAll that cost more than
// the whole read. The other cores return at once.
#ifndef NPUKB_ANSWER_BLAS1_H
#define NPUKB_ANSWER_BLAS1_H

#include "elementwise.h"

namespace npukb_answer {

// Largest n the single-core form holds: x (compact, and a strided staging
// copy of up to 4x the bytes) and the reduction's work area fit in UB.
constexpr uint32_t BLAS1_MAX_ELEMS = 8192;

// Loads x[0], x[incx], ... x[(n-1)*incx] of T (half or float; complex64
// as its float pairs with PARTS = 2) into `out` as float, compact.
// `stage` receives the raw strided span; `offsets` the Gather table.
template <typename T, uint32_t PARTS = 1>
__aicore__ inline void LoadStrided(const LocalTensor<float>& out, const LocalTensor<T>& stage,
                                   const LocalTensor<uint32_t>& offsets, GM_ADDR x, uint32_t n, uint32_t incx)
{
    GlobalTensor<T> xGm;
    const uint32_t span = ((n - 1) * incx + 1) * PARTS; // elements of T covering x
    xGm.SetGlobalBuffer((__gm__ T*)x, span);
    CopyGmToUb(stage, xGm, span);
    PipeBarrier<PIPE_ALL>();
    LocalTensor<T> compact = stage;
    if (incx != 1) {
        // offsets of element k's parts in the strided span, in bytes
        for (uint32_t k = 0; k < n; k++) {
            for (uint32_t p = 0; p < PARTS; p++) {
                offsets.SetValue(k * PARTS + p, (k * incx * PARTS + p) * sizeof(T));
            }
        }
        PipeBarrier<PIPE_ALL>();
        compact = stage[AlignUp(span, 64)];
        Gather(compact, stage, offsets, 0, n * PARTS);
        PipeBarrier<PIPE_V>();
    }
    if constexpr (IsSameType<T, float>::value) {
        Adds(out, compact, 0.0f, n * PARTS);
    } else {
        Cast(out, compact, RoundMode::CAST_NONE, n * PARTS);
    }
    PipeBarrier<PIPE_V>();
}

// The 1-based index of the first extreme magnitude of x[i * incx], i < n,
// written to y (one int32): |x| for real x (PARTS 1), |Re| + |Im| for
// complex64 (PARTS 2, PairReduceSum adding each pair). ReduceMax/ReduceMin
// with calIndex keeps the first index on ties, as BLAS wants; n = 0 gives 0.
template <uint32_t PARTS, bool MAX>
__aicore__ inline void IndexOfExtreme(GM_ADDR x, GM_ADDR y, uint32_t n, uint32_t incx)
{
    GlobalTensor<int32_t> out;
    out.SetGlobalBuffer((__gm__ int32_t*)y, 1);
    if (n == 0 || n > BLAS1_MAX_ELEMS || incx == 0) {
        out.SetValue(0, 0);
        return;
    }
    TPipe pipe;
    TBuf<QuePosition::VECCALC> stageBuf, offBuf, valBuf, workBuf, resBuf;
    const uint32_t span = ((n - 1) * incx + 1) * PARTS;
    const uint32_t m = static_cast<uint32_t>(AlignUp(n * PARTS, 64));
    pipe.InitBuffer(stageBuf, static_cast<uint32_t>((AlignUp(span, 64) + m) * sizeof(float)));
    pipe.InitBuffer(offBuf, m * sizeof(uint32_t));
    pipe.InitBuffer(valBuf, m * sizeof(float));
    pipe.InitBuffer(workBuf, m * sizeof(float));
    pipe.InitBuffer(resBuf, 32);
    LocalTensor<float> v = valBuf.Get<float>();
    LocalTensor<float> work = workBuf.Get<float>();
    LocalTensor<float> res = resBuf.Get<float>();
    LoadStrided<float, PARTS>(v, stageBuf.Get<float>(), offBuf.Get<uint32_t>(), x, n, incx);
    Abs(v, v, n * PARTS);
    PipeBarrier<PIPE_V>();
    if constexpr (PARTS == 2) {
        for (uint32_t done = 0; done < n; done += 32 * 255) {
            const uint32_t k = n - done < 32 * 255 ? n - done : 32 * 255;
            PairReduceSum<float>(work[done], v[2 * done], static_cast<int32_t>(CeilDiv(k, 32)), 64, 1, 1, 8);
        }
        PipeBarrier<PIPE_V>();
        Adds(v, work, 0.0f, n);
        PipeBarrier<PIPE_V>();
    }
    if constexpr (MAX) {
        ReduceMax(res, v, work, n, true);
    } else {
        ReduceMin(res, v, work, n, true);
    }
    PipeBarrier<PIPE_ALL>();
    // the index sits in the second result slot as an unsigned integer
    out.SetValue(0, static_cast<int32_t>(res.ReinterpretCast<uint32_t>().GetValue(1)) + 1);
}

// result[0] = sum of |x[i * incx]| (NORM2 false) or the square root of the
// sum of x[i * incx]^2 (NORM2 true), i < n, in float with one ReduceSum (a
// pairwise tree), rounded to T; n = 0 gives 0. The squares overflow float
// only for |x| near 1e17 and above.
template <typename T, bool NORM2>
__aicore__ inline void SumOf(GM_ADDR x, GM_ADDR result, uint32_t n, uint32_t incx)
{
    GlobalTensor<T> out;
    out.SetGlobalBuffer((__gm__ T*)result, 1);
    if (n == 0 || n > BLAS1_MAX_ELEMS || incx == 0) {
        out.SetValue(0, static_cast<T>(0.0f));
        return;
    }
    TPipe pipe;
    TBuf<QuePosition::VECCALC> stageBuf, offBuf, valBuf, workBuf, resBuf;
    const uint32_t span = (n - 1) * incx + 1;
    const uint32_t m = static_cast<uint32_t>(AlignUp(n, 64));
    pipe.InitBuffer(stageBuf, static_cast<uint32_t>((AlignUp(span, 64) + m) * sizeof(T)));
    pipe.InitBuffer(offBuf, m * sizeof(uint32_t));
    pipe.InitBuffer(valBuf, m * sizeof(float));
    pipe.InitBuffer(workBuf, m * sizeof(float));
    pipe.InitBuffer(resBuf, 32);
    LocalTensor<float> v = valBuf.Get<float>();
    LocalTensor<float> work = workBuf.Get<float>();
    LocalTensor<float> res = resBuf.Get<float>();
    LoadStrided<T>(v, stageBuf.Get<T>(), offBuf.Get<uint32_t>(), x, n, incx);
    if constexpr (NORM2) {
        Mul(v, v, v, n);
    } else {
        Abs(v, v, n);
    }
    PipeBarrier<PIPE_V>();
    ReduceSum(res, v, work, n);
    if constexpr (NORM2) {
        PipeBarrier<PIPE_V>();
        Sqrt(res, res, 1);
    }
    PipeBarrier<PIPE_ALL>();
    out.SetValue(0, static_cast<T>(res.GetValue(0)));
}

} // namespace npukb_answer

#endif
