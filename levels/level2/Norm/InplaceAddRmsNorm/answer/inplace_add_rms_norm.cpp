// InplaceAddRmsNorm expert answer: AddRmsNorm whose y overwrites x1 and
// whose x = x1 + x2 overwrites x2 (kernel-only mode, Ascend 910B). The
// shared row skeleton of levels/common/rms_norm.h: each core writes back
// only rows it has already read, so updating in place needs nothing more.
#include "kernel_operator.h"
#include "../../../../common/rms_norm.h"

extern "C" __global__ __aicore__ void inplace_add_rms_norm(GM_ADDR x1, GM_ADDR x2, GM_ADDR gamma, GM_ADDR y,
                                                           GM_ADDR rstd, GM_ADDR x, GM_ADDR workspace,
                                                           GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    npukb_answer::RmsNormArgs a{x1, x2, gamma, y, rstd, x, tilingData.rows, tilingData.d, tilingData.epsilon};
    npukb_answer::RunRmsNorm<DTYPE_X1, true>(a);
}
