// optim.h - the streaming skeleton shared by npukb's optimizer expert
// answers (ApplyFusedEmaAdam, ApplyAdamWV2): NIN tensors of one dtype read
// element by element, NOUT of them updated in place.
//
// Work split as elementwise.h: contiguous 32-byte-unit ranges per core.
// Each core streams its range in tiles through one input queue (each
// buffer holds a tile of every tensor read) and one output queue (a tile of
// every tensor written), depth 2 (double buffering; a position holds at
// most 8 queue buffers, so not one queue per tensor). Every tile
// is widened to float (half and bfloat16) or copied into float buffers,
// the operator updates its float tensors in place, and the updated ones
// are rounded once (nearest even) into the output queues. Tails move with
// DataCopyPad.
//
// An operator provides
//   static constexpr int NIN, NOUT, SCRATCH;     tensors read, written, float temporaries
//   static constexpr int OUT[NOUT];              which inputs are written back
//   __aicore__ void Compute(const LocalTensor<float>* x, const LocalTensor<float>* s, uint32_t count);
#ifndef NPUKB_ANSWER_OPTIM_H
#define NPUKB_ANSWER_OPTIM_H

#include "elementwise.h"

namespace npukb_answer {

template <typename T, class Op>
class InplaceStream {
public:
    static constexpr uint32_t GRAIN = 256 / sizeof(T);
    // Elements per tile: the queues and the float buffers fit UB_BUDGET.
    static constexpr uint32_t PER_ELEM =
        BUFFER_NUM * (Op::NIN + Op::NOUT) * sizeof(T) + (Op::NIN + Op::SCRATCH) * sizeof(float);
    static constexpr uint32_t FIT = UB_BUDGET / PER_ELEM / GRAIN * GRAIN;
    static constexpr uint32_t OPTIM_TILE = FIT < 2048 ? FIT : 2048;

    // ins: the NIN tensors; outs: where the NOUT updated ones go.
    __aicore__ inline bool Init(GM_ADDR const* ins, GM_ADDR const* outs, uint64_t total)
    {
        constexpr uint64_t unit = 32 / sizeof(T);
        const uint64_t perCore = CeilDiv(CeilDiv(total, unit), GetBlockNum()) * unit;
        const uint64_t start = perCore * GetBlockIdx();
        if (start >= total) {
            return false;
        }
        length = total - start < perCore ? total - start : perCore;
        for (int i = 0; i < Op::NIN; i++) {
            inGm[i].SetGlobalBuffer((__gm__ T*)ins[i] + start, length);
        }
        for (int j = 0; j < Op::NOUT; j++) {
            outGm[j].SetGlobalBuffer((__gm__ T*)outs[j] + start, length);
        }
        pipe.InitBuffer(inQueue, BUFFER_NUM, Op::NIN * OPTIM_TILE * sizeof(T));
        pipe.InitBuffer(outQueue, BUFFER_NUM, Op::NOUT * OPTIM_TILE * sizeof(T));
        pipe.InitBuffer(calcBuf, (Op::NIN + Op::SCRATCH) * OPTIM_TILE * sizeof(float));
        return true;
    }

    __aicore__ inline void Process(Op& op)
    {
        for (uint64_t off = 0; off < length; off += OPTIM_TILE) {
            const uint32_t n = static_cast<uint32_t>(length - off < OPTIM_TILE ? length - off : OPTIM_TILE);
            LocalTensor<T> x = inQueue.template AllocTensor<T>();
            for (int i = 0; i < Op::NIN; i++) {
                CopyGmToUb(x[i * OPTIM_TILE], inGm[i][off], n);
            }
            inQueue.EnQue(x);
            Compute(op, static_cast<uint32_t>(AlignUp(n, GRAIN)));
            LocalTensor<T> y = outQueue.template DeQue<T>();
            for (int j = 0; j < Op::NOUT; j++) {
                CopyUbToGm(outGm[j][off], y[j * OPTIM_TILE], n);
            }
            outQueue.FreeTensor(y);
        }
    }

private:
    __aicore__ inline void Compute(Op& op, uint32_t count)
    {
        LocalTensor<float> all = calcBuf.template Get<float>();
        LocalTensor<float> xf[Op::NIN];
        LocalTensor<float> s[Op::SCRATCH > 0 ? Op::SCRATCH : 1];
        LocalTensor<T> x = inQueue.template DeQue<T>();
        for (int i = 0; i < Op::NIN; i++) {
            xf[i] = all[i * OPTIM_TILE];
            if constexpr (IsSameType<T, float>::value) {
                Adds(xf[i], x[i * OPTIM_TILE], 0.0f, count);
            } else {
                Cast(xf[i], x[i * OPTIM_TILE], RoundMode::CAST_NONE, count);
            }
        }
        inQueue.FreeTensor(x);
        for (int i = 0; i < Op::SCRATCH; i++) {
            s[i] = all[(Op::NIN + i) * OPTIM_TILE];
        }
        PipeBarrier<PIPE_V>();
        op.Compute(xf, s, count);
        PipeBarrier<PIPE_V>();
        LocalTensor<T> y = outQueue.template AllocTensor<T>();
        for (int j = 0; j < Op::NOUT; j++) {
            if constexpr (IsSameType<T, float>::value) {
                Adds(y[j * OPTIM_TILE], xf[Op::OUT[j]], 0.0f, count);
            } else {
                Cast(y[j * OPTIM_TILE], xf[Op::OUT[j]], RoundMode::CAST_RINT, count);
            }
        }
        outQueue.EnQue(y);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    TBuf<QuePosition::VECCALC> calcBuf;
    GlobalTensor<T> inGm[Op::NIN];
    GlobalTensor<T> outGm[Op::NOUT];
    uint64_t length = 0;
};

template <typename T, class Op>
__aicore__ inline void RunInplaceStream(Op& op, GM_ADDR const* ins, GM_ADDR const* outs, uint64_t total)
{
    InplaceStream<T, Op> kernel;
    if (kernel.Init(ins, outs, total)) {
        kernel.Process(op);
    }
}

// base^n for a small non-negative integer n, by squaring, in float on the
// scalar unit (bias corrections: 1 - beta^step).
__aicore__ inline float PowInt(float base, int64_t n)
{
    float r = 1.0f;
    while (n > 0) {
        if (n & 1) {
            r *= base;
        }
        base *= base;
        n >>= 1;
    }
    return r;
}

} // namespace npukb_answer

#endif
