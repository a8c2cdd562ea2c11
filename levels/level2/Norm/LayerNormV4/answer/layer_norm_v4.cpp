// LayerNormV4 expert answer: y = (x - mean) * rstd (* gamma) (+ beta) over
// each row of the normalised trailing dimensions, mean and rstd in x's
// dtype (kernel-only mode, Ascend 910B). The shared row skeleton of
// levels/common/layer_norm.h; gamma or beta left out arrive as null
// addresses. normalized_shape repeats what the tiling data says.
#include "kernel_operator.h"
#include "../../../../common/layer_norm.h"

using namespace npukb_answer;

extern "C" __global__ __aicore__ void layer_norm_v4(GM_ADDR x, GM_ADDR normalized_shape, GM_ADDR gamma, GM_ADDR beta,
                                                    GM_ADDR y, GM_ADDR mean, GM_ADDR rstd, GM_ADDR workspace,
                                                    GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    LayerNormArgs a{x, nullptr, nullptr, gamma, beta, y, mean, rstd, nullptr, tilingData.rows, tilingData.d,
                    BiasKind::NONE, 1.0f, tilingData.epsilon};
    RunLayerNorm<DTYPE_X, DTYPE_X, false>(a);
}
