// layer_norm.h - the row skeleton shared by the LayerNorm-family expert
// answers (DeepNorm, AddLayerNorm, InplaceAddLayerNorm, LayerNormV4;
// kernel-only mode, Ascend 910B).
//
// x is rows x d (d: the elements gamma covers). The rows are dealt to the
// cores in contiguous ranges; each core streams its rows through UB in
// tiles of whole rows (each padded to 64 floats) and computes in float
// (mean and rstd left out, as PreLayerNorm's, when their addresses are null):
//   s = alpha * x1 (+ x2) (+ bias, one row or the whole tensor),
//   mean = sum(s) / d, c = s - mean, rstd = 1 / sqrt(sum(c^2) / d + eps),
//   y = c * rstd * gamma + beta,
// the sums one ReduceSum per row, the per-tile statistics a few vector
// instructions over the tile's rows. Queues are double-buffered when two
// tiles of one row fit in UB, else single.
#ifndef NPUKB_ANSWER_LAYER_NORM_H
#define NPUKB_ANSWER_LAYER_NORM_H

#include "rows.h"

namespace npukb_answer {

enum class BiasKind : uint32_t { NONE = 0, ROW = 1, FULL = 2 };

struct LayerNormArgs {
    // One declaration each: GM_ADDR is a macro (a pointer type) in CANN.
    GM_ADDR x1;
    GM_ADDR x2;   // only with ADD
    GM_ADDR bias; // null, one row of d, or x1's shape
    GM_ADDR gamma; // null: 1
    GM_ADDR beta;  // null: 0
    GM_ADDR y;
    GM_ADDR mean; // null (with rstd): not wanted
    GM_ADDR rstd;
    GM_ADDR sum; // s, rounded to T; null when not wanted
    uint64_t rows;
    uint32_t d;
    BiasKind bias_kind;
    float alpha;
    float eps;
};

// T: element type of x1, x2, bias, gamma, beta, y, sum; S: of mean and rstd.
template <typename T, typename S, bool ADD>
class LayerNorm {
public:
    static constexpr bool F32 = IsSameType<T, float>::value;
    static constexpr uint32_t MAX_ROWS = 1024;

    __aicore__ inline bool Init(const LayerNormArgs& a)
    {
        const uint64_t perCore = CeilDiv(a.rows, GetBlockNum());
        const uint64_t start = perCore * GetBlockIdx();
        if (start >= a.rows || a.d == 0) {
            return false;
        }
        rows = a.rows - start < perCore ? a.rows - start : perCore;
        d = a.d;
        dp = static_cast<uint32_t>(AlignUp(d, 64));
        eps = a.eps;
        alpha = a.alpha;
        biasKind = a.bias ? a.bias_kind : BiasKind::NONE;
        withSum = a.sum != nullptr;
        withStats = a.mean != nullptr && a.rstd != nullptr;
        x1Gm.SetGlobalBuffer((__gm__ T*)a.x1 + start * d, rows * d);
        yGm.SetGlobalBuffer((__gm__ T*)a.y + start * d, rows * d);
        if (withStats) {
            meanGm.SetGlobalBuffer((__gm__ S*)a.mean + start, rows);
            rstdGm.SetGlobalBuffer((__gm__ S*)a.rstd + start, rows);
        }
        if constexpr (ADD) {
            x2Gm.SetGlobalBuffer((__gm__ T*)a.x2 + start * d, rows * d);
        }
        if (withSum) {
            sumGm.SetGlobalBuffer((__gm__ T*)a.sum + start * d, rows * d);
        }
        if (biasKind == BiasKind::FULL) {
            biasGm.SetGlobalBuffer((__gm__ T*)a.bias + start * d, rows * d);
        }

        // gamma, beta (and a bias row) in float, a row of squares, the
        // reduction's work area.
        const uint32_t workBytes = static_cast<uint32_t>(AlignUp(CeilDiv(dp, 64), 8) * sizeof(float));
        const uint32_t rowF = dp * sizeof(float);
        const uint32_t fixed = (biasKind == BiasKind::ROW ? 4 : 3) * rowF + workBytes;
        depth = 2;
        uint32_t nr = RowsFitting(fixed);
        if (nr == 0) {
            depth = 1;
            nr = RowsFitting(fixed);
        }
        nr = nr < MAX_ROWS ? nr : MAX_ROWS;
        tileRows = static_cast<uint32_t>(nr < rows ? nr : rows);
        const uint32_t tileBytes = tileRows * dp * sizeof(T);
        const uint32_t statBytes = static_cast<uint32_t>(AlignUp(tileRows, 8) * sizeof(float));
        pipe.InitBuffer(inQue, depth, tileBytes * InTensors());
        pipe.InitBuffer(yQue, depth, tileBytes);
        // mean and rstd in float, then (S narrower) each narrowed.
        pipe.InitBuffer(statQue, depth, 4 * statBytes);
        if (withSum) {
            pipe.InitBuffer(sumQue, depth, tileBytes);
        }
        if constexpr (!F32) {
            pipe.InitBuffer(xfBuf, tileRows * rowF);
        }
        pipe.InitBuffer(wBuf, (biasKind == BiasKind::ROW ? 3 : 2) * rowF);
        pipe.InitBuffer(sqBuf, rowF);
        pipe.InitBuffer(workBuf, workBytes);
        pipe.InitBuffer(onesBuf, statBytes);
        statStride = statBytes / sizeof(float);
        LoadWeights(a);
        return true;
    }

    __aicore__ inline void Process()
    {
        for (uint64_t r0 = 0; r0 < rows; r0 += tileRows) {
            const uint32_t nr = static_cast<uint32_t>(rows - r0 < tileRows ? rows - r0 : tileRows);
            CopyIn(r0, nr);
            Compute(nr);
            CopyOut(r0, nr);
        }
    }

private:
    __aicore__ inline uint32_t InTensors() const
    {
        return 1 + (ADD ? 1 : 0) + (biasKind == BiasKind::FULL ? 1 : 0);
    }

    __aicore__ inline uint32_t RowsFitting(uint32_t fixed) const
    {
        const uint32_t outs = 1 + (withSum ? 1 : 0);
        const uint32_t perRow = depth * ((InTensors() + outs) * sizeof(T) * dp + 2 * sizeof(float)) +
                                (F32 ? 0 : dp * sizeof(float)) + sizeof(float);
        // 64 bytes spare for the 32-byte rounding of the small buffers.
        return fixed + 64 >= UB_BUDGET ? 0 : (UB_BUDGET - fixed - 64) / perRow;
    }

    // Row k of the weights buffer: 0 gamma, 1 beta, 2 the bias row.
    __aicore__ inline LocalTensor<float> Weight(uint32_t k) { return wBuf.Get<float>()[k * dp]; }

    __aicore__ inline void LoadRowAsFloat(const LocalTensor<float>& dst, GM_ADDR src)
    {
        GlobalTensor<T> g;
        g.SetGlobalBuffer((__gm__ T*)src, d);
        LocalTensor<T> stage = F32 ? dst.template ReinterpretCast<T>() : sqBuf.Get<T>();
        CopyGmToUb(stage, g, d);
        SetFlag<HardEvent::MTE2_V>(0);
        WaitFlag<HardEvent::MTE2_V>(0);
        if constexpr (!F32) {
            Cast(dst, stage, RoundMode::CAST_NONE, dp);
        }
        // The next load may reuse the staging row.
        SetFlag<HardEvent::V_MTE2>(0);
        WaitFlag<HardEvent::V_MTE2>(0);
    }

    __aicore__ inline void LoadWeights(const LayerNormArgs& a)
    {
        // Without gamma the scale is 1, without beta the shift 0.
        if (a.gamma) {
            LoadRowAsFloat(Weight(0), a.gamma);
        } else {
            Duplicate(Weight(0), 1.0f, static_cast<int32_t>(dp));
        }
        if (a.beta) {
            LoadRowAsFloat(Weight(1), a.beta);
        } else {
            Duplicate(Weight(1), 0.0f, static_cast<int32_t>(dp));
        }
        if (biasKind == BiasKind::ROW) {
            LoadRowAsFloat(Weight(2), a.bias);
        }
        Duplicate(onesBuf.Get<float>(), 1.0f, static_cast<int32_t>(statStride));
        PipeBarrier<PIPE_V>();
    }

    __aicore__ inline void CopyIn(uint64_t r0, uint32_t nr)
    {
        LocalTensor<T> in = inQue.template AllocTensor<T>();
        const uint32_t n = tileRows * dp;
        uint32_t k = 0;
        CopyRowsIn(in, x1Gm[r0 * d], nr, d, dp);
        if constexpr (ADD) {
            CopyRowsIn(in[++k * n], x2Gm[r0 * d], nr, d, dp);
        }
        if (biasKind == BiasKind::FULL) {
            CopyRowsIn(in[++k * n], biasGm[r0 * d], nr, d, dp);
        }
        inQue.EnQue(in);
    }

    // acc += the T tile src (float: directly; else through the squares row).
    __aicore__ inline void AddTile(const LocalTensor<float>& acc, const LocalTensor<T>& src, uint32_t nr)
    {
        if constexpr (F32) {
            Add(acc, acc, src, nr * dp);
        } else {
            LocalTensor<float> sq = sqBuf.Get<float>();
            for (uint32_t i = 0; i < nr; i++) {
                Cast(sq, src[i * dp], RoundMode::CAST_NONE, dp);
                PipeBarrier<PIPE_V>();
                Add(acc[i * dp], acc[i * dp], sq, dp);
                PipeBarrier<PIPE_V>();
            }
        }
        PipeBarrier<PIPE_V>();
    }

    // s = alpha * x1 (+ x2) (+ bias) in float; to the sum output when wanted.
    __aicore__ inline LocalTensor<float> Sum(const LocalTensor<T>& in, uint32_t nr)
    {
        const uint32_t n = nr * dp, stride = tileRows * dp;
        LocalTensor<float> xf;
        if constexpr (F32) {
            xf = in;
        } else {
            xf = xfBuf.Get<float>();
            Cast(xf, in, RoundMode::CAST_NONE, n);
            PipeBarrier<PIPE_V>();
        }
        if (alpha != 1.0f) {
            Muls(xf, xf, alpha, n);
            PipeBarrier<PIPE_V>();
        }
        uint32_t k = 0;
        if constexpr (ADD) {
            AddTile(xf, in[++k * stride], nr);
        }
        if (biasKind == BiasKind::FULL) {
            AddTile(xf, in[++k * stride], nr);
        } else if (biasKind == BiasKind::ROW) {
            for (uint32_t i = 0; i < nr; i++) {
                Add(xf[i * dp], xf[i * dp], Weight(2), d);
            }
            PipeBarrier<PIPE_V>();
        }
        if (withSum) {
            LocalTensor<T> s = sumQue.template AllocTensor<T>();
            if constexpr (F32) {
                DataCopy(s, xf, n);
            } else {
                Cast(s, xf, RoundMode::CAST_RINT, n);
            }
            sumQue.EnQue(s);
        }
        return xf;
    }

    // stat[i] = sum over the row i of v (v: xf, or squares into sqBuf).
    __aicore__ inline void RowSums(const LocalTensor<float>& stat, const LocalTensor<float>& xf, uint32_t nr,
                                   bool squares)
    {
        LocalTensor<float> sq = sqBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        for (uint32_t i = 0; i < nr; i++) {
            if (squares) {
                Mul(sq, xf[i * dp], xf[i * dp], d);
                PipeBarrier<PIPE_V>();
            }
            ReduceSum(stat[i], squares ? sq : xf[i * dp], work, d);
            PipeBarrier<PIPE_V>();
        }
    }

    __aicore__ inline void Compute(uint32_t nr)
    {
        LocalTensor<T> in = inQue.template DeQue<T>();
        LocalTensor<float> xf = Sum(in, nr);
        LocalTensor<float> stats = statQue.template AllocTensor<float>();
        LocalTensor<float> mean = stats, rstd = stats[statStride];
        const float inv = 1.0f / static_cast<float>(d);

        RowSums(mean, xf, nr, false);
        Muls(mean, mean, inv, nr);
        SetFlag<HardEvent::V_S>(0);
        WaitFlag<HardEvent::V_S>(0);
        for (uint32_t i = 0; i < nr; i++) {
            Adds(xf[i * dp], xf[i * dp], -mean.GetValue(i), d);
        }
        PipeBarrier<PIPE_V>();
        RowSums(rstd, xf, nr, true);
        RstdFromSums(rstd, onesBuf.Get<float>(), inv, eps, nr);

        LocalTensor<T> y = yQue.template AllocTensor<T>();
        // Float output: scale straight into y; else in xf, then one Cast.
        LocalTensor<float> yf = F32 ? y.template ReinterpretCast<float>() : xf;
        ScaleRows(yf, xf, rstd, Weight(0), nr, d, dp);
        PipeBarrier<PIPE_V>();
        for (uint32_t i = 0; i < nr; i++) {
            Add(yf[i * dp], yf[i * dp], Weight(1), d);
        }
        if constexpr (!F32) {
            PipeBarrier<PIPE_V>();
            Cast(y, yf, RoundMode::CAST_RINT, nr * dp);
        }
        if constexpr (!IsSameType<S, float>::value) {
            // Statistics in a narrower S: into the third and fourth regions.
            PipeBarrier<PIPE_V>();
            Cast(stats[2 * statStride].template ReinterpretCast<S>(), mean, RoundMode::CAST_RINT, nr);
            Cast(stats[3 * statStride].template ReinterpretCast<S>(), rstd, RoundMode::CAST_RINT, nr);
        }
        yQue.EnQue(y);
        statQue.EnQue(stats);
        inQue.FreeTensor(in);
    }

    __aicore__ inline void CopyOut(uint64_t r0, uint32_t nr)
    {
        LocalTensor<T> y = yQue.template DeQue<T>();
        CopyRowsOut(yGm[r0 * d], y, nr, d, dp);
        yQue.FreeTensor(y);
        if (withSum) {
            LocalTensor<T> s = sumQue.template DeQue<T>();
            CopyRowsOut(sumGm[r0 * d], s, nr, d, dp);
            sumQue.FreeTensor(s);
        }
        LocalTensor<float> stats = statQue.template DeQue<float>();
        if (withStats) {
            const uint32_t at = IsSameType<S, float>::value ? 0 : 2 * statStride;
            CopyUbToGm(meanGm[r0], stats[at].template ReinterpretCast<S>(), nr);
            CopyUbToGm(rstdGm[r0], stats[at + statStride].template ReinterpretCast<S>(), nr);
        }
        statQue.FreeTensor(stats);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQue;
    TQue<QuePosition::VECOUT, 2> yQue, sumQue, statQue;
    TBuf<QuePosition::VECCALC> xfBuf, wBuf, sqBuf, workBuf, onesBuf;
    GlobalTensor<T> x1Gm, x2Gm, biasGm, yGm, sumGm;
    GlobalTensor<S> meanGm, rstdGm;
    uint64_t rows = 0;
    uint32_t d = 0, dp = 0, tileRows = 0, depth = 2, statStride = 0;
    float eps = 0, alpha = 1;
    BiasKind biasKind = BiasKind::NONE;
    bool withSum = false;
    bool withStats = true;
};

template <typename T, typename S, bool ADD>
__aicore__ inline void RunLayerNorm(const LayerNormArgs& a)
{
    LayerNorm<T, S, ADD> op;
    if (op.Init(a)) {
        op.Process();
    }
}

} // namespace npukb_answer

#endif
