// CrossEntropyLoss expert answer (kernel-only mode, Ascend 910B): per row of
// C logits the log-sum-exp, log_prob and the row's loss; the loss reduced
// over the rows (mean, sum) and zloss through the workspace.
//
// Each core streams its contiguous range of rows through UB in tiles of
// whole rows (padded to 16 elements), double-buffered, in float: per row a
// ReduceMax, the shifted Exp over the tile, a ReduceSum, one Ln and Add over
// the tile's rows for lse, then log_prob = x - lse; the row's loss reads
// log_prob at the target on the scalar unit (and, with label smoothing, the
// weighted row sum of log_prob, one Mul and ReduceSum). The cores' partial
// sums of the losses, of the targets' weights (mean's divisor) and of lse^2
// (zloss) meet in 32-byte slots of the workspace after SyncAll; core 0
// writes loss (mean, sum) and zloss. One row must fit a tile: C up to about
// 7000 classes in float32 (24 bytes of UB per class), 11000 below.
#include "kernel_operator.h"
#include "../../../../common/rows.h"

using namespace npukb_answer;

namespace {

constexpr uint32_t TILE = 4096;    // elements of one tile (at least one row)
constexpr uint32_t MAX_ROWS = 256; // rows of one tile
constexpr uint32_t PAD = 16;       // UB row alignment in elements
constexpr uint32_t SLOT = 8;       // floats per core in the workspace: 32 bytes
constexpr int32_t RED_NONE = 0, RED_MEAN = 1;

template <typename T>
class CrossEntropyLoss {
public:
    static constexpr bool F32 = IsSameType<T, float>::value;

    __aicore__ inline void Init(GM_ADDR input, GM_ADDR target, GM_ADDR weight, GM_ADDR loss, GM_ADDR logProb,
                                GM_ADDR zloss, GM_ADDR lse, GM_ADDR workspace, const CrossEntropyLossTilingData& td)
    {
        total = td.rows;
        const uint64_t perCore = CeilDiv(td.rows, GetBlockNum());
        const uint64_t first = perCore * GetBlockIdx();
        start = static_cast<uint32_t>(first < td.rows ? first : td.rows);
        rows = static_cast<uint32_t>(td.rows - start < perCore ? td.rows - start : perCore);
        classes = td.classes;
        reduction = td.reduction;
        ignore = td.ignoreIndex;
        ls = td.labelSmoothing;
        zScale = td.lseSquareScale;
        wantZ = td.returnZloss != 0;
        hasWeight = weight != nullptr;
        const uint64_t all = static_cast<uint64_t>(td.rows) * classes;
        xGm.SetGlobalBuffer((__gm__ T*)input, all);
        lpGm.SetGlobalBuffer((__gm__ T*)logProb, all);
        tGm.SetGlobalBuffer((__gm__ int64_t*)target, td.rows);
        lossGm.SetGlobalBuffer((__gm__ T*)loss, reduction == RED_NONE ? td.rows : 1);
        zGm.SetGlobalBuffer((__gm__ T*)zloss, 1);
        lseGm.SetGlobalBuffer((__gm__ T*)lse, td.rows);
        wsGm.SetGlobalBuffer((__gm__ float*)workspace, static_cast<uint64_t>(GetBlockNum()) * SLOT);
        if (hasWeight) {
            wGm.SetGlobalBuffer((__gm__ float*)weight, classes);
        }

        cp = static_cast<uint32_t>(AlignUp(classes > 0 ? classes : 1, PAD));
        uint32_t nr = TILE / cp;
        nr = nr < MAX_ROWS ? nr : MAX_ROWS;
        nr = nr > 0 ? nr : 1;
        tileRows = rows > 0 && nr > rows ? rows : nr;
        statStride = static_cast<uint32_t>(AlignUp(tileRows, PAD));
        const uint32_t tileElems = tileRows * cp;
        pipe.InitBuffer(inQue, 2, tileElems * sizeof(T));
        pipe.InitBuffer(lpQue, 2, tileElems * sizeof(T));
        pipe.InitBuffer(rowQue, 2, 2 * statStride * sizeof(T));
        pipe.InitBuffer(fBuf, tileElems * sizeof(float));
        pipe.InitBuffer(eBuf, tileElems * sizeof(float));
        // max, sum (then the smoothing sums), lse, the losses of the rows.
        pipe.InitBuffer(statBuf, 4 * statStride * sizeof(float));
        pipe.InitBuffer(workBuf, static_cast<uint32_t>(AlignUp(CeilDiv(cp, 64), 8) * sizeof(float)));
        pipe.InitBuffer(partBuf, GetBlockNum() * SLOT * sizeof(float));
        pipe.InitBuffer(finBuf, 64 * sizeof(float));
        if (ls > 0.0f) {
            pipe.InitBuffer(wBuf, cp * sizeof(float));
            LocalTensor<float> w = wBuf.Get<float>();
            if (hasWeight) {
                CopyGmToUb(w, wGm, classes);
                SetFlag<HardEvent::MTE2_V>(0);
                WaitFlag<HardEvent::MTE2_V>(0);
            } else {
                Duplicate(w, 1.0f, static_cast<int32_t>(classes));
            }
        }
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r0 = 0; r0 < rows; r0 += tileRows) {
            const uint32_t nr = rows - r0 < tileRows ? rows - r0 : tileRows;
            CopyIn(r0, nr);
            Compute(r0, nr);
            CopyOut(r0, nr);
        }
        Finish();
    }

private:
    __aicore__ inline float Weight(int64_t k) { return hasWeight ? wGm.GetValue(static_cast<uint64_t>(k)) : 1.0f; }

    __aicore__ inline LocalTensor<float> Stat(uint32_t k) { return statBuf.Get<float>()[k * statStride]; }

    __aicore__ inline void CopyIn(uint32_t r0, uint32_t nr)
    {
        LocalTensor<T> in = inQue.template AllocTensor<T>();
        CopyRowsIn(in, xGm[static_cast<uint64_t>(start + r0) * classes], nr, classes, cp);
        inQue.EnQue(in);
    }

    // dst = src in T (float: a copy).
    __aicore__ inline void ToT(const LocalTensor<T>& dst, const LocalTensor<float>& src, uint32_t n)
    {
        if constexpr (F32) {
            Adds(dst, src, 0.0f, n);
        } else {
            Cast(dst, src, RoundMode::CAST_RINT, n);
        }
    }

    __aicore__ inline void Compute(uint32_t r0, uint32_t nr)
    {
        LocalTensor<T> in = inQue.template DeQue<T>();
        LocalTensor<float> f = fBuf.Get<float>(), e = eBuf.Get<float>(), work = workBuf.Get<float>();
        LocalTensor<float> mx = Stat(0), sm = Stat(1), lse = Stat(2), lossRow = Stat(3);
        const uint32_t n = nr * cp;
        if constexpr (F32) {
            Adds(f, in, 0.0f, n);
        } else {
            Cast(f, in, RoundMode::CAST_NONE, n);
        }
        PipeBarrier<PIPE_V>();
        inQue.FreeTensor(in);
        for (uint32_t i = 0; i < nr; i++) {
            ReduceMax(mx[i], f[i * cp], work, classes);
            PipeBarrier<PIPE_V>();
        }
        SetFlag<HardEvent::V_S>(0);
        WaitFlag<HardEvent::V_S>(0);
        for (uint32_t i = 0; i < nr; i++) {
            Adds(e[i * cp], f[i * cp], -mx.GetValue(i), classes);
        }
        PipeBarrier<PIPE_V>();
        Exp(e, e, n);
        PipeBarrier<PIPE_V>();
        for (uint32_t i = 0; i < nr; i++) {
            ReduceSum(sm[i], e[i * cp], work, classes);
            PipeBarrier<PIPE_V>();
        }
        Ln(sm, sm, nr);
        PipeBarrier<PIPE_V>();
        Add(lse, sm, mx, nr);
        SetFlag<HardEvent::V_S>(0);
        WaitFlag<HardEvent::V_S>(0);
        for (uint32_t i = 0; i < nr; i++) {
            Adds(f[i * cp], f[i * cp], -lse.GetValue(i), classes);
        }
        PipeBarrier<PIPE_V>();
        if (ls > 0.0f) {
            // sm[i] = sum over c of w[c] * log_prob[i][c].
            LocalTensor<float> w = wBuf.Get<float>();
            for (uint32_t i = 0; i < nr; i++) {
                Mul(e[i * cp], f[i * cp], w, classes);
                PipeBarrier<PIPE_V>();
                ReduceSum(sm[i], e[i * cp], work, classes);
                PipeBarrier<PIPE_V>();
            }
        }
        LocalTensor<T> lp = lpQue.template AllocTensor<T>();
        ToT(lp, f, n);
        lpQue.EnQue(lp);

        // The rows' losses on the scalar unit.
        SetFlag<HardEvent::V_S>(0);
        WaitFlag<HardEvent::V_S>(0);
        for (uint32_t i = 0; i < nr; i++) {
            const int64_t t = tGm.GetValue(start + r0 + i);
            const float l = lse.GetValue(i);
            float v = 0.0f;
            accZ += l * l;
            if (t != ignore) {
                const float wt = Weight(t);
                v = (1.0f - ls) * wt * -f.GetValue(i * cp + static_cast<uint32_t>(t));
                if (ls > 0.0f) {
                    v += ls / static_cast<float>(classes) * -sm.GetValue(i);
                }
                accW += wt;
            }
            accLoss += v;
            lossRow.SetValue(i, v);
        }
        SetFlag<HardEvent::S_V>(0);
        WaitFlag<HardEvent::S_V>(0);
        LocalTensor<T> ro = rowQue.template AllocTensor<T>();
        ToT(ro, lse, nr);
        if (reduction == RED_NONE) {
            ToT(ro[statStride], lossRow, nr);
        }
        rowQue.EnQue(ro);
    }

    __aicore__ inline void CopyOut(uint32_t r0, uint32_t nr)
    {
        LocalTensor<T> lp = lpQue.template DeQue<T>();
        CopyRowsOut(lpGm[static_cast<uint64_t>(start + r0) * classes], lp, nr, classes, cp);
        lpQue.FreeTensor(lp);
        LocalTensor<T> ro = rowQue.template DeQue<T>();
        CopyUbToGm(lseGm[start + r0], ro, nr);
        if (reduction == RED_NONE) {
            CopyUbToGm(lossGm[start + r0], ro[statStride], nr);
        }
        rowQue.FreeTensor(ro);
    }

    // The partial sums meet in the workspace; core 0 writes the scalars.
    __aicore__ inline void Finish()
    {
        const uint32_t nb = GetBlockNum();
        LocalTensor<float> part = partBuf.Get<float>();
        PipeBarrier<PIPE_ALL>();
        Duplicate(part, 0.0f, SLOT);
        SetFlag<HardEvent::V_S>(0);
        WaitFlag<HardEvent::V_S>(0);
        part.SetValue(0, accLoss);
        part.SetValue(1, accW);
        part.SetValue(2, accZ);
        SetFlag<HardEvent::S_MTE3>(0);
        WaitFlag<HardEvent::S_MTE3>(0);
        DataCopy(wsGm[static_cast<uint64_t>(GetBlockIdx()) * SLOT], part, SLOT);
        PipeBarrier<PIPE_ALL>();
        SyncAll();
        if (GetBlockIdx() != 0) {
            return;
        }
        DataCopy(part, wsGm, nb * SLOT);
        SetFlag<HardEvent::MTE2_S>(0);
        WaitFlag<HardEvent::MTE2_S>(0);
        float sumLoss = 0.0f, sumW = 0.0f, sumZ = 0.0f;
        for (uint32_t b = 0; b < nb; b++) {
            sumLoss += part.GetValue(b * SLOT);
            sumW += part.GetValue(b * SLOT + 1);
            sumZ += part.GetValue(b * SLOT + 2);
        }
        if (reduction == RED_MEAN) {
            sumLoss = sumW > 0.0f ? sumLoss / sumW : 0.0f;
        }
        LocalTensor<float> fin = finBuf.Get<float>();
        fin.SetValue(0, sumLoss);
        fin.SetValue(16, wantZ ? zScale * sumZ / static_cast<float>(total) : 0.0f);
        SetFlag<HardEvent::S_V>(0);
        WaitFlag<HardEvent::S_V>(0);
        LocalTensor<T> out = fin[32].template ReinterpretCast<T>();
        ToT(out, fin, 32);
        SetFlag<HardEvent::V_MTE3>(0);
        WaitFlag<HardEvent::V_MTE3>(0);
        const DataCopyExtParams one{1, static_cast<uint32_t>(sizeof(T)), 0, 0, 0};
        if (reduction != RED_NONE) {
            DataCopyPad(lossGm, out, one);
        }
        DataCopyPad(zGm, out[16], one);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQue;
    TQue<QuePosition::VECOUT, 2> lpQue, rowQue;
    TBuf<QuePosition::VECCALC> fBuf, eBuf, statBuf, workBuf, partBuf, finBuf, wBuf;
    GlobalTensor<T> xGm, lpGm, lossGm, zGm, lseGm;
    GlobalTensor<int64_t> tGm;
    GlobalTensor<float> wGm, wsGm;
    uint32_t total = 0, start = 0, rows = 0, classes = 0, cp = 0, tileRows = 0, statStride = 0;
    int32_t reduction = 0;
    int64_t ignore = 0;
    float ls = 0.0f, zScale = 0.0f, accLoss = 0.0f, accW = 0.0f, accZ = 0.0f;
    bool wantZ = false, hasWeight = false;
};

} // namespace

extern "C" __global__ __aicore__ void cross_entropy_loss(GM_ADDR input, GM_ADDR target, GM_ADDR weight, GM_ADDR loss,
                                                         GM_ADDR log_prob, GM_ADDR zloss, GM_ADDR lse_for_zloss,
                                                         GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    CrossEntropyLoss<DTYPE_INPUT> op;
    op.Init(input, target, weight, loss, log_prob, zloss, lse_for_zloss, workspace, tilingData);
    op.Process();
}
