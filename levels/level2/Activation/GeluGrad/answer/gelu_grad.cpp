// GeluGrad expert answer: z = dy * (s + x u' s (1 - s)) with s = sigmoid(u),
// u = k (x + c x^3), u' = k (1 + 3 c x^2), k = sqrt(8 / pi), c = 0.044715:
// the derivative of the tanh-approximation GELU x * sigmoid(u), for
// bfloat16, float16 and float32 (kernel-only mode, Ascend 910B), computed in
// float on the shared element-wise skeleton (levels/common). s is
// 1 / (1 + exp(-u)): exp overflowing gives s = 0 and a zero second term
// (the limit), where upstream's px * t^2 would be inf * 0.
#include "kernel_operator.h"
#include "../../../../common/float_map.h"
#include "../../../../common/gelu.h"

using namespace AscendC;
using namespace npukb_answer;

struct GeluGradFn {
    static constexpr int NIN = 2;
    static constexpr uint32_t SCRATCH_FLOATS = 4;

    __aicore__ inline void Apply(const LocalTensor<float>& z, const LocalTensor<float>* in,
                                 const LocalTensor<float>* tmp, uint32_t count)
    {
        GeluTanhDeriv(tmp[0], tmp[1], in[1], tmp[2], tmp[3], count);
        PipeBarrier<PIPE_V>();
        Mul(z, tmp[1], in[0], count);
    }
};

extern "C" __global__ __aicore__ void gelu_grad(GM_ADDR dy, GM_ADDR x, GM_ADDR z, GM_ADDR workspace,
                                                GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    FloatMapOp<DTYPE_DY, GeluGradFn> op;
    GM_ADDR in[2] = {dy, x};
    RunElementwise(op, in, z, tilingData.totalLength);
}
