// SelectReduceMaxDSubExpReduceSumDRealDiv expert answer: v = sel ? x1 : x2,
// then the softmax of v over the last axis, for float16 (kernel-only mode,
// Ascend 910B), computed in float.
//
// The rows are dealt to the cores in contiguous ranges; a tile of rows
// moves with one DataCopyPad per tensor (each row padded to 32 bytes in
// UB) through double-buffered queues. v = x1 * m + x2 * (1 - m) with m the
// mask byte as a float is exact (m is 0 or 1). Per row: ReduceMax,
// subtract, Exp, ReduceSum, scale by the reciprocal of the sum.
#include "kernel_operator.h"
#include "../../../../common/elementwise.h"

using namespace AscendC;
using namespace npukb_answer;

template <typename T>
class SelectSoftmax {
public:
    __aicore__ inline bool Init(GM_ADDR sel, GM_ADDR x1, GM_ADDR x2, GM_ADDR y, uint32_t rows, uint32_t len)
    {
        const uint32_t perCore = static_cast<uint32_t>(CeilDiv(rows, GetBlockNum()));
        row0 = perCore * GetBlockIdx();
        if (row0 >= rows) {
            return false;
        }
        nrows = rows - row0 < perCore ? rows - row0 : perCore;
        L = len;
        selStride = static_cast<uint32_t>(AlignUp(len, 32));
        xStride = static_cast<uint32_t>(AlignUp(len, 32 / sizeof(T)));
        fStride = static_cast<uint32_t>(AlignUp(len, 64));
        const uint64_t base = static_cast<uint64_t>(row0) * len;
        selGm.SetGlobalBuffer((__gm__ uint8_t*)sel + base, static_cast<uint64_t>(nrows) * len);
        x1Gm.SetGlobalBuffer((__gm__ T*)x1 + base, static_cast<uint64_t>(nrows) * len);
        x2Gm.SetGlobalBuffer((__gm__ T*)x2 + base, static_cast<uint64_t>(nrows) * len);
        yGm.SetGlobalBuffer((__gm__ T*)y + base, static_cast<uint64_t>(nrows) * len);
        // Per row: sel, x1, x2, y double-buffered; mask as half; three floats.
        const uint32_t perRow = 2 * (selStride + 3 * xStride * sizeof(T)) + xStride * 2 + 3 * fStride * 4;
        uint32_t t = (UB_BUDGET - 1024) / perRow;
        t = t < 1 ? 1 : (t > 255 ? 255 : t);
        tileRows = t < nrows ? t : nrows;
        pipe.InitBuffer(selQ, 2, tileRows * selStride);
        pipe.InitBuffer(x1Q, 2, tileRows * xStride * sizeof(T));
        pipe.InitBuffer(x2Q, 2, tileRows * xStride * sizeof(T));
        pipe.InitBuffer(yQ, 2, tileRows * xStride * sizeof(T));
        pipe.InitBuffer(hBuf, tileRows * xStride * 2);
        pipe.InitBuffer(fBuf, 3 * tileRows * fStride * 4);
        pipe.InitBuffer(workBuf, 1024);
        return true;
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < nrows; r += tileRows) {
            const uint32_t n = nrows - r < tileRows ? nrows - r : tileRows;
            CopyIn(r, n);
            Compute(n);
            CopyOut(r, n);
        }
    }

private:
    template <typename U>
    __aicore__ inline void Load(TQue<QuePosition::VECIN, 2>& q, const GlobalTensor<U>& gm, uint32_t r, uint32_t n)
    {
        LocalTensor<U> t = q.template AllocTensor<U>();
        DataCopyPadExtParams<U> pad{false, 0, 0, 0};
        DataCopyPad(t, gm[static_cast<uint64_t>(r) * L],
                    DataCopyExtParams{static_cast<uint16_t>(n), static_cast<uint32_t>(L * sizeof(U)), 0, 0, 0}, pad);
        q.EnQue(t);
    }

    __aicore__ inline void CopyIn(uint32_t r, uint32_t n)
    {
        Load(selQ, selGm, r, n);
        Load(x1Q, x1Gm, r, n);
        Load(x2Q, x2Gm, r, n);
    }

    // The n rows of x (xStride apart) widened into f (fStride apart).
    __aicore__ inline void Widen(const LocalTensor<float>& f, const LocalTensor<T>& x, uint32_t n)
    {
        for (uint32_t i = 0; i < n; i++) {
            Cast(f[i * fStride], x[i * xStride], RoundMode::CAST_NONE, L);
        }
    }

    __aicore__ inline void Compute(uint32_t n)
    {
        LocalTensor<uint8_t> s = selQ.DeQue<uint8_t>();
        LocalTensor<T> x1 = x1Q.DeQue<T>();
        LocalTensor<T> x2 = x2Q.DeQue<T>();
        LocalTensor<half> h = hBuf.Get<half>();
        LocalTensor<float> all = fBuf.Get<float>();
        LocalTensor<float> m = all;
        LocalTensor<float> a = all[tileRows * fStride];
        LocalTensor<float> b = all[2 * tileRows * fStride];
        LocalTensor<float> work = workBuf.Get<float>();
        for (uint32_t i = 0; i < n; i++) {
            Cast(h[i * xStride], s[i * selStride], RoundMode::CAST_NONE, L);
        }
        PipeBarrier<PIPE_V>();
        for (uint32_t i = 0; i < n; i++) {
            Cast(m[i * fStride], h[i * xStride], RoundMode::CAST_NONE, L);
        }
        Widen(a, x1, n);
        Widen(b, x2, n);
        PipeBarrier<PIPE_V>();
        selQ.FreeTensor(s);
        x1Q.FreeTensor(x1);
        x2Q.FreeTensor(x2);
        const uint32_t cnt = n * fStride;
        Mul(a, a, m, cnt);       // x1 m
        Muls(m, m, -1.0f, cnt);
        PipeBarrier<PIPE_V>();
        Adds(m, m, 1.0f, cnt);
        PipeBarrier<PIPE_V>();
        Mul(b, b, m, cnt);       // x2 (1 - m)
        PipeBarrier<PIPE_V>();
        Add(a, a, b, cnt);       // v
        PipeBarrier<PIPE_V>();
        LocalTensor<T> y = yQ.AllocTensor<T>();
        for (uint32_t i = 0; i < n; i++) {
            LocalTensor<float> v = a[i * fStride];
            ReduceMax(b, v, work, static_cast<int32_t>(L));
            SetFlag<HardEvent::V_S>(0);
            WaitFlag<HardEvent::V_S>(0);
            const float mx = b.GetValue(0);
            SetFlag<HardEvent::S_V>(0);
            WaitFlag<HardEvent::S_V>(0);
            Adds(v, v, -mx, L);
            PipeBarrier<PIPE_V>();
            Exp(v, v, L);
            PipeBarrier<PIPE_V>();
            ReduceSum(b, v, work, static_cast<int32_t>(L));
            SetFlag<HardEvent::V_S>(0);
            WaitFlag<HardEvent::V_S>(0);
            const float sum = b.GetValue(0);
            SetFlag<HardEvent::S_V>(0);
            WaitFlag<HardEvent::S_V>(0);
            Muls(v, v, 1.0f / sum, L);
            PipeBarrier<PIPE_V>();
            Cast(y[i * xStride], v, RoundMode::CAST_RINT, L);
        }
        yQ.EnQue(y);
    }

    __aicore__ inline void CopyOut(uint32_t r, uint32_t n)
    {
        LocalTensor<T> y = yQ.DeQue<T>();
        DataCopyPad(yGm[static_cast<uint64_t>(r) * L], y,
                    DataCopyExtParams{static_cast<uint16_t>(n), static_cast<uint32_t>(L * sizeof(T)), 0, 0, 0});
        yQ.FreeTensor(y);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> selQ, x1Q, x2Q;
    TQue<QuePosition::VECOUT, 2> yQ;
    TBuf<QuePosition::VECCALC> hBuf, fBuf, workBuf;
    GlobalTensor<uint8_t> selGm;
    GlobalTensor<T> x1Gm, x2Gm, yGm;
    uint32_t row0 = 0, nrows = 0, L = 0, tileRows = 0, selStride = 0, xStride = 0, fStride = 0;
};

extern "C" __global__ __aicore__ void select_reduce_max_d_sub_exp_reduce_sum_d_real_div(
    GM_ADDR sel, GM_ADDR input1, GM_ADDR input2, GM_ADDR output, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    SelectSoftmax<DTYPE_INPUT1> op;
    if (op.Init(sel, input1, input2, output, tilingData.rows, tilingData.rowLength)) {
        op.Process();
    }
}
