// group_norm.h - the group skeleton of the GroupNormSwish expert answer
// (kernel-only mode, Ascend 910B).
//
// x is [N, C, HW...]; group g of sample n (row r = n * G + g) holds the
// C / G channels of the group with all their HW trailing elements:
// contiguous in GM, len = C / G * HW elements. The rows are dealt to the
// cores in contiguous ranges and streamed through UB in tiles of whole rows
// (double-buffered queues, float compute, rows 64 floats apart in UB so
// every vector operand starts on a 32-byte boundary). gamma and beta are
// expanded once per core into one row per group index g (gamma[c] repeated
// HW times): the per-channel affine step is then two whole-row vector ops,
// whatever HW is. A row longer than what fits UB beside the expanded
// weights is not handled (Init refuses and the core writes nothing).
#ifndef NPUKB_ANSWER_GROUP_NORM_H
#define NPUKB_ANSWER_GROUP_NORM_H

#include "rows.h"
#include "float_map.h"

namespace npukb_answer {

struct GroupNormArgs {
    GM_ADDR x;
    GM_ADDR gamma;
    GM_ADDR beta;
    GM_ADDR y;
    GM_ADDR mean;
    GM_ADDR rstd;
    uint64_t rows;      // N * G
    uint32_t len;       // C / G * HW
    uint32_t hw;        // trailing elements per channel
    uint32_t numGroups; // G
    float eps;
    bool swish;
    float swishScale;
};

// T: x, gamma, beta, y, mean, rstd.
template <typename T>
class GroupNormSwish {
public:
    static constexpr bool F32 = IsSameType<T, float>::value;
    static constexpr uint32_t MAX_ROWS = 256;

    __aicore__ inline bool Init(const GroupNormArgs& a)
    {
        const uint64_t perCore = CeilDiv(a.rows, GetBlockNum());
        start = perCore * GetBlockIdx();
        if (start >= a.rows || a.len == 0) {
            return false;
        }
        rows = a.rows - start < perCore ? a.rows - start : perCore;
        len = a.len;
        lp = static_cast<uint32_t>(AlignUp(len, 64));
        hw = a.hw;
        groups = a.numGroups;
        eps = a.eps;
        swish = a.swish;
        scale = a.swishScale;
        xGm.SetGlobalBuffer((__gm__ T*)a.x + start * len, rows * len);
        yGm.SetGlobalBuffer((__gm__ T*)a.y + start * len, rows * len);
        meanGm.SetGlobalBuffer((__gm__ T*)a.mean + start, rows);
        rstdGm.SetGlobalBuffer((__gm__ T*)a.rstd + start, rows);

        const uint32_t rowF = lp * sizeof(float);
        const uint32_t workBytes = static_cast<uint32_t>(AlignUp(CeilDiv(lp, 64), 8) * sizeof(float));
        // Fixed: the expanded gamma and beta rows, a row of squares, the
        // reduction's work area, staging for gamma and beta.
        const uint32_t cpad = static_cast<uint32_t>(AlignUp(groups * (len / hw), 64));
        const uint32_t fixed = 2 * groups * rowF + rowF + workBytes + 2 * cpad * sizeof(float) + 256 + MAX_ROWS * 4;
        // Per row: in and out queues (depth 2), float copy (non-float T),
        // swish scratch, four stats per row in the stat queue (depth 2).
        const uint32_t perRow = 2 * 2 * lp * sizeof(T) + (F32 ? 0 : rowF) + rowF + 2 * 4 * sizeof(float);
        if (fixed + 64 >= UB_BUDGET || (UB_BUDGET - fixed - 64) / perRow == 0) {
            return false;
        }
        uint64_t nr = (UB_BUDGET - fixed - 64) / perRow;
        nr = nr < MAX_ROWS ? nr : MAX_ROWS;
        tileRows = static_cast<uint32_t>(nr < rows ? nr : rows);
        const uint32_t statBytes = static_cast<uint32_t>(AlignUp(tileRows, 8) * sizeof(float));
        statStride = statBytes / sizeof(float);
        pipe.InitBuffer(inQue, 2, tileRows * lp * sizeof(T));
        pipe.InitBuffer(yQue, 2, tileRows * lp * sizeof(T));
        pipe.InitBuffer(statQue, 2, 4 * statBytes);
        if constexpr (!F32) {
            pipe.InitBuffer(xfBuf, tileRows * rowF);
        }
        pipe.InitBuffer(tmpBuf, tileRows * rowF);
        pipe.InitBuffer(wBuf, 2 * groups * rowF);
        pipe.InitBuffer(sqBuf, rowF);
        pipe.InitBuffer(workBuf, workBytes);
        pipe.InitBuffer(chBuf, 2 * cpad * sizeof(float) + 256);
        pipe.InitBuffer(onesBuf, statBytes);
        LoadWeights(a, cpad);
        return true;
    }

    __aicore__ inline void Process()
    {
        for (uint64_t r0 = 0; r0 < rows; r0 += tileRows) {
            const uint32_t nr = static_cast<uint32_t>(rows - r0 < tileRows ? rows - r0 : tileRows);
            CopyIn(r0, nr);
            Compute(r0, nr);
            CopyOut(r0, nr);
        }
    }

private:
    // Row g of gamma (k = 0) or beta (k = 1), expanded.
    __aicore__ inline LocalTensor<float> Weight(uint32_t k, uint32_t g)
    {
        return wBuf.Get<float>()[(k * groups + g) * lp];
    }

    __aicore__ inline void LoadWeights(const GroupNormArgs& a, uint32_t cpad)
    {
        const uint32_t ch = groups * (len / hw);
        LocalTensor<float> chf = chBuf.Get<float>();
        GM_ADDR src[2] = {a.gamma, a.beta};
        for (uint32_t k = 0; k < 2; k++) {
            GlobalTensor<T> g;
            g.SetGlobalBuffer((__gm__ T*)src[k], ch);
            LocalTensor<float> dst = chf[k * cpad];
            LocalTensor<T> stage = F32 ? dst.template ReinterpretCast<T>() : sqBuf.Get<T>();
            CopyGmToUb(stage, g, ch);
            SetFlag<HardEvent::MTE2_V>(0);
            WaitFlag<HardEvent::MTE2_V>(0);
            if constexpr (!F32) {
                Cast(dst, stage, RoundMode::CAST_NONE, cpad);
                PipeBarrier<PIPE_V>();
            }
            SetFlag<HardEvent::V_MTE2>(0);
            WaitFlag<HardEvent::V_MTE2>(0);
        }
        // The expansion is scalar work, once per core: channel c of group g
        // fills hw lanes of row g.
        SetFlag<HardEvent::V_S>(0);
        WaitFlag<HardEvent::V_S>(0);
        const uint32_t cg = len / hw;
        for (uint32_t k = 0; k < 2; k++) {
            for (uint32_t g = 0; g < groups; g++) {
                LocalTensor<float> row = Weight(k, g);
                for (uint32_t c = 0; c < cg; c++) {
                    const float v = chf.GetValue(k * cpad + g * cg + c);
                    for (uint32_t j = 0; j < hw; j++) {
                        row.SetValue(c * hw + j, v);
                    }
                }
            }
        }
        SetFlag<HardEvent::S_V>(0);
        WaitFlag<HardEvent::S_V>(0);
        Duplicate(onesBuf.Get<float>(), 1.0f, static_cast<int32_t>(statStride));
        PipeBarrier<PIPE_V>();
    }

    __aicore__ inline void CopyIn(uint64_t r0, uint32_t nr)
    {
        LocalTensor<T> in = inQue.template AllocTensor<T>();
        CopyRowsIn(in, xGm[r0 * len], nr, len, lp);
        inQue.EnQue(in);
    }

    __aicore__ inline void Compute(uint64_t r0, uint32_t nr)
    {
        LocalTensor<T> in = inQue.template DeQue<T>();
        LocalTensor<float> xf;
        if constexpr (F32) {
            xf = in;
        } else {
            xf = xfBuf.Get<float>();
            Cast(xf, in, RoundMode::CAST_NONE, nr * lp);
            PipeBarrier<PIPE_V>();
        }
        LocalTensor<float> stats = statQue.template AllocTensor<float>();
        LocalTensor<float> mean = stats, rstd = stats[statStride];
        LocalTensor<float> sq = sqBuf.Get<float>(), work = workBuf.Get<float>();
        const float inv = 1.0f / static_cast<float>(len);
        for (uint32_t i = 0; i < nr; i++) {
            ReduceSum(mean[i], xf[i * lp], work, len);
            PipeBarrier<PIPE_V>();
        }
        Muls(mean, mean, inv, nr);
        SetFlag<HardEvent::V_S>(0);
        WaitFlag<HardEvent::V_S>(0);
        for (uint32_t i = 0; i < nr; i++) {
            Adds(xf[i * lp], xf[i * lp], -mean.GetValue(i), len);
        }
        PipeBarrier<PIPE_V>();
        for (uint32_t i = 0; i < nr; i++) {
            Mul(sq, xf[i * lp], xf[i * lp], len);
            PipeBarrier<PIPE_V>();
            ReduceSum(rstd[i], sq, work, len);
            PipeBarrier<PIPE_V>();
        }
        RstdFromSums(rstd, onesBuf.Get<float>(), inv, eps, nr);
        for (uint32_t i = 0; i < nr; i++) {
            const uint32_t g = static_cast<uint32_t>((start + r0 + i) % groups);
            Muls(xf[i * lp], xf[i * lp], rstd.GetValue(i), len);
            PipeBarrier<PIPE_V>();
            Mul(xf[i * lp], xf[i * lp], Weight(0, g), len);
            PipeBarrier<PIPE_V>();
            Add(xf[i * lp], xf[i * lp], Weight(1, g), len);
        }
        PipeBarrier<PIPE_V>();
        LocalTensor<T> y = yQue.template AllocTensor<T>();
        LocalTensor<float> yf = F32 ? y.template ReinterpretCast<float>() : xf;
        if (swish) {
            XSigmoid(yf, xf, tmpBuf.Get<float>(), scale, nr * lp);
        } else if constexpr (F32) {
            DataCopy(yf, xf, nr * lp);
        }
        PipeBarrier<PIPE_V>();
        if constexpr (!F32) {
            Cast(y, yf, RoundMode::CAST_RINT, nr * lp);
            PipeBarrier<PIPE_V>();
            Cast(stats[2 * statStride].template ReinterpretCast<T>(), mean, RoundMode::CAST_RINT, nr);
            Cast(stats[3 * statStride].template ReinterpretCast<T>(), rstd, RoundMode::CAST_RINT, nr);
        }
        yQue.EnQue(y);
        statQue.EnQue(stats);
        inQue.FreeTensor(in);
    }

    __aicore__ inline void CopyOut(uint64_t r0, uint32_t nr)
    {
        LocalTensor<T> y = yQue.template DeQue<T>();
        CopyRowsOut(yGm[r0 * len], y, nr, len, lp);
        yQue.FreeTensor(y);
        LocalTensor<float> stats = statQue.template DeQue<float>();
        const uint32_t at = F32 ? 0 : 2 * statStride;
        CopyUbToGm(meanGm[r0], stats[at].template ReinterpretCast<T>(), nr);
        CopyUbToGm(rstdGm[r0], stats[at + statStride].template ReinterpretCast<T>(), nr);
        statQue.FreeTensor(stats);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQue;
    TQue<QuePosition::VECOUT, 2> yQue, statQue;
    TBuf<QuePosition::VECCALC> xfBuf, tmpBuf, wBuf, sqBuf, workBuf, chBuf, onesBuf;
    GlobalTensor<T> xGm, yGm, meanGm, rstdGm;
    uint64_t start = 0, rows = 0;
    uint32_t len = 0, lp = 0, hw = 1, groups = 1, tileRows = 0, statStride = 0;
    float eps = 0, scale = 1;
    bool swish = false;
};

template <typename T>
__aicore__ inline void RunGroupNormSwish(const GroupNormArgs& a)
{
    GroupNormSwish<T> op;
    if (op.Init(a)) {
        op.Process();
    }
}

} // namespace npukb_answer

#endif
