// GeGluGradV2 expert answer: for y = gelu(a) * b with (a, b) the halves of x
// along dim, dx = (dy * b * gelu'(a), dy * gelu(a)), for the exact GELU
// (approximate 0: gelu = a Phi(a), gelu' = Phi(a) + a phi(a)) and the tanh
// approximation (1: gelu = a s, s = sigmoid(k (a + c a^3)), gelu' = s + a u'
// s (1 - s)), float16 and float32 (kernel-only mode, Ascend 910B), computed
// in float on the shared GLU streaming skeleton (levels/common/glu.h,
// gelu.h).
#include "kernel_operator.h"
#include "../../../../common/glu.h"
#include "../../../../common/gelu.h"

using namespace AscendC;
using namespace npukb_answer;

struct GeGluGradFn {
    static constexpr bool BACKWARD = true;
    static constexpr int NOUT = 2;
    static constexpr uint32_t SCRATCH_FLOATS = 5;
    bool tanhForm = false;

    __aicore__ inline void Apply(const LocalTensor<float>* out, const LocalTensor<float>* in,
                                 const LocalTensor<float>* tmp, uint32_t count)
    {
        const LocalTensor<float>& g = in[0];
        const LocalTensor<float>& a = in[1];
        const LocalTensor<float>& b = in[2];
        const LocalTensor<float>& da = out[0];
        const LocalTensor<float>& db = out[1];
        // p = gelu(a) / a (Phi(a) or s), d = gelu'(a)
        const LocalTensor<float>& p = tmp[0];
        const LocalTensor<float>& d = tmp[1];
        const LocalTensor<float>& t = tmp[2];
        const LocalTensor<float>& e = tmp[3];
        if (tanhForm) {
            GeluTanhDeriv(p, d, a, t, e, count);
        } else {
            Erf(p, d, a, t, e, tmp[4], count);
        }
        PipeBarrier<PIPE_V>();
        Mul(db, a, p, count);
        Mul(da, b, d, count);
        PipeBarrier<PIPE_V>();
        Mul(db, db, g, count);
        Mul(da, da, g, count);
    }

private:
    __aicore__ inline void Erf(const LocalTensor<float>& p, const LocalTensor<float>& d,
                               const LocalTensor<float>& a, const LocalTensor<float>& t,
                               const LocalTensor<float>& e, const LocalTensor<float>& m, uint32_t count)
    {
        // p = Phi(-|a|), d = |a| (scratch), e = exp(-a^2 / 2)
        PhiOfMinusAbs(p, d, a, t, e, count);
        PipeBarrier<PIPE_V>();
        LocalTensor<uint8_t> mask = m.ReinterpretCast<uint8_t>();
        CompareScalar(mask, a, 0.0f, CMPMODE::GE, count);
        Muls(t, p, -1.0f, count);
        PipeBarrier<PIPE_V>();
        Adds(t, t, 1.0f, count);
        PipeBarrier<PIPE_V>();
        Select(p, mask, t, p, SELMODE::VSEL_TENSOR_TENSOR_MODE, count); // Phi(a)
        Muls(e, e, 0.3989422804014327f, count);                         // phi(a)
        PipeBarrier<PIPE_V>();
        Mul(d, a, e, count);
        PipeBarrier<PIPE_V>();
        Add(d, d, p, count);
    }
};

extern "C" __global__ __aicore__ void ge_glu_grad_v2(GM_ADDR dy, GM_ADDR x, GM_ADDR dx, GM_ADDR workspace,
                                                     GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    GluStream<DTYPE_X, GeGluGradFn> stream;
    GeGluGradFn op;
    op.tanhForm = tilingData.approximate == 1;
    if (stream.Init(dy, nullptr, x, dx, tilingData.outer, tilingData.halfLength)) {
        stream.Process(op);
    }
}
