// FastGelu expert answer: y = x * sigmoid(1.702 x) = x / (1 + exp(-1.702 x)),
// upstream's x / (1 + exp(-1.702|x|)) * exp(0.851 (x - |x|)) in one
// division, for float16 and float32 (kernel-only mode, Ascend 910B),
// computed in float on the shared element-wise skeleton (levels/common).
#include "kernel_operator.h"
#include "../../../../common/float_map.h"

using namespace AscendC;
using namespace npukb_answer;

struct FastGeluFn {
    static constexpr int NIN = 1;
    static constexpr uint32_t SCRATCH_FLOATS = 1;

    __aicore__ inline void Apply(const LocalTensor<float>& y, const LocalTensor<float>* x,
                                 const LocalTensor<float>* s, uint32_t count)
    {
        XSigmoid(y, x[0], s[0], 1.702f, count);
    }
};

extern "C" __global__ __aicore__ void fast_gelu(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    FloatMapOp<DTYPE_X, FastGeluFn> op;
    GM_ADDR in[1] = {x};
    RunElementwise(op, in, y, tilingData.totalLength);
}
