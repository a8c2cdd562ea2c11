// GatherV3 expert answer: y = index_select(x, axis, indices) for float16
// (kernel-only mode, Ascend 910B). With x viewed as [outer, axisDim, inner]
// and y as [outer, n, inner], row (p, j) of y is row (p, indices[j]) of x.
//  - inner > 1: the rows of y, contiguous in GM, are dealt to the cores in
//    contiguous ranges; each core copies its rows GM -> UB -> GM through a
//    double-buffered queue, several rows per DMA out when they are 32-byte
//    multiples, a row in pieces when it is larger than a tile.
//  - inner == 1 (the last axis): each core loads whole rows of x and picks
//    the selected elements with one Gather per tile, whose byte-offset
//    table is built once.
// The indices (int64) are read once into UB; they are valid positions
// 0 .. axisDim - 1, as the operator requires.
#include "kernel_operator.h"
#include "../../../../common/elementwise.h"

using namespace AscendC;
using namespace npukb_answer;

namespace {

constexpr uint32_t TILE_BYTES = 64 * 1024;  // per queue buffer; two of them
constexpr uint32_t MAX_UB_INDICES = 2048;   // 16 KiB of int64 indices
constexpr uint32_t GATHER_BYTES = 24 * 1024; // x rows, and offsets, per Gather tile

__aicore__ inline uint64_t Gcd(uint64_t a, uint64_t b)
{
    while (b != 0) {
        const uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

template <typename T>
class GatherV3Kernel {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR indices, GM_ADDR y, uint32_t outer, uint32_t axisDim,
                                uint32_t inner, uint32_t n)
    {
        outer_ = outer;
        axisDim_ = axisDim;
        inner_ = inner;
        n_ = n;
        xGm.SetGlobalBuffer((__gm__ T*)x, static_cast<uint64_t>(outer) * axisDim * inner);
        yGm.SetGlobalBuffer((__gm__ T*)y, static_cast<uint64_t>(outer) * n * inner);
        idxGm.SetGlobalBuffer((__gm__ int64_t*)indices, n);
    }

    __aicore__ inline void Process()
    {
        // Rows of y (inner == 1: whole rows of n elements) per core, in
        // units whose bytes are a multiple of 32, so cores start aligned.
        const uint64_t rowElems = inner_ > 1 ? inner_ : n_;
        const uint64_t rows = inner_ > 1 ? static_cast<uint64_t>(outer_) * n_ : outer_;
        const uint64_t rowBytes = rowElems * sizeof(T);
        const uint64_t unit = 32 / Gcd(rowBytes % 32 == 0 ? 32 : rowBytes % 32, 32);
        const uint64_t perCore = CeilDiv(CeilDiv(rows, unit), GetBlockNum()) * unit;
        const uint64_t first = perCore * GetBlockIdx();
        if (first >= rows) {
            return;
        }
        const uint64_t last = first + perCore < rows ? first + perCore : rows;
        LoadIndices();
        if (inner_ > 1) {
            CopyRows(first, last);
        } else {
            GatherRows(first, last);
        }
    }

private:
    __aicore__ inline void LoadIndices()
    {
        if (n_ > MAX_UB_INDICES) {
            return; // read from GM one by one instead
        }
        pipe.InitBuffer(idxBuf, static_cast<uint32_t>(AlignUp(n_ * sizeof(int64_t), 32)));
        idxUb = idxBuf.Get<int64_t>();
        CopyGmToUb(idxUb, idxGm, n_);
        PipeBarrier<PIPE_ALL>();
    }

    __aicore__ inline uint64_t Index(uint32_t j) const
    {
        return static_cast<uint64_t>(n_ > MAX_UB_INDICES ? idxGm.GetValue(j) : idxUb.GetValue(j));
    }

    // Row r = (p, j) of y comes from row (p, indices[j]) of x.
    __aicore__ inline uint64_t SourceRow(uint64_t r) const
    {
        const uint64_t p = r / n_;
        return p * axisDim_ + Index(static_cast<uint32_t>(r - p * n_));
    }

    __aicore__ inline void CopyRows(uint64_t first, uint64_t last)
    {
        // GM -> UB -> GM with nothing computed: one queue bound from the
        // copy-in to the copy-out.
        pipe.InitBuffer(queue, 2, TILE_BYTES);
        const uint32_t tileElems = TILE_BYTES / sizeof(T);
        if ((inner_ * sizeof(T)) % 32 == 0 && inner_ <= tileElems) {
            // Whole aligned rows, several per tile, one DMA out per tile.
            const uint64_t perTile = tileElems / inner_;
            for (uint64_t r = first; r < last; r += perTile) {
                const uint64_t k = last - r < perTile ? last - r : perTile;
                LocalTensor<T> buf = queue.AllocTensor<T>();
                for (uint64_t i = 0; i < k; i++) {
                    DataCopy(buf[i * inner_], xGm[SourceRow(r + i) * inner_], inner_);
                }
                queue.EnQue(buf);
                buf = queue.DeQue<T>();
                DataCopy(yGm[r * inner_], buf, static_cast<uint32_t>(k * inner_));
                queue.FreeTensor(buf);
            }
            return;
        }
        // Any other row: piece by piece, exact bytes.
        for (uint64_t r = first; r < last; r++) {
            const uint64_t src = SourceRow(r) * inner_;
            for (uint64_t off = 0; off < inner_; off += tileElems) {
                const uint32_t len = static_cast<uint32_t>(inner_ - off < tileElems ? inner_ - off : tileElems);
                LocalTensor<T> buf = queue.AllocTensor<T>();
                CopyGmToUb(buf, xGm[src + off], len);
                queue.EnQue(buf);
                buf = queue.DeQue<T>();
                CopyUbToGm(yGm[r * inner_ + off], buf, len);
                queue.FreeTensor(buf);
            }
        }
    }

    // inner == 1: y[p, j] = x[p, indices[j]].
    __aicore__ inline void GatherRows(uint64_t first, uint64_t last)
    {
        const uint32_t xRow = static_cast<uint32_t>(AlignUp(axisDim_ * sizeof(T), 32));
        const uint32_t yRow = n_ * sizeof(T);
        // The tile's x rows and its offset table (4 bytes per output) get
        // GATHER_BYTES each; the outputs go through the queue.
        const uint64_t byRows = GATHER_BYTES / xRow;
        const uint64_t byOffsets = GATHER_BYTES / (4 * n_);
        const uint64_t byOut = (TILE_BYTES - 32) / yRow;
        uint64_t perTile = byRows < byOffsets ? byRows : byOffsets;
        perTile = perTile < byOut ? perTile : byOut;
        perTile = perTile < last - first ? perTile : last - first;
        if (perTile == 0 || axisDim_ * sizeof(T) % 32 != 0) {
            GatherOneByOne(first, last);
            return;
        }
        // The vector pipe writes the gathered rows: an output queue hands
        // them to the copy-out.
        pipe.InitBuffer(outQueue, 2, TILE_BYTES);
        pipe.InitBuffer(rowsBuf, static_cast<uint32_t>(perTile * xRow));
        pipe.InitBuffer(offBuf, static_cast<uint32_t>(AlignUp(perTile * n_ * 4, 32)));
        LocalTensor<T> xs = rowsBuf.Get<T>();
        LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();
        for (uint64_t i = 0; i < perTile; i++) {
            for (uint32_t j = 0; j < n_; j++) {
                off.SetValue(static_cast<uint32_t>(i * n_ + j),
                             static_cast<uint32_t>((i * axisDim_ + Index(j)) * sizeof(T)));
            }
        }
        for (uint64_t p = first; p < last; p += perTile) {
            const uint64_t k = last - p < perTile ? last - p : perTile;
            PipeBarrier<PIPE_ALL>(); // offsets written, previous Gather done with xs
            DataCopy(xs, xGm[p * axisDim_], static_cast<uint32_t>(k * axisDim_));
            PipeBarrier<PIPE_ALL>();
            LocalTensor<T> out = outQueue.AllocTensor<T>();
            Gather(out, xs, off, 0, static_cast<uint32_t>(k * n_));
            outQueue.EnQue(out);
            out = outQueue.DeQue<T>();
            CopyUbToGm(yGm[p * n_], out, static_cast<uint32_t>(k * n_));
            outQueue.FreeTensor(out);
        }
    }

    // Rows of x that are not 32-byte multiples, or too long for a tile.
    __aicore__ inline void GatherOneByOne(uint64_t first, uint64_t last)
    {
        for (uint64_t p = first; p < last; p++) {
            for (uint32_t j = 0; j < n_; j++) {
                yGm.SetValue(p * n_ + j, xGm.GetValue(p * axisDim_ + Index(j)));
            }
        }
    }

    TPipe pipe;
    TQueBind<QuePosition::VECIN, QuePosition::VECOUT, 2> queue;
    TQue<QuePosition::VECOUT, 2> outQueue;
    TBuf<QuePosition::VECCALC> idxBuf, rowsBuf, offBuf;
    LocalTensor<int64_t> idxUb;
    GlobalTensor<T> xGm, yGm;
    GlobalTensor<int64_t> idxGm;
    uint32_t outer_ = 0, axisDim_ = 0, inner_ = 0, n_ = 0;
};

} // namespace

extern "C" __global__ __aicore__ void gather_v3(GM_ADDR x, GM_ADDR indices, GM_ADDR axis, GM_ADDR y,
                                                GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    GatherV3Kernel<DTYPE_X> op;
    op.Init(x, indices, y, tilingData.outerNum, tilingData.axisDim, tilingData.innerNum, tilingData.indexNum);
    op.Process();
}
