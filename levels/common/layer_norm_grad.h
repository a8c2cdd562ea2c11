// layer_norm_grad.h - the row skeleton of the AddLayerNormGrad and
// DeepNormGrad expert answers (kernel-only mode, Ascend 910B).
//
// Per row r of d elements, with s = alpha * x1 + x2, xh = s - mean[r] and
// t = dy * gamma (mean and rstd given):
//   A = sum(t * xh), B = sum(t), C = sum(xh) (only WITH_C),
//   v = -A * rstd^3 / 2,
//   core = t * rstd + (2 / d) * v * xh + m / d with m = -B * rstd (- 2 / d * v * C),
//   dgamma += dy * xh * rstd, dbeta += dy.
// The rows are dealt to the cores in contiguous ranges. Rows that fit are
// streamed through UB in tiles of whole rows (double-buffered queues, float
// compute); a row too long for that (DeepNormGrad's 6144 and 8192) is
// streamed in column chunks twice, once for its sums and once for its
// outputs: reading the inputs twice costs less than the UB a whole row
// would need. Each core keeps its rows' share of dgamma and dbeta in UB and
// posts it to the workspace; after SyncAll the d columns are dealt to the
// cores, each adding the partial rows of its columns, a piece at a time.
#ifndef NPUKB_ANSWER_LAYER_NORM_GRAD_H
#define NPUKB_ANSWER_LAYER_NORM_GRAD_H

#include "rows.h"

namespace npukb_answer {

struct LayerNormGradArgs {
    // One declaration each: GM_ADDR is a macro (a pointer type) in CANN.
    GM_ADDR dy;
    GM_ADDR x1;
    GM_ADDR x2;
    GM_ADDR mean;
    GM_ADDR rstd;
    GM_ADDR gamma;
    GM_ADDR dsum; // added to core (null: none)
    GM_ADDR out1; // core (+ dsum), in T
    GM_ADDR out2; // alpha * core, in T (null: none)
    GM_ADDR dgamma;
    GM_ADDR dbeta;
    GM_ADDR workspace;
    uint64_t rows;
    uint32_t d;
    float alpha;
};

// T: dy, x1, x2, dsum, outputs; G: gamma; S: mean and rstd; dgamma and
// dbeta are float.
template <typename T, typename G, typename S, bool WITH_C>
class LayerNormGrad {
public:
    static constexpr uint32_t MAX_ROWS = 128;

    __aicore__ inline void Init(const LayerNormGradArgs& a)
    {
        d = a.d;
        dp = static_cast<uint32_t>(AlignUp(d, 64));
        alpha = a.alpha;
        withDsum = a.dsum != nullptr;
        withOut2 = a.out2 != nullptr;
        const uint64_t perCore = CeilDiv(a.rows, GetBlockNum());
        const uint64_t start = perCore * GetBlockIdx();
        rows = start < a.rows ? (a.rows - start < perCore ? a.rows - start : perCore) : 0;
        const uint64_t n = rows * d;
        dyGm.SetGlobalBuffer((__gm__ T*)a.dy + start * d, n);
        x1Gm.SetGlobalBuffer((__gm__ T*)a.x1 + start * d, n);
        x2Gm.SetGlobalBuffer((__gm__ T*)a.x2 + start * d, n);
        dsumGm.SetGlobalBuffer((__gm__ T*)a.dsum + start * d, n);
        out1Gm.SetGlobalBuffer((__gm__ T*)a.out1 + start * d, n);
        out2Gm.SetGlobalBuffer((__gm__ T*)a.out2 + start * d, n);
        meanGm.SetGlobalBuffer((__gm__ S*)a.mean + start, rows);
        rstdGm.SetGlobalBuffer((__gm__ S*)a.rstd + start, rows);
        gammaGm.SetGlobalBuffer((__gm__ G*)a.gamma, d);
        dgammaGm.SetGlobalBuffer((__gm__ float*)a.dgamma, d);
        dbetaGm.SetGlobalBuffer((__gm__ float*)a.dbeta, d);
        partGm.SetGlobalBuffer((__gm__ float*)GetUserWorkspace(a.workspace), 2 * GetBlockNum() * dp);

        const uint32_t rowF = dp * sizeof(float);
        const uint32_t nin = 3 + (withDsum ? 1 : 0), nout = 1 + (withOut2 ? 1 : 0);
        // Fixed: gamma, the dgamma and dbeta shares, two scratch rows.
        const uint32_t fixed = 5 * rowF + 4 * 64 * sizeof(float);
        const uint32_t perRow = 2 * ((nin + nout) * dp * sizeof(T) + 2 * 32) + 4 * rowF + 4 * sizeof(float);
        uint32_t nr = fixed >= UB_BUDGET ? 0 : (UB_BUDGET - fixed) / perRow;
        longRows = nr == 0;
        if (longRows) {
            InitLong(nin, nout);
            return;
        }
        nr = nr < MAX_ROWS ? nr : MAX_ROWS;
        tileRows = static_cast<uint32_t>(rows == 0 ? 1 : (nr < rows ? nr : rows));
        stride = tileRows * dp;
        statLen = static_cast<uint32_t>(AlignUp(tileRows, 16));
        pipe.InitBuffer(inQue, 2, nin * stride * sizeof(T));
        pipe.InitBuffer(statQue, 2, 2 * statLen * sizeof(S));
        pipe.InitBuffer(outQue, 2, nout * stride * sizeof(T));
        const uint32_t cols = static_cast<uint32_t>(AlignUp(CeilDiv(d, GetBlockNum()), 8));
        const uint32_t parts = 2 * GetBlockNum() * cols * sizeof(float);
        fLen = 4 * stride > parts / sizeof(float) ? 4 * stride : parts / sizeof(float);
        pipe.InitBuffer(fBuf, fLen * sizeof(float));
        pipe.InitBuffer(rowBuf, 5 * rowF);
        for (uint32_t k = 0; k < 5; k++) {
            rowAt[k] = k * dp;
        }
        pipe.InitBuffer(statBuf, 6 * statLen * sizeof(float));
        pipe.InitBuffer(workBuf, 64 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        Duplicate(Row(1), 0.0f, static_cast<int32_t>(2 * dp));
        if (longRows) {
            PipeBarrier<PIPE_V>();
            for (uint64_t r0 = 0; r0 < rows; r0 += statLen) {
                const uint32_t nr = static_cast<uint32_t>(rows - r0 < statLen ? rows - r0 : statLen);
                LoadStats(r0, nr);
                for (uint32_t i = 0; i < nr; i++) {
                    LongRow(r0 + i, i);
                }
            }
            ReduceShares();
            return;
        }
        LoadGamma();
        for (uint64_t r0 = 0; r0 < rows; r0 += tileRows) {
            const uint32_t nr = static_cast<uint32_t>(rows - r0 < tileRows ? rows - r0 : tileRows);
            CopyIn(r0, nr);
            Compute(nr);
            CopyOut(r0, nr);
        }
        ReduceShares();
    }

private:
    // Fixed rows: 0 gamma, 1 dgamma share, 2 dbeta share, 3 and 4 scratch
    // (with long rows 0, 3 and 4 hold one chunk).
    __aicore__ inline LocalTensor<float> Row(uint32_t k) { return rowBuf.Get<float>()[rowAt[k]]; }

    // Long rows: the shares stay whole (dgamma then dbeta, contiguous, as
    // Process clears them); the chunk is as wide as the rest of UB allows.
    __aicore__ inline void InitLong(uint32_t nin, uint32_t nout)
    {
        statLen = 64;
        const uint32_t fixed = 2 * dp * sizeof(float) + 64 * sizeof(float) + 6 * statLen * sizeof(float) +
                               4 * statLen * sizeof(S);
        const uint32_t perCol = 3 * sizeof(float) + 2 * (nin + nout) * sizeof(T) + 2 * sizeof(G) + 4 * sizeof(float);
        uint32_t w = fixed < UB_BUDGET ? (UB_BUDGET - fixed) / perCol / 64 * 64 : 64;
        stride = w == 0 ? 64 : (w < dp ? w : dp);
        tileRows = 1;
        pipe.InitBuffer(inQue, 2, nin * stride * sizeof(T));
        pipe.InitBuffer(gQue, 2, stride * sizeof(G));
        pipe.InitBuffer(statQue, 2, 2 * statLen * sizeof(S));
        pipe.InitBuffer(outQue, 2, nout * stride * sizeof(T));
        fLen = 4 * stride;
        pipe.InitBuffer(fBuf, fLen * sizeof(float));
        pipe.InitBuffer(rowBuf, (2 * dp + 3 * stride) * sizeof(float));
        rowAt[1] = 0;
        rowAt[2] = dp;
        rowAt[0] = 2 * dp;
        rowAt[3] = 2 * dp + stride;
        rowAt[4] = 2 * dp + 2 * stride;
        pipe.InitBuffer(statBuf, 6 * statLen * sizeof(float));
        pipe.InitBuffer(workBuf, 64 * sizeof(float));
    }

    // mean and rstd of rows r0 .. r0 + nr - 1 as float, read by the scalar
    // unit next.
    __aicore__ inline void LoadStats(uint64_t r0, uint32_t nr)
    {
        LocalTensor<S> st = statQue.template AllocTensor<S>();
        CopyGmToUb(st, meanGm[r0], nr);
        CopyGmToUb(st[statLen], rstdGm[r0], nr);
        statQue.EnQue(st);
        st = statQue.template DeQue<S>();
        LocalTensor<float> stats = statBuf.Get<float>();
        ToFloat(stats, st, statLen);
        ToFloat(stats[statLen], st[statLen], statLen);
        statQue.FreeTensor(st);
        SetFlag<HardEvent::V_S>(0);
        WaitFlag<HardEvent::V_S>(0);
    }

    // Columns c0 .. c0 + w - 1 of row r (with dsum on the output pass).
    __aicore__ inline void ChunkIn(uint64_t r, uint32_t c0, uint32_t w, bool out)
    {
        const uint64_t at = r * d + c0;
        LocalTensor<T> in = inQue.template AllocTensor<T>();
        CopyGmToUb(in, dyGm[at], w);
        CopyGmToUb(in[stride], x1Gm[at], w);
        CopyGmToUb(in[2 * stride], x2Gm[at], w);
        if (out && withDsum) {
            CopyGmToUb(in[3 * stride], dsumGm[at], w);
        }
        inQue.EnQue(in);
        LocalTensor<G> g = gQue.template AllocTensor<G>();
        CopyGmToUb(g, gammaGm[c0], w);
        gQue.EnQue(g);
    }

    // The chunk in float: dy, xh = alpha * x1 + x2 - mu, t = dy * gamma,
    // dsum (on the output pass), over wp (w rounded up to whole blocks).
    __aicore__ inline void ChunkPrep(uint32_t wp, float mu, bool out)
    {
        LocalTensor<T> in = inQue.template DeQue<T>();
        LocalTensor<G> g = gQue.template DeQue<G>();
        LocalTensor<float> f = fBuf.Get<float>();
        ToFloat(f, in, wp);
        ToFloat(f[stride], in[stride], wp);
        ToFloat(f[2 * stride], in[2 * stride], wp);
        if (out && withDsum) {
            ToFloat(f[3 * stride], in[3 * stride], wp);
        }
        ToFloat(Row(0), g, wp);
        PipeBarrier<PIPE_V>();
        inQue.FreeTensor(in);
        gQue.FreeTensor(g);
        if (alpha != 1.0f) {
            Muls(f[stride], f[stride], alpha, wp);
            PipeBarrier<PIPE_V>();
        }
        Add(f[stride], f[stride], f[2 * stride], wp);
        PipeBarrier<PIPE_V>();
        Adds(f[stride], f[stride], -mu, wp);
        Mul(f[2 * stride], f, Row(0), wp);
        PipeBarrier<PIPE_V>();
    }

    // Row r (stats slot i) in chunks: its sums, then its outputs and its
    // dgamma and dbeta terms.
    __aicore__ inline void LongRow(uint64_t r, uint32_t i)
    {
        LocalTensor<float> stats = statBuf.Get<float>();
        LocalTensor<float> f = fBuf.Get<float>();
        LocalTensor<float> dyf = f, xh = f[stride], t = f[2 * stride], ds = f[3 * stride];
        LocalTensor<float> sums = stats[2 * statLen], u = Row(3);
        const float mu = stats.GetValue(i), rs = stats.GetValue(statLen + i);
        float sa = 0.0f, sb = 0.0f, sc = 0.0f;
        for (uint32_t c0 = 0; c0 < d; c0 += stride) {
            const uint32_t n = d - c0 < stride ? d - c0 : stride;
            ChunkIn(r, c0, n, false);
            ChunkPrep(static_cast<uint32_t>(AlignUp(n, 16)), mu, false);
            Mul(u, t, xh, n);
            PipeBarrier<PIPE_V>();
            ReduceSum(sums, u, workBuf.Get<float>(), n);
            PipeBarrier<PIPE_V>();
            ReduceSum(sums[8], t, workBuf.Get<float>(), n);
            PipeBarrier<PIPE_V>();
            if constexpr (WITH_C) {
                ReduceSum(sums[16], xh, workBuf.Get<float>(), n);
                PipeBarrier<PIPE_V>();
            }
            SetFlag<HardEvent::V_S>(0);
            WaitFlag<HardEvent::V_S>(0);
            sa += sums.GetValue(0);
            sb += sums.GetValue(8);
            if constexpr (WITH_C) {
                sc += sums.GetValue(16);
            }
            // The next chunk's copy must not overwrite Row(0) or the
            // float chunk while the sums still read them.
            SetFlag<HardEvent::S_V>(0);
            WaitFlag<HardEvent::S_V>(0);
        }
        const float invD = 1.0f / static_cast<float>(d);
        const float k1 = -sa * rs * rs * rs * invD;
        const float m = (-sb * rs - (WITH_C ? k1 * sc : 0.0f)) * invD;
        for (uint32_t c0 = 0; c0 < d; c0 += stride) {
            const uint32_t n = d - c0 < stride ? d - c0 : stride;
            const uint32_t wp = static_cast<uint32_t>(AlignUp(n, 16));
            ChunkIn(r, c0, n, true);
            ChunkPrep(wp, mu, true);
            RowTerms(dyf, xh, t, Row(1)[c0], Row(2)[c0], rs, k1, m, n);
            Emit(t, xh, ds, wp);
            LocalTensor<T> o = outQue.template DeQue<T>();
            CopyUbToGm(out1Gm[r * d + c0], o, n);
            if (withOut2) {
                CopyUbToGm(out2Gm[r * d + c0], o[stride], n);
            }
            outQue.FreeTensor(o);
        }
    }

    template <typename U>
    __aicore__ inline void ToFloat(const LocalTensor<float>& dst, const LocalTensor<U>& src, uint32_t n)
    {
        if constexpr (IsSameType<U, float>::value) {
            DataCopy(dst, src, n);
        } else {
            Cast(dst, src, RoundMode::CAST_NONE, n);
        }
    }

    __aicore__ inline void LoadGamma()
    {
        LocalTensor<G> stage = fBuf.Get<G>();
        CopyGmToUb(stage, gammaGm, d);
        SetFlag<HardEvent::MTE2_V>(0);
        WaitFlag<HardEvent::MTE2_V>(0);
        ToFloat(Row(0), stage, dp);
        PipeBarrier<PIPE_V>();
    }

    __aicore__ inline void CopyIn(uint64_t r0, uint32_t nr)
    {
        LocalTensor<T> in = inQue.template AllocTensor<T>();
        CopyRowsIn(in, dyGm[r0 * d], nr, d, dp);
        CopyRowsIn(in[stride], x1Gm[r0 * d], nr, d, dp);
        CopyRowsIn(in[2 * stride], x2Gm[r0 * d], nr, d, dp);
        if (withDsum) {
            CopyRowsIn(in[3 * stride], dsumGm[r0 * d], nr, d, dp);
        }
        inQue.EnQue(in);
        LocalTensor<S> st = statQue.template AllocTensor<S>();
        CopyGmToUb(st, meanGm[r0], nr);
        CopyGmToUb(st[statLen], rstdGm[r0], nr);
        statQue.EnQue(st);
    }

    // stat[i] = sum over row i of a (or of a * b into the scratch row).
    __aicore__ inline void RowSums(const LocalTensor<float>& stat, const LocalTensor<float>& a,
                                   const LocalTensor<float>* b, uint32_t nr)
    {
        LocalTensor<float> u = Row(3);
        for (uint32_t i = 0; i < nr; i++) {
            if (b) {
                Mul(u, a[i * dp], (*b)[i * dp], d);
                PipeBarrier<PIPE_V>();
            }
            ReduceSum(stat[i], b ? u : a[i * dp], workBuf.Get<float>(), d);
            PipeBarrier<PIPE_V>();
        }
    }

    __aicore__ inline void Compute(uint32_t nr)
    {
        const uint32_t n = nr * dp;
        LocalTensor<T> in = inQue.template DeQue<T>();
        LocalTensor<S> st = statQue.template DeQue<S>();
        LocalTensor<float> f = fBuf.Get<float>();
        LocalTensor<float> dyf = f, xh = f[stride], t = f[2 * stride], ds = f[3 * stride];
        LocalTensor<float> stats = statBuf.Get<float>();
        LocalTensor<float> mean = stats, rstd = stats[statLen], sa = stats[2 * statLen],
                           sb = stats[3 * statLen], sc = stats[4 * statLen], k1 = stats[5 * statLen];
        ToFloat(dyf, in, n);
        ToFloat(xh, in[stride], n);
        ToFloat(t, in[2 * stride], n);
        // Whole 32-byte blocks (statLen is a multiple of 16): a float copy
        // of nr elements would round down.
        ToFloat(mean, st, statLen);
        ToFloat(rstd, st[statLen], statLen);
        if (withDsum) {
            ToFloat(ds, in[3 * stride], n);
        }
        PipeBarrier<PIPE_V>();
        inQue.FreeTensor(in);
        statQue.FreeTensor(st);
        // s = alpha * x1 + x2 into xh
        if (alpha != 1.0f) {
            Muls(xh, xh, alpha, n);
            PipeBarrier<PIPE_V>();
        }
        Add(xh, xh, t, n);
        SetFlag<HardEvent::V_S>(0);
        WaitFlag<HardEvent::V_S>(0);
        for (uint32_t i = 0; i < nr; i++) {
            Adds(xh[i * dp], xh[i * dp], -mean.GetValue(i), d);
            Mul(t[i * dp], dyf[i * dp], Row(0), d);
        }
        PipeBarrier<PIPE_V>();
        RowSums(sa, t, &xh, nr);
        RowSums(sb, t, nullptr, nr);
        if constexpr (WITH_C) {
            RowSums(sc, xh, nullptr, nr);
        }
        // v = -A * rstd^3 / 2 (in sa); k1 = 2 v / d; m = -B * rstd (- k1 * C) (in sb)
        const float invD = 1.0f / static_cast<float>(d);
        Mul(k1, rstd, rstd, nr);
        PipeBarrier<PIPE_V>();
        Mul(k1, k1, rstd, nr);
        PipeBarrier<PIPE_V>();
        Mul(sa, sa, k1, nr);
        PipeBarrier<PIPE_V>();
        Muls(k1, sa, -invD, nr); // 2 v / d = -A rstd^3 / d
        Mul(sb, sb, rstd, nr);
        PipeBarrier<PIPE_V>();
        Muls(sb, sb, -invD, nr); // m / d without the C term
        if constexpr (WITH_C) {
            PipeBarrier<PIPE_V>();
            Mul(sc, sc, k1, nr);
            PipeBarrier<PIPE_V>();
            Muls(sc, sc, invD, nr);
            PipeBarrier<PIPE_V>();
            Sub(sb, sb, sc, nr);
        }
        SetFlag<HardEvent::V_S>(0);
        WaitFlag<HardEvent::V_S>(0);
        for (uint32_t i = 0; i < nr; i++) {
            RowTerms(dyf[i * dp], xh[i * dp], t[i * dp], Row(1), Row(2), rstd.GetValue(i), k1.GetValue(i),
                     sb.GetValue(i), d);
        }
        Emit(t, xh, ds, n);
    }

    // n elements of one row (acc and accB at its columns): dgamma += dy *
    // xh * rstd, dbeta += dy, t = core = t * rstd + k1 * xh + m / d.
    __aicore__ inline void RowTerms(const LocalTensor<float>& dyf, const LocalTensor<float>& xh,
                                    const LocalTensor<float>& t, const LocalTensor<float>& acc,
                                    const LocalTensor<float>& accB, float rs, float k1, float md, uint32_t n)
    {
        LocalTensor<float> u = Row(3), w = Row(4);
        Mul(u, dyf, xh, n);
        Add(accB, accB, dyf, n);
        Muls(t, t, rs, n);
        Muls(w, xh, k1, n);
        PipeBarrier<PIPE_V>();
        Axpy(acc, u, rs, n);
        Add(t, t, w, n);
        PipeBarrier<PIPE_V>();
        Adds(t, t, md, n);
        PipeBarrier<PIPE_V>();
    }

    // The outputs of n elements (whole blocks) from core t: out1 = t (+
    // dsum), out2 = alpha * t (into xh), queued for CopyOut.
    __aicore__ inline void Emit(const LocalTensor<float>& t, const LocalTensor<float>& xh,
                                const LocalTensor<float>& ds, uint32_t n)
    {
        LocalTensor<T> o = outQue.template AllocTensor<T>();
        if (withOut2) {
            Muls(xh, t, alpha, n);
        }
        if (withDsum) {
            Add(t, t, ds, n);
        }
        PipeBarrier<PIPE_V>();
        FromFloat(o, t, n);
        if (withOut2) {
            FromFloat(o[stride], xh, n);
        }
        outQue.EnQue(o);
    }

    __aicore__ inline void FromFloat(const LocalTensor<T>& dst, const LocalTensor<float>& src, uint32_t n)
    {
        if constexpr (IsSameType<T, float>::value) {
            DataCopy(dst, src, n);
        } else {
            Cast(dst, src, RoundMode::CAST_RINT, n);
        }
    }

    __aicore__ inline void CopyOut(uint64_t r0, uint32_t nr)
    {
        LocalTensor<T> o = outQue.template DeQue<T>();
        CopyRowsOut(out1Gm[r0 * d], o, nr, d, dp);
        if (withOut2) {
            CopyRowsOut(out2Gm[r0 * d], o[stride], nr, d, dp);
        }
        outQue.FreeTensor(o);
    }

    // Every core posts its shares (zeros without rows); after SyncAll each
    // sums the shares of its columns.
    __aicore__ inline void ReduceShares()
    {
        const uint32_t blocks = GetBlockNum();
        PipeBarrier<PIPE_ALL>();
        DataCopy(partGm[GetBlockIdx() * dp], Row(1), dp);
        DataCopy(partGm[(blocks + GetBlockIdx()) * dp], Row(2), dp);
        PipeBarrier<PIPE_ALL>();
        SyncAll();
        const uint32_t per = static_cast<uint32_t>(AlignUp(CeilDiv(d, blocks), 8));
        const uint32_t c0 = per * GetBlockIdx();
        if (c0 >= d) {
            return;
        }
        const uint32_t w = d - c0 < per ? d - c0 : per;
        // As many columns at a time as fBuf holds of all the shares.
        const uint32_t cap = fLen / (2 * blocks) / 8 * 8;
        LocalTensor<float> f = fBuf.Get<float>();
        for (uint32_t p0 = 0; p0 < w; p0 += cap) {
            const uint32_t pw = w - p0 < cap ? w - p0 : cap;
            const uint32_t slot = static_cast<uint32_t>(AlignUp(pw, 8));
            const uint32_t c = c0 + p0;
            if (p0 > 0) {
                SetFlag<HardEvent::MTE3_MTE2>(0);
                WaitFlag<HardEvent::MTE3_MTE2>(0);
            }
            DataCopyExtParams p{static_cast<uint16_t>(2 * blocks), static_cast<uint32_t>(pw * sizeof(float)),
                                static_cast<uint32_t>((dp - pw) * sizeof(float)), 0, 0};
            DataCopyPadExtParams<float> pad{false, 0, 0, 0};
            DataCopyPad(f, partGm[c], p, pad);
            SetFlag<HardEvent::MTE2_V>(0);
            WaitFlag<HardEvent::MTE2_V>(0);
            for (uint32_t b = 1; b < blocks; b++) {
                Add(f, f, f[b * slot], pw);
                Add(f[blocks * slot], f[blocks * slot], f[(blocks + b) * slot], pw);
                PipeBarrier<PIPE_V>();
            }
            SetFlag<HardEvent::V_MTE3>(0);
            WaitFlag<HardEvent::V_MTE3>(0);
            CopyUbToGm(dgammaGm[c], f, pw);
            CopyUbToGm(dbetaGm[c], f[blocks * slot], pw);
        }
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQue, statQue, gQue;
    TQue<QuePosition::VECOUT, 2> outQue;
    TBuf<QuePosition::VECCALC> fBuf, rowBuf, statBuf, workBuf;
    GlobalTensor<T> dyGm, x1Gm, x2Gm, dsumGm, out1Gm, out2Gm;
    GlobalTensor<S> meanGm, rstdGm;
    GlobalTensor<G> gammaGm;
    GlobalTensor<float> dgammaGm, dbetaGm, partGm;
    uint64_t rows = 0;
    uint32_t d = 0, dp = 0, tileRows = 1, stride = 0, statLen = 0, fLen = 0;
    uint32_t rowAt[5] = {0, 0, 0, 0, 0};
    float alpha = 1;
    bool withDsum = false, withOut2 = false, longRows = false;
};

template <typename T, typename G, typename S, bool WITH_C>
__aicore__ inline void RunLayerNormGrad(const LayerNormGradArgs& a)
{
    LayerNormGrad<T, G, S, WITH_C> op;
    op.Init(a);
    op.Process();
}

} // namespace npukb_answer

#endif
