// CosMath expert answer: y = cos(x) for bfloat16, float16 and float32
// (kernel-only mode, Ascend 910B), computed in float: the argument reduced
// to r in [-pi, pi] (levels/common/float_unary.h), then cos(r) = Q(r^2), Q the Taylor polynomial to r^18
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
        // 1/0!, -1/2!, 1/4!, ... -1/18!
        static constexpr float C[] = {1.0f, -0.5f, 4.1666666666666664e-2f, -1.388888888888889e-3f,
                                      2.48015873015873e-5f, -2.755731922398589e-7f,
                                      2.08767569878681e-9f, -1.1470745597729725e-11f,
                                      4.779477332387385e-14f, -1.5619206968586225e-16f};
        ReduceToPi(x, s[0], s[1], count);
        Horner(y, s[1], C, 10, count);
    }
};

extern "C" __global__ __aicore__ void cos_math(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    FloatUnaryOp<DTYPE_X, CosMathFn> op;
    GM_ADDR in[1] = {x};
    RunElementwise(op, in, y, tilingData.totalLength);
}
