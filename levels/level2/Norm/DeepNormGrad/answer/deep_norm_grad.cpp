// DeepNormGrad expert answer (kernel-only mode, Ascend 910B): the gradient
// of DeepNorm (LayerNorm of alpha * x + gx) with the given mean and rstd:
// dgx, dx = alpha * dgx, dbeta, dgamma. The shared row skeleton of
// levels/common/layer_norm_grad.h without the sum(xh) term (the operator's
// d_mean is -sum(dy * gamma) * rstd alone); its long rows (6144 and 8192
// elements) are streamed in column chunks.
#include "kernel_operator.h"
#include "../../../../common/layer_norm_grad.h"

using namespace npukb_answer;

extern "C" __global__ __aicore__ void deep_norm_grad(GM_ADDR dy, GM_ADDR x, GM_ADDR gx, GM_ADDR gamma, GM_ADDR mean,
                                                     GM_ADDR rstd, GM_ADDR dx, GM_ADDR dgx, GM_ADDR dbeta,
                                                     GM_ADDR dgamma, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    LayerNormGradArgs a{dy, x, gx, mean, rstd, gamma, nullptr, dgx, dx, dgamma, dbeta, workspace,
                        tilingData.rows, tilingData.d, tilingData.alpha};
    RunLayerNormGrad<DTYPE_DY, DTYPE_GAMMA, DTYPE_MEAN, false>(a);
}
