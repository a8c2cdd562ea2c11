// glu.h - the streaming skeleton of npukb's gated-linear-unit expert answers
// (SwiGlu, SwiGluGrad; kernel-only mode, Ascend 910B vector cores).
//
// Around the split axis x is [outer, 2, L]: each outer row holds the two
// halves a and b as contiguous runs of L elements, 2L apart. The "half"
// tensors (y forward, the incoming gradient g backward) are [outer, L].
// The outer * L positions of the half space are dealt to the cores in
// 32-byte units; each core walks its range in tiles: a run of whole rows
// moves with one strided DataCopyPad per tensor (rows padded to 32 bytes in
// UB), a partial row (the range's head or tail, or a row longer than a
// tile) as one segment. Queues are double-buffered: the copies of one tile
// overlap the compute of the next.
//
// An operator provides:
//   static constexpr bool BACKWARD;  false: (a, b) -> NOUT half tensors;
//                                    true: (g, a, b) -> (da, db), NOUT 2
//   static constexpr int NOUT;
//   static constexpr uint32_t SCRATCH_FLOATS;
//   __aicore__ void Apply(const LocalTensor<float>* out, const LocalTensor<float>* in,
//                         const LocalTensor<float>* scratch, uint32_t count);
// in are (a, b) or (g, a, b) widened to float and may be overwritten; out
// are the forward outputs or (da, db), float.
#ifndef NPUKB_ANSWER_GLU_H
#define NPUKB_ANSWER_GLU_H

#include "elementwise.h"

namespace npukb_answer {

template <typename T, class Op>
class GluStream {
public:
    static constexpr int NIN = Op::BACKWARD ? 3 : 2;
    static constexpr int NOUT = Op::NOUT;
    static constexpr uint32_t NF = NIN + NOUT + Op::SCRATCH_FLOATS;
    static constexpr uint32_t GRAIN = 64; // floats in 256 bytes
    static constexpr uint32_t UNIT = 32 / sizeof(T);

    // half: the outputs (forward, half2 the second if NOUT is 2) or g
    // (backward); split: x; splitOut: dx (backward).
    __aicore__ inline bool Init(GM_ADDR half, GM_ADDR half2, GM_ADDR split, GM_ADDR splitOut, uint64_t outer,
                                uint64_t len)
    {
        const uint64_t total = outer * len;
        const uint64_t perCore = CeilDiv(CeilDiv(total, UNIT), GetBlockNum()) * UNIT;
        begin = perCore * GetBlockIdx();
        if (begin >= total) {
            return false;
        }
        end = total - begin < perCore ? total : begin + perCore;
        L = len;
        halfGm[0].SetGlobalBuffer((__gm__ T*)half, total);
        if (!Op::BACKWARD && NOUT == 2) {
            halfGm[1].SetGlobalBuffer((__gm__ T*)half2, total);
        }
        splitGm.SetGlobalBuffer((__gm__ T*)split, 2 * total);
        if (Op::BACKWARD) {
            splitOutGm.SetGlobalBuffer((__gm__ T*)splitOut, 2 * total);
        }
        const uint32_t perElem = 2 * (NIN + NOUT) * sizeof(T) + 4 * NF;
        uint32_t c = UB_BUDGET / perElem / GRAIN * GRAIN;
        cap = c < MAX_TILE ? c : MAX_TILE;
        for (int i = 0; i < NIN; i++) {
            pipe.InitBuffer(inQ[i], 2, cap * sizeof(T));
        }
        for (int i = 0; i < NOUT; i++) {
            pipe.InitBuffer(outQ[i], 2, cap * sizeof(T));
        }
        pipe.InitBuffer(fBuf, cap * 4 * NF);
        return true;
    }

    __aicore__ inline void Process(Op& op)
    {
        const uint64_t lpad = AlignUp(L, UNIT);
        uint64_t p = begin;
        while (p < end) {
            const uint64_t r = p % L;
            uint64_t rows = 0;
            if (r == 0 && lpad <= cap) {
                rows = (end - p) / L;
                if (rows > cap / lpad) {
                    rows = cap / lpad;
                }
            }
            uint32_t n, w, stride;
            if (rows > 0) {
                n = static_cast<uint32_t>(rows);
                w = static_cast<uint32_t>(L);
                stride = static_cast<uint32_t>(lpad);
            } else {
                uint64_t seg = L - r;
                seg = seg < end - p ? seg : end - p;
                n = 1;
                w = static_cast<uint32_t>(seg < cap ? seg : cap);
                stride = static_cast<uint32_t>(AlignUp(w, UNIT));
            }
            CopyIn(p, n, w, stride);
            Compute(op, static_cast<uint32_t>(AlignUp(static_cast<uint64_t>(n) * stride, GRAIN)));
            CopyOut(p, n, w, stride);
            p += static_cast<uint64_t>(n) * w;
        }
    }

private:
    // n rows of w elements, GM rows gmRow elements apart, UB rows stride apart.
    __aicore__ inline DataCopyExtParams Params(uint32_t n, uint32_t w, uint32_t stride, uint64_t gmRow,
                                               bool toGm) const
    {
        const uint32_t gmGap = static_cast<uint32_t>((gmRow - w) * sizeof(T));
        const uint32_t ubGap = (stride - static_cast<uint32_t>(AlignUp(w, UNIT))) * sizeof(T) / 32;
        return DataCopyExtParams{static_cast<uint16_t>(n), static_cast<uint32_t>(w * sizeof(T)),
                                 toGm ? ubGap : gmGap, toGm ? gmGap : ubGap, 0};
    }

    // Element offset of half position p's a in x (b is L further).
    __aicore__ inline uint64_t SplitOff(uint64_t p) const { return (p / L) * 2 * L + p % L; }

    __aicore__ inline void Load(int q, const GlobalTensor<T>& gm, uint64_t off, uint32_t n, uint32_t w,
                                uint32_t stride, uint64_t gmRow)
    {
        LocalTensor<T> t = inQ[q].template AllocTensor<T>();
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(t, gm[off], Params(n, w, stride, gmRow, false), pad);
        inQ[q].EnQue(t);
    }

    __aicore__ inline void CopyIn(uint64_t p, uint32_t n, uint32_t w, uint32_t stride)
    {
        const uint64_t s = SplitOff(p);
        int q = 0;
        if (Op::BACKWARD) {
            Load(q++, halfGm[0], p, n, w, stride, L);
        }
        Load(q++, splitGm, s, n, w, stride, 2 * L);
        Load(q, splitGm, s + L, n, w, stride, 2 * L);
    }

    __aicore__ inline void Compute(Op& op, uint32_t count)
    {
        LocalTensor<float> f[NF];
        LocalTensor<float> all = fBuf.Get<float>();
        for (uint32_t i = 0; i < NF; i++) {
            f[i] = all[i * count];
        }
        LocalTensor<T> in[NIN];
        for (int i = 0; i < NIN; i++) {
            in[i] = inQ[i].template DeQue<T>();
            if constexpr (IsSameType<T, float>::value) {
                Adds(f[i], in[i], 0.0f, count);
            } else {
                Cast(f[i], in[i], RoundMode::CAST_NONE, count);
            }
        }
        PipeBarrier<PIPE_V>();
        for (int i = 0; i < NIN; i++) {
            inQ[i].FreeTensor(in[i]);
        }
        op.Apply(f + NIN, f, f + NIN + NOUT, count);
        PipeBarrier<PIPE_V>();
        for (int i = 0; i < NOUT; i++) {
            LocalTensor<T> o = outQ[i].template AllocTensor<T>();
            if constexpr (IsSameType<T, float>::value) {
                Adds(o, f[NIN + i], 0.0f, count);
            } else {
                Cast(o, f[NIN + i], RoundMode::CAST_RINT, count);
            }
            outQ[i].EnQue(o);
        }
    }

    __aicore__ inline void Store(int q, const GlobalTensor<T>& gm, uint64_t off, uint32_t n, uint32_t w,
                                 uint32_t stride, uint64_t gmRow)
    {
        LocalTensor<T> t = outQ[q].template DeQue<T>();
        DataCopyPad(gm[off], t, Params(n, w, stride, gmRow, true));
        outQ[q].FreeTensor(t);
    }

    __aicore__ inline void CopyOut(uint64_t p, uint32_t n, uint32_t w, uint32_t stride)
    {
        if (Op::BACKWARD) {
            const uint64_t s = SplitOff(p);
            Store(0, splitOutGm, s, n, w, stride, 2 * L);
            Store(1, splitOutGm, s + L, n, w, stride, 2 * L);
        } else {
            for (int i = 0; i < NOUT; i++) {
                Store(i, halfGm[i], p, n, w, stride, L);
            }
        }
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ[NIN];
    TQue<QuePosition::VECOUT, 2> outQ[NOUT];
    TBuf<QuePosition::VECCALC> fBuf;
    GlobalTensor<T> halfGm[2], splitGm, splitOutGm;
    uint64_t begin = 0, end = 0, L = 0;
    uint32_t cap = 0;
};

} // namespace npukb_answer

#endif
