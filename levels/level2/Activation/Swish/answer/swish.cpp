// Swish expert answer: y = x * sigmoid(scale * x) = x / (1 + exp(-scale x))
// for float16 and float32 (kernel-only mode, Ascend 910B), computed in
// float on the shared element-wise skeleton (levels/common).
#include "kernel_operator.h"
#include "../../../../common/float_map.h"

using namespace AscendC;
using namespace npukb_answer;

struct SwishFn {
    static constexpr int NIN = 1;
    static constexpr uint32_t SCRATCH_FLOATS = 1;
    float scale;

    __aicore__ inline void Apply(const LocalTensor<float>& y, const LocalTensor<float>* x,
                                 const LocalTensor<float>* s, uint32_t count)
    {
        XSigmoid(y, x[0], s[0], scale, count);
    }
};

extern "C" __global__ __aicore__ void swish(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    FloatMapOp<DTYPE_X, SwishFn> op;
    op.f.scale = tilingData.scale;
    GM_ADDR in[1] = {x};
    RunElementwise(op, in, y, tilingData.totalLength);
}
