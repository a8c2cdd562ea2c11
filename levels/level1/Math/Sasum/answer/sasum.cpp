// Sasum expert answer: the sum of |x[i * incx]| for i < n, float16 and float32
// (BLAS; kernel-only mode, Ascend 910B). One core loads the strided vector
// into UB and reduces it with one instruction (levels/common/blas1.h says
// why one core, and holds the sum Sasum and Snrm2 share).
#include "kernel_operator.h"
#include "../../../../common/blas1.h"

using namespace AscendC;
using namespace npukb_answer;

extern "C" __global__ __aicore__ void sasum(GM_ADDR inGM, GM_ADDR outGM, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    if (GetBlockIdx() != 0) {
        return;
    }
    SumOf<DTYPE_INGM, false>(inGM, outGM, tilingData.n, tilingData.incx);
}
