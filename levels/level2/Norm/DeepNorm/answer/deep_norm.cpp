// DeepNorm expert answer: s = alpha * x + gx, y = LayerNorm(s) * gamma +
// beta per row, with mean and rstd in x's dtype (kernel-only mode, Ascend
// 910B). The shared row skeleton of levels/common/layer_norm.h.
#include "kernel_operator.h"
#include "../../../../common/layer_norm.h"

using namespace npukb_answer;

extern "C" __global__ __aicore__ void deep_norm(GM_ADDR x, GM_ADDR gx, GM_ADDR beta, GM_ADDR gamma, GM_ADDR mean,
                                                GM_ADDR rstd, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    LayerNormArgs a{x, gx, nullptr, gamma, beta, y, mean, rstd, nullptr, tilingData.rows, tilingData.d,
                    BiasKind::NONE, tilingData.alpha, tilingData.epsilon};
    RunLayerNorm<DTYPE_X, DTYPE_X, true>(a);
}
