// SwiGlu expert answer: (a, b) = the two halves of x along dim,
// y = silu(a) * b = a / (1 + exp(-a)) * b, for bfloat16, float16 and float32
// (kernel-only mode, Ascend 910B), computed in float on the shared GLU
// streaming skeleton (levels/common/glu.h).
#include "kernel_operator.h"
#include "../../../../common/float_map.h"
#include "../../../../common/glu.h"

using namespace AscendC;
using namespace npukb_answer;

struct SwiGluFn {
    static constexpr bool BACKWARD = false;
    static constexpr int NOUT = 1;
    static constexpr uint32_t SCRATCH_FLOATS = 1;

    __aicore__ inline void Apply(const LocalTensor<float>* out, const LocalTensor<float>* in,
                                 const LocalTensor<float>* tmp, uint32_t count)
    {
        XSigmoid(out[0], in[0], tmp[0], 1.0f, count);
        PipeBarrier<PIPE_V>();
        Mul(out[0], out[0], in[1], count);
    }
};

extern "C" __global__ __aicore__ void swi_glu(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    GluStream<DTYPE_X, SwiGluFn> stream;
    SwiGluFn op;
    if (stream.Init(y, nullptr, x, nullptr, tilingData.outer, tilingData.halfLength)) {
        stream.Process(op);
    }
}
