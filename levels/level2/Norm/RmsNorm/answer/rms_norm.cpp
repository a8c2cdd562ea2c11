// RmsNorm expert answer: y = x * rstd * gamma, rstd = 1 / sqrt(mean(x^2) + eps)
// over each row of the trailing elements gamma covers (kernel-only mode,
// Ascend 910B). The shared row skeleton of levels/common/rms_norm.h.
#include "kernel_operator.h"
#include "../../../../common/rms_norm.h"

extern "C" __global__ __aicore__ void rms_norm(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, GM_ADDR rstd,
                                               GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    npukb_answer::RmsNormArgs a{x, nullptr, gamma, y, rstd, nullptr, tilingData.rows, tilingData.d,
                                tilingData.epsilon};
    npukb_answer::RunRmsNorm<DTYPE_X, false>(a);
}
