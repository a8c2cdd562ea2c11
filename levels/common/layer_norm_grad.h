// layer_norm_grad.h - the row skeleton of the AddLayerNormGrad expert
// answer, written for DeepNormGrad too (its alpha and second output; not
// used yet: a row of 6144 elements, DeepNormGrad's case 1, does not fit in
// UB with this whole-row tiling) (kernel-only mode, Ascend 910B).
//
// Per row r of d elements, with s = alpha * x1 + x2, xh = s - mean[r] and
// t = dy * gamma (mean and rstd given):
//   A = sum(t * xh), B = sum(t), C = sum(xh) (only WITH_C),
//   v = -A * rstd^3 / 2,
//   core = t * rstd + (2 / d) * v * xh + m / d with m = -B * rstd (- 2 / d * v * C),
//   dgamma += dy * xh * rstd, dbeta += dy.
// The rows are dealt to the cores in contiguous ranges and streamed through
// UB in tiles of whole rows (double-buffered queues, float compute). Each
// core keeps its rows' share of dgamma and dbeta in UB and posts it to the
// workspace; after SyncAll the d columns are dealt to the cores, each adding
// the partial rows of its columns.
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
        uint32_t nr = fixed >= UB_BUDGET ? 1 : (UB_BUDGET - fixed) / perRow;
        nr = nr < MAX_ROWS ? (nr == 0 ? 1 : nr) : MAX_ROWS;
        tileRows = static_cast<uint32_t>(rows == 0 ? 1 : (nr < rows ? nr : rows));
        stride = tileRows * dp;
        statLen = static_cast<uint32_t>(AlignUp(tileRows, 16));
        pipe.InitBuffer(inQue, 2, nin * stride * sizeof(T));
        pipe.InitBuffer(statQue, 2, 2 * statLen * sizeof(S));
        pipe.InitBuffer(outQue, 2, nout * stride * sizeof(T));
        const uint32_t cols = static_cast<uint32_t>(AlignUp(CeilDiv(d, GetBlockNum()), 8));
        const uint32_t parts = 2 * GetBlockNum() * cols * sizeof(float);
        pipe.InitBuffer(fBuf, 4 * stride * sizeof(float) > parts ? 4 * stride * sizeof(float) : parts);
        pipe.InitBuffer(rowBuf, 5 * rowF);
        pipe.InitBuffer(statBuf, 6 * statLen * sizeof(float));
        pipe.InitBuffer(workBuf, 64 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        Duplicate(Row(1), 0.0f, static_cast<int32_t>(2 * dp));
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
    // Fixed rows: 0 gamma, 1 dgamma share, 2 dbeta share, 3 and 4 scratch.
    __aicore__ inline LocalTensor<float> Row(uint32_t k) { return rowBuf.Get<float>()[k * dp]; }

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
        LocalTensor<float> acc = Row(1), accB = Row(2), u = Row(3), w = Row(4);
        for (uint32_t i = 0; i < nr; i++) {
            const float r = rstd.GetValue(i);
            // dgamma += dy * xh * rstd; dbeta += dy
            Mul(u, dyf[i * dp], xh[i * dp], d);
            Add(accB, accB, dyf[i * dp], d);
            // core = t * rstd + k1 * xh + m / d
            Muls(t[i * dp], t[i * dp], r, d);
            Muls(w, xh[i * dp], k1.GetValue(i), d);
            PipeBarrier<PIPE_V>();
            Axpy(acc, u, r, d);
            Add(t[i * dp], t[i * dp], w, d);
            PipeBarrier<PIPE_V>();
            Adds(t[i * dp], t[i * dp], sb.GetValue(i), d);
            PipeBarrier<PIPE_V>();
        }
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
        const uint32_t slot = static_cast<uint32_t>(AlignUp(w, 8));
        LocalTensor<float> f = fBuf.Get<float>();
        DataCopyExtParams p{static_cast<uint16_t>(2 * blocks), static_cast<uint32_t>(w * sizeof(float)),
                            static_cast<uint32_t>((dp - w) * sizeof(float)), 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0};
        DataCopyPad(f, partGm[c0], p, pad);
        SetFlag<HardEvent::MTE2_V>(0);
        WaitFlag<HardEvent::MTE2_V>(0);
        for (uint32_t b = 1; b < blocks; b++) {
            Add(f, f, f[b * slot], w);
            Add(f[blocks * slot], f[blocks * slot], f[(blocks + b) * slot], w);
            PipeBarrier<PIPE_V>();
        }
        SetFlag<HardEvent::V_MTE3>(0);
        WaitFlag<HardEvent::V_MTE3>(0);
        CopyUbToGm(dgammaGm[c0], f, w);
        CopyUbToGm(dbetaGm[c0], f[blocks * slot], w);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQue, statQue;
    TQue<QuePosition::VECOUT, 2> outQue;
    TBuf<QuePosition::VECCALC> fBuf, rowBuf, statBuf, workBuf;
    GlobalTensor<T> dyGm, x1Gm, x2Gm, dsumGm, out1Gm, out2Gm;
    GlobalTensor<S> meanGm, rstdGm;
    GlobalTensor<G> gammaGm;
    GlobalTensor<float> dgammaGm, dbetaGm, partGm;
    uint64_t rows = 0;
    uint32_t d = 0, dp = 0, tileRows = 1, stride = 0, statLen = 0;
    float alpha = 1;
    bool withDsum = false, withOut2 = false;
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
