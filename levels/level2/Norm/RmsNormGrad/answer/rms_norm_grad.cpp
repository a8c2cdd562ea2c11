// RmsNormGrad expert answer (kernel-only mode, Ascend 910B): the analytic
// gradient of y = x * rstd * gamma with rstd = 1 / sqrt(mean(x^2) + eps):
//   dx[r] = dy[r] * gamma * rstd[r] - x[r] * rstd[r]^3 * sum(dy[r] * gamma * x[r]) / d
//   dgamma = sum over rows r of dy[r] * x[r] * rstd[r]
//
// The rows are dealt to the cores in contiguous ranges and streamed through
// UB in tiles of whole rows (double-buffered queues, float compute). Each
// core accumulates its rows' share of dgamma in UB and posts it to the
// workspace; after SyncAll the d columns are dealt to the cores, and each
// adds the 48 partial rows of its columns and writes them.
#include "kernel_operator.h"
#include "../../../../common/rows.h"

using namespace AscendC;
using namespace npukb_answer;

namespace {

constexpr uint32_t MAX_ROWS = 256;

template <typename T>
class RmsNormGrad {
public:
    static constexpr bool F32 = IsSameType<T, float>::value;

    __aicore__ inline void Init(GM_ADDR dy, GM_ADDR x, GM_ADDR rstd, GM_ADDR gamma, GM_ADDR dx, GM_ADDR dgamma,
                                GM_ADDR workspace, uint64_t allRows, uint32_t d)
    {
        this->d = d;
        dp = static_cast<uint32_t>(AlignUp(d, 64));
        const uint64_t perCore = CeilDiv(allRows, GetBlockNum());
        const uint64_t start = perCore * GetBlockIdx();
        rows = start < allRows ? (allRows - start < perCore ? allRows - start : perCore) : 0;
        dyGm.SetGlobalBuffer((__gm__ T*)dy + start * d, rows * d);
        xGm.SetGlobalBuffer((__gm__ T*)x + start * d, rows * d);
        dxGm.SetGlobalBuffer((__gm__ T*)dx + start * d, rows * d);
        rstdGm.SetGlobalBuffer((__gm__ float*)rstd + start, rows);
        gammaGm.SetGlobalBuffer((__gm__ float*)gamma, d);
        dgammaGm.SetGlobalBuffer((__gm__ float*)dgamma, d);
        partGm.SetGlobalBuffer((__gm__ float*)GetUserWorkspace(workspace), GetBlockNum() * dp);

        // Fixed: gamma, the dgamma share, two float rows of scratch.
        const uint32_t rowF = dp * sizeof(float);
        const uint32_t fixed = 4 * rowF + 2 * 64 * sizeof(float);
        const uint32_t perRow = 2 * (3 * dp * sizeof(T) + sizeof(float)) + 3 * rowF + sizeof(float);
        uint32_t nr = (UB_BUDGET - fixed) / perRow;
        nr = nr < MAX_ROWS ? nr : MAX_ROWS;
        tileRows = static_cast<uint32_t>(rows == 0 ? 1 : (nr < rows ? nr : rows));
        pipe.InitBuffer(inQue, 2, 2 * tileRows * dp * sizeof(T));
        pipe.InitBuffer(rstdQue, 2, static_cast<uint32_t>(AlignUp(tileRows, 8) * sizeof(float)));
        pipe.InitBuffer(outQue, 2, tileRows * dp * sizeof(T));
        // The float tiles; at the end also the partial rows of dgamma.
        const uint32_t cols = static_cast<uint32_t>(AlignUp(CeilDiv(d, GetBlockNum()), 8));
        const uint32_t parts = GetBlockNum() * cols * sizeof(float);
        pipe.InitBuffer(fBuf, 3 * tileRows * rowF > parts ? 3 * tileRows * rowF : parts);
        pipe.InitBuffer(rowBuf, 4 * rowF);
        pipe.InitBuffer(statBuf, static_cast<uint32_t>(2 * AlignUp(tileRows, 8) * sizeof(float)) + 64);
        pipe.InitBuffer(workBuf, 64 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        LocalTensor<float> acc = Row(1);
        Duplicate(acc, 0.0f, static_cast<int32_t>(dp));
        LoadGamma();
        for (uint64_t r0 = 0; r0 < rows; r0 += tileRows) {
            const uint32_t nr = static_cast<uint32_t>(rows - r0 < tileRows ? rows - r0 : tileRows);
            CopyIn(r0, nr);
            Compute(nr);
            LocalTensor<T> o = outQue.template DeQue<T>();
            CopyRowsOut(dxGm[r0 * d], o, nr, d, dp);
            outQue.FreeTensor(o);
        }
        ReduceShares();
    }

private:
    // Row k of the fixed rows: 0 gamma, 1 the dgamma share, 2 and 3 scratch.
    __aicore__ inline LocalTensor<float> Row(uint32_t k) { return rowBuf.Get<float>()[k * dp]; }

    __aicore__ inline void LoadGamma()
    {
        CopyGmToUb(Row(0), gammaGm, d);
        SetFlag<HardEvent::MTE2_V>(0);
        WaitFlag<HardEvent::MTE2_V>(0);
    }

    __aicore__ inline void CopyIn(uint64_t r0, uint32_t nr)
    {
        LocalTensor<T> in = inQue.template AllocTensor<T>();
        CopyRowsIn(in, dyGm[r0 * d], nr, d, dp);
        CopyRowsIn(in[tileRows * dp], xGm[r0 * d], nr, d, dp);
        inQue.EnQue(in);
        LocalTensor<float> r = rstdQue.template AllocTensor<float>();
        CopyGmToUb(r, rstdGm[r0], nr);
        rstdQue.EnQue(r);
    }

    __aicore__ inline void Compute(uint32_t nr)
    {
        LocalTensor<T> in = inQue.template DeQue<T>();
        LocalTensor<float> rstd = rstdQue.template DeQue<float>();
        LocalTensor<float> f = fBuf.Get<float>();
        const uint32_t n = nr * dp, stride = tileRows * dp;
        LocalTensor<float> dyf = f, xf = f[stride], t = f[2 * stride];
        LocalTensor<float> u = Row(2), v = Row(3), acc = Row(1), g = Row(0);
        LocalTensor<float> sums = statBuf.Get<float>();
        LocalTensor<float> coef = sums[AlignUp(tileRows, 8)];
        if constexpr (F32) {
            DataCopy(dyf, in, n);
            DataCopy(xf, in[stride], n);
        } else {
            Cast(dyf, in, RoundMode::CAST_NONE, n);
            Cast(xf, in[stride], RoundMode::CAST_NONE, n);
        }
        PipeBarrier<PIPE_V>();
        inQue.FreeTensor(in);
        // t = dy * gamma; sums[i] = sum(t * x) over row i
        for (uint32_t i = 0; i < nr; i++) {
            Mul(t[i * dp], dyf[i * dp], g, d);
            PipeBarrier<PIPE_V>();
            Mul(u, t[i * dp], xf[i * dp], d);
            PipeBarrier<PIPE_V>();
            ReduceSum(sums[i], u, workBuf.Get<float>(), d);
            PipeBarrier<PIPE_V>();
        }
        // coef = sums * rstd^3 / d
        Mul(coef, rstd, rstd, nr);
        PipeBarrier<PIPE_V>();
        Mul(coef, coef, rstd, nr);
        PipeBarrier<PIPE_V>();
        Mul(coef, coef, sums, nr);
        PipeBarrier<PIPE_V>();
        Muls(coef, coef, 1.0f / static_cast<float>(d), nr);
        SetFlag<HardEvent::V_S>(0);
        WaitFlag<HardEvent::V_S>(0);
        for (uint32_t i = 0; i < nr; i++) {
            const float r = rstd.GetValue(i);
            // dx = t * rstd - x * coef
            Muls(t[i * dp], t[i * dp], r, d);
            Muls(v, xf[i * dp], coef.GetValue(i), d);
            PipeBarrier<PIPE_V>();
            Sub(t[i * dp], t[i * dp], v, d);
            // acc += dy * x * rstd
            Mul(u, dyf[i * dp], xf[i * dp], d);
            PipeBarrier<PIPE_V>();
            Axpy(acc, u, r, d);
            PipeBarrier<PIPE_V>();
        }
        rstdQue.FreeTensor(rstd);
        LocalTensor<T> o = outQue.template AllocTensor<T>();
        if constexpr (F32) {
            DataCopy(o, t, n);
        } else {
            Cast(o, t, RoundMode::CAST_RINT, n);
        }
        outQue.EnQue(o);
    }

    // Every core posts its share (zeros without rows); after SyncAll each
    // sums the shares of its columns.
    __aicore__ inline void ReduceShares()
    {
        PipeBarrier<PIPE_ALL>();
        DataCopy(partGm[GetBlockIdx() * dp], Row(1), dp);
        // The share is in GM and the float tiles are free before any core reads.
        PipeBarrier<PIPE_ALL>();
        SyncAll();
        const uint32_t blocks = GetBlockNum();
        const uint32_t per = static_cast<uint32_t>(AlignUp(CeilDiv(d, blocks), 8));
        const uint32_t c0 = per * GetBlockIdx();
        if (c0 >= d) {
            return;
        }
        const uint32_t w = d - c0 < per ? d - c0 : per;
        LocalTensor<float> f = fBuf.Get<float>();
        DataCopyExtParams p{static_cast<uint16_t>(blocks), static_cast<uint32_t>(w * sizeof(float)),
                            static_cast<uint32_t>((dp - w) * sizeof(float)), 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0};
        const uint32_t slot = static_cast<uint32_t>(AlignUp(w, 8));
        DataCopyPad(f, partGm[c0], p, pad);
        SetFlag<HardEvent::MTE2_V>(0);
        WaitFlag<HardEvent::MTE2_V>(0);
        for (uint32_t b = 1; b < blocks; b++) {
            Add(f, f, f[b * slot], w);
            PipeBarrier<PIPE_V>();
        }
        SetFlag<HardEvent::V_MTE3>(0);
        WaitFlag<HardEvent::V_MTE3>(0);
        CopyUbToGm(dgammaGm[c0], f, w);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQue, rstdQue;
    TQue<QuePosition::VECOUT, 2> outQue;
    TBuf<QuePosition::VECCALC> fBuf, rowBuf, statBuf, workBuf;
    GlobalTensor<T> dyGm, xGm, dxGm;
    GlobalTensor<float> rstdGm, gammaGm, dgammaGm, partGm;
    uint64_t rows = 0;
    uint32_t d = 0, dp = 0, tileRows = 1;
};

} // namespace

extern "C" __global__ __aicore__ void rms_norm_grad(GM_ADDR dy, GM_ADDR x, GM_ADDR rstd, GM_ADDR gamma, GM_ADDR dx,
                                                    GM_ADDR dgamma, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    RmsNormGrad<DTYPE_DY> op;
    op.Init(dy, x, rstd, gamma, dx, dgamma, workspace, tilingData.rows, tilingData.d);
    op.Process();
}
