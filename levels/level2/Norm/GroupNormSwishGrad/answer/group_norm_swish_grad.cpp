// GroupNormSwishGrad expert answer: dx, dgamma and dbeta of GroupNormSwish
// with the saved mean and rstd (kernel-only mode, Ascend 910B). The shared
// group skeleton of levels/common/group_norm.h.
#include "kernel_operator.h"
#include "../../../../common/group_norm.h"

using namespace npukb_answer;

extern "C" __global__ __aicore__ void group_norm_swish_grad(GM_ADDR dy, GM_ADDR mean, GM_ADDR rstd, GM_ADDR x,
                                                            GM_ADDR gamma, GM_ADDR beta, GM_ADDR dx,
                                                            GM_ADDR dgamma, GM_ADDR dbeta, GM_ADDR workspace,
                                                            GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    GroupNormGradArgs a{dy,
                        mean,
                        rstd,
                        x,
                        gamma,
                        beta,
                        dx,
                        dgamma,
                        dbeta,
                        tilingData.n,
                        tilingData.len,
                        tilingData.hw,
                        tilingData.numGroups,
                        tilingData.swishScale};
    RunGroupNormSwishGrad<DTYPE_X>(a);
}
