// triangle.h - the skeleton shared by the Tril and Triu expert answers
// (kernel-only mode, Ascend 910B vector cores).
//
// x is a stack of height x width matrices seen as rows = batch * height
// rows. The rows are dealt to the cores in contiguous ranges (a row is
// never split between cores, so no two cores write the same bytes). Each
// core streams its rows through UB in tiles of whole rows, or of one
// row's column chunk when a row does not fit: DataCopyPad brings each row
// padded to 32 bytes, a UB copy feeds the output queue (depth 2: copy-in,
// compute and copy-out of neighbouring tiles overlap), and in every row the
// one column range the triangle drops is zeroed with Duplicate: a masked
// repeat for its unaligned head, the count form for the rest.
#ifndef NPUKB_ANSWER_TRIANGLE_H
#define NPUKB_ANSWER_TRIANGLE_H

#include "kernel_operator.h"

namespace npukb_answer {

using namespace AscendC;

template <typename T, bool LOWER>
class Triangle {
public:
    static constexpr int32_t BUFFER_NUM = 2;
    // Elements per tile: 64 KiB of float per buffer, four buffers.
    static constexpr uint32_t TILE_ELEMS = 16384;
    static constexpr uint32_t EPB = 32 / sizeof(T);     // elements per 32-byte block
    static constexpr uint32_t LANES = 256 / sizeof(T);  // elements per repeat
    static constexpr uint32_t MAX_BLOCKS = 4095;        // DataCopyPad's blockCount

    // Returns false when this core has no rows.
    __aicore__ inline bool Init(GM_ADDR x, GM_ADDR y, uint64_t rows, uint32_t height, uint32_t width,
                                int32_t diagonal)
    {
        const uint64_t perCore = (rows + GetBlockNum() - 1) / GetBlockNum();
        rowStart = perCore * GetBlockIdx();
        if (rowStart >= rows || width == 0) {
            return false;
        }
        rowCount = rows - rowStart < perCore ? rows - rowStart : perCore;
        this->height = height;
        this->width = width;
        this->diagonal = diagonal;
        xGm.SetGlobalBuffer((__gm__ T*)x + rowStart * width, rowCount * width);
        yGm.SetGlobalBuffer((__gm__ T*)y + rowStart * width, rowCount * width);

        const uint32_t padded = (width + EPB - 1) / EPB * EPB;
        colTile = padded <= TILE_ELEMS ? padded : TILE_ELEMS;
        uint64_t r = TILE_ELEMS / colTile;
        r = r < MAX_BLOCKS ? r : MAX_BLOCKS;
        rowTile = static_cast<uint32_t>(r < rowCount ? r : rowCount);
        pipe.InitBuffer(inQueue, BUFFER_NUM, rowTile * colTile * sizeof(T));
        pipe.InitBuffer(outQueue, BUFFER_NUM, rowTile * colTile * sizeof(T));
        return true;
    }

    __aicore__ inline void Process()
    {
        for (uint64_t r0 = 0; r0 < rowCount; r0 += rowTile) {
            const uint32_t nr = static_cast<uint32_t>(rowCount - r0 < rowTile ? rowCount - r0 : rowTile);
            for (uint32_t c0 = 0; c0 < width; c0 += colTile) {
                const uint32_t nc = width - c0 < colTile ? width - c0 : colTile;
                CopyIn(r0, c0, nr, nc);
                Compute(r0, c0, nr, nc);
                CopyOut(r0, c0, nr, nc);
            }
        }
    }

private:
    __aicore__ inline DataCopyExtParams Rows(uint32_t nr, uint32_t nc, bool toGm) const
    {
        // GM rows are width elements apart; UB rows colTile elements apart
        // (strides in bytes on the GM side, in 32-byte blocks on the UB side).
        const uint32_t gmGap = (width - nc) * sizeof(T);
        const uint32_t ubGap = (colTile - (nc + EPB - 1) / EPB * EPB) / EPB;
        return DataCopyExtParams{static_cast<uint16_t>(nr), static_cast<uint32_t>(nc * sizeof(T)),
                                 toGm ? ubGap : gmGap, toGm ? gmGap : ubGap, 0};
    }

    __aicore__ inline void CopyIn(uint64_t r0, uint32_t c0, uint32_t nr, uint32_t nc)
    {
        LocalTensor<T> xl = inQueue.template AllocTensor<T>();
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(xl, xGm[r0 * width + c0], Rows(nr, nc, false), pad);
        inQueue.EnQue(xl);
    }

    // The zeroed columns [lo, hi) of the chunk [c0, c0 + nc) of row r.
    __aicore__ inline void Dropped(uint64_t r, uint32_t c0, uint32_t nc, int64_t& lo, int64_t& hi) const
    {
        const int64_t inMat = static_cast<int64_t>((rowStart + r) % height);
        // Tril keeps col <= inMat + diagonal; triu keeps col >= inMat + diagonal.
        const int64_t edge = LOWER ? inMat + diagonal + 1 : inMat + diagonal;
        int64_t a = LOWER ? edge : 0;
        int64_t b = LOWER ? static_cast<int64_t>(width) : edge;
        a = a > c0 ? a : c0;
        b = b < c0 + nc ? b : c0 + nc;
        lo = a - c0;
        hi = b - c0;
    }

    __aicore__ inline void Compute(uint64_t r0, uint32_t c0, uint32_t nr, uint32_t nc)
    {
        LocalTensor<T> xl = inQueue.template DeQue<T>();
        LocalTensor<T> yl = outQueue.template AllocTensor<T>();
        DataCopy(yl, xl, nr * colTile);
        PipeBarrier<PIPE_V>();
        for (uint32_t i = 0; i < nr; i++) {
            int64_t lo, hi;
            Dropped(r0 + i, c0, nc, lo, hi);
            if (lo < hi) {
                Zero(yl[i * colTile], static_cast<uint32_t>(lo), static_cast<uint32_t>(hi));
            }
        }
        outQueue.EnQue(yl);
        inQueue.FreeTensor(xl);
    }

    // row[lo .. hi) = 0 where row starts on a 32-byte boundary.
    __aicore__ inline void Zero(const LocalTensor<T>& row, uint32_t lo, uint32_t hi)
    {
        const uint32_t base = lo / EPB * EPB;
        const uint32_t first = lo - base;
        const uint32_t last = hi - base < LANES ? hi - base : LANES;
        uint64_t mask[2] = {0, 0};
        for (uint32_t b = first; b < last; b++) {
            mask[b / 64] |= 1ull << (b % 64);
        }
        Duplicate(row[base], static_cast<T>(0), mask, 1, 1, 8);
        if (hi > base + LANES) {
            Duplicate(row[base + LANES], static_cast<T>(0), static_cast<int32_t>(hi - base - LANES));
        }
    }

    __aicore__ inline void CopyOut(uint64_t r0, uint32_t c0, uint32_t nr, uint32_t nc)
    {
        LocalTensor<T> yl = outQueue.template DeQue<T>();
        DataCopyPad(yGm[r0 * width + c0], yl, Rows(nr, nc, true));
        outQueue.FreeTensor(yl);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    GlobalTensor<T> xGm, yGm;
    uint64_t rowStart = 0, rowCount = 0;
    uint32_t height = 1, width = 0, rowTile = 0, colTile = 0;
    int32_t diagonal = 0;
};

template <typename T, bool LOWER>
__aicore__ inline void RunTriangle(GM_ADDR x, GM_ADDR y, uint64_t rows, uint32_t height, uint32_t width,
                                   int32_t diagonal)
{
    Triangle<T, LOWER> op;
    if (op.Init(x, y, rows, height, width, diagonal)) {
        op.Process();
    }
}

} // namespace npukb_answer

#endif
