// PreLayerNorm expert answer: out = LayerNorm(x + y) * gamma + beta per row
// of d elements (kernel-only mode, Ascend 910B, float32).
//
// Rows of up to SHORT_ROW elements go through the shared row skeleton of
// levels/common/layer_norm.h (whole rows per tile, mean and rstd not
// written). Longer rows (10240 and 20480 in the cases) do not fit that
// skeleton's tiles; each core then takes one row at a time: the row's sum
// s = x + y is built chunk by chunk in UB (x and y double-buffered), reduced
// for the mean and, chunk by chunk, for the squared deviations, and the
// output is written chunk by chunk with gamma and beta streamed beside it.
// One row of s must fit in UB: d up to about 28000 floats.
#include "kernel_operator.h"
#include "../../../../common/layer_norm.h"

using namespace npukb_answer;

namespace {

constexpr uint32_t SHORT_ROW = 4096;
constexpr uint32_t CHUNK = 2048; // floats per chunk of a long row

class LongRowLayerNorm {
public:
    __aicore__ inline bool Init(GM_ADDR x, GM_ADDR y, GM_ADDR gamma, GM_ADDR beta, GM_ADDR out, uint64_t totalRows,
                                uint32_t len, float epsilon)
    {
        const uint64_t perCore = CeilDiv(totalRows, GetBlockNum());
        const uint64_t start = perCore * GetBlockIdx();
        if (start >= totalRows || len == 0) {
            return false;
        }
        rows = totalRows - start < perCore ? totalRows - start : perCore;
        d = len;
        eps = epsilon;
        chunks = static_cast<uint32_t>(CeilDiv(d, CHUNK));
        xGm.SetGlobalBuffer((__gm__ float*)x + start * d, rows * d);
        yGm.SetGlobalBuffer((__gm__ float*)y + start * d, rows * d);
        outGm.SetGlobalBuffer((__gm__ float*)out + start * d, rows * d);
        gammaGm.SetGlobalBuffer((__gm__ float*)gamma, d);
        betaGm.SetGlobalBuffer((__gm__ float*)beta, d);
        pipe.InitBuffer(inQue, 2, 2 * CHUNK * sizeof(float));
        pipe.InitBuffer(outQue, 2, CHUNK * sizeof(float));
        pipe.InitBuffer(sBuf, static_cast<uint32_t>(AlignUp(d, CHUNK) * sizeof(float)));
        pipe.InitBuffer(sqBuf, CHUNK * sizeof(float));
        // ReduceSum's work area for a whole row, and one partial per chunk.
        pipe.InitBuffer(workBuf, static_cast<uint32_t>(AlignUp(CeilDiv(d, 64), 8) * sizeof(float)));
        pipe.InitBuffer(partBuf, static_cast<uint32_t>(AlignUp(chunks, 8) * sizeof(float)));
        pipe.InitBuffer(statBuf, 8 * sizeof(float));
        return true;
    }

    __aicore__ inline void Process()
    {
        for (uint64_t r = 0; r < rows; r++) {
            Row(r);
        }
    }

private:
    __aicore__ inline uint32_t ChunkLen(uint32_t k) const { return d - k * CHUNK < CHUNK ? d - k * CHUNK : CHUNK; }

    // stat[0] = sum of v[0 .. n); the scalar unit then reads it.
    __aicore__ inline float Sum(const LocalTensor<float>& v, uint32_t n)
    {
        LocalTensor<float> stat = statBuf.Get<float>();
        ReduceSum(stat, v, workBuf.Get<float>(), n);
        SetFlag<HardEvent::V_S>(0);
        WaitFlag<HardEvent::V_S>(0);
        const float s = stat.GetValue(0);
        // The next vector instruction may overwrite stat.
        SetFlag<HardEvent::S_V>(0);
        WaitFlag<HardEvent::S_V>(0);
        return s;
    }

    __aicore__ inline void Row(uint64_t r)
    {
        LocalTensor<float> s = sBuf.Get<float>();
        // s = x + y, chunk by chunk; the next chunk's copy overlaps this add.
        for (uint32_t k = 0; k < chunks; k++) {
            const uint32_t n = ChunkLen(k);
            LocalTensor<float> in = inQue.AllocTensor<float>();
            CopyGmToUb(in, xGm[r * d + k * CHUNK], n);
            CopyGmToUb(in[CHUNK], yGm[r * d + k * CHUNK], n);
            inQue.EnQue(in);
            in = inQue.DeQue<float>();
            Add(s[k * CHUNK], in, in[CHUNK], n);
            inQue.FreeTensor(in);
        }
        PipeBarrier<PIPE_V>();
        const float mean = Sum(s, d) / static_cast<float>(d);
        Adds(s, s, -mean, d);
        PipeBarrier<PIPE_V>();
        LocalTensor<float> sq = sqBuf.Get<float>();
        LocalTensor<float> part = partBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        for (uint32_t k = 0; k < chunks; k++) {
            const uint32_t n = ChunkLen(k);
            Mul(sq, s[k * CHUNK], s[k * CHUNK], n);
            PipeBarrier<PIPE_V>();
            ReduceSum(part[k], sq, work, n);
            PipeBarrier<PIPE_V>();
        }
        const float var = Sum(part, chunks) / static_cast<float>(d);
        LocalTensor<float> stat = statBuf.Get<float>();
        Duplicate(stat, var + eps, 8);
        PipeBarrier<PIPE_V>();
        Sqrt(stat, stat, 8);
        SetFlag<HardEvent::V_S>(0);
        WaitFlag<HardEvent::V_S>(0);
        const float rstd = 1.0f / stat.GetValue(0);
        for (uint32_t k = 0; k < chunks; k++) {
            const uint32_t n = ChunkLen(k);
            LocalTensor<float> w = inQue.AllocTensor<float>();
            CopyGmToUb(w, gammaGm[k * CHUNK], n);
            CopyGmToUb(w[CHUNK], betaGm[k * CHUNK], n);
            inQue.EnQue(w);
            w = inQue.DeQue<float>();
            LocalTensor<float> o = outQue.AllocTensor<float>();
            Muls(o, s[k * CHUNK], rstd, n);
            PipeBarrier<PIPE_V>();
            Mul(o, o, w, n);
            PipeBarrier<PIPE_V>();
            Add(o, o, w[CHUNK], n);
            inQue.FreeTensor(w);
            outQue.EnQue(o);
            o = outQue.DeQue<float>();
            CopyUbToGm(outGm[r * d + k * CHUNK], o, n);
            outQue.FreeTensor(o);
        }
        // The next row's adds overwrite s, which this row's last chunks read.
        PipeBarrier<PIPE_V>();
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQue;
    TQue<QuePosition::VECOUT, 2> outQue;
    TBuf<QuePosition::VECCALC> sBuf, sqBuf, workBuf, partBuf, statBuf;
    GlobalTensor<float> xGm, yGm, gammaGm, betaGm, outGm;
    uint64_t rows = 0;
    uint32_t d = 0, chunks = 0;
    float eps = 0;
};

} // namespace

extern "C" __global__ __aicore__ void pre_layer_norm(GM_ADDR x, GM_ADDR y, GM_ADDR gamma, GM_ADDR beta,
                                                     GM_ADDR res_out, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    if (tilingData.d <= SHORT_ROW) {
        LayerNormArgs a{x, y, nullptr, gamma, beta, res_out, nullptr, nullptr, nullptr, tilingData.rows, tilingData.d,
                        BiasKind::NONE, 1.0f, tilingData.epsilon};
        RunLayerNorm<DTYPE_X, float, true>(a);
        return;
    }
    LongRowLayerNorm op;
    if (op.Init(x, y, gamma, beta, res_out, tilingData.rows, tilingData.d, tilingData.epsilon)) {
        op.Process();
    }
}
