// AddRmsNormQuant expert answer: x = x1 + x2, y = x * rstd * gamma with
// rstd = 1 / sqrt(mean(x^2) + eps) per row, then y1 = int8 codes of
// y / scales1 + zero_points1 per column (kernel-only mode, Ascend 910B).
// The shared row skeleton of levels/common/rms_norm.h, with the add and the
// quantisation (rounded to nearest even, clamped to [-128, 127]).
#include "kernel_operator.h"
#include "../../../../common/rms_norm.h"

extern "C" __global__ __aicore__ void add_rms_norm_quant(GM_ADDR x1, GM_ADDR x2, GM_ADDR gamma, GM_ADDR scales1,
                                                         GM_ADDR zero_points1, GM_ADDR y1, GM_ADDR x,
                                                         GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    npukb_answer::RmsNormArgs a{x1,     x2,          gamma,   y1,           nullptr,
                                x,      tilingData.rows, tilingData.d, tilingData.epsilon, nullptr,
                                scales1, zero_points1, tilingData.divMode};
    npukb_answer::RunRmsNorm<DTYPE_X1, true, DTYPE_SCALES1, DTYPE_ZERO_POINTS1>(a);
}
