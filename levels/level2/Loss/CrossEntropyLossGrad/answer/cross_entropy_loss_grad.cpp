// CrossEntropyLossGrad expert answer (kernel-only mode, Ascend 910B): the
// gradient of the cross-entropy loss with respect to the logits, from
// log_prob. Per row n (target t, scale s_n from grad_loss and the
// reduction, 0 for an ignored row), with p = exp(log_prob):
//   x_grad[n][k] = a_n p_k - a_n [k == t] + b_n (p_k S - w_k),
//   a_n = s_n (1 - ls) w_t, b_n = s_n ls / C, S = sum of the weights.
// For mean, every core sums the weights of its rows' targets on the scalar
// unit, the partials meet through the workspace (SyncAll); each core then
// streams its contiguous range of rows through UB in
// tiles of whole rows (rows padded to 16 elements; rows longer than
// MAX_COLS in column chunks, one row per tile), double-buffered, computing
// in float: one Exp over the tile, one Muls per row, the target's element
// fixed on the scalar unit, the smoothing term (ls > 0 only) with Axpy.
#include "kernel_operator.h"
#include "../../../../common/rows.h"

using namespace npukb_answer;

namespace {

constexpr uint32_t TILE = 8192;     // elements of one tile
constexpr uint32_t MAX_COLS = 4096; // longer rows go in chunks
constexpr uint32_t MAX_ROWS = 512;  // rows of one tile
constexpr uint32_t PAD = 16;        // UB row alignment in elements
constexpr int32_t RED_NONE = 0, RED_MEAN = 1;
constexpr uint32_t SLOT = 8; // floats per core in the workspace: 32 bytes

template <typename T>
class CrossEntropyLossGrad {
public:
    static constexpr bool F32 = IsSameType<T, float>::value;

    __aicore__ inline bool Init(GM_ADDR gradLoss, GM_ADDR logProb, GM_ADDR target, GM_ADDR weight, GM_ADDR xGrad,
                                GM_ADDR workspace, const CrossEntropyLossGradTilingData& td)
    {
        const uint64_t perCore = CeilDiv(td.rows, GetBlockNum());
        const uint64_t first = perCore * GetBlockIdx();
        start = static_cast<uint32_t>(first < td.rows ? first : td.rows);
        rows = static_cast<uint32_t>(td.rows - start < perCore ? td.rows - start : perCore);
        classes = td.classes;
        reduction = td.reduction;
        ignore = td.ignoreIndex;
        ls = td.labelSmoothing;
        hasWeight = weight != nullptr;
        tGm.SetGlobalBuffer((__gm__ int64_t*)target, td.rows);
        if (hasWeight) {
            wGm.SetGlobalBuffer((__gm__ float*)weight, classes);
        }
        // Every core, rows or not, takes part in mean's sum of weights.
        const float total = reduction == RED_MEAN ? TotalWeight(workspace) : 0.0f;
        if (rows == 0 || classes == 0) {
            return false;
        }
        gGm.SetGlobalBuffer((__gm__ T*)gradLoss, reduction == RED_NONE ? td.rows : 1);
        lpGm.SetGlobalBuffer((__gm__ T*)logProb, static_cast<uint64_t>(td.rows) * classes);
        xgGm.SetGlobalBuffer((__gm__ T*)xGrad, static_cast<uint64_t>(td.rows) * classes);

        cols = classes <= MAX_COLS ? classes : MAX_COLS;
        colsPad = static_cast<uint32_t>(AlignUp(cols, PAD));
        chunks = static_cast<uint32_t>(CeilDiv(classes, cols));
        uint32_t nr = classes <= MAX_COLS ? TILE / colsPad : 1;
        nr = nr < MAX_ROWS ? nr : MAX_ROWS;
        nr = nr > 0 ? nr : 1;
        tileRows = nr < rows ? nr : rows;
        const uint32_t tileElems = tileRows * colsPad;
        pipe.InitBuffer(inQue, 2, tileElems * sizeof(T));
        pipe.InitBuffer(outQue, 2, tileElems * sizeof(T));
        if constexpr (!F32) {
            pipe.InitBuffer(fBuf, tileElems * sizeof(float));
        }
        pipe.InitBuffer(gStage, static_cast<uint32_t>(AlignUp(tileRows, PAD) * sizeof(T)));
        pipe.InitBuffer(gBuf, static_cast<uint32_t>(AlignUp(tileRows, PAD) * sizeof(float)));
        if (ls > 0.0f) {
            pipe.InitBuffer(wBuf, colsPad * sizeof(float));
        }

        // The scale shared by every row (sum, mean), and the sums of weights.
        if (reduction != RED_NONE) {
            LoadGrad(0, 1);
            common = gBuf.Get<float>().GetValue(0);
            if (reduction == RED_MEAN) {
                common = total > 0.0f ? common / total : 0.0f;
            }
        }
        weightSum = static_cast<float>(classes);
        if (ls > 0.0f && hasWeight) {
            weightSum = 0.0f;
            for (uint32_t k = 0; k < classes; k++) {
                weightSum += wGm.GetValue(k);
            }
        }
        return true;
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r0 = 0; r0 < rows; r0 += tileRows) {
            const uint32_t nr = rows - r0 < tileRows ? rows - r0 : tileRows;
            RowScales(r0, nr);
            for (uint32_t k = 0; k < chunks; k++) {
                const uint32_t c0 = k * cols;
                const uint32_t n = classes - c0 < cols ? classes - c0 : cols;
                CopyIn(r0, nr, c0, n);
                Compute(nr, c0, n);
                CopyOut(r0, nr, c0, n);
            }
        }
    }

private:
    __aicore__ inline float Weight(int64_t k) { return hasWeight ? wGm.GetValue(static_cast<uint64_t>(k)) : 1.0f; }

    // W = sum over the rows not ignored of weight[target]: each core sums
    // its own rows into a 32-byte slot of the workspace; after SyncAll each
    // adds the slots.
    __aicore__ inline float TotalWeight(GM_ADDR workspace)
    {
        const uint32_t nb = GetBlockNum();
        GlobalTensor<float> ws;
        ws.SetGlobalBuffer((__gm__ float*)workspace, static_cast<uint64_t>(nb) * SLOT);
        pipe.InitBuffer(partBuf, nb * SLOT * sizeof(float));
        LocalTensor<float> part = partBuf.Get<float>();
        float acc = 0.0f;
        for (uint32_t n = start; n < start + rows; n++) {
            const int64_t t = tGm.GetValue(n);
            if (t != ignore) {
                acc += Weight(t);
            }
        }
        Duplicate(part, 0.0f, SLOT);
        SetFlag<HardEvent::V_S>(0);
        WaitFlag<HardEvent::V_S>(0);
        part.SetValue(0, acc);
        SetFlag<HardEvent::S_MTE3>(0);
        WaitFlag<HardEvent::S_MTE3>(0);
        DataCopy(ws[static_cast<uint64_t>(GetBlockIdx()) * SLOT], part, SLOT);
        PipeBarrier<PIPE_ALL>();
        SyncAll();
        DataCopy(part, ws, nb * SLOT);
        SetFlag<HardEvent::MTE2_S>(0);
        WaitFlag<HardEvent::MTE2_S>(0);
        float total = 0.0f;
        for (uint32_t b = 0; b < nb; b++) {
            total += part.GetValue(b * SLOT);
        }
        return total;
    }

    // gBuf[0 .. n) = grad_loss[at .. at + n) in float, ready for the scalar unit.
    __aicore__ inline void LoadGrad(uint32_t at, uint32_t n)
    {
        LocalTensor<T> stage = gStage.Get<T>();
        LocalTensor<float> g = gBuf.Get<float>();
        // The scalar unit has read the previous values.
        SetFlag<HardEvent::S_V>(0);
        WaitFlag<HardEvent::S_V>(0);
        CopyGmToUb(stage, gGm[at], n);
        SetFlag<HardEvent::MTE2_V>(0);
        WaitFlag<HardEvent::MTE2_V>(0);
        if constexpr (F32) {
            Adds(g, stage, 0.0f, n);
        } else {
            Cast(g, stage, RoundMode::CAST_NONE, n);
        }
        SetFlag<HardEvent::V_S>(0);
        WaitFlag<HardEvent::V_S>(0);
        // The next load may overwrite the staging area.
        SetFlag<HardEvent::V_MTE2>(0);
        WaitFlag<HardEvent::V_MTE2>(0);
    }

    // a[i], b[i] and the target of the tile's rows.
    __aicore__ inline void RowScales(uint32_t r0, uint32_t nr)
    {
        if (reduction == RED_NONE) {
            LoadGrad(start + r0, nr);
        }
        LocalTensor<float> g = gBuf.Get<float>();
        for (uint32_t i = 0; i < nr; i++) {
            const int64_t t = tGm.GetValue(start + r0 + i);
            tgt[i] = t;
            float s = reduction == RED_NONE ? g.GetValue(i) : common;
            if (t == ignore) {
                s = 0.0f;
            }
            a[i] = t == ignore ? 0.0f : s * (1.0f - ls) * Weight(t);
            b[i] = s * ls / static_cast<float>(classes);
        }
    }

    __aicore__ inline void CopyIn(uint32_t r0, uint32_t nr, uint32_t c0, uint32_t n)
    {
        LocalTensor<T> in = inQue.template AllocTensor<T>();
        CopyRowsIn(in, lpGm[static_cast<uint64_t>(start + r0) * classes + c0], nr, n, colsPad);
        if (ls > 0.0f) {
            LocalTensor<float> w = wBuf.Get<float>();
            if (hasWeight) {
                GlobalTensor<float> wc = wGm[c0];
                CopyGmToUb(w, wc, n);
            } else {
                Duplicate(w, 1.0f, static_cast<int32_t>(n));
            }
        }
        inQue.EnQue(in);
    }

    __aicore__ inline void Compute(uint32_t nr, uint32_t c0, uint32_t n)
    {
        LocalTensor<T> in = inQue.template DeQue<T>();
        LocalTensor<T> out = outQue.template AllocTensor<T>();
        const uint32_t total = nr * colsPad;
        LocalTensor<float> f;
        if constexpr (F32) {
            f = out;
            Exp(f, in, total);
        } else {
            f = fBuf.Get<float>();
            Cast(f, in, RoundMode::CAST_NONE, total);
            PipeBarrier<PIPE_V>();
            Exp(f, f, total);
        }
        PipeBarrier<PIPE_V>();
        for (uint32_t i = 0; i < nr; i++) {
            Muls(f[i * colsPad], f[i * colsPad], a[i] + b[i] * weightSum, n);
        }
        if (ls > 0.0f) {
            // The weights arrived with the tile (MTE2, waited by DeQue).
            PipeBarrier<PIPE_V>();
            LocalTensor<float> w = wBuf.Get<float>();
            for (uint32_t i = 0; i < nr; i++) {
                Axpy(f[i * colsPad], w, -b[i], n);
            }
        }
        // The target's element on the scalar unit.
        SetFlag<HardEvent::V_S>(0);
        WaitFlag<HardEvent::V_S>(0);
        for (uint32_t i = 0; i < nr; i++) {
            if (tgt[i] >= c0 && tgt[i] < c0 + n && a[i] != 0.0f) {
                const uint32_t at = i * colsPad + static_cast<uint32_t>(tgt[i] - c0);
                f.SetValue(at, f.GetValue(at) - a[i]);
            }
        }
        SetFlag<HardEvent::S_V>(0);
        WaitFlag<HardEvent::S_V>(0);
        if constexpr (!F32) {
            Cast(out, f, RoundMode::CAST_RINT, total);
        }
        outQue.EnQue(out);
        inQue.FreeTensor(in);
    }

    __aicore__ inline void CopyOut(uint32_t r0, uint32_t nr, uint32_t c0, uint32_t n)
    {
        LocalTensor<T> out = outQue.template DeQue<T>();
        CopyRowsOut(xgGm[static_cast<uint64_t>(start + r0) * classes + c0], out, nr, n, colsPad);
        outQue.FreeTensor(out);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQue;
    TQue<QuePosition::VECOUT, 2> outQue;
    TBuf<QuePosition::VECCALC> fBuf, gStage, gBuf, wBuf, partBuf;
    GlobalTensor<T> gGm, lpGm, xgGm;
    GlobalTensor<int64_t> tGm;
    GlobalTensor<float> wGm;
    float a[MAX_ROWS];
    float b[MAX_ROWS];
    int64_t tgt[MAX_ROWS];
    uint32_t start = 0, rows = 0, classes = 0, cols = 0, colsPad = 0, chunks = 0, tileRows = 0;
    int32_t reduction = 0;
    int64_t ignore = 0;
    float ls = 0.0f, common = 0.0f, weightSum = 0.0f;
    bool hasWeight = false;
};

} // namespace

extern "C" __global__ __aicore__ void cross_entropy_loss_grad(GM_ADDR grad_loss, GM_ADDR log_prob, GM_ADDR target,
                                                              GM_ADDR weight, GM_ADDR x_grad, GM_ADDR workspace,
                                                              GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    CrossEntropyLossGrad<DTYPE_LOG_PROB> op;
    if (op.Init(grad_loss, log_prob, target, weight, x_grad, workspace, tilingData)) {
        op.Process();
    }
}
