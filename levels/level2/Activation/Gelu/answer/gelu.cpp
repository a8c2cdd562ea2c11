// Gelu expert answer: the exact GELU y = x * Phi(x) for bfloat16, float16
// and float32 (kernel-only mode, Ascend 910B), computed in float on the
// shared element-wise skeleton (levels/common).
//
// Q = Phi(-|x|) = erfc(|x| / sqrt 2) / 2 comes from Abramowitz and Stegun
// 7.1.26, erfc(z) ~ t (a1 + t (a2 + ... a5 t)) exp(-z^2), t = 1 / (1 + p z),
// whose absolute error is below 1.5e-7. Then x * Phi(x) = x / 2 + |x| (1/2 - Q)
// for either sign, with no select and no cancellation in erfc's tail.
#include "kernel_operator.h"
#include "../../../../common/float_map.h"

using namespace AscendC;
using namespace npukb_answer;

struct GeluFn {
    static constexpr int NIN = 1;
    static constexpr uint32_t SCRATCH_FLOATS = 3;

    __aicore__ inline void Apply(const LocalTensor<float>& y, const LocalTensor<float>* in,
                                 const LocalTensor<float>* tmp, uint32_t count)
    {
        static constexpr float C[5] = {0.254829592f, -0.284496736f, 1.421413741f, -1.453152027f,
                                       1.061405429f};
        const LocalTensor<float>& x = in[0];
        const LocalTensor<float>& a = tmp[0];
        const LocalTensor<float>& t = tmp[1];
        const LocalTensor<float>& q = tmp[2];
        Abs(a, x, count);
        PipeBarrier<PIPE_V>();
        // t = 1 / (1 + p z), z = |x| / sqrt 2
        Muls(t, a, 0.3275911f * 0.70710678118654752f, count);
        Duplicate(q, 1.0f, count);
        PipeBarrier<PIPE_V>();
        Adds(t, t, 1.0f, count);
        PipeBarrier<PIPE_V>();
        Div(t, q, t, count);
        PipeBarrier<PIPE_V>();
        Horner(q, t, C, 5, count);
        PipeBarrier<PIPE_V>();
        Mul(q, q, t, count);
        PipeBarrier<PIPE_V>();
        // exp(-z^2) = exp(-x^2 / 2), into y as scratch
        Mul(y, x, x, count);
        PipeBarrier<PIPE_V>();
        Muls(y, y, -0.5f, count);
        PipeBarrier<PIPE_V>();
        Exp(y, y, count);
        PipeBarrier<PIPE_V>();
        Mul(q, q, y, count);
        PipeBarrier<PIPE_V>();
        // |x| (1/2 - Q) with Q = q / 2
        Muls(q, q, -0.5f, count);
        PipeBarrier<PIPE_V>();
        Adds(q, q, 0.5f, count);
        PipeBarrier<PIPE_V>();
        Mul(q, q, a, count);
        Muls(y, x, 0.5f, count);
        PipeBarrier<PIPE_V>();
        Add(y, y, q, count);
    }

private:
    // y = c[0] + t (c[1] + t (... c[n-1]))
    __aicore__ inline void Horner(const LocalTensor<float>& y, const LocalTensor<float>& t, const float* c,
                                  int n, uint32_t count)
    {
        Duplicate(y, c[n - 1], count);
        for (int i = n - 2; i >= 0; i--) {
            PipeBarrier<PIPE_V>();
            Mul(y, y, t, count);
            PipeBarrier<PIPE_V>();
            Adds(y, y, c[i], count);
        }
    }
};

extern "C" __global__ __aicore__ void gelu(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    FloatMapOp<DTYPE_X, GeluFn> op;
    GM_ADDR in[1] = {x};
    RunElementwise(op, in, y, tilingData.totalLength);
}
