// SinMath expert answer: y = sin(x) for bfloat16, float16 and float32
// (kernel-only mode, Ascend 910B), computed in float: sin(r) = r * P(r^2).
// The argument is reduced to r in [-pi, pi] by k = rint(x / 2pi) with 2pi
// in two parts (the high part times k is exact, so r keeps its bits for
// |x| up to about 2^20), then a Taylor polynomial of degree 17 in r
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
        constexpr float TWO_PI_HI = 6.28125f;               // 8 significant bits
        constexpr float TWO_PI_LO = 1.9353071795864769e-3f; // 2pi - TWO_PI_HI
        LocalTensor<float> k = s[0];
        LocalTensor<float> t = s[1];

        Muls(k, x, 0.15915494309189535f, count);
        PipeBarrier<PIPE_V>();
        Cast(k, k, RoundMode::CAST_RINT, count);
        PipeBarrier<PIPE_V>();
        Muls(t, k, TWO_PI_HI, count);
        PipeBarrier<PIPE_V>();
        Sub(x, x, t, count);
        PipeBarrier<PIPE_V>();
        Muls(t, k, TWO_PI_LO, count);
        PipeBarrier<PIPE_V>();
        Sub(x, x, t, count);
        PipeBarrier<PIPE_V>();
        Mul(t, x, x, count); // r^2
        PipeBarrier<PIPE_V>();
        // 1/1!, -1/3!, 1/5!, ... 1/17!
        static constexpr float C[] = {1.0f, -1.6666666666666666e-1f, 8.333333333333333e-3f,
                                      -1.984126984126984e-4f, 2.7557319223985893e-6f,
                                      -2.505210838544172e-8f, 1.6059043836821613e-10f,
                                      -7.647163731819816e-13f, 2.8114572543455206e-15f};
        Horner(y, t, C, 9, count);
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
