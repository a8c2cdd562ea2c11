// GeluQuant expert answer (kernel-only mode, Ascend 910B): g = gelu(x) in
// float (tanh form x / (1 + exp(-k (x + c x^3))), or the exact erf form of
// levels/common/gelu.h), then int8 codes rounded to nearest even.
//  - static: y = code(g * scale + offset), element-wise on the shared
//    streaming skeleton (multi-core, tiled, double-buffered, tail by
//    DataCopyPad); block 0 also writes out_scale[0] = 1 / scale.
//  - dynamic: per row of the last dimension, m = g * scale, s = 127 /
//    (max|m| + 1e-6), y = code(m * s), out_scale = 1 / s. Rows are dealt to
//    the cores in contiguous ranges and streamed through UB in tiles of
//    whole rows (double-buffered); a row too long for UB is done in chunks,
//    twice: once for its maximum, once for its codes.
#include "kernel_operator.h"
#include "../../../../common/gelu.h"
#include "../../../../common/quant.h"
#include "../../../../common/rows.h"

using namespace AscendC;
using namespace npukb_answer;

namespace {

constexpr float TANH_K = 1.5957691216057308f; // sqrt(8 / pi)
constexpr float TANH_C = 0.044715f;
constexpr uint32_t GELU_SCRATCH = 4;          // floats per element

// g = gelu(x) over count floats (tanh or erf form); s[0..3] are scratch, g
// may not be x.
__aicore__ inline void GeluAny(const LocalTensor<float>& g, const LocalTensor<float>& x,
                               const LocalTensor<float>* s, bool tanh, uint32_t count)
{
    if (tanh) {
        Mul(s[0], x, x, count);
        PipeBarrier<PIPE_V>();
        Muls(s[0], s[0], TANH_C, count);
        PipeBarrier<PIPE_V>();
        Adds(s[0], s[0], 1.0f, count);
        PipeBarrier<PIPE_V>();
        Mul(s[0], s[0], x, count); // x + c x^3
        PipeBarrier<PIPE_V>();
        Muls(s[0], s[0], -TANH_K, count);
        PipeBarrier<PIPE_V>();
        Exp(s[0], s[0], count);
        PipeBarrier<PIPE_V>();
        Adds(s[0], s[0], 1.0f, count);
        PipeBarrier<PIPE_V>();
        Div(g, x, s[0], count); // exp overflowing gives the right -0
    } else {
        GeluErf(g, x, s[0], s[1], s[2], s[3], count);
    }
}

// Static mode on the element-wise skeleton: In = T, Out = int8_t.
template <typename T>
struct StaticOp {
    using In = T;
    using Out = int8_t;
    static constexpr int NIN = 1;
    static constexpr bool WIDEN = !IsSameType<T, float>::value;
    // x in float (when widened), g, and the GELU scratch.
    static constexpr uint32_t NTMP = 2 + GELU_SCRATCH;
    static constexpr uint32_t TMP_BYTES_PER_ELEM = 4 * NTMP;
    bool tanh;
    float scale;
    float offset;

    __aicore__ inline void Compute(const LocalTensor<int8_t>& y, const LocalTensor<T>* x,
                                   const LocalTensor<uint8_t>& tmp, uint32_t count)
    {
        LocalTensor<float> s[NTMP];
        for (uint32_t i = 0; i < NTMP; i++) {
            s[i] = TmpAs<float>(tmp, i * count * 4);
        }
        LocalTensor<float> xf = s[GELU_SCRATCH];
        LocalTensor<float> g = s[GELU_SCRATCH + 1];
        if constexpr (WIDEN) {
            Cast(xf, x[0], RoundMode::CAST_NONE, count);
            PipeBarrier<PIPE_V>();
        } else {
            xf = x[0];
        }
        GeluAny(g, xf, s, tanh, count);
        PipeBarrier<PIPE_V>();
        Muls(g, g, scale, count);
        PipeBarrier<PIPE_V>();
        Adds(g, g, offset, count);
        PipeBarrier<PIPE_V>();
        QuantInt8(y, g, s[0].template ReinterpretCast<half>(), count);
    }
};

// out_scale[0] = 1 / scale, from block 0 (static mode): one scalar store.
__aicore__ inline void WriteStaticScale(GM_ADDR outScale, float scale)
{
    GlobalTensor<float> o;
    o.SetGlobalBuffer((__gm__ float*)outScale, 1);
    o.SetValue(0, 1.0f / scale);
}

template <typename T>
class DynamicRows {
public:
    static constexpr bool F32 = IsSameType<T, float>::value;
    static constexpr uint32_t MAX_ROWS = 1024;
    static constexpr uint32_t CHUNK = 4096; // elements per chunk of a long row

    __aicore__ inline bool Init(GM_ADDR x, GM_ADDR y, GM_ADDR outScale, uint64_t allRows, uint32_t len,
                                bool tanhForm, float sc)
    {
        const uint64_t perCore = CeilDiv(allRows, GetBlockNum());
        const uint64_t start = perCore * GetBlockIdx();
        if (start >= allRows || len == 0) {
            return false;
        }
        rows = allRows - start < perCore ? allRows - start : perCore;
        d = len;
        tanh = tanhForm;
        scale = sc;
        xGm.SetGlobalBuffer((__gm__ T*)x + start * d, rows * d);
        yGm.SetGlobalBuffer((__gm__ int8_t*)y + start * d, rows * d);
        sGm.SetGlobalBuffer((__gm__ float*)outScale + start, rows);
        dp = static_cast<uint32_t>(AlignUp(d, 64));
        // Per row: x and y double-buffered, the float tile (x widened, g,
        // the GELU scratch), the row's multiplier and out_scale.
        const uint32_t perRow = 2 * (sizeof(T) + 1) * dp + 4 * (2 + GELU_SCRATCH) * dp + 3 * 2 * 4;
        const uint32_t fixed = 2 * 64 * 4 + 256;
        uint32_t nr = (UB_BUDGET - fixed) / perRow;
        nr = nr < MAX_ROWS ? nr : MAX_ROWS;
        longRows = nr == 0;
        if (longRows) {
            dp = CHUNK;
            nr = 1;
        }
        tileRows = static_cast<uint32_t>(nr < rows ? nr : rows);
        const uint32_t n = tileRows * dp;
        const uint32_t rowF = static_cast<uint32_t>(AlignUp(tileRows, 8) * 4);
        pipe.InitBuffer(xQue, 2, n * sizeof(T));
        pipe.InitBuffer(yQue, 2, static_cast<uint32_t>(AlignUp(n, 32)));
        pipe.InitBuffer(sQue, 2, rowF);
        pipe.InitBuffer(fBuf, n * 4 * (2 + GELU_SCRATCH));
        pipe.InitBuffer(mulBuf, rowF);
        pipe.InitBuffer(workBuf, 64 * 4);
        pipe.InitBuffer(redBuf, 64 * 4);
        return true;
    }

    __aicore__ inline void Process()
    {
        if (longRows) {
            for (uint64_t r = 0; r < rows; r++) {
                LongRow(r);
            }
            return;
        }
        for (uint64_t r0 = 0; r0 < rows; r0 += tileRows) {
            const uint32_t nr = static_cast<uint32_t>(rows - r0 < tileRows ? rows - r0 : tileRows);
            LocalTensor<T> x = xQue.template AllocTensor<T>();
            CopyRowsIn(x, xGm[r0 * d], nr, d, dp);
            xQue.EnQue(x);
            Compute(nr);
            LocalTensor<int8_t> y = yQue.template DeQue<int8_t>();
            CopyRowsOut(yGm[r0 * d], y, nr, d, dp);
            yQue.FreeTensor(y);
            LocalTensor<float> s = sQue.template DeQue<float>();
            CopyUbToGm(sGm[r0], s, nr);
            sQue.FreeTensor(s);
        }
    }

private:
    __aicore__ inline LocalTensor<float> F(uint32_t k, uint32_t n) { return fBuf.Get<float>()[k * n]; }

    // g = gelu(x) * scale over n elements of the tile in x (dequeued and
    // freed here); returns g.
    __aicore__ inline LocalTensor<float> Scaled(uint32_t n)
    {
        LocalTensor<float> s[GELU_SCRATCH];
        for (uint32_t i = 0; i < GELU_SCRATCH; i++) {
            s[i] = F(i, n);
        }
        LocalTensor<float> xf = F(GELU_SCRATCH, n);
        LocalTensor<float> g = F(GELU_SCRATCH + 1, n);
        LocalTensor<T> x = xQue.template DeQue<T>();
        if constexpr (F32) {
            Adds(xf, x, 0.0f, n);
        } else {
            Cast(xf, x, RoundMode::CAST_NONE, n);
        }
        PipeBarrier<PIPE_V>();
        xQue.FreeTensor(x);
        GeluAny(g, xf, s, tanh, n);
        PipeBarrier<PIPE_V>();
        Muls(g, g, scale, n);
        PipeBarrier<PIPE_V>();
        return g;
    }

    // The maximum of |v| over count elements, on the scalar unit (ReduceMax
    // ends with a scalar store the scalar unit then reads in order).
    __aicore__ inline float AbsMax(const LocalTensor<float>& v, const LocalTensor<float>& a, uint32_t count)
    {
        Abs(a, v, count);
        PipeBarrier<PIPE_V>();
        LocalTensor<float> red = redBuf.Get<float>();
        ReduceMax(red, a, workBuf.Get<float>(), count);
        return red.GetValue(0);
    }

    __aicore__ inline void Compute(uint32_t nr)
    {
        const uint32_t n = nr * dp;
        LocalTensor<float> g = Scaled(n);
        LocalTensor<float> a = F(0, n);
        LocalTensor<float> mul = mulBuf.Get<float>();
        for (uint32_t i = 0; i < nr; i++) {
            mul.SetValue(i, 127.0f / (AbsMax(g[i * dp], a[i * dp], d) + 1e-6f));
        }
        SetFlag<HardEvent::S_V>(0);
        WaitFlag<HardEvent::S_V>(0);
        for (uint32_t i = 0; i < nr; i++) {
            Muls(g[i * dp], g[i * dp], mul.GetValue(i), d);
        }
        LocalTensor<float> s = sQue.template AllocTensor<float>();
        Reciprocal(s, mul, nr);
        sQue.EnQue(s);
        PipeBarrier<PIPE_V>();
        LocalTensor<int8_t> y = yQue.template AllocTensor<int8_t>();
        QuantInt8(y, g, F(1, n).template ReinterpretCast<half>(), n);
        yQue.EnQue(y);
    }

    // gelu(x) * scale for len elements of x from off (a chunk of a long row).
    __aicore__ inline LocalTensor<float> ChunkScaled(uint64_t off, uint32_t len)
    {
        LocalTensor<T> x = xQue.template AllocTensor<T>();
        CopyGmToUb(x, xGm[off], len);
        xQue.EnQue(x);
        return Scaled(CHUNK);
    }

    // A row longer than UB: its maximum over chunks, then its codes.
    __aicore__ inline void LongRow(uint64_t r)
    {
        float amax = 0.0f;
        for (uint32_t c0 = 0; c0 < d; c0 += CHUNK) {
            const uint32_t len = d - c0 < CHUNK ? d - c0 : CHUNK;
            LocalTensor<float> g = ChunkScaled(r * d + c0, len);
            const float m = AbsMax(g, F(0, CHUNK), len);
            amax = m > amax ? m : amax;
        }
        const float mul = 127.0f / (amax + 1e-6f);
        for (uint32_t c0 = 0; c0 < d; c0 += CHUNK) {
            const uint32_t len = d - c0 < CHUNK ? d - c0 : CHUNK;
            LocalTensor<float> g = ChunkScaled(r * d + c0, len);
            Muls(g, g, mul, CHUNK);
            PipeBarrier<PIPE_V>();
            LocalTensor<int8_t> y = yQue.template AllocTensor<int8_t>();
            QuantInt8(y, g, F(1, CHUNK).template ReinterpretCast<half>(), CHUNK);
            yQue.EnQue(y);
            y = yQue.template DeQue<int8_t>();
            CopyUbToGm(yGm[r * d + c0], y, len);
            yQue.FreeTensor(y);
        }
        LocalTensor<float> s = sQue.template AllocTensor<float>();
        Duplicate(s, 1.0f / mul, 8);
        sQue.EnQue(s);
        s = sQue.template DeQue<float>();
        CopyUbToGm(sGm[r], s, 1);
        sQue.FreeTensor(s);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> xQue;
    TQue<QuePosition::VECOUT, 2> yQue;
    TQue<QuePosition::VECOUT, 2> sQue;
    TBuf<QuePosition::VECCALC> fBuf;
    TBuf<QuePosition::VECCALC> mulBuf;
    TBuf<QuePosition::VECCALC> workBuf;
    TBuf<QuePosition::VECCALC> redBuf;
    GlobalTensor<T> xGm;
    GlobalTensor<int8_t> yGm;
    GlobalTensor<float> sGm;
    uint64_t rows = 0;
    uint32_t d = 0;
    uint32_t dp = 0;
    uint32_t tileRows = 0;
    bool longRows = false;
    bool tanh = false;
    float scale = 1.0f;
};

} // namespace

extern "C" __global__ __aicore__ void gelu_quant(GM_ADDR x, GM_ADDR input_scale, GM_ADDR input_offset, GM_ADDR y,
                                                 GM_ADDR out_scale, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    const float scale = ScalarAsFloat<DTYPE_X>(input_scale);
    if (tilingData.dynamic) {
        DynamicRows<DTYPE_X> k;
        if (k.Init(x, y, out_scale, tilingData.rows, tilingData.d, tilingData.tanh != 0, scale)) {
            k.Process();
        }
        return;
    }
    StaticOp<DTYPE_X> op;
    op.tanh = tilingData.tanh != 0;
    op.scale = scale;
    op.offset = ScalarAsFloat<DTYPE_X>(input_offset);
    GM_ADDR in[1] = {x};
    RunElementwise(op, in, y, tilingData.rows * tilingData.d);
    if (GetBlockIdx() == 0) {
        WriteStaticScale(out_scale, scale);
    }
}
