// StridesliceNegConcatV2 expert answer (kernel-only mode, Ascend 910B):
// every row of W = lastDim elements keeps its first half and negates its
// second half, for bfloat16, float16 and float32.
//
// Rows are dealt to the cores in contiguous ranges; each core streams its
// rows through UB in tiles of whole rows, double-buffered. The per-row
// pattern is folded into one multiplier tile (+1 on first halves, -1 on
// second halves, built once per core), so a tile costs a single Mul however
// short the rows are (W = 64 would otherwise mean two 32-element
// instructions per row). bfloat16 has no arithmetic: it is widened to
// float, multiplied and narrowed, all exactly. Offsets are 64-bit: the
// largest case has 2^29 elements.
#include "kernel_operator.h"
#include "../../../../common/elementwise.h"

using namespace AscendC;
using namespace npukb_answer;

template <typename T>
class KernelNegHalf {
    // the type the multiplication runs in
    using C = typename std::conditional<IsSameType<T, bfloat16_t>::value, float, T>::type;
    static constexpr bool WIDEN = !IsSameType<C, T>::value;

public:
    __aicore__ inline bool Init(GM_ADDR x, GM_ADDR y, uint64_t total, uint32_t lastDim)
    {
        width = lastDim;
        const uint64_t rows = total / width;
        const uint64_t perCore = CeilDiv(rows, GetBlockNum());
        const uint64_t firstRow = perCore * GetBlockIdx();
        if (width == 0 || firstRow >= rows) {
            return false;
        }
        const uint64_t myRows = rows - firstRow < perCore ? rows - firstRow : perCore;
        length = myRows * width;
        xGm.SetGlobalBuffer((__gm__ T*)x + firstRow * width, length);
        yGm.SetGlobalBuffer((__gm__ T*)y + firstRow * width, length);

        // queues (2 in + 2 out of T), the multiplier of C, a float copy for bfloat16
        const uint32_t perElem = 4 * sizeof(T) + sizeof(C) + (WIDEN ? sizeof(float) : 0);
        uint64_t rowsPerTile = UB_BUDGET / perElem / width;
        if (rowsPerTile == 0) {
            rowsPerTile = 1; // not reached for W <= 2048
        }
        if (rowsPerTile * width > MAX_TILE && MAX_TILE >= width) {
            rowsPerTile = MAX_TILE / width;
        }
        if (rowsPerTile > myRows) {
            rowsPerTile = myRows;
        }
        tile = static_cast<uint32_t>(rowsPerTile * width);
        const uint32_t bufElems = static_cast<uint32_t>(AlignUp(tile, 64));
        pipe.InitBuffer(inQueue, BUFFER_NUM, bufElems * sizeof(T));
        pipe.InitBuffer(outQueue, BUFFER_NUM, bufElems * sizeof(T));
        pipe.InitBuffer(signBuf, bufElems * sizeof(C));
        if (WIDEN) {
            pipe.InitBuffer(wideBuf, bufElems * sizeof(float));
        }
        BuildSigns(static_cast<uint32_t>(rowsPerTile), bufElems);
        return true;
    }

    __aicore__ inline void Process()
    {
        for (uint64_t off = 0; off < length; off += tile) {
            const uint32_t n = static_cast<uint32_t>(length - off < tile ? length - off : tile);
            LocalTensor<T> xl = inQueue.AllocTensor<T>();
            CopyGmToUb(xl, xGm[off], n);
            inQueue.EnQue(xl);
            Compute(n);
            LocalTensor<T> yl = outQueue.DeQue<T>();
            CopyUbToGm(yGm[off], yl, n);
            outQueue.FreeTensor(yl);
        }
    }

private:
    __aicore__ inline void BuildSigns(uint32_t rowsPerTile, uint32_t bufElems)
    {
        LocalTensor<C> sign = signBuf.Get<C>();
        const uint32_t half = width / 2;
        Duplicate(sign, (C)1.0f, bufElems);
        PipeBarrier<PIPE_V>();
        for (uint32_t r = 0; r < rowsPerTile; r++) {
            Duplicate(sign[r * width + half], (C)-1.0f, width - half);
        }
        PipeBarrier<PIPE_V>();
    }

    __aicore__ inline void Compute(uint32_t n)
    {
        LocalTensor<T> xl = inQueue.DeQue<T>();
        LocalTensor<T> yl = outQueue.AllocTensor<T>();
        LocalTensor<C> sign = signBuf.Get<C>();
        const uint32_t count = static_cast<uint32_t>(AlignUp(n, 64));
        if constexpr (WIDEN) {
            LocalTensor<float> w = wideBuf.Get<float>();
            Cast(w, xl, RoundMode::CAST_NONE, count);
            PipeBarrier<PIPE_V>();
            Mul(w, w, sign, count);
            PipeBarrier<PIPE_V>();
            Cast(yl, w, RoundMode::CAST_RINT, count);
        } else {
            Mul(yl, xl, sign, count);
        }
        outQueue.EnQue(yl);
        inQueue.FreeTensor(xl);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    TBuf<QuePosition::VECCALC> signBuf;
    TBuf<QuePosition::VECCALC> wideBuf;
    GlobalTensor<T> xGm;
    GlobalTensor<T> yGm;
    uint64_t length = 0;
    uint32_t width = 0;
    uint32_t tile = 0;
};

extern "C" __global__ __aicore__ void strideslice_neg_concat_v2(GM_ADDR input, GM_ADDR output, GM_ADDR workspace,
                                                                GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelNegHalf<DTYPE_INPUT> op;
    if (op.Init(input, output, tilingData.totalLength, tilingData.lastDim)) {
        op.Process();
    }
}
