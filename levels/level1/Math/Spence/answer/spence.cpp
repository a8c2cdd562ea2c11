// Spence expert answer: y = spence(x) = Li2(1 - x) (the dilogarithm),
// float16 and float32 (kernel-only mode, Ascend 910B), computed in float
// from the basic vector instructions:
//  - on [0.5, 2], the Bernoulli series Li2(1 - z) = sum B_n w^(n+1)/(n+1)!
//    with w = -ln z (|w| <= ln 2, so terms up to w^11 leave < 1e-9);
//  - below 0.5, the reflection s(x) = pi^2/6 - ln(x) ln(1 - x) - s(1 - x);
//  - above 2, the inversion s(x) = -s(1/x) - ln(x)^2 / 2.
// Every lane evaluates the three and masks (Compare/Select) pick the one
// its x needs. s(0) = pi^2/6, s(inf) = -inf, negative x gives NaN. The dtype
// plumbing and the streaming are shared (levels/common).
#include "kernel_operator.h"
#include "../../../../common/float_unary.h"

using namespace AscendC;
using namespace npukb_answer;

struct SpenceFn {
    static constexpr uint32_t SCRATCH_FLOATS = 10;

    __aicore__ inline void Apply(const LocalTensor<float>& out, const LocalTensor<float>& x,
                                 const LocalTensor<float>* s, uint32_t count)
    {
        constexpr float PI2_6 = 1.6449340668482264f;
        // B_n / (n+1)! for n = 0..10 (B_1 = -1/2, odd n > 1 vanish)
        static constexpr float C[] = {1.0f, -0.25f, 2.7777777777777776e-2f, 0.0f, -2.777777777777778e-4f, 0.0f,
                                      4.724111866969009e-6f, 0.0f, -9.185773074661964e-8f, 0.0f,
                                      1.8978869924442037e-9f};
        const uint32_t maskBytes = static_cast<uint32_t>(AlignUp(CeilDiv(count, 8), 32));
        LocalTensor<uint8_t> inv = s[8].ReinterpretCast<uint8_t>();
        LocalTensor<uint8_t> refl = inv[maskBytes];
        LocalTensor<uint8_t> nonzero = inv[2 * maskBytes];
        const LocalTensor<float>& y = s[1];
        const LocalTensor<float>& omy = s[2];
        const LocalTensor<float>& z = s[3];
        const LocalTensor<float>& w = s[4];
        const LocalTensor<float>& series = s[5];

        // y = x > 2 ? 1/x : x;  z = y < 0.5 ? 1 - y : y
        Reciprocal(s[0], x, count);
        CompareScalar(inv, x, 2.0f, CMPMODE::GT, count);
        PipeBarrier<PIPE_V>();
        Select(y, inv, s[0], x, SELMODE::VSEL_TENSOR_TENSOR_MODE, count);
        PipeBarrier<PIPE_V>();
        CompareScalar(refl, y, 0.5f, CMPMODE::LT, count);
        CompareScalar(nonzero, y, 0.0f, CMPMODE::NE, count);
        Muls(omy, y, -1.0f, count);
        PipeBarrier<PIPE_V>();
        Adds(omy, omy, 1.0f, count);
        PipeBarrier<PIPE_V>();
        Select(z, refl, omy, y, SELMODE::VSEL_TENSOR_TENSOR_MODE, count);
        PipeBarrier<PIPE_V>();

        // series in w = -ln z
        Ln(w, z, count);
        PipeBarrier<PIPE_V>();
        Muls(w, w, -1.0f, count);
        PipeBarrier<PIPE_V>();
        Horner(series, w, C, 11, count);
        PipeBarrier<PIPE_V>();
        Mul(series, series, w, count);

        // reflected: pi^2/6 - ln(y) ln(1 - y) - series (the product is 0 at y = 0)
        Ln(s[6], y, count);
        Ln(s[7], omy, count);
        PipeBarrier<PIPE_V>();
        Mul(s[6], s[6], s[7], count);
        PipeBarrier<PIPE_V>();
        Select(s[6], nonzero, s[6], 0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, count);
        PipeBarrier<PIPE_V>();
        Muls(s[6], s[6], -1.0f, count);
        PipeBarrier<PIPE_V>();
        Adds(s[6], s[6], PI2_6, count);
        PipeBarrier<PIPE_V>();
        Sub(s[6], s[6], series, count);
        PipeBarrier<PIPE_V>();
        Select(s[7], refl, s[6], series, SELMODE::VSEL_TENSOR_TENSOR_MODE, count);

        // inverted: -s(1/x) - ln(x)^2 / 2
        Ln(s[0], x, count);
        PipeBarrier<PIPE_V>();
        Mul(s[0], s[0], s[0], count);
        PipeBarrier<PIPE_V>();
        Muls(s[0], s[0], -0.5f, count);
        PipeBarrier<PIPE_V>();
        Sub(s[0], s[0], s[7], count);
        PipeBarrier<PIPE_V>();
        Select(out, inv, s[0], s[7], SELMODE::VSEL_TENSOR_TENSOR_MODE, count);
    }
};

extern "C" __global__ __aicore__ void spence(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    FloatUnaryOp<DTYPE_X, SpenceFn> op;
    GM_ADDR in[1] = {x};
    RunElementwise(op, in, y, tilingData.totalLength);
}
