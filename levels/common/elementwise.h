// elementwise.h - the streaming skeleton shared by npukb's element-wise
// expert answers (kernel-only mode, Ascend 910B vector cores).
//
// Work split: the n elements are cut into 32-byte units of the narrower of
// the input and output types and dealt to the cores in contiguous ranges,
// so every core starts on a 32-byte boundary of every tensor and no two
// cores write the same bytes. Each core streams its range through UB in
// tiles: NIN input queues and one output queue of depth 2 (double
// buffering: the copy-in of tile i+1 and the copy-out of tile i-1 overlap
// the compute of tile i), plus one scratch buffer for the operator. A tile
// whose byte length is not a multiple of 32 (the tail) moves with
// DataCopyPad; the operator computes on the tile rounded up to 256 bytes
// (the padding lanes are computed and thrown away).
//
// An operator is a class with
//   using In = ...; using Out = ...;            element types in GM
//   static constexpr int NIN;                   input tensors, same type
//   static constexpr uint32_t TMP_BYTES_PER_ELEM;  scratch per element
//   __aicore__ void Compute(const LocalTensor<Out>& y, const LocalTensor<In>* x,
//                           const LocalTensor<uint8_t>& tmp, uint32_t count);
// where count is a multiple of 256 bytes of both types.
#ifndef NPUKB_ANSWER_ELEMENTWISE_H
#define NPUKB_ANSWER_ELEMENTWISE_H

#include "kernel_operator.h"

namespace npukb_answer {

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
// UB left to the queues and the scratch: 192 KiB less room for the
// operators' small fixed buffers.
constexpr uint32_t UB_BUDGET = 176 * 1024;
// Beyond 16K elements per tile the DMA is already streaming at full rate.
constexpr uint32_t MAX_TILE = 16384;

__aicore__ inline uint64_t CeilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
__aicore__ inline uint64_t AlignUp(uint64_t a, uint64_t b) { return CeilDiv(a, b) * b; }

// GM <-> UB for any element count: whole 32-byte blocks with DataCopy,
// anything else with DataCopyPad (exact bytes in GM, padded in UB).
template <typename T>
__aicore__ inline void CopyGmToUb(const LocalTensor<T>& dst, const GlobalTensor<T>& src, uint32_t n)
{
    if ((n * sizeof(T)) % 32 == 0) {
        DataCopy(dst, src, n);
    } else {
        DataCopyExtParams p{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(dst, src, p, pad);
    }
}

template <typename T>
__aicore__ inline void CopyUbToGm(const GlobalTensor<T>& dst, const LocalTensor<T>& src, uint32_t n)
{
    if ((n * sizeof(T)) % 32 == 0) {
        DataCopy(dst, src, n);
    } else {
        DataCopyExtParams p{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPad(dst, src, p);
    }
}

template <class Op>
class Elementwise {
public:
    using In = typename Op::In;
    using Out = typename Op::Out;
    static constexpr int NIN = Op::NIN;

    // Returns false when this core has nothing to do.
    __aicore__ inline bool Init(GM_ADDR const* xs, GM_ADDR y, uint64_t total)
    {
        constexpr uint32_t narrow = sizeof(In) < sizeof(Out) ? sizeof(In) : sizeof(Out);
        constexpr uint32_t unit = 32 / narrow;
        // A tile is a multiple of 256 bytes of both types.
        constexpr uint32_t grain = 256 / narrow;
        const uint64_t units = CeilDiv(total, unit);
        const uint64_t perCore = CeilDiv(units, GetBlockNum()) * unit;
        const uint64_t start = perCore * GetBlockIdx();
        if (start >= total) {
            return false;
        }
        length = total - start < perCore ? total - start : perCore;
        for (int i = 0; i < NIN; i++) {
            xGm[i].SetGlobalBuffer((__gm__ In*)xs[i] + start, length);
        }
        yGm.SetGlobalBuffer((__gm__ Out*)y + start, length);

        const uint32_t perElem = BUFFER_NUM * (NIN * sizeof(In) + sizeof(Out)) + Op::TMP_BYTES_PER_ELEM;
        uint64_t t = UB_BUDGET / perElem / grain * grain;
        if (t > MAX_TILE) {
            t = MAX_TILE / grain * grain;
        }
        const uint64_t need = AlignUp(length, grain);
        tile = static_cast<uint32_t>(t < need ? t : need);
        for (int i = 0; i < NIN; i++) {
            pipe.InitBuffer(inQueue[i], BUFFER_NUM, tile * sizeof(In));
        }
        pipe.InitBuffer(outQueue, BUFFER_NUM, tile * sizeof(Out));
        if (Op::TMP_BYTES_PER_ELEM > 0) {
            pipe.InitBuffer(tmpBuf, tile * Op::TMP_BYTES_PER_ELEM);
        }
        return true;
    }

    __aicore__ inline void Process(Op& op)
    {
        constexpr uint32_t narrow = sizeof(In) < sizeof(Out) ? sizeof(In) : sizeof(Out);
        constexpr uint32_t grain = 256 / narrow;
        for (uint64_t off = 0; off < length; off += tile) {
            const uint32_t n = static_cast<uint32_t>(length - off < tile ? length - off : tile);
            CopyIn(off, n);
            Compute(op, static_cast<uint32_t>(AlignUp(n, grain)));
            CopyOut(off, n);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t n)
    {
        for (int i = 0; i < NIN; i++) {
            LocalTensor<In> x = inQueue[i].template AllocTensor<In>();
            CopyGmToUb(x, xGm[i][off], n);
            inQueue[i].EnQue(x);
        }
    }

    __aicore__ inline void Compute(Op& op, uint32_t count)
    {
        LocalTensor<In> x[NIN];
        for (int i = 0; i < NIN; i++) {
            x[i] = inQueue[i].template DeQue<In>();
        }
        LocalTensor<Out> y = outQueue.template AllocTensor<Out>();
        LocalTensor<uint8_t> tmp;
        if (Op::TMP_BYTES_PER_ELEM > 0) {
            tmp = tmpBuf.template Get<uint8_t>();
        }
        op.Compute(y, x, tmp, count);
        outQueue.EnQue(y);
        for (int i = 0; i < NIN; i++) {
            inQueue[i].FreeTensor(x[i]);
        }
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t n)
    {
        LocalTensor<Out> y = outQueue.template DeQue<Out>();
        CopyUbToGm(yGm[off], y, n);
        outQueue.FreeTensor(y);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue[NIN];
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    TBuf<QuePosition::VECCALC> tmpBuf;
    GlobalTensor<In> xGm[NIN];
    GlobalTensor<Out> yGm;
    uint64_t length = 0;
    uint32_t tile = 0;
};

// Runs op over n elements: the whole kernel body of a one-output
// element-wise operator.
template <class Op>
__aicore__ inline void RunElementwise(Op& op, GM_ADDR const* xs, GM_ADDR y, uint64_t total)
{
    Elementwise<Op> kernel;
    if (kernel.Init(xs, y, total)) {
        kernel.Process(op);
    }
}

// tmp as a tensor of T starting byteOffset bytes in.
template <typename T>
__aicore__ inline LocalTensor<T> TmpAs(const LocalTensor<uint8_t>& tmp, uint32_t byteOffset)
{
    return tmp[byteOffset].template ReinterpretCast<T>();
}

} // namespace npukb_answer

#endif
