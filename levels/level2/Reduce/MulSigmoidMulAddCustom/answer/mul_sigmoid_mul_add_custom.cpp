// MulSigmoidMulAddCustom expert answer: y = sigmoid(x * s1) * s2 + s3, the
// three scalars one-element tensors read once per core, for float16
// (kernel-only mode, Ascend 910B), computed in float on the shared
// element-wise skeleton (levels/common).
#include "kernel_operator.h"
#include "../../../../common/float_map.h"

using namespace AscendC;
using namespace npukb_answer;

struct MulSigmoidMulAddFn {
    static constexpr int NIN = 1;
    static constexpr uint32_t SCRATCH_FLOATS = 1;
    float s1, s2, s3;

    __aicore__ inline void Apply(const LocalTensor<float>& y, const LocalTensor<float>* in,
                                 const LocalTensor<float>* tmp, uint32_t count)
    {
        Muls(in[0], in[0], -s1, count);
        Duplicate(tmp[0], s2, count);
        PipeBarrier<PIPE_V>();
        Exp(in[0], in[0], count);
        PipeBarrier<PIPE_V>();
        Adds(in[0], in[0], 1.0f, count);
        PipeBarrier<PIPE_V>();
        Div(y, tmp[0], in[0], count);
        PipeBarrier<PIPE_V>();
        Adds(y, y, s3, count);
    }
};

template <typename T>
__aicore__ inline float ScalarOf(GM_ADDR p)
{
    GlobalTensor<T> g;
    g.SetGlobalBuffer((__gm__ T*)p, 1);
    return static_cast<float>(g.GetValue(0));
}

extern "C" __global__ __aicore__ void mul_sigmoid_mul_add_custom(GM_ADDR input, GM_ADDR mulscalar1,
                                                                 GM_ADDR mulscalar2, GM_ADDR mulscalar3,
                                                                 GM_ADDR output, GM_ADDR workspace,
                                                                 GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    FloatMapOp<DTYPE_INPUT, MulSigmoidMulAddFn> op;
    op.f.s1 = ScalarOf<DTYPE_INPUT>(mulscalar1);
    op.f.s2 = ScalarOf<DTYPE_INPUT>(mulscalar2);
    op.f.s3 = ScalarOf<DTYPE_INPUT>(mulscalar3);
    GM_ADDR in[1] = {input};
    RunElementwise(op, in, output, tilingData.totalLength);
}
