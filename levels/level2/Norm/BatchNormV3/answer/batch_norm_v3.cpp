// BatchNormV3 expert answer (kernel-only mode, Ascend 910B): per channel,
// the batch statistics (training) or the running ones normalise x; the
// running statistics move in place when training. The channels are dealt
// to the cores in contiguous ranges; a core streams each of its channels'
// N rows of HW elements through UB in tiles (double-buffered queues, float
// compute): one pass for the sum, one for the squared deviations (training
// only), one for y. Statistics go out once per core, in float32.
#include "kernel_operator.h"
#include "../../../../common/group_norm.h"

using namespace npukb_answer;

template <typename T>
class BatchNormV3 {
public:
    static constexpr bool F32 = IsSameType<T, float>::value;
    static constexpr uint32_t TILE = 4096;

    __aicore__ inline bool Init(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR rmean, GM_ADDR rvar, GM_ADDR y,
                                GM_ADDR smean, GM_ADDR srstd, uint32_t n_, uint32_t c_, uint32_t hw_, bool train,
                                float mom, float eps_)
    {
        n = n_;
        c = c_;
        hw = hw_;
        const uint32_t perCore = static_cast<uint32_t>(CeilDiv(c, GetBlockNum()));
        c0 = perCore * GetBlockIdx();
        if (c0 >= c || n == 0 || hw == 0) {
            return false;
        }
        nc = c - c0 < perCore ? c - c0 : perCore;
        training = train;
        momentum = mom;
        eps = eps_;
        tile = hw < TILE ? hw : TILE;
        tp = static_cast<uint32_t>(AlignUp(tile, 64));
        const uint64_t total = static_cast<uint64_t>(n) * c * hw;
        xGm.SetGlobalBuffer((__gm__ T*)x, total);
        yGm.SetGlobalBuffer((__gm__ T*)y, total);
        statGm[0].SetGlobalBuffer((__gm__ float*)rmean + c0, nc);
        statGm[1].SetGlobalBuffer((__gm__ float*)rvar + c0, nc);
        statGm[2].SetGlobalBuffer((__gm__ float*)smean + c0, nc);
        statGm[3].SetGlobalBuffer((__gm__ float*)srstd + c0, nc);
        np = static_cast<uint32_t>(AlignUp(nc, 64));
        pipe.InitBuffer(inQue, 2, tp * sizeof(T));
        pipe.InitBuffer(outQue, 2, tp * sizeof(T));
        pipe.InitBuffer(xfBuf, tp * sizeof(float));
        pipe.InitBuffer(sqBuf, tp * sizeof(float));
        pipe.InitBuffer(workBuf, static_cast<uint32_t>(AlignUp(CeilDiv(tp, 64), 8) * sizeof(float)));
        pipe.InitBuffer(sumBuf, 64);
        // Per channel in float: weight, bias, the four statistics; staging.
        pipe.InitBuffer(chBuf, 6 * np * sizeof(float));
        pipe.InitBuffer(stageBuf, np * sizeof(float));
        LocalTensor<float> ch = chBuf.Get<float>();
        if (weight != nullptr) {
            LoadAsFloat<T>(ch, stageBuf.Get<T>(), weight + c0 * sizeof(T), nc, np);
            LoadAsFloat<T>(ch[np], stageBuf.Get<T>(), bias + c0 * sizeof(T), nc, np);
        } else {
            Duplicate(ch, 1.0f, static_cast<int32_t>(np));
            Duplicate(ch[np], 0.0f, static_cast<int32_t>(np));
        }
        LoadAsFloat<float>(ch[2 * np], stageBuf.Get<float>(), rmean + c0 * sizeof(float), nc, np);
        LoadAsFloat<float>(ch[3 * np], stageBuf.Get<float>(), rvar + c0 * sizeof(float), nc, np);
        PipeBarrier<PIPE_V>();
        SetFlag<HardEvent::V_S>(0);
        WaitFlag<HardEvent::V_S>(0);
        return true;
    }

    __aicore__ inline void Process()
    {
        LocalTensor<float> ch = chBuf.Get<float>();
        LocalTensor<float> sums = sumBuf.Get<float>();
        const float m = static_cast<float>(static_cast<uint64_t>(n) * hw);
        for (uint32_t k = 0; k < nc; k++) {
            float mean = ch.GetValue(2 * np + k), var = ch.GetValue(3 * np + k);
            if (training) {
                mean = Pass(k, 0.0f, false) / m;
                var = Pass(k, mean, true) / m;
            }
            // rstd = 1 / sqrt(var + eps) on the vector unit
            sums.SetValue(0, var);
            sums.SetValue(8, 1.0f);
            SetFlag<HardEvent::S_V>(0);
            WaitFlag<HardEvent::S_V>(0);
            Adds(sums, sums, eps, 1);
            PipeBarrier<PIPE_V>();
            Sqrt(sums, sums, 1);
            PipeBarrier<PIPE_V>();
            Div(sums, sums[8], sums, 1);
            SetFlag<HardEvent::V_S>(0);
            WaitFlag<HardEvent::V_S>(0);
            const float rstd = sums.GetValue(0);
            const float w = ch.GetValue(k), b = ch.GetValue(np + k);
            const float rm = ch.GetValue(2 * np + k), rv = ch.GetValue(3 * np + k);
            ch.SetValue(2 * np + k, training ? (1.0f - momentum) * rm + momentum * mean : rm);
            ch.SetValue(3 * np + k, training ? (1.0f - momentum) * rv + momentum * var : rv);
            ch.SetValue(4 * np + k, mean);
            ch.SetValue(5 * np + k, rstd);
            Normalise(k, mean, rstd * w, b);
        }
        SetFlag<HardEvent::S_MTE3>(0);
        WaitFlag<HardEvent::S_MTE3>(0);
        for (uint32_t s = 0; s < 4; s++) {
            CopyUbToGm(statGm[s], ch[(2 + s) * np], nc);
        }
    }

private:
    // Element offset of row i (sample) of channel k, chunk at j.
    __aicore__ inline uint64_t At(uint32_t k, uint32_t i, uint32_t j) const
    {
        return (static_cast<uint64_t>(i) * c + c0 + k) * hw + j;
    }

    __aicore__ inline void CopyIn(uint64_t at, uint32_t cnt)
    {
        LocalTensor<T> in = inQue.template AllocTensor<T>();
        CopyGmToUb(in, xGm[at], cnt);
        inQue.EnQue(in);
    }

    // x (the dequeued tile) in float.
    __aicore__ inline LocalTensor<float> TileAsFloat(const LocalTensor<T>& in, uint32_t cnt)
    {
        if constexpr (F32) {
            return in;
        } else {
            LocalTensor<float> xf = xfBuf.Get<float>();
            Cast(xf, in, RoundMode::CAST_NONE, cnt);
            PipeBarrier<PIPE_V>();
            return xf;
        }
    }

    // The sum over channel k of x (squares false) or (x - mean)^2.
    __aicore__ inline float Pass(uint32_t k, float mean, bool squares)
    {
        LocalTensor<float> sums = sumBuf.Get<float>(), work = workBuf.Get<float>(), sq = sqBuf.Get<float>();
        float total = 0.0f;
        for (uint32_t i = 0; i < n; i++) {
            for (uint32_t j = 0; j < hw; j += tile) {
                const uint32_t cnt = hw - j < tile ? hw - j : tile;
                CopyIn(At(k, i, j), cnt);
                LocalTensor<T> in = inQue.template DeQue<T>();
                LocalTensor<float> xf = TileAsFloat(in, cnt);
                if (squares) {
                    Adds(sq, xf, -mean, cnt);
                    PipeBarrier<PIPE_V>();
                    Mul(sq, sq, sq, cnt);
                    PipeBarrier<PIPE_V>();
                }
                ReduceSum(sums, squares ? sq : xf, work, cnt);
                SetFlag<HardEvent::V_S>(0);
                WaitFlag<HardEvent::V_S>(0);
                total += sums.GetValue(0);
                inQue.FreeTensor(in);
            }
        }
        return total;
    }

    // y = (x - mean) * scale + shift over channel k.
    __aicore__ inline void Normalise(uint32_t k, float mean, float scale, float shift)
    {
        for (uint32_t i = 0; i < n; i++) {
            for (uint32_t j = 0; j < hw; j += tile) {
                const uint32_t cnt = hw - j < tile ? hw - j : tile;
                const uint64_t at = At(k, i, j);
                CopyIn(at, cnt);
                LocalTensor<T> in = inQue.template DeQue<T>();
                LocalTensor<float> xf = TileAsFloat(in, cnt);
                LocalTensor<float> t = sqBuf.Get<float>();
                Adds(t, xf, -mean, cnt);
                PipeBarrier<PIPE_V>();
                Muls(t, t, scale, cnt);
                PipeBarrier<PIPE_V>();
                LocalTensor<T> o = outQue.template AllocTensor<T>();
                if constexpr (F32) {
                    Adds(o, t, shift, cnt);
                } else {
                    Adds(t, t, shift, cnt);
                    PipeBarrier<PIPE_V>();
                    Cast(o, t, RoundMode::CAST_RINT, cnt);
                }
                inQue.FreeTensor(in);
                outQue.EnQue(o);
                LocalTensor<T> od = outQue.template DeQue<T>();
                CopyUbToGm(yGm[at], od, cnt);
                outQue.FreeTensor(od);
            }
        }
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQue;
    TQue<QuePosition::VECOUT, 2> outQue;
    TBuf<QuePosition::VECCALC> xfBuf, sqBuf, workBuf, sumBuf, chBuf, stageBuf;
    GlobalTensor<T> xGm, yGm;
    GlobalTensor<float> statGm[4];
    uint32_t n = 0, c = 0, hw = 0, c0 = 0, nc = 0, tile = 0, tp = 0, np = 0;
    float momentum = 0, eps = 0;
    bool training = false;
};

extern "C" __global__ __aicore__ void batch_norm_v3(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR running_mean,
                                                    GM_ADDR running_var, GM_ADDR y, GM_ADDR running_mean_out,
                                                    GM_ADDR running_var_out, GM_ADDR save_mean, GM_ADDR save_rstd,
                                                    GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    BatchNormV3<DTYPE_X> op;
    if (op.Init(x, weight, bias, running_mean_out, running_var_out, y, save_mean, save_rstd, tilingData.n,
                tilingData.c, tilingData.hw, tilingData.training != 0, tilingData.momentum, tilingData.epsilon)) {
        op.Process();
    }
}
