// Eye expert answer: y_ref[b][i][j] = (i == j) for every batch matrix of
// num_rows x num_columns, float16, float32 and int32 (kernel-only mode,
// Ascend 910B).
//
// The output is a stack of rows (batch x num_rows of them); row r holds one
// 1 at column r % num_rows when that column exists. Rows are dealt to the
// cores in contiguous ranges. Each core keeps one tile of whole rows in
// UB, zeroed once; per tile it writes the diagonal ones with the scalar
// unit, copies the rows out, and clears the same ones again (a handful of
// scalar writes per tile instead of re-zeroing the tile). Every output
// element is written, so nothing depends on the input's contents.
#include "kernel_operator.h"
#include "../../../../common/elementwise.h"

using namespace AscendC;
using namespace npukb_answer;

constexpr uint32_t TILE_BYTES = 64 * 1024;

template <typename T>
class KernelEye {
public:
    __aicore__ inline bool Init(GM_ADDR y, int32_t numRows, int32_t numColumns, int32_t batch)
    {
        rows = static_cast<uint32_t>(numRows);
        cols = static_cast<uint32_t>(numColumns);
        const uint64_t totalRows = static_cast<uint64_t>(batch) * rows;
        const uint64_t perCore = CeilDiv(totalRows, GetBlockNum());
        firstRow = perCore * GetBlockIdx();
        if (rows == 0 || cols == 0 || firstRow >= totalRows) {
            return false;
        }
        myRows = totalRows - firstRow < perCore ? totalRows - firstRow : perCore;
        yGm.SetGlobalBuffer((__gm__ T*)y + firstRow * cols, myRows * cols);
        uint64_t perTile = TILE_BYTES / sizeof(T) / cols;
        if (perTile == 0) {
            perTile = 1;
        }
        rowsPerTile = static_cast<uint32_t>(perTile < myRows ? perTile : myRows);
        const uint32_t elems = static_cast<uint32_t>(AlignUp(static_cast<uint64_t>(rowsPerTile) * cols, 64));
        pipe.InitBuffer(tileBuf, elems * sizeof(T));
        tileElems = elems;
        return true;
    }

    __aicore__ inline void Process()
    {
        LocalTensor<T> tile = tileBuf.Get<T>();
        Duplicate(tile, static_cast<T>(0), tileElems);
        PipeBarrier<PIPE_ALL>();
        for (uint64_t r0 = 0; r0 < myRows; r0 += rowsPerTile) {
            const uint32_t n = static_cast<uint32_t>(myRows - r0 < rowsPerTile ? myRows - r0 : rowsPerTile);
            SetDiagonal(tile, r0, n, static_cast<T>(1));
            PipeBarrier<PIPE_ALL>();
            CopyUbToGm(yGm[r0 * cols], tile, n * cols);
            PipeBarrier<PIPE_ALL>();
            SetDiagonal(tile, r0, n, static_cast<T>(0));
        }
    }

private:
    __aicore__ inline void SetDiagonal(const LocalTensor<T>& tile, uint64_t r0, uint32_t n, T v)
    {
        for (uint32_t k = 0; k < n; k++) {
            const uint32_t col = static_cast<uint32_t>((firstRow + r0 + k) % rows);
            if (col < cols) {
                tile.SetValue(k * cols + col, v);
            }
        }
    }

    TPipe pipe;
    TBuf<QuePosition::VECCALC> tileBuf;
    GlobalTensor<T> yGm;
    uint64_t firstRow = 0;
    uint64_t myRows = 0;
    uint32_t rows = 0;
    uint32_t cols = 0;
    uint32_t rowsPerTile = 0;
    uint32_t tileElems = 0;
};

extern "C" __global__ __aicore__ void eye(GM_ADDR y, GM_ADDR y_ref, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelEye<DTYPE_Y_REF> op;
    if (op.Init(y_ref, tilingData.numRows, tilingData.numColumns, tilingData.batchNum)) {
        op.Process();
    }
}
