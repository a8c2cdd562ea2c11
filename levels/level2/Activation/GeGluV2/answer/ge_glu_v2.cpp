// GeGluV2 expert answer: (a, b) = the two halves of x along the last axis,
// gelu = a * Phi(a) (the exact GELU), y = gelu * b; both outputs, for
// float16 and float32 (kernel-only mode, Ascend 910B), computed in float on
// the shared GLU streaming skeleton (levels/common/glu.h, gelu.h).
#include "kernel_operator.h"
#include "../../../../common/glu.h"
#include "../../../../common/gelu.h"

using namespace AscendC;
using namespace npukb_answer;

struct GeGluFn {
    static constexpr bool BACKWARD = false;
    static constexpr int NOUT = 2;
    static constexpr uint32_t SCRATCH_FLOATS = 4;

    __aicore__ inline void Apply(const LocalTensor<float>* out, const LocalTensor<float>* in,
                                 const LocalTensor<float>* tmp, uint32_t count)
    {
        GeluErf(out[1], in[0], tmp[0], tmp[1], tmp[2], tmp[3], count);
        PipeBarrier<PIPE_V>();
        Mul(out[0], out[1], in[1], count);
    }
};

extern "C" __global__ __aicore__ void ge_glu_v2(GM_ADDR x, GM_ADDR y, GM_ADDR gelu, GM_ADDR workspace,
                                                GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    GluStream<DTYPE_X, GeGluFn> stream;
    GeGluFn op;
    if (stream.Init(y, gelu, x, nullptr, tilingData.outer, tilingData.halfLength)) {
        stream.Process(op);
    }
}
