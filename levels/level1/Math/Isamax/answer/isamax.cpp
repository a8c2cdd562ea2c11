// Isamax expert answer: the 1-based index of the first largest |x[i common level1 schema incx]|, float32
// (BLAS; kernel-only mode, Ascend 910B). One core loads the strided vector
// into UB and finds it with one reduction instruction (levels/common/blas1.h
// says why one core, and holds the search the four BLAS index answers share).
#include "kernel_operator.h"
#include "../../../../common/blas1.h"

using namespace AscendC;
using namespace npukb_answer;

extern "C" __global__ __aicore__ void isamax(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    if (GetBlockIdx() != 0) {
        return;
    }
    IndexOfExtreme<1, true>(x, y, tilingData.n, tilingData.incx);
}
