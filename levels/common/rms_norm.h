// rms_norm.h - the row skeleton shared by the RmsNorm, AddRmsNorm,
// InplaceAddRmsNorm, AddRmsNormCast and AddRmsNormQuant expert answers
// (kernel-only mode, Ascend 910B).
//
// x is rows x d (d: the elements gamma covers). The rows are dealt to the
// cores in contiguous ranges; each core streams its rows through UB in
// tiles of whole rows (each padded to 64 floats), computing in float:
// s = x1 (+ x2), per row sum(s^2) with one Mul and one ReduceSum, then
// rstd = 1 / sqrt(sum / d + eps) for the whole tile with four vector
// instructions, and y = s * rstd * gamma. Queues are double-buffered when
// two tiles of one row fit in UB (d up to about 3000 floats), else single.
// With a scales type S (AddRmsNormQuant), y leaves as int8 codes:
// code(y / scales + zeros) per column (y * scales when divMode is 0), and
// there is no rstd output.
#ifndef NPUKB_ANSWER_RMS_NORM_H
#define NPUKB_ANSWER_RMS_NORM_H

#include "quant.h"
#include "rows.h"

namespace npukb_answer {

struct RmsNormArgs {
    // One declaration each: GM_ADDR is a macro (a pointer type) in CANN.
    GM_ADDR x1;
    GM_ADDR x2; // only with ADD
    GM_ADDR gamma;
    GM_ADDR y;
    GM_ADDR rstd;
    GM_ADDR sum; // x1 + x2: only with ADD
    uint64_t rows;
    uint32_t d;
    float eps;
    GM_ADDR yf32; // y in float as well (AddRmsNormCast's y1); null when not wanted
    GM_ADDR scales; // quantisation (S not void): one per column
    GM_ADDR zeros;
    uint32_t divMode;
};

template <typename T, bool ADD, typename S = void, typename Z = void>
class RmsNorm {
public:
    static constexpr bool F32 = IsSameType<T, float>::value;
    static constexpr bool QUANT = !IsSameType<S, void>::value;
    using YT = typename std::conditional<QUANT, int8_t, T>::type;
    static constexpr uint32_t NIO = ADD ? 2 : 1; // T tensors in, and out
    static constexpr uint32_t MAX_ROWS = 1024;

    __aicore__ inline bool Init(const RmsNormArgs& a)
    {
        const uint64_t perCore = CeilDiv(a.rows, GetBlockNum());
        const uint64_t start = perCore * GetBlockIdx();
        if (start >= a.rows || a.d == 0) {
            return false;
        }
        rows = a.rows - start < perCore ? a.rows - start : perCore;
        d = a.d;
        withY32 = a.yf32 != nullptr;
        dp = static_cast<uint32_t>(AlignUp(d, 64));
        eps = a.eps;
        x1Gm.SetGlobalBuffer((__gm__ T*)a.x1 + start * d, rows * d);
        yGm.SetGlobalBuffer((__gm__ YT*)a.y + start * d, rows * d);
        if constexpr (!QUANT) {
            rstdGm.SetGlobalBuffer((__gm__ float*)a.rstd + start, rows);
        }
        divMode = a.divMode != 0;
        if (withY32) {
            y32Gm.SetGlobalBuffer((__gm__ float*)a.yf32 + start * d, rows * d);
        }
        if constexpr (ADD) {
            x2Gm.SetGlobalBuffer((__gm__ T*)a.x2 + start * d, rows * d);
            sumGm.SetGlobalBuffer((__gm__ T*)a.sum + start * d, rows * d);
        }

        // gamma and the row of squares (float), the reduction's work area.
        const uint32_t workBytes = static_cast<uint32_t>(AlignUp(CeilDiv(dp, 64), 8) * sizeof(float));
        const uint32_t fixed = (QUANT ? 4 : 2) * dp * sizeof(float) + workBytes;
        depth = 2;
        uint32_t nr = RowsFitting(fixed);
        if (nr == 0) {
            depth = 1;
            nr = RowsFitting(fixed);
        }
        nr = nr < MAX_ROWS ? nr : MAX_ROWS;
        tileRows = static_cast<uint32_t>(nr < rows ? nr : rows);
        const uint32_t tileBytes = tileRows * dp * sizeof(T);
        const uint32_t rstdBytes = static_cast<uint32_t>(AlignUp(tileRows, 8) * sizeof(float));
        pipe.InitBuffer(x1Que, depth, tileBytes);
        pipe.InitBuffer(yQue, depth, tileRows * dp * sizeof(YT));
        pipe.InitBuffer(rstdQue, depth, rstdBytes);
        if (withY32) {
            pipe.InitBuffer(y32Que, depth, tileRows * dp * sizeof(float));
        }
        if constexpr (ADD) {
            pipe.InitBuffer(x2Que, depth, tileBytes);
            pipe.InitBuffer(sumQue, depth, tileBytes);
        }
        if constexpr (!F32) {
            pipe.InitBuffer(xfBuf, tileRows * dp * sizeof(float));
        }
        pipe.InitBuffer(gammaBuf, (QUANT ? 3 : 1) * dp * sizeof(float));
        pipe.InitBuffer(sqBuf, dp * sizeof(float));
        pipe.InitBuffer(workBuf, workBytes);
        pipe.InitBuffer(onesBuf, rstdBytes);
        LoadGamma(a.gamma);
        if constexpr (QUANT) {
            LoadRow<S>(gammaBuf.Get<float>()[dp], a.scales);
            LoadRow<Z>(gammaBuf.Get<float>()[2 * dp], a.zeros);
        }
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
    __aicore__ inline uint32_t RowsFitting(uint32_t fixed) const
    {
        const uint32_t perRow = depth * ((2 * NIO - 1) * sizeof(T) * dp + sizeof(YT) * dp + (withY32 ? 4 * dp : 0) +
                                         2 * sizeof(float)) +
                                (F32 ? 0 : dp * sizeof(float)) + sizeof(float);
        // 64 bytes spare for the 32-byte rounding of the small buffers.
        return fixed + 64 >= UB_BUDGET ? 0 : (UB_BUDGET - fixed - 64) / perRow;
    }

    __aicore__ inline void LoadGamma(GM_ADDR gamma)
    {
        GlobalTensor<T> gGm;
        gGm.SetGlobalBuffer((__gm__ T*)gamma, d);
        LocalTensor<float> g = gammaBuf.Get<float>();
        LocalTensor<T> stage = F32 ? g.template ReinterpretCast<T>() : sqBuf.Get<T>();
        CopyGmToUb(stage, gGm, d);
        SetFlag<HardEvent::MTE2_V>(0);
        WaitFlag<HardEvent::MTE2_V>(0);
        if constexpr (!F32) {
            Cast(g, stage, RoundMode::CAST_NONE, dp);
        }
        Duplicate(onesBuf.Get<float>(), 1.0f, static_cast<int32_t>(AlignUp(tileRows, 8)));
        PipeBarrier<PIPE_V>();
    }

    // A row of d elements of U from GM, widened to float into dst (sqBuf
    // stages it).
    template <typename U>
    __aicore__ inline void LoadRow(const LocalTensor<float>& dst, GM_ADDR src)
    {
        GlobalTensor<U> g;
        g.SetGlobalBuffer((__gm__ U*)src, d);
        LocalTensor<U> stage = IsSameType<U, float>::value ? dst.template ReinterpretCast<U>() : sqBuf.Get<U>();
        // The previous row's Cast may still read the staging buffer.
        SetFlag<HardEvent::V_MTE2>(0);
        WaitFlag<HardEvent::V_MTE2>(0);
        CopyGmToUb(stage, g, d);
        SetFlag<HardEvent::MTE2_V>(0);
        WaitFlag<HardEvent::MTE2_V>(0);
        if constexpr (!IsSameType<U, float>::value) {
            Cast(dst, stage, RoundMode::CAST_NONE, dp);
        }
        PipeBarrier<PIPE_V>();
    }

    // yf (nr rows, dp apart) -> int8 codes in y: / or * the scales row,
    // + the zeros row, rounded to nearest even and clamped.
    __aicore__ inline void Quantise(const LocalTensor<int8_t>& y, const LocalTensor<float>& yf, uint32_t nr)
    {
        LocalTensor<float> sc = gammaBuf.Get<float>()[dp];
        LocalTensor<float> zp = gammaBuf.Get<float>()[2 * dp];
        for (uint32_t i = 0; i < nr; i++) {
            if (divMode) {
                Div(yf[i * dp], yf[i * dp], sc, d);
            } else {
                Mul(yf[i * dp], yf[i * dp], sc, d);
            }
        }
        PipeBarrier<PIPE_V>();
        for (uint32_t i = 0; i < nr; i++) {
            Add(yf[i * dp], yf[i * dp], zp, d);
        }
        PipeBarrier<PIPE_V>();
        LocalTensor<half> h = sqBuf.Get<half>();
        for (uint32_t i = 0; i < nr; i++) {
            QuantInt8(y[i * dp], yf[i * dp], h, d);
            PipeBarrier<PIPE_V>();
        }
    }

    __aicore__ inline void CopyIn(uint64_t r0, uint32_t nr)
    {
        LocalTensor<T> x1 = x1Que.template AllocTensor<T>();
        CopyRowsIn(x1, x1Gm[r0 * d], nr, d, dp);
        x1Que.EnQue(x1);
        if constexpr (ADD) {
            LocalTensor<T> x2 = x2Que.template AllocTensor<T>();
            CopyRowsIn(x2, x2Gm[r0 * d], nr, d, dp);
            x2Que.EnQue(x2);
        }
    }

    // xf = x1 (+ x2) in float; with ADD the sum also goes to its output.
    __aicore__ inline LocalTensor<float> Sum(const LocalTensor<T>& x1, uint32_t nr)
    {
        const uint32_t n = nr * dp;
        LocalTensor<float> xf;
        if constexpr (F32) {
            xf = x1;
        } else {
            xf = xfBuf.Get<float>();
            Cast(xf, x1, RoundMode::CAST_NONE, n);
            PipeBarrier<PIPE_V>();
        }
        if constexpr (ADD) {
            LocalTensor<T> x2 = x2Que.template DeQue<T>();
            if constexpr (F32) {
                Add(xf, xf, x2, n);
            } else {
                LocalTensor<float> sq = sqBuf.Get<float>();
                for (uint32_t i = 0; i < nr; i++) {
                    Cast(sq, x2[i * dp], RoundMode::CAST_NONE, dp);
                    PipeBarrier<PIPE_V>();
                    Add(xf[i * dp], xf[i * dp], sq, dp);
                    PipeBarrier<PIPE_V>();
                }
            }
            x2Que.FreeTensor(x2);
            PipeBarrier<PIPE_V>();
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

    __aicore__ inline void Compute(uint32_t nr)
    {
        LocalTensor<T> x1 = x1Que.template DeQue<T>();
        LocalTensor<float> xf = Sum(x1, nr);
        LocalTensor<float> sq = sqBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> rstd = rstdQue.template AllocTensor<float>();
        for (uint32_t i = 0; i < nr; i++) {
            Mul(sq, xf[i * dp], xf[i * dp], d);
            PipeBarrier<PIPE_V>();
            ReduceSum(rstd[i], sq, work, d);
            PipeBarrier<PIPE_V>();
        }
        RstdFromSums(rstd, onesBuf.Get<float>(), 1.0f / static_cast<float>(d), eps, nr);

        LocalTensor<YT> y = yQue.template AllocTensor<YT>();
        // Float output: scale straight into y; else in xf, then one Cast.
        LocalTensor<float> yf = F32 && !QUANT ? y.template ReinterpretCast<float>() : xf;
        ScaleRows(yf, xf, rstd, gammaBuf.Get<float>(), nr, d, dp);
        if (withY32 || !F32 || QUANT) {
            PipeBarrier<PIPE_V>();
        }
        if (withY32) {
            LocalTensor<float> y32 = y32Que.template AllocTensor<float>();
            DataCopy(y32, yf, nr * dp);
            y32Que.EnQue(y32);
        }
        if constexpr (QUANT) {
            Quantise(y, yf, nr);
        } else if constexpr (!F32) {
            Cast(y, yf, RoundMode::CAST_RINT, nr * dp);
        }
        yQue.EnQue(y);
        rstdQue.EnQue(rstd);
        x1Que.FreeTensor(x1);
    }

    __aicore__ inline void CopyOut(uint64_t r0, uint32_t nr)
    {
        LocalTensor<YT> y = yQue.template DeQue<YT>();
        CopyRowsOut(yGm[r0 * d], y, nr, d, dp);
        yQue.FreeTensor(y);
        if constexpr (ADD) {
            LocalTensor<T> s = sumQue.template DeQue<T>();
            CopyRowsOut(sumGm[r0 * d], s, nr, d, dp);
            sumQue.FreeTensor(s);
        }
        if (withY32) {
            LocalTensor<float> y32 = y32Que.template DeQue<float>();
            CopyRowsOut(y32Gm[r0 * d], y32, nr, d, dp);
            y32Que.FreeTensor(y32);
        }
        LocalTensor<float> rstd = rstdQue.template DeQue<float>();
        if constexpr (!QUANT) {
            CopyUbToGm(rstdGm[r0], rstd, nr);
        }
        rstdQue.FreeTensor(rstd);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> x1Que, x2Que;
    TQue<QuePosition::VECOUT, 2> yQue, sumQue, rstdQue, y32Que;
    TBuf<QuePosition::VECCALC> xfBuf, gammaBuf, sqBuf, workBuf, onesBuf;
    GlobalTensor<T> x1Gm, x2Gm, sumGm;
    GlobalTensor<YT> yGm;
    GlobalTensor<float> rstdGm, y32Gm;
    uint64_t rows = 0;
    uint32_t d = 0, dp = 0, tileRows = 0, depth = 2;
    float eps = 0;
    bool withY32 = false;
    bool divMode = true;
};

template <typename T, bool ADD, typename S = void, typename Z = void>
__aicore__ inline void RunRmsNorm(const RmsNormArgs& a)
{
    RmsNorm<T, ADD, S, Z> op;
    if (op.Init(a)) {
        op.Process();
    }
}

} // namespace npukb_answer

#endif
