// AddRmsNorm expert answer: x = x1 + x2, y = x * rstd * gamma with
// rstd = 1 / sqrt(mean(x^2) + eps) per row (kernel-only mode, Ascend 910B).
// The shared row skeleton of levels/common/rms_norm.h, with the add.
#include "kernel_operator.h"
#include "../../../../common/rms_norm.h"

extern "C" __global__ __aicore__ void add_rms_norm(GM_ADDR x1, GM_ADDR x2, GM_ADDR gamma, GM_ADDR y, GM_ADDR rstd,
                                                   GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    npukb_answer::RmsNormArgs a{x1, x2, gamma, y, rstd, x, tilingData.rows, tilingData.d, tilingData.epsilon};
    npukb_answer::RunRmsNorm<DTYPE_X1, true>(a);
}
