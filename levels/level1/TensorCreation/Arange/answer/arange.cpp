// Arange expert answer: out[i] = start + i * step for bfloat16, float16,
// float32, int32 and int64 (kernel-only mode, Ascend 910B); start, end and
// step are one-element tensors, the length is the output's.
//
// The elements are dealt to the cores on 32-byte boundaries. Each core
// builds the index ramp 0, 1, 2 ... of one tile once (eight scalar writes,
// then doubling with Adds), and per tile computes base + ramp * step:
// integers in int32 (exact; int64 widened at the end), floating types in
// float and rounded once.
#include "kernel_operator.h"
#include "../../../../common/elementwise.h"

using namespace AscendC;
using namespace npukb_answer;

constexpr uint32_t TILE = 4096;

template <typename T>
class KernelArange {
    static constexpr bool INTEGER = IsSameType<T, int32_t>::value || IsSameType<T, int64_t>::value;
    using C = typename std::conditional<INTEGER, int32_t, float>::type; // compute type

public:
    __aicore__ inline bool Init(GM_ADDR start, GM_ADDR step, GM_ADDR out, uint32_t total)
    {
        constexpr uint32_t unit = 32 / sizeof(T);
        const uint64_t perCore = CeilDiv(CeilDiv(total, unit), GetBlockNum()) * unit;
        first = perCore * GetBlockIdx();
        if (first >= total) {
            return false;
        }
        length = total - first < perCore ? total - first : perCore;
        GlobalTensor<T> g;
        g.SetGlobalBuffer((__gm__ T*)start, 1);
        startValue = ToCompute(g.GetValue(0));
        g.SetGlobalBuffer((__gm__ T*)step, 1);
        stepValue = ToCompute(g.GetValue(0));
        outGm.SetGlobalBuffer((__gm__ T*)out + first, length);
        tile = static_cast<uint32_t>(length < TILE ? AlignUp(length, 64) : TILE);
        pipe.InitBuffer(rampBuf, tile * sizeof(C));
        pipe.InitBuffer(valBuf, tile * sizeof(C));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tile * sizeof(T));
        return true;
    }

    __aicore__ inline void Process()
    {
        LocalTensor<C> ramp = rampBuf.Get<C>();
        LocalTensor<C> val = valBuf.Get<C>();
        BuildRamp(ramp);
        for (uint64_t off = 0; off < length; off += tile) {
            const uint32_t n = static_cast<uint32_t>(length - off < tile ? length - off : tile);
            const uint32_t count = static_cast<uint32_t>(AlignUp(n, 64));
            // base of this tile: start + (first + off) * step
            Muls(val, ramp, stepValue, count);
            PipeBarrier<PIPE_V>();
            Adds(val, val, static_cast<C>(startValue + static_cast<C>(first + off) * stepValue), count);
            PipeBarrier<PIPE_V>();
            LocalTensor<T> o = outQueue.AllocTensor<T>();
            if constexpr (IsSameType<T, C>::value) {
                Adds(o, val, static_cast<C>(0), count);
            } else {
                Cast(o, val, RoundMode::CAST_RINT, count);
            }
            outQueue.EnQue(o);
            o = outQueue.DeQue<T>();
            CopyUbToGm(outGm[off], o, n);
            outQueue.FreeTensor(o);
        }
    }

private:
    __aicore__ inline C ToCompute(T v)
    {
        if constexpr (INTEGER) {
            return static_cast<C>(v);
        } else {
            return static_cast<float>(v);
        }
    }

    __aicore__ inline void BuildRamp(const LocalTensor<C>& ramp)
    {
        for (uint32_t i = 0; i < 8; i++) {
            ramp.SetValue(i, static_cast<C>(i));
        }
        PipeBarrier<PIPE_ALL>();
        for (uint32_t have = 8; have < tile; have *= 2) {
            const uint32_t n = have < tile - have ? have : tile - have;
            Adds(ramp[have], ramp, static_cast<C>(have), n);
            PipeBarrier<PIPE_V>();
        }
    }

    TPipe pipe;
    TBuf<QuePosition::VECCALC> rampBuf;
    TBuf<QuePosition::VECCALC> valBuf;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    GlobalTensor<T> outGm;
    C startValue;
    C stepValue;
    uint64_t first = 0;
    uint64_t length = 0;
    uint32_t tile = 0;
};

extern "C" __global__ __aicore__ void arange(GM_ADDR start, GM_ADDR end, GM_ADDR step, GM_ADDR out,
                                             GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelArange<DTYPE_OUT> op;
    if (op.Init(start, step, out, tilingData.totalNum)) {
        op.Process();
    }
}
