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

} // namespace npukb_answer

#endif
