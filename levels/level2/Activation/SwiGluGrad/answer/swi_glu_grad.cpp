// SwiGluGrad expert answer: for y = silu(a) * b with (a, b) the halves of x
// along dim, dx = (g * b * s * (1 + a (1 - s)), g * silu(a)), s = sigmoid(a),
// for bfloat16, float16 and float32 (kernel-only mode, Ascend 910B),
// computed in float on the shared GLU streaming skeleton
// (levels/common/glu.h).
#include "kernel_operator.h"
#include "../../../../common/float_map.h"
#include "../../../../common/glu.h"

using namespace AscendC;
using namespace npukb_answer;

struct SwiGluGradFn {
    static constexpr bool BACKWARD = true;
    static constexpr int NOUT = 2;
    static constexpr uint32_t SCRATCH_FLOATS = 1;

    __aicore__ inline void Apply(const LocalTensor<float>* out, const LocalTensor<float>* in,
                                 const LocalTensor<float>* tmp, uint32_t count)
    {
        const LocalTensor<float>& g = in[0];
        const LocalTensor<float>& a = in[1];
        const LocalTensor<float>& b = in[2];
        const LocalTensor<float>& s = tmp[0];
        const LocalTensor<float>& da = out[0];
        const LocalTensor<float>& db = out[1];
        SigmoidK(s, a, da, 1.0f, count);
        PipeBarrier<PIPE_V>();
        Sub(da, da, s, count);
        Mul(db, a, s, count); // silu(a)
        PipeBarrier<PIPE_V>();
        Mul(da, da, a, count);
        Mul(db, db, g, count);
        PipeBarrier<PIPE_V>();
        Adds(da, da, 1.0f, count);
        Mul(b, b, g, count);
        PipeBarrier<PIPE_V>();
        Mul(da, da, s, count);
        PipeBarrier<PIPE_V>();
        Mul(da, da, b, count);
    }
};

extern "C" __global__ __aicore__ void swi_glu_grad(GM_ADDR y_grad, GM_ADDR x, GM_ADDR x_grad, GM_ADDR workspace,
                                                   GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    GluStream<DTYPE_X, SwiGluGradFn> stream;
    SwiGluGradFn op;
    if (stream.Init(y_grad, nullptr, x, x_grad, tilingData.outer, tilingData.halfLength)) {
        stream.Process(op);
    }
}
