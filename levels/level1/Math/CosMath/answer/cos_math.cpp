// CosMath expert answer: y = cos(x) for bfloat16, float16 and float32
// (kernel-only mode, Ascend 910B), computed in float: cos(r) = Q(r^2).
// The argument is reduced to r in [-pi, pi] by k = rint(x / 2pi) with 2pi
// in two parts (the high part times k is exact, so r keeps its bits for
// |x| up to about 2^20), then a Taylor polynomial of degree 18 in r
// (truncation error below 2e-6 on [-pi, pi]). The dtype plumbing and the
// streaming are shared (levels/common).
#include "kernel_operator.h"
#include "../../../../common/float_unary.h"

using namespace AscendC;
using namespace npukb_answer;

struct CosMathFn {
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
        // 1/0!, -1/2!, 1/4!, ... -1/18!
        static constexpr float C[] = {1.0f, -0.5f, 4.1666666666666664e-2f, -1.388888888888889e-3f,
                                      2.48015873015873e-5f, -2.755731922398589e-7f,
                                      2.08767569878681e-9f, -1.1470745597729725e-11f,
                                      4.779477332387385e-14f, -1.5619206968586225e-16f};
        Horner(y, t, C, 10, count);
    }
};

extern "C" __global__ __aicore__ void cos_math(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    FloatUnaryOp<DTYPE_X, CosMathFn> op;
    GM_ADDR in[1] = {x};
    RunElementwise(op, in, y, tilingData.totalLength);
}
