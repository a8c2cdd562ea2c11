// SinMath expert answer: y = sin(x) for bfloat16, float16 and float32
// (kernel-only mode, Ascend 910B), computed in float: the argument reduced
// to r in [-pi, pi] (levels/common/float_unary.h), then sin(r) = r * P(r^2), P the Taylor polynomial to r^17
// (truncation error below 2e-6 on [-pi, pi]). The dtype plumbing and the
// streaming are shared (levels/common).
#include "kernel_operator.h"
#include "../../../../common/float_unary.h"

using namespace AscendC;
using namespace npukb_answer;

struct SinMathFn {
    static constexpr uint32_t SCRATCH_FLOATS = 3;

    __aicore__ inline void Apply(const LocalTensor<float>& y, const LocalTensor<float>& x,
                                 const LocalTensor<float>* s, uint32_t count)
    {
        // 1/1!, -1/3!, 1/5!, ... 1/17!
        static constexpr float C[] = {1.0f, -1.6666666666666666e-1f, 8.333333333333333e-3f,
                                      -1.984126984126984e-4f, 2.7557319223985893e-6f,
                                      -2.505210838544172e-8f, 1.6059043836821613e-10f,
                                      -7.647163731819816e-13f, 2.8114572543455206e-15f};
        ReduceToPi(x, s[0], s[1], count);
        Horner(y, s[1], C, 9, count);
        PipeBarrier<PIPE_V>();
        Mul(y, y, x, count);
    }
};

extern "C" __global__ __aicore__ void sin_math(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    FloatUnaryOp<DTYPE_X, SinMathFn> op;
    GM_ADDR in[1] = {x};
    RunElementwise(op, in, y, tilingData.totalLength);
}
