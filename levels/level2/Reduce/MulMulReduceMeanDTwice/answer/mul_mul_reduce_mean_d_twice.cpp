// MulMulReduceMeanDTwice expert answer: per row of x = m0 * m1 * s, the mean
// and the (biased) variance over the row, then y = beta + gamma (x - mean) /
// sqrt(var + eps), for float16 (kernel-only mode, Ascend 910B), computed in
// float.
//
// The rows are dealt to the cores in contiguous ranges; each row moves
// through double-buffered queues, gamma and beta are widened once per core.
// Two passes over the row in UB (mean, then the squares of x - mean) keep
// the variance free of the cancellation of E[x^2] - mean^2.
#include "kernel_operator.h"
#include "../../../../common/elementwise.h"

using namespace AscendC;
using namespace npukb_answer;

template <typename T>
class MulMulReduceMeanTwice {
public:
    __aicore__ inline bool Init(GM_ADDR m0, GM_ADDR m1, GM_ADDR s, GM_ADDR eps_, GM_ADDR gamma, GM_ADDR beta,
                                GM_ADDR y, uint32_t rows, uint32_t len)
    {
        const uint32_t perCore = static_cast<uint32_t>(CeilDiv(rows, GetBlockNum()));
        row0 = perCore * GetBlockIdx();
        if (row0 >= rows) {
            return false;
        }
        nrows = rows - row0 < perCore ? rows - row0 : perCore;
        N = len;
        npad = static_cast<uint32_t>(AlignUp(N, 64));
        m0Gm.SetGlobalBuffer((__gm__ T*)m0, static_cast<uint64_t>(rows) * N);
        m1Gm.SetGlobalBuffer((__gm__ T*)m1, static_cast<uint64_t>(rows) * N);
        yGm.SetGlobalBuffer((__gm__ T*)y, static_cast<uint64_t>(rows) * N);
        gGm.SetGlobalBuffer((__gm__ T*)gamma, N);
        bGm.SetGlobalBuffer((__gm__ T*)beta, N);
        GlobalTensor<T> one;
        one.SetGlobalBuffer((__gm__ T*)s, 1);
        scale = static_cast<float>(one.GetValue(0));
        one.SetGlobalBuffer((__gm__ T*)eps_, 1);
        eps = static_cast<float>(one.GetValue(0));
        pipe.InitBuffer(m0Q, 2, npad * sizeof(T));
        pipe.InitBuffer(m1Q, 2, npad * sizeof(T));
        pipe.InitBuffer(yQ, 2, npad * sizeof(T));
        pipe.InitBuffer(fBuf, 4 * npad * 4);
        pipe.InitBuffer(workBuf, npad / 64 * 4 + 256);
        return true;
    }

    __aicore__ inline void Process()
    {
        LoadAffine();
        for (uint32_t r = row0; r < row0 + nrows; r++) {
            LocalTensor<T> a = m0Q.AllocTensor<T>();
            LocalTensor<T> b = m1Q.AllocTensor<T>();
            CopyGmToUb(a, m0Gm[static_cast<uint64_t>(r) * N], N);
            CopyGmToUb(b, m1Gm[static_cast<uint64_t>(r) * N], N);
            m0Q.EnQue(a);
            m1Q.EnQue(b);
            Compute();
            LocalTensor<T> y = yQ.DeQue<T>();
            CopyUbToGm(yGm[static_cast<uint64_t>(r) * N], y, N);
            yQ.FreeTensor(y);
        }
    }

private:
    // gamma and beta as float, into the last two float rows.
    __aicore__ inline void LoadAffine()
    {
        LocalTensor<float> f = fBuf.Get<float>();
        LocalTensor<T> g = m0Q.AllocTensor<T>();
        LocalTensor<T> b = m1Q.AllocTensor<T>();
        CopyGmToUb(g, gGm, N);
        CopyGmToUb(b, bGm, N);
        m0Q.EnQue(g);
        m1Q.EnQue(b);
        g = m0Q.DeQue<T>();
        b = m1Q.DeQue<T>();
        Cast(f[2 * npad], g, RoundMode::CAST_NONE, npad);
        Cast(f[3 * npad], b, RoundMode::CAST_NONE, npad);
        PipeBarrier<PIPE_V>();
        m0Q.FreeTensor(g);
        m1Q.FreeTensor(b);
    }

    __aicore__ inline float Sum(const LocalTensor<float>& v, const LocalTensor<float>& dst)
    {
        ReduceSum(dst, v, workBuf.Get<float>(), static_cast<int32_t>(N));
        SetFlag<HardEvent::V_S>(0);
        WaitFlag<HardEvent::V_S>(0);
        const float s = dst.GetValue(0);
        SetFlag<HardEvent::S_V>(0);
        WaitFlag<HardEvent::S_V>(0);
        return s;
    }

    __aicore__ inline void Compute()
    {
        LocalTensor<T> a = m0Q.DeQue<T>();
        LocalTensor<T> b = m1Q.DeQue<T>();
        LocalTensor<float> f = fBuf.Get<float>();
        LocalTensor<float> x = f;
        LocalTensor<float> t = f[npad];
        LocalTensor<float> gamma = f[2 * npad];
        LocalTensor<float> beta = f[3 * npad];
        Cast(x, a, RoundMode::CAST_NONE, npad);
        Cast(t, b, RoundMode::CAST_NONE, npad);
        PipeBarrier<PIPE_V>();
        m0Q.FreeTensor(a);
        m1Q.FreeTensor(b);
        Mul(x, x, t, npad);
        PipeBarrier<PIPE_V>();
        Muls(x, x, scale, npad);
        PipeBarrier<PIPE_V>();
        const float mean = Sum(x, t) / static_cast<float>(N);
        Adds(x, x, -mean, npad); // x - mean
        PipeBarrier<PIPE_V>();
        Mul(t, x, x, npad);
        PipeBarrier<PIPE_V>();
        const float var = Sum(t, t) / static_cast<float>(N);
        // 1 / sqrt(var + eps) on the vector unit, one lane used.
        Duplicate(t, var + eps, 64);
        PipeBarrier<PIPE_V>();
        Sqrt(t, t, 64);
        PipeBarrier<PIPE_V>();
        SetFlag<HardEvent::V_S>(0);
        WaitFlag<HardEvent::V_S>(0);
        const float k = 1.0f / t.GetValue(0);
        SetFlag<HardEvent::S_V>(0);
        WaitFlag<HardEvent::S_V>(0);
        Muls(x, x, k, npad);
        PipeBarrier<PIPE_V>();
        Mul(x, x, gamma, npad);
        PipeBarrier<PIPE_V>();
        Add(x, x, beta, npad);
        PipeBarrier<PIPE_V>();
        LocalTensor<T> y = yQ.AllocTensor<T>();
        Cast(y, x, RoundMode::CAST_RINT, npad);
        yQ.EnQue(y);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> m0Q, m1Q;
    TQue<QuePosition::VECOUT, 2> yQ;
    TBuf<QuePosition::VECCALC> fBuf, workBuf;
    GlobalTensor<T> m0Gm, m1Gm, yGm, gGm, bGm;
    uint32_t row0 = 0, nrows = 0, N = 0, npad = 0;
    float scale = 0, eps = 0;
};

extern "C" __global__ __aicore__ void mul_mul_reduce_mean_d_twice(GM_ADDR mul0_input0, GM_ADDR mul0_input1,
                                                                  GM_ADDR mul1_input0, GM_ADDR add_y,
                                                                  GM_ADDR gamma, GM_ADDR beta, GM_ADDR output,
                                                                  GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    MulMulReduceMeanTwice<DTYPE_MUL0_INPUT0> op;
    if (op.Init(mul0_input0, mul0_input1, mul1_input0, add_y, gamma, beta, output, tilingData.rows,
                tilingData.rowLength)) {
        op.Process();
    }
}
