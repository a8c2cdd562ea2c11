// InplaceAddLayerNorm expert answer: AddLayerNorm whose y overwrites x1
// and whose x = x1 + x2 (+ bias) overwrites x2 (kernel-only mode, Ascend
// 910B). The shared row skeleton of levels/common/layer_norm.h: each core
// writes back only rows it has already read.
#include "kernel_operator.h"
#include "../../../../common/layer_norm.h"

using namespace npukb_answer;

extern "C" __global__ __aicore__ void inplace_add_layer_norm(GM_ADDR x1, GM_ADDR x2, GM_ADDR gamma, GM_ADDR beta,
                                                             GM_ADDR bias, GM_ADDR y, GM_ADDR mean, GM_ADDR rstd,
                                                             GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    LayerNormArgs a{x1, x2, bias, gamma, beta, y, mean, rstd, x, tilingData.rows, tilingData.d,
                    static_cast<BiasKind>(tilingData.biasKind), 1.0f, tilingData.epsilon};
    RunLayerNorm<DTYPE_X1, float, true>(a);
}
