// Tril expert answer: y = tril(x, diagonal) over the last two dimensions
// (kernel-only mode, Ascend 910B). The shared triangle skeleton: rows dealt
// to the cores, tiles of whole rows double-buffered through UB, the
// dropped columns of each row zeroed in the output tile.
#include "kernel_operator.h"
#include "../../../../common/triangle.h"

extern "C" __global__ __aicore__ void tril(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    npukb_answer::RunTriangle<DTYPE_X, true>(x, y, tilingData.rows, tilingData.height, tilingData.width,
                                              tilingData.diagonal);
}
