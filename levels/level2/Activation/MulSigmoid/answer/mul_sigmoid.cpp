// MulSigmoid expert answer: t = sigmoid(t1 * x1), y = (t < t2 ? t : 2 t) * x2 * t3,
// x1 [B, N] and x2 [N] shared by every row, for float16 and float32
// (kernel-only mode, Ascend 910B), computed in float.
//
// Work split: the N columns are dealt to the cores in 32-byte units, so each
// core loads its slice of x2 once per column tile (scaled by t3 and kept in
// float) and streams every row's slice of x1 against it. A tile is R rows x
// W columns: one strided DataCopyPad moves the R row slices (rows padded to
// W in UB), and the x1/y queues are double-buffered so the copies of one
// tile overlap the compute of the next.
#include "kernel_operator.h"
#include "../../../../common/float_map.h"

using namespace AscendC;
using namespace npukb_answer;

template <typename T>
class MulSigmoidKernel {
public:
    __aicore__ inline bool Init(GM_ADDR x1, GM_ADDR x2, GM_ADDR y, uint32_t rows, uint32_t cols, float t1_,
                                float t2_, float t3_)
    {
        constexpr uint32_t unit = 32 / sizeof(T);
        const uint64_t perCore = CeilDiv(CeilDiv(cols, unit), GetBlockNum()) * unit;
        col0 = perCore * GetBlockIdx();
        if (col0 >= cols) {
            return false;
        }
        len = static_cast<uint32_t>(cols - col0 < perCore ? cols - col0 : perCore);
        nrows = rows;
        ncols = cols;
        t1 = t1_;
        t2 = t2_;
        t3 = t3_;
        x1Gm.SetGlobalBuffer((__gm__ T*)x1, static_cast<uint64_t>(rows) * cols);
        yGm.SetGlobalBuffer((__gm__ T*)y, static_cast<uint64_t>(rows) * cols);
        x2Gm.SetGlobalBuffer((__gm__ T*)x2, cols);

        // Per tile element: x1 and y double-buffered, two float temporaries,
        // a mask bit; per column: x2 staged and in float.
        width = static_cast<uint32_t>(AlignUp(len < MAX_W ? len : MAX_W, GRAIN));
        const uint32_t perElem = 2 * 2 * sizeof(T) + 2 * 4 + 1;
        uint32_t r = (UB_BUDGET - width * (sizeof(T) + 4)) / (perElem * width);
        r = r < 1 ? 1 : r;
        tileRows = r < rows ? r : rows;
        const uint32_t tileElems = tileRows * width;
        pipe.InitBuffer(x1Queue, 2, tileElems * sizeof(T));
        pipe.InitBuffer(yQueue, 2, tileElems * sizeof(T));
        pipe.InitBuffer(x2Queue, 1, width * sizeof(T));
        pipe.InitBuffer(x2fBuf, width * 4);
        pipe.InitBuffer(fBuf, tileElems * 4);
        pipe.InitBuffer(gBuf, tileElems * 4);
        pipe.InitBuffer(maskBuf, AlignUp(tileElems / 8, 32));
        return true;
    }

    __aicore__ inline void Process()
    {
        for (uint32_t c = 0; c < len; c += width) {
            const uint32_t w = len - c < width ? len - c : width;
            LoadX2(col0 + c, w);
            for (uint32_t r = 0; r < nrows; r += tileRows) {
                const uint32_t n = nrows - r < tileRows ? nrows - r : tileRows;
                CopyIn(r, col0 + c, n, w);
                Compute(n);
                CopyOut(r, col0 + c, n, w);
            }
        }
    }

private:
    static constexpr uint32_t MAX_W = 4096;
    static constexpr uint32_t GRAIN = 128; // 512 B of float: whole repeats

    __aicore__ inline DataCopyExtParams Rows(uint32_t n, uint32_t w, bool toGm) const
    {
        const uint32_t gmGap = (ncols - w) * sizeof(T);
        const uint32_t ubGap = (width - static_cast<uint32_t>(AlignUp(w, 32 / sizeof(T)))) * sizeof(T) / 32;
        return DataCopyExtParams{static_cast<uint16_t>(n), static_cast<uint32_t>(w * sizeof(T)),
                                 toGm ? ubGap : gmGap, toGm ? gmGap : ubGap, 0};
    }

    __aicore__ inline void LoadX2(uint64_t col, uint32_t w)
    {
        LocalTensor<T> s = x2Queue.AllocTensor<T>();
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(s, x2Gm[col], DataCopyExtParams{1, static_cast<uint32_t>(w * sizeof(T)), 0, 0, 0}, pad);
        x2Queue.EnQue(s);
        s = x2Queue.DeQue<T>();
        LocalTensor<float> x2f = x2fBuf.Get<float>();
        PipeBarrier<PIPE_V>();
        if constexpr (IsSameType<T, float>::value) {
            Muls(x2f, s, t3, width);
        } else {
            Cast(x2f, s, RoundMode::CAST_NONE, width);
            PipeBarrier<PIPE_V>();
            Muls(x2f, x2f, t3, width);
        }
        x2Queue.FreeTensor(s);
    }

    __aicore__ inline void CopyIn(uint32_t row, uint64_t col, uint32_t n, uint32_t w)
    {
        LocalTensor<T> x = x1Queue.AllocTensor<T>();
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(x, x1Gm[static_cast<uint64_t>(row) * ncols + col], Rows(n, w, false), pad);
        x1Queue.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t n)
    {
        const uint32_t count = n * width;
        LocalTensor<T> x = x1Queue.DeQue<T>();
        LocalTensor<T> y = yQueue.AllocTensor<T>();
        LocalTensor<float> f = fBuf.Get<float>();
        LocalTensor<float> g = gBuf.Get<float>();
        LocalTensor<float> x2f = x2fBuf.Get<float>();
        LocalTensor<uint8_t> mask = maskBuf.Get<uint8_t>();
        if constexpr (IsSameType<T, float>::value) {
            Adds(f, x, 0.0f, count);
        } else {
            Cast(f, x, RoundMode::CAST_NONE, count);
        }
        PipeBarrier<PIPE_V>();
        SigmoidK(f, f, g, t1, count);
        PipeBarrier<PIPE_V>();
        CompareScalar(mask, f, t2, CMPMODE::LT, count);
        Muls(g, f, 2.0f, count);
        PipeBarrier<PIPE_V>();
        Select(f, mask, f, g, SELMODE::VSEL_TENSOR_TENSOR_MODE, count);
        PipeBarrier<PIPE_V>();
        for (uint32_t i = 0; i < n; i++) {
            Mul(f[i * width], f[i * width], x2f, width);
        }
        PipeBarrier<PIPE_V>();
        if constexpr (IsSameType<T, float>::value) {
            Adds(y, f, 0.0f, count);
        } else {
            Cast(y, f, RoundMode::CAST_RINT, count);
        }
        yQueue.EnQue(y);
        x1Queue.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t row, uint64_t col, uint32_t n, uint32_t w)
    {
        LocalTensor<T> y = yQueue.DeQue<T>();
        DataCopyPad(yGm[static_cast<uint64_t>(row) * ncols + col], y, Rows(n, w, true));
        yQueue.FreeTensor(y);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> x1Queue;
    TQue<QuePosition::VECIN, 1> x2Queue;
    TQue<QuePosition::VECOUT, 2> yQueue;
    TBuf<QuePosition::VECCALC> x2fBuf, fBuf, gBuf, maskBuf;
    GlobalTensor<T> x1Gm, x2Gm, yGm;
    uint64_t col0 = 0;
    uint32_t len = 0, nrows = 0, ncols = 0, width = 0, tileRows = 0;
    float t1 = 0, t2 = 0, t3 = 0;
};

extern "C" __global__ __aicore__ void mul_sigmoid(GM_ADDR x1, GM_ADDR x2, GM_ADDR y, GM_ADDR workspace,
                                                  GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    MulSigmoidKernel<DTYPE_X1> op;
    if (op.Init(x1, x2, y, tilingData.rows, tilingData.cols, tilingData.t1, tilingData.t2, tilingData.t3)) {
        op.Process();
    }
}
