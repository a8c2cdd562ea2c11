// FeedsRepeat expert answer (kernel-only mode, Ascend 910B): row i of feeds
// repeated feeds_repeat_times[i] times, in order, then zero rows up to the
// output's length.
//
// The output rows are dealt to the cores in contiguous ranges; each core
// finds the source rows that land in its range from the running sum of the
// counts (a few hundred scalar reads at most). A source row is loaded once,
// replicated in UB into as many 32-byte-aligned slots as fit, and written
// with one DMA per group of copies; the zero tail is one zeroed tile
// written the same way. In and out queues are double-buffered, so the load
// of the next source row overlaps the writes of this one.
#include "kernel_operator.h"
#include "../../../../common/rows.h"

using namespace AscendC;
using namespace npukb_answer;

namespace {

constexpr int32_t BUFFER_NUM = 2;
// Four tiles (in and out, double-buffered) within the 192 KiB UB.
constexpr uint32_t TILE_BYTES = 40 * 1024;

template <typename T, typename C>
class FeedsRepeat {
public:
    // Returns false when this core has no output rows.
    __aicore__ inline bool Init(GM_ADDR feeds, GM_ADDR times, GM_ADDR y, const FeedsRepeatTilingData& t)
    {
        rowLen = t.rowLen;
        rows = t.rows;
        const uint64_t per = CeilDiv(t.outRows, GetBlockNum());
        begin = per * GetBlockIdx();
        if (begin >= t.outRows || rowLen == 0) {
            return false;
        }
        end = begin + per < t.outRows ? begin + per : t.outRows;
        xGm.SetGlobalBuffer((__gm__ T*)feeds, rows * rowLen);
        timesGm.SetGlobalBuffer((__gm__ C*)times, rows);
        yGm.SetGlobalBuffer((__gm__ T*)y, t.outRows * rowLen);
        slot = static_cast<uint32_t>(AlignUp(rowLen * sizeof(T), 32) / sizeof(T));
        perTile = TILE_BYTES / (slot * sizeof(T));
        perTile = perTile < 4095 ? perTile : 4095;
        pipe.InitBuffer(inQue, BUFFER_NUM, TILE_BYTES);
        pipe.InitBuffer(outQue, BUFFER_NUM, TILE_BYTES);
        return perTile > 0;
    }

    __aicore__ inline void Process()
    {
        uint64_t at = 0; // first output row of source row i
        for (uint64_t i = 0; i < rows && at < end; i++) {
            const int64_t t = static_cast<int64_t>(timesGm.GetValue(i));
            const uint64_t n = t > 0 ? static_cast<uint64_t>(t) : 0;
            const uint64_t lo = at > begin ? at : begin, hi = at + n < end ? at + n : end;
            if (lo < hi) {
                Repeat(i, lo, hi);
            }
            at += n;
        }
        if (at < end) {
            Zeros(at > begin ? at : begin);
        }
    }

private:
    // Output rows [lo, hi) are copies of source row i.
    __aicore__ inline void Repeat(uint64_t i, uint64_t lo, uint64_t hi)
    {
        LocalTensor<T> in = inQue.template AllocTensor<T>();
        CopyRowsIn(in, xGm[i * rowLen], 1, static_cast<uint32_t>(rowLen), slot);
        inQue.EnQue(in);
        in = inQue.template DeQue<T>();
        LocalTensor<T> out = outQue.template AllocTensor<T>();
        const uint64_t k = hi - lo < perTile ? hi - lo : perTile;
        DataCopy(out.template ReinterpretCast<int32_t>(), in.template ReinterpretCast<int32_t>(),
                 slot * sizeof(T) / sizeof(int32_t));
        inQue.FreeTensor(in);
        PipeBarrier<PIPE_V>();
        ReplicateRow(out, static_cast<uint32_t>(k), slot);
        Write(out, lo, hi, k);
    }

    __aicore__ inline void Zeros(uint64_t lo)
    {
        LocalTensor<T> out = outQue.template AllocTensor<T>();
        const uint64_t k = end - lo < perTile ? end - lo : perTile;
        Duplicate(out.template ReinterpretCast<int32_t>(), 0, static_cast<int32_t>(k * slot * sizeof(T) / 4));
        Write(out, lo, end, k);
    }

    // Writes the k-row tile over output rows [lo, hi) as often as needed.
    __aicore__ inline void Write(LocalTensor<T>& out, uint64_t lo, uint64_t hi, uint64_t k)
    {
        outQue.EnQue(out);
        out = outQue.template DeQue<T>();
        for (uint64_t r = lo; r < hi; r += k) {
            const uint32_t n = static_cast<uint32_t>(hi - r < k ? hi - r : k);
            CopyRowsOut(yGm[r * rowLen], out, n, static_cast<uint32_t>(rowLen), slot);
        }
        outQue.FreeTensor(out);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQue;
    GlobalTensor<T> xGm, yGm;
    GlobalTensor<C> timesGm;
    uint64_t rowLen = 0, rows = 0, begin = 0, end = 0, perTile = 0;
    uint32_t slot = 0;
};

} // namespace

extern "C" __global__ __aicore__ void feeds_repeat(GM_ADDR feeds, GM_ADDR feeds_repeat_times, GM_ADDR y,
                                                   GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    FeedsRepeat<DTYPE_FEEDS, DTYPE_FEEDS_REPEAT_TIMES> op;
    if (op.Init(feeds, feeds_repeat_times, y, tilingData)) {
        op.Process();
    }
}
