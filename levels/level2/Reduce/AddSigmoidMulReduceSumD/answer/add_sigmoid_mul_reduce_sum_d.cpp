// AddSigmoidMulReduceSumD expert answer: for x0, m2 [A, B, C], x1 [C],
// m0 [1], m1 [A, B]: y[a, c] = sum over b of sigmoid((x0 + x1) m0) m1 m2,
// for float16 (kernel-only mode, Ascend 910B), computed in float.
//
// The A slabs are dealt to the cores; a core streams each slab's B rows in
// chunks of whole rows (contiguous in GM) through double-buffered queues,
// and accumulates m1[a, b] times each finished row into a float row of C
// sums; m1 is read on the scalar unit, one value per row.
#include "kernel_operator.h"
#include "../../../../common/elementwise.h"

using namespace AscendC;
using namespace npukb_answer;

template <typename T>
class AddSigmoidMulReduceSum {
public:
    static constexpr uint32_t CAP = 8192; // elements of a chunk

    __aicore__ inline bool Init(GM_ADDR x0, GM_ADDR x1, GM_ADDR m0, GM_ADDR m1, GM_ADDR m2, GM_ADDR y,
                                uint32_t A_, uint32_t B_, uint32_t C_)
    {
        const uint32_t perCore = static_cast<uint32_t>(CeilDiv(A_, GetBlockNum()));
        a0 = perCore * GetBlockIdx();
        if (a0 >= A_) {
            return false;
        }
        na = A_ - a0 < perCore ? A_ - a0 : perCore;
        B = B_;
        C = C_;
        cpad = static_cast<uint32_t>(AlignUp(C, 64));
        rowsPerChunk = CAP / cpad < B ? CAP / cpad : B;
        x0Gm.SetGlobalBuffer((__gm__ T*)x0, static_cast<uint64_t>(A_) * B * C);
        m2Gm.SetGlobalBuffer((__gm__ T*)m2, static_cast<uint64_t>(A_) * B * C);
        x1Gm.SetGlobalBuffer((__gm__ T*)x1, C);
        m1Gm.SetGlobalBuffer((__gm__ T*)m1, static_cast<uint64_t>(A_) * B);
        yGm.SetGlobalBuffer((__gm__ T*)y, static_cast<uint64_t>(A_) * C);
        GlobalTensor<T> m0Gm;
        m0Gm.SetGlobalBuffer((__gm__ T*)m0, 1);
        scale = static_cast<float>(m0Gm.GetValue(0));
        pipe.InitBuffer(x0Q, 2, rowsPerChunk * cpad * sizeof(T));
        pipe.InitBuffer(m2Q, 2, rowsPerChunk * cpad * sizeof(T));
        pipe.InitBuffer(yQ, 2, cpad * sizeof(T));
        pipe.InitBuffer(x1Q, 1, cpad * sizeof(T));
        pipe.InitBuffer(fBuf, 2 * rowsPerChunk * cpad * 4);
        pipe.InitBuffer(vecBuf, 3 * cpad * 4);
        return true;
    }

    __aicore__ inline void Process()
    {
        LoadX1();
        for (uint32_t a = a0; a < a0 + na; a++) {
            LocalTensor<float> acc = vecBuf.Get<float>()[cpad];
            Duplicate(acc, 0.0f, cpad);
            for (uint32_t b = 0; b < B; b += rowsPerChunk) {
                const uint32_t n = B - b < rowsPerChunk ? B - b : rowsPerChunk;
                CopyIn(a, b, n);
                Compute(a, b, n, acc);
            }
            Store(a, acc);
        }
    }

private:
    __aicore__ inline void LoadX1()
    {
        LocalTensor<T> s = x1Q.AllocTensor<T>();
        CopyGmToUb(s, x1Gm, C);
        x1Q.EnQue(s);
        s = x1Q.DeQue<T>();
        LocalTensor<float> x1f = vecBuf.Get<float>();
        Cast(x1f, s, RoundMode::CAST_NONE, cpad);
        PipeBarrier<PIPE_V>();
        x1Q.FreeTensor(s);
    }

    // n rows of C elements, one row per cpad in UB.
    __aicore__ inline void Rows(const LocalTensor<T>& dst, const GlobalTensor<T>& src, uint32_t n)
    {
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        const uint32_t ubGap = (cpad - static_cast<uint32_t>(AlignUp(C, 32 / sizeof(T)))) * sizeof(T) / 32;
        DataCopyPad(dst, src, DataCopyExtParams{static_cast<uint16_t>(n), static_cast<uint32_t>(C * sizeof(T)), 0,
                                                ubGap, 0}, pad);
    }

    __aicore__ inline void CopyIn(uint32_t a, uint32_t b, uint32_t n)
    {
        const uint64_t off = (static_cast<uint64_t>(a) * B + b) * C;
        LocalTensor<T> x = x0Q.AllocTensor<T>();
        LocalTensor<T> m = m2Q.AllocTensor<T>();
        Rows(x, x0Gm[off], n);
        Rows(m, m2Gm[off], n);
        x0Q.EnQue(x);
        m2Q.EnQue(m);
    }

    __aicore__ inline void Compute(uint32_t a, uint32_t b, uint32_t n, const LocalTensor<float>& acc)
    {
        const uint32_t cnt = n * cpad;
        LocalTensor<T> x = x0Q.DeQue<T>();
        LocalTensor<T> m = m2Q.DeQue<T>();
        LocalTensor<float> f = fBuf.Get<float>();
        LocalTensor<float> g = f[rowsPerChunk * cpad];
        LocalTensor<float> x1f = vecBuf.Get<float>();
        Cast(f, x, RoundMode::CAST_NONE, cnt);
        Cast(g, m, RoundMode::CAST_NONE, cnt);
        PipeBarrier<PIPE_V>();
        x0Q.FreeTensor(x);
        m2Q.FreeTensor(m);
        for (uint32_t i = 0; i < n; i++) {
            Add(f[i * cpad], f[i * cpad], x1f, cpad);
        }
        PipeBarrier<PIPE_V>();
        Muls(f, f, -scale, cnt);
        PipeBarrier<PIPE_V>();
        Exp(f, f, cnt);
        PipeBarrier<PIPE_V>();
        Adds(f, f, 1.0f, cnt);
        PipeBarrier<PIPE_V>();
        Div(f, g, f, cnt); // sigmoid(u) m2
        PipeBarrier<PIPE_V>();
        for (uint32_t i = 0; i < n; i++) {
            const float w = static_cast<float>(m1Gm.GetValue(static_cast<uint64_t>(a) * B + b + i));
            Muls(f[i * cpad], f[i * cpad], w, cpad);
            PipeBarrier<PIPE_V>();
            Add(acc, acc, f[i * cpad], cpad);
            PipeBarrier<PIPE_V>();
        }
    }

    __aicore__ inline void Store(uint32_t a, const LocalTensor<float>& acc)
    {
        LocalTensor<T> y = yQ.AllocTensor<T>();
        Cast(y, acc, RoundMode::CAST_RINT, cpad);
        yQ.EnQue(y);
        y = yQ.DeQue<T>();
        CopyUbToGm(yGm[static_cast<uint64_t>(a) * C], y, C);
        yQ.FreeTensor(y);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> x0Q, m2Q;
    TQue<QuePosition::VECIN, 1> x1Q;
    TQue<QuePosition::VECOUT, 2> yQ;
    TBuf<QuePosition::VECCALC> fBuf, vecBuf;
    GlobalTensor<T> x0Gm, x1Gm, m1Gm, m2Gm, yGm;
    uint32_t a0 = 0, na = 0, B = 0, C = 0, cpad = 0, rowsPerChunk = 0;
    float scale = 0;
};

extern "C" __global__ __aicore__ void add_sigmoid_mul_reduce_sum_d(GM_ADDR add_0_input0, GM_ADDR add_0_input1,
                                                                   GM_ADDR mult_0_input1, GM_ADDR mult_1_input1,
                                                                   GM_ADDR mult_2_input1, GM_ADDR output,
                                                                   GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    AddSigmoidMulReduceSum<DTYPE_ADD_0_INPUT0> op;
    if (op.Init(add_0_input0, add_0_input1, mult_0_input1, mult_1_input1, mult_2_input1, output, tilingData.A,
                tilingData.B, tilingData.C)) {
        op.Process();
    }
}
