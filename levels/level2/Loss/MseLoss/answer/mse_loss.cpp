// MseLoss expert answer: (predict - label)^2 element-wise (reduction 0), or
// its sum (2) or mean (1), for float16 and float32 (kernel-only mode,
// Ascend 910B), computed in float.
//  - none: the shared element-wise skeleton (levels/common).
//  - sum/mean: each core streams its contiguous range through UB in
//    double-buffered tiles, sums each tile's squares with ReduceSum and
//    adds the tile sums on the scalar unit; it leaves its partial in its own
//    32-byte slot of the workspace, SyncAll, and core 0 adds the partials
//    and writes the one result. Every term is non-negative, so the float
//    sums lose no accuracy to cancellation.
#include "kernel_operator.h"
#include "../../../../common/float_map.h"

using namespace AscendC;
using namespace npukb_answer;

struct SquaredDiffFn {
    static constexpr int NIN = 2;
    static constexpr uint32_t SCRATCH_FLOATS = 0;

    __aicore__ inline void Apply(const LocalTensor<float>& y, const LocalTensor<float>* in,
                                 const LocalTensor<float>* tmp, uint32_t count)
    {
        Sub(in[0], in[0], in[1], count);
        PipeBarrier<PIPE_V>();
        Mul(y, in[0], in[0], count);
    }
};

template <typename T>
class MseReduce {
public:
    // Two double-buffered inputs and two float temporaries per element.
    static constexpr uint32_t TILE = sizeof(T) == 4 ? 4096 : 8192;
    static constexpr uint32_t SLOT = 8; // floats per core in the workspace: 32 bytes

    __aicore__ inline void Init(GM_ADDR predict, GM_ADDR label, GM_ADDR y, GM_ADDR workspace, uint64_t total)
    {
        constexpr uint32_t unit = 32 / sizeof(T);
        const uint64_t perCore = CeilDiv(CeilDiv(total, unit), GetBlockNum()) * unit;
        start = perCore * GetBlockIdx();
        length = start >= total ? 0 : (total - start < perCore ? total - start : perCore);
        pGm.SetGlobalBuffer((__gm__ T*)predict + (length ? start : 0), length);
        lGm.SetGlobalBuffer((__gm__ T*)label + (length ? start : 0), length);
        yGm.SetGlobalBuffer((__gm__ T*)y, 1);
        wsGm.SetGlobalBuffer((__gm__ float*)workspace, static_cast<uint64_t>(GetBlockNum()) * SLOT);
        pipe.InitBuffer(pQ, 2, TILE * sizeof(T));
        pipe.InitBuffer(lQ, 2, TILE * sizeof(T));
        pipe.InitBuffer(fBuf, 2 * TILE * 4);
        pipe.InitBuffer(workBuf, TILE / 64 * 4 + 256);
        pipe.InitBuffer(partBuf, AlignUp(static_cast<uint64_t>(GetBlockNum()) * SLOT, 64) * 4);
    }

    __aicore__ inline void Process(uint64_t total, bool mean)
    {
        float acc = 0.0f;
        for (uint64_t off = 0; off < length; off += TILE) {
            const uint32_t n = static_cast<uint32_t>(length - off < TILE ? length - off : TILE);
            CopyIn(off, n);
            acc += TileSum(n);
        }
        LocalTensor<float> part = partBuf.Get<float>();
        Duplicate(part, 0.0f, SLOT);
        PipeBarrier<PIPE_V>();
        SetFlag<HardEvent::V_S>(0);
        WaitFlag<HardEvent::V_S>(0);
        part.SetValue(0, acc);
        SetFlag<HardEvent::S_MTE3>(0);
        WaitFlag<HardEvent::S_MTE3>(0);
        DataCopy(wsGm[static_cast<uint64_t>(GetBlockIdx()) * SLOT], part, SLOT);
        PipeBarrier<PIPE_ALL>();
        SyncAll();
        if (GetBlockIdx() != 0) {
            return;
        }
        const uint32_t nb = GetBlockNum();
        DataCopy(part, wsGm, nb * SLOT);
        SetFlag<HardEvent::MTE2_S>(0);
        WaitFlag<HardEvent::MTE2_S>(0);
        float sum = 0.0f;
        for (uint32_t b = 0; b < nb; b++) {
            sum += part.GetValue(b * SLOT);
        }
        if (mean) {
            sum = sum / static_cast<float>(total);
        }
        LocalTensor<T> out = pQ.AllocTensor<T>();
        LocalTensor<float> f = fBuf.Get<float>();
        f.SetValue(0, sum);
        SetFlag<HardEvent::S_V>(0);
        WaitFlag<HardEvent::S_V>(0);
        if constexpr (IsSameType<T, float>::value) {
            Adds(out, f, 0.0f, 64);
        } else {
            Cast(out, f, RoundMode::CAST_RINT, 64);
        }
        SetFlag<HardEvent::V_MTE3>(0);
        WaitFlag<HardEvent::V_MTE3>(0);
        DataCopyPad(yGm, out, DataCopyExtParams{1, static_cast<uint32_t>(sizeof(T)), 0, 0, 0});
        pQ.FreeTensor(out);
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t n)
    {
        LocalTensor<T> p = pQ.AllocTensor<T>();
        LocalTensor<T> l = lQ.AllocTensor<T>();
        CopyGmToUb(p, pGm[off], n);
        CopyGmToUb(l, lGm[off], n);
        pQ.EnQue(p);
        lQ.EnQue(l);
    }

    __aicore__ inline float TileSum(uint32_t n)
    {
        const uint32_t count = static_cast<uint32_t>(AlignUp(n, 64));
        LocalTensor<T> p = pQ.DeQue<T>();
        LocalTensor<T> l = lQ.DeQue<T>();
        LocalTensor<float> a = fBuf.Get<float>();
        LocalTensor<float> b = a[TILE];
        if constexpr (IsSameType<T, float>::value) {
            Sub(a, p, l, count);
        } else {
            Cast(a, p, RoundMode::CAST_NONE, count);
            Cast(b, l, RoundMode::CAST_NONE, count);
            PipeBarrier<PIPE_V>();
            Sub(a, a, b, count);
        }
        PipeBarrier<PIPE_V>();
        pQ.FreeTensor(p);
        lQ.FreeTensor(l);
        Mul(a, a, a, count);
        PipeBarrier<PIPE_V>();
        // Only the n real elements: the padding lanes hold no data.
        ReduceSum(b, a, workBuf.Get<float>(), static_cast<int32_t>(n));
        SetFlag<HardEvent::V_S>(0);
        WaitFlag<HardEvent::V_S>(0);
        const float s = b.GetValue(0);
        SetFlag<HardEvent::S_V>(0);
        WaitFlag<HardEvent::S_V>(0);
        return s;
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> pQ, lQ;
    TBuf<QuePosition::VECCALC> fBuf, workBuf, partBuf;
    GlobalTensor<T> pGm, lGm, yGm;
    GlobalTensor<float> wsGm;
    uint64_t start = 0, length = 0;
};

extern "C" __global__ __aicore__ void mse_loss(GM_ADDR predict, GM_ADDR label, GM_ADDR y, GM_ADDR workspace,
                                               GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    if (tilingData.reduction == 0) {
        FloatMapOp<DTYPE_PREDICT, SquaredDiffFn> op;
        GM_ADDR in[2] = {predict, label};
        RunElementwise(op, in, y, tilingData.totalLength);
        return;
    }
    MseReduce<DTYPE_PREDICT> op;
    op.Init(predict, label, y, workspace, tilingData.totalLength);
    op.Process(tilingData.totalLength, tilingData.reduction == 1);
}
