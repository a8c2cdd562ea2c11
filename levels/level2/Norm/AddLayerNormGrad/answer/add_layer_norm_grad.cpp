// AddLayerNormGrad expert answer (kernel-only mode, Ascend 910B): the
// gradient of LayerNorm of x1 + x2 with the given mean and rstd, plus the
// optional dsum: d_x, d_gamma, d_beta. The shared row skeleton of
// levels/common/layer_norm_grad.h; a dsum left out arrives as a null
// address.
#include "kernel_operator.h"
#include "../../../../common/layer_norm_grad.h"

using namespace npukb_answer;

extern "C" __global__ __aicore__ void add_layer_norm_grad(GM_ADDR dy, GM_ADDR x_1, GM_ADDR x_2, GM_ADDR rstd,
                                                          GM_ADDR mean, GM_ADDR gamma, GM_ADDR dsum, GM_ADDR d_x,
                                                          GM_ADDR d_gamma, GM_ADDR d_beta, GM_ADDR workspace,
                                                          GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    LayerNormGradArgs a{dy, x_1, x_2, mean, rstd, gamma, dsum, d_x, nullptr, d_gamma, d_beta, workspace,
                        tilingData.rows, tilingData.d, 1.0f};
    RunLayerNormGrad<DTYPE_DY, DTYPE_GAMMA, DTYPE_MEAN, true>(a);
}
