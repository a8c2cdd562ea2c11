// GroupNormSwish expert answer: GroupNorm over the C / G channels of each
// group (mean and rstd in x's dtype), then y = z * sigmoid(swish_scale * z)
// when activate_swish (kernel-only mode, Ascend 910B). The shared group
// skeleton of levels/common/group_norm.h.
#include "kernel_operator.h"
#include "../../../../common/group_norm.h"

using namespace npukb_answer;

extern "C" __global__ __aicore__ void group_norm_swish(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                                       GM_ADDR mean, GM_ADDR rstd, GM_ADDR workspace,
                                                       GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    GroupNormArgs a{x,
                    gamma,
                    beta,
                    y,
                    mean,
                    rstd,
                    tilingData.rows,
                    tilingData.len,
                    tilingData.hw,
                    tilingData.numGroups,
                    tilingData.eps,
                    tilingData.activateSwish != 0,
                    tilingData.swishScale};
    RunGroupNormSwish<DTYPE_X>(a);
}
