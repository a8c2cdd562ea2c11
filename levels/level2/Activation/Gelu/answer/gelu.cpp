// Gelu expert answer: the exact GELU y = x * Phi(x) for bfloat16, float16
// and float32 (kernel-only mode, Ascend 910B), computed in float on the
// shared element-wise skeleton; Phi's tail comes from erfc directly
// (levels/common/gelu.h says how), so x Phi(x) has no cancellation.
#include "kernel_operator.h"
#include "../../../../common/float_map.h"
#include "../../../../common/gelu.h"

using namespace AscendC;
using namespace npukb_answer;

struct GeluFn {
    static constexpr int NIN = 1;
    static constexpr uint32_t SCRATCH_FLOATS = 4;

    __aicore__ inline void Apply(const LocalTensor<float>& y, const LocalTensor<float>* in,
                                 const LocalTensor<float>* tmp, uint32_t count)
    {
        GeluErf(y, in[0], tmp[0], tmp[1], tmp[2], tmp[3], count);
    }
};

extern "C" __global__ __aicore__ void gelu(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    FloatMapOp<DTYPE_X, GeluFn> op;
    GM_ADDR in[1] = {x};
    RunElementwise(op, in, y, tilingData.totalLength);
}
