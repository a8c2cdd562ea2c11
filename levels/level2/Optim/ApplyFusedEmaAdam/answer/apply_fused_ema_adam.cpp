// ApplyFusedEmaAdam expert answer: one Adam step (mode 0: weight decay on
// the gradient, mode 1: on the update) and an exponential moving average
// s of the weights, var, m, v and s updated in place; float16, bfloat16
// and float32 (kernel-only mode, Ascend 910B). The streaming (multi-core,
// tiled, double-buffered, computed in float and rounded once) is
// levels/common/optim.h; the bias corrections 1 - beta^step are computed
// once per core on the scalar unit.
#include "kernel_operator.h"
#include "../../../../common/optim.h"

using namespace AscendC;
using namespace npukb_answer;

namespace {

struct EmaAdamOp {
    static constexpr int NIN = 5; // grad, var, m, v, s
    static constexpr int NOUT = 4;
    static constexpr int SCRATCH = 2;
    static constexpr int OUT[NOUT] = {1, 2, 3, 4};
    float lr, ema, b1, b2, eps, wd, rc1, rc2;
    int32_t mode;

    __aicore__ inline void Compute(const LocalTensor<float>* x, const LocalTensor<float>* s, uint32_t n)
    {
        const LocalTensor<float>& g = x[0];
        const LocalTensor<float>& w = x[1];
        const LocalTensor<float>& m = x[2];
        const LocalTensor<float>& v = x[3];
        const LocalTensor<float>& e = x[4];
        if (mode == 0) {
            Muls(s[0], w, wd, n);
            PipeBarrier<PIPE_V>();
            Add(g, g, s[0], n);
            PipeBarrier<PIPE_V>();
        }
        // m = b1*m + (1-b1)*g; v = b2*v + (1-b2)*g*g
        Muls(m, m, b1, n);
        Muls(s[0], g, 1.0f - b1, n);
        Mul(s[1], g, g, n);
        Muls(v, v, b2, n);
        PipeBarrier<PIPE_V>();
        Add(m, m, s[0], n);
        Muls(s[1], s[1], 1.0f - b2, n);
        PipeBarrier<PIPE_V>();
        Add(v, v, s[1], n);
        PipeBarrier<PIPE_V>();
        // u = (m/c1) / (sqrt(v/c2) + eps)
        Muls(s[0], v, rc2, n);
        Muls(s[1], m, rc1, n);
        PipeBarrier<PIPE_V>();
        Sqrt(s[0], s[0], n);
        PipeBarrier<PIPE_V>();
        Adds(s[0], s[0], eps, n);
        PipeBarrier<PIPE_V>();
        Div(s[1], s[1], s[0], n);
        PipeBarrier<PIPE_V>();
        if (mode == 1) {
            Muls(s[0], w, wd, n);
            PipeBarrier<PIPE_V>();
            Add(s[1], s[1], s[0], n);
            PipeBarrier<PIPE_V>();
        }
        // var -= lr*u; s = ema*s + (1-ema)*var
        Muls(s[1], s[1], -lr, n);
        Muls(e, e, ema, n);
        PipeBarrier<PIPE_V>();
        Add(w, w, s[1], n);
        PipeBarrier<PIPE_V>();
        Muls(s[0], w, 1.0f - ema, n);
        PipeBarrier<PIPE_V>();
        Add(e, e, s[0], n);
    }
};

} // namespace

extern "C" __global__ __aicore__ void apply_fused_ema_adam(GM_ADDR grad, GM_ADDR var, GM_ADDR m, GM_ADDR v, GM_ADDR s,
                                                           GM_ADDR step, GM_ADDR var_ref, GM_ADDR m_ref,
                                                           GM_ADDR v_ref, GM_ADDR s_ref, GM_ADDR workspace,
                                                           GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<int64_t> stepGm;
    stepGm.SetGlobalBuffer((__gm__ int64_t*)step, 1);
    const int64_t t = stepGm.GetValue(0);
    EmaAdamOp op;
    op.lr = td.lr;
    op.ema = td.emaDecay;
    op.b1 = td.beta1;
    op.b2 = td.beta2;
    op.eps = td.eps;
    op.wd = td.weightDecay;
    op.mode = td.mode;
    op.rc1 = td.biasCorrection ? 1.0f / (1.0f - PowInt(td.beta1, t)) : 1.0f;
    op.rc2 = td.biasCorrection ? 1.0f / (1.0f - PowInt(td.beta2, t)) : 1.0f;
    GM_ADDR ins[5] = {grad, var, m, v, s};
    GM_ADDR outs[4] = {var_ref, m_ref, v_ref, s_ref};
    RunInplaceStream<DTYPE_GRAD>(op, ins, outs, td.totalLength);
}
