// Snrm2 expert answer: the Euclidean norm of x[i * incx] for i < n, float32
// (BLAS; kernel-only mode, Ascend 910B). One core loads the strided vector
// into UB and reduces it with one instruction (levels/common/blas1.h says
// why one core, and holds the sum Sasum and Snrm2 share).
#include "kernel_operator.h"
#include "../../../../common/blas1.h"

using namespace AscendC;
using namespace npukb_answer;

extern "C" __global__ __aicore__ void snrm2(GM_ADDR x, GM_ADDR result, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    if (GetBlockIdx() != 0) {
        return;
    }
    SumOf<DTYPE_X, true>(x, result, tilingData.n, tilingData.incx);
}
