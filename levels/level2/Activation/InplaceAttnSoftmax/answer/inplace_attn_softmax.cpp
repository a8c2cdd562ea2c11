// InplaceAttnSoftmax expert answer: x := softmax(x) over the last axis, in
// place, for bfloat16, float16 and float32 (kernel-only mode, Ascend 910B),
// computed in float.
//
// The rows are dealt to the cores in contiguous ranges. A tile of whole
// rows moves with one DataCopyPad (rows padded to 32 bytes in UB) through a
// double-buffered input queue and comes back through a double-buffered
// output queue to the same place; per row: ReduceMax, subtract, Exp,
// ReduceSum, scale by the reciprocal of the sum. A tile holds at least one
// whole row: rows of up to about 8K float elements fit the UB (the cases'
// rows have at most 2048), longer ones would need a row split in passes.
#include "kernel_operator.h"
#include "../../../../common/elementwise.h"

using namespace AscendC;
using namespace npukb_answer;

template <typename T>
class RowSoftmax {
public:
    __aicore__ inline bool Init(GM_ADDR x, uint64_t rows, uint32_t len)
    {
        const uint64_t perCore = CeilDiv(rows, GetBlockNum());
        row0 = perCore * GetBlockIdx();
        if (row0 >= rows) {
            return false;
        }
        nrows = rows - row0 < perCore ? rows - row0 : perCore;
        L = len;
        xStride = static_cast<uint32_t>(AlignUp(len, 32 / sizeof(T)));
        fStride = static_cast<uint32_t>(AlignUp(len, 64));
        xGm.SetGlobalBuffer((__gm__ T*)x, rows * len);
        // Per row: input and output double-buffered, one float row.
        const uint32_t perRow = 4 * xStride * sizeof(T) + fStride * 4;
        uint32_t t = (UB_BUDGET - 2048) / perRow;
        t = t < 1 ? 1 : (t > 64 ? 64 : t);
        tileRows = static_cast<uint32_t>(t < nrows ? t : nrows);
        pipe.InitBuffer(inQ, 2, tileRows * xStride * sizeof(T));
        pipe.InitBuffer(outQ, 2, tileRows * xStride * sizeof(T));
        pipe.InitBuffer(fBuf, tileRows * fStride * 4);
        pipe.InitBuffer(workBuf, fStride / 64 * 4 + 1024);
        return true;
    }

    __aicore__ inline void Process()
    {
        for (uint64_t r = row0; r < row0 + nrows; r += tileRows) {
            const uint32_t n = static_cast<uint32_t>(row0 + nrows - r < tileRows ? row0 + nrows - r : tileRows);
            CopyIn(r, n);
            Compute(n);
            CopyOut(r, n);
        }
    }

private:
    __aicore__ inline DataCopyExtParams Rows(uint32_t n) const
    {
        return DataCopyExtParams{static_cast<uint16_t>(n), static_cast<uint32_t>(L * sizeof(T)), 0, 0, 0};
    }

    __aicore__ inline void CopyIn(uint64_t r, uint32_t n)
    {
        LocalTensor<T> x = inQ.AllocTensor<T>();
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(x, xGm[r * L], Rows(n), pad);
        inQ.EnQue(x);
    }

    __aicore__ inline float Scalar(const LocalTensor<float>& v)
    {
        SetFlag<HardEvent::V_S>(0);
        WaitFlag<HardEvent::V_S>(0);
        const float s = v.GetValue(0);
        SetFlag<HardEvent::S_V>(0);
        WaitFlag<HardEvent::S_V>(0);
        return s;
    }

    __aicore__ inline void Compute(uint32_t n)
    {
        LocalTensor<T> x = inQ.DeQue<T>();
        LocalTensor<T> y = outQ.AllocTensor<T>();
        LocalTensor<float> f = fBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> res = work[fStride / 64 + 128];
        for (uint32_t i = 0; i < n; i++) {
            if constexpr (IsSameType<T, float>::value) {
                Adds(f[i * fStride], x[i * xStride], 0.0f, L);
            } else {
                Cast(f[i * fStride], x[i * xStride], RoundMode::CAST_NONE, L);
            }
        }
        PipeBarrier<PIPE_V>();
        inQ.FreeTensor(x);
        for (uint32_t i = 0; i < n; i++) {
            LocalTensor<float> v = f[i * fStride];
            ReduceMax(res, v, work, static_cast<int32_t>(L));
            const float mx = Scalar(res);
            Adds(v, v, -mx, L);
            PipeBarrier<PIPE_V>();
            Exp(v, v, L);
            PipeBarrier<PIPE_V>();
            ReduceSum(res, v, work, static_cast<int32_t>(L));
            const float sum = Scalar(res);
            Muls(v, v, 1.0f / sum, L);
            PipeBarrier<PIPE_V>();
            if constexpr (IsSameType<T, float>::value) {
                Adds(y[i * xStride], v, 0.0f, L);
            } else {
                Cast(y[i * xStride], v, RoundMode::CAST_RINT, L);
            }
        }
        outQ.EnQue(y);
    }

    __aicore__ inline void CopyOut(uint64_t r, uint32_t n)
    {
        LocalTensor<T> y = outQ.DeQue<T>();
        DataCopyPad(xGm[r * L], y, Rows(n));
        outQ.FreeTensor(y);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<QuePosition::VECCALC> fBuf, workBuf;
    GlobalTensor<T> xGm;
    uint64_t row0 = 0, nrows = 0;
    uint32_t L = 0, tileRows = 0, xStride = 0, fStride = 0;
};

extern "C" __global__ __aicore__ void inplace_attn_softmax(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    RowSoftmax<DTYPE_X> op;
    if (op.Init(x, tilingData.rows, tilingData.rowLength)) {
        op.Process();
    }
}
