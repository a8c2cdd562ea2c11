// ReverseSequence expert answer (kernel-only mode, Ascend 910B): for each
// batch b the first seq_lengths[b] positions along seqDim are reversed.
//
// x is viewed as [p0, dLo, p1, dHi, c]: lo/hi are the lower and higher of
// seqDim and batchDim, c the elements after the higher one. A chunk (c
// contiguous elements, in pieces when too long for UB) moves as a unit.
// The destination chunks, in GM order, are dealt to the cores in
// contiguous ranges and streamed through UB in tiles that stay within one
// row (p0, lo index, p1) and one run of like chunks:
//  - seq is the higher dim: a row is one sequence; its reversed part reads
//    one contiguous source range with one DMA and reverses the chunk order
//    with UB copies; the kept part is one DMA in and out;
//  - seq is the lower dim: a row holds one position of every batch; chunks
//    whose source rows agree are read together, one DMA per run.
// Every chunk is padded to 32 bytes in UB (DataCopyPad), so the copies
// stay aligned whatever c is. In and out queues are double-buffered.
#include "kernel_operator.h"

using namespace AscendC;

namespace {

constexpr int32_t BUFFER_NUM = 2;
// Four tiles (in and out, double-buffered) within the 192 KiB UB.
constexpr uint32_t TILE_BYTES = 40 * 1024;

template <typename T>
class ReverseSequence {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR len, GM_ADDR y, const ReverseSequenceTilingData& t)
    {
        p1 = t.p1;
        dLo = t.dLo;
        dHi = t.dHi;
        c = t.c;
        seqHi = t.seqDim > t.batchDim;
        xGm.SetGlobalBuffer((__gm__ T*)x);
        yGm.SetGlobalBuffer((__gm__ T*)y);
        lenGm.SetGlobalBuffer((__gm__ int64_t*)len);
        // A chunk longer than the tile moves in pieces of pw elements.
        const uint64_t cBytes = AlignUp(c * sizeof(T));
        pw = cBytes <= TILE_BYTES ? c : TILE_BYTES / sizeof(T);
        const uint64_t chunks = t.p0 * dLo * p1 * dHi;
        const uint64_t per = (chunks + GetBlockNum() - 1) / GetBlockNum();
        begin = per * GetBlockIdx();
        end = begin + per < chunks ? begin + per : chunks;
        const uint32_t slot = static_cast<uint32_t>(AlignUp(pw * sizeof(T)));
        maxTile = TILE_BYTES / slot;
        pipe.InitBuffer(inQue, BUFFER_NUM, TILE_BYTES);
        pipe.InitBuffer(outQue, BUFFER_NUM, TILE_BYTES);
    }

    __aicore__ inline void Process()
    {
        for (uint64_t c0 = 0; c0 < c; c0 += pw) {
            const uint32_t w = static_cast<uint32_t>(c - c0 < pw ? c - c0 : pw);
            slotElems = static_cast<uint32_t>(AlignUp(w * sizeof(T)) / sizeof(T));
            for (uint64_t g = begin; g < end;) {
                g += Tile(g, c0, w);
            }
        }
    }

private:
    __aicore__ static inline uint64_t AlignUp(uint64_t bytes) { return (bytes + 31) / 32 * 32; }

    __aicore__ inline uint64_t Length(uint64_t batch)
    {
        const int64_t l = lenGm.GetValue(batch);
        const uint64_t d = seqHi ? dHi : dLo;
        return l < 0 ? 0 : (static_cast<uint64_t>(l) > d ? d : static_cast<uint64_t>(l));
    }

    // GM element offset of chunk (row, j): row = (p0, lo) * p1 + p1 index.
    __aicore__ inline uint64_t At(uint64_t row, uint64_t j, uint64_t c0) const
    {
        return (row * dHi + j) * c + c0;
    }

    // Copies the tile starting at destination chunk g; returns its chunks.
    __aicore__ inline uint32_t Tile(uint64_t g, uint64_t c0, uint32_t w)
    {
        const uint64_t row = g / dHi, j0 = g % dHi;
        uint64_t n = dHi - j0;
        n = n < end - g ? n : end - g;
        n = n < maxTile ? n : maxTile;
        LocalTensor<T> in = inQue.template AllocTensor<T>();
        bool reversed = false;
        if (seqHi) {
            const uint64_t l = Length((row / p1) % dLo);
            if (j0 < l) {
                // destinations j0 .. j0+n-1 read l-1-j: one ascending range
                n = n < l - j0 ? n : l - j0;
                Load(in, 0, At(row, l - j0 - n, c0), static_cast<uint32_t>(n), w);
                reversed = true;
            } else {
                Load(in, 0, At(row, j0, c0), static_cast<uint32_t>(n), w);
            }
        } else {
            const uint64_t pos = (row / p1) % dLo, head = row - pos * p1;
            uint64_t k = 0;
            while (k < n) {
                // a run of batches whose source position agrees
                const uint64_t src = SourcePos(pos, j0 + k);
                uint64_t e = k + 1;
                while (e < n && SourcePos(pos, j0 + e) == src) {
                    e++;
                }
                Load(in, static_cast<uint32_t>(k), At(head + src * p1, j0 + k, c0), static_cast<uint32_t>(e - k), w);
                k = e;
            }
        }
        inQue.EnQue(in);
        Compute(static_cast<uint32_t>(n), reversed);
        LocalTensor<T> out = outQue.template DeQue<T>();
        DataCopyPad(yGm[At(row, j0, c0)], out, Blocks(static_cast<uint32_t>(n), w, true));
        outQue.FreeTensor(out);
        return static_cast<uint32_t>(n);
    }

    __aicore__ inline uint64_t SourcePos(uint64_t pos, uint64_t batch)
    {
        const uint64_t l = Length(batch);
        return pos < l ? l - 1 - pos : pos;
    }

    // n chunks of w elements, dense in GM (chunk stride c), one slot each in UB.
    __aicore__ inline DataCopyExtParams Blocks(uint32_t n, uint32_t w, bool toGm) const
    {
        const uint32_t gmGap = static_cast<uint32_t>((c - w) * sizeof(T));
        const uint32_t ubGap = 0; // a slot is w rounded up to 32 bytes
        return DataCopyExtParams{static_cast<uint16_t>(n), static_cast<uint32_t>(w * sizeof(T)),
                                 toGm ? ubGap : gmGap, toGm ? gmGap : ubGap, 0};
    }

    __aicore__ inline void Load(const LocalTensor<T>& in, uint32_t slot, uint64_t src, uint32_t n, uint32_t w)
    {
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(in[slot * slotElems], xGm[src], Blocks(n, w, false), pad);
    }

    __aicore__ inline void Compute(uint32_t n, bool reversed)
    {
        LocalTensor<T> in = inQue.template DeQue<T>();
        LocalTensor<T> out = outQue.template AllocTensor<T>();
        if (reversed) {
            for (uint32_t k = 0; k < n; k++) {
                DataCopy(out[k * slotElems], in[(n - 1 - k) * slotElems], slotElems);
            }
        } else {
            DataCopy(out, in, n * slotElems);
        }
        outQue.EnQue(out);
        inQue.FreeTensor(in);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQue;
    GlobalTensor<T> xGm, yGm;
    GlobalTensor<int64_t> lenGm;
    uint64_t p1 = 1, dLo = 1, dHi = 1, c = 1, pw = 1, begin = 0, end = 0, maxTile = 1;
    uint32_t slotElems = 0;
    bool seqHi = true;
};

} // namespace

extern "C" __global__ __aicore__ void reverse_sequence(GM_ADDR x, GM_ADDR seq_lengths, GM_ADDR y, GM_ADDR workspace,
                                                       GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    ReverseSequence<DTYPE_X> op;
    op.Init(x, seq_lengths, y, tilingData);
    op.Process();
}
