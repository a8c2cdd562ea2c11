// ApplyAdamWV2 expert answer: one AdamW step at t = step + 1, var, m, v
// (and max_grad_norm with amsgrad) updated in place; float16, bfloat16 and
// float32 (kernel-only mode, Ascend 910B). The streaming (multi-core,
// tiled, double-buffered, computed in float and rounded once) is
// levels/common/optim.h; the bias corrections are computed once per core
// on the scalar unit. Without amsgrad max_grad_norm is written back as it
// was read.
#include "kernel_operator.h"
#include "../../../../common/optim.h"

using namespace AscendC;
using namespace npukb_answer;

namespace {

struct AdamWOp {
    static constexpr int NIN = 5; // grad, var, m, v, max_grad_norm
    static constexpr int NOUT = 4;
    static constexpr int SCRATCH = 2;
    static constexpr int OUT[NOUT] = {1, 2, 3, 4};
    float decay, b1, b2, eps, rc2, stepSize;
    bool amsgrad, maximize;

    __aicore__ inline void Compute(const LocalTensor<float>* x, const LocalTensor<float>* s, uint32_t n)
    {
        const LocalTensor<float>& g = x[0];
        const LocalTensor<float>& w = x[1];
        const LocalTensor<float>& m = x[2];
        const LocalTensor<float>& v = x[3];
        const LocalTensor<float>& mx = x[4];
        if (maximize) {
            Muls(g, g, -1.0f, n);
            PipeBarrier<PIPE_V>();
        }
        // var *= 1 - lr*wd; m += (1-b1)*(g - m); v = b2*v + (1-b2)*g*g
        Muls(w, w, decay, n);
        Sub(s[0], g, m, n);
        Mul(s[1], g, g, n);
        Muls(v, v, b2, n);
        PipeBarrier<PIPE_V>();
        Muls(s[0], s[0], 1.0f - b1, n);
        Muls(s[1], s[1], 1.0f - b2, n);
        PipeBarrier<PIPE_V>();
        Add(m, m, s[0], n);
        Add(v, v, s[1], n);
        PipeBarrier<PIPE_V>();
        const LocalTensor<float>* second = &v;
        if (amsgrad) {
            Max(mx, mx, v, n);
            PipeBarrier<PIPE_V>();
            second = &mx;
        }
        // var -= lr/(1-b1^t) * m / (sqrt(w/(1-b2^t)) + eps)
        Muls(s[0], *second, rc2, n);
        PipeBarrier<PIPE_V>();
        Sqrt(s[0], s[0], n);
        PipeBarrier<PIPE_V>();
        Adds(s[0], s[0], eps, n);
        PipeBarrier<PIPE_V>();
        Div(s[1], m, s[0], n);
        PipeBarrier<PIPE_V>();
        Muls(s[1], s[1], -stepSize, n);
        PipeBarrier<PIPE_V>();
        Add(w, w, s[1], n);
    }
};

} // namespace

extern "C" __global__ __aicore__ void apply_adam_wv2(GM_ADDR var, GM_ADDR m, GM_ADDR v, GM_ADDR grad, GM_ADDR step,
                                                     GM_ADDR max_grad_norm, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<float> stepGm;
    stepGm.SetGlobalBuffer((__gm__ float*)step, 1);
    const int64_t t = static_cast<int64_t>(stepGm.GetValue(0)) + 1;
    AdamWOp op;
    op.decay = 1.0f - td.lr * td.weightDecay;
    op.b1 = td.beta1;
    op.b2 = td.beta2;
    op.eps = td.eps;
    op.rc2 = 1.0f / (1.0f - PowInt(td.beta2, t));
    op.stepSize = td.lr / (1.0f - PowInt(td.beta1, t));
    op.amsgrad = td.amsgrad != 0;
    op.maximize = td.maximize != 0;
    GM_ADDR ins[5] = {grad, var, m, v, max_grad_norm};
    GM_ADDR outs[4] = {var, m, v, max_grad_norm};
    RunInplaceStream<DTYPE_GRAD>(op, ins, outs, td.totalLength);
}
