// FastGeluGrad expert answer: z = dy * (s + a x s (1 - s)), s = sigmoid(a x),
// a = 1.702: the derivative of x * sigmoid(a x), for float16 and float32
// (kernel-only mode, Ascend 910B), computed in float on the shared
// element-wise skeleton (levels/common). s is 1 / (1 + exp(-a x)): exp
// overflowing gives s = 0 and a zero second term, the correct limit.
#include "kernel_operator.h"
#include "../../../../common/float_map.h"

using namespace AscendC;
using namespace npukb_answer;

struct FastGeluGradFn {
    static constexpr int NIN = 2;
    static constexpr uint32_t SCRATCH_FLOATS = 2;
    static constexpr float A = 1.702f;

    __aicore__ inline void Apply(const LocalTensor<float>& z, const LocalTensor<float>* in,
                                 const LocalTensor<float>* tmp, uint32_t count)
    {
        const LocalTensor<float>& dy = in[0];
        const LocalTensor<float>& x = in[1];
        const LocalTensor<float>& s = tmp[0];
        const LocalTensor<float>& u = tmp[1];
        SigmoidK(s, x, u, A, count);
        PipeBarrier<PIPE_V>();
        Sub(u, u, s, count);
        PipeBarrier<PIPE_V>();
        Mul(u, u, s, count);
        PipeBarrier<PIPE_V>();
        Mul(u, u, x, count);
        PipeBarrier<PIPE_V>();
        Muls(u, u, A, count);
        PipeBarrier<PIPE_V>();
        Add(u, u, s, count);
        PipeBarrier<PIPE_V>();
        Mul(z, u, dy, count);
    }
};

extern "C" __global__ __aicore__ void fast_gelu_grad(GM_ADDR dy, GM_ADDR x, GM_ADDR z, GM_ADDR workspace,
                                                     GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    FloatMapOp<DTYPE_DY, FastGeluGradFn> op;
    GM_ADDR in[2] = {dy, x};
    RunElementwise(op, in, z, tilingData.totalLength);
}
