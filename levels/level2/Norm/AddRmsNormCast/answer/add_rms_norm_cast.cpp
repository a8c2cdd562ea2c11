// AddRmsNormCast expert answer: x = x1 + x2, y = x * rstd * gamma with
// rstd = 1 / sqrt(mean(x^2) + eps) per row, written both in float (y1)
// and in x1's dtype (y2) (kernel-only mode, Ascend 910B). The shared row
// skeleton of levels/common/rms_norm.h, with the add and the float output.
#include "kernel_operator.h"
#include "../../../../common/rms_norm.h"

extern "C" __global__ __aicore__ void add_rms_norm_cast(GM_ADDR x1, GM_ADDR x2, GM_ADDR gamma, GM_ADDR y1,
                                                        GM_ADDR y2, GM_ADDR rstd, GM_ADDR x, GM_ADDR workspace,
                                                        GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    npukb_answer::RmsNormArgs a{x1, x2, gamma, y2, rstd, x, tilingData.rows, tilingData.d, tilingData.epsilon, y1};
    npukb_answer::RunRmsNorm<DTYPE_X1, true>(a);
}
