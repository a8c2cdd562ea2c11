// MseLossGradV2 expert answer: y = cof * (predict - label) * dout, cof = 2 / n
// for reduction mean (1) and 2 for none (0) and sum (2), for bfloat16,
// float16 and float32 (kernel-only mode, Ascend 910B), computed in float
// on the shared element-wise skeleton (levels/common).
#include "kernel_operator.h"
#include "../../../../common/float_map.h"

using namespace AscendC;
using namespace npukb_answer;

struct MseLossGradFn {
    static constexpr int NIN = 3;
    static constexpr uint32_t SCRATCH_FLOATS = 0;
    float cof;

    __aicore__ inline void Apply(const LocalTensor<float>& y, const LocalTensor<float>* in,
                                 const LocalTensor<float>* tmp, uint32_t count)
    {
        Sub(in[1], in[1], in[2], count);
        PipeBarrier<PIPE_V>();
        Mul(in[1], in[1], in[0], count);
        PipeBarrier<PIPE_V>();
        Muls(y, in[1], cof, count);
    }
};

extern "C" __global__ __aicore__ void mse_loss_grad(GM_ADDR dout, GM_ADDR predict, GM_ADDR label, GM_ADDR y,
                                                    GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    FloatMapOp<DTYPE_DOUT, MseLossGradFn> op;
    op.f.cof = tilingData.reduction == 1 ? 2.0f / static_cast<float>(tilingData.totalLength) : 2.0f;
    GM_ADDR in[3] = {dout, predict, label};
    RunElementwise(op, in, y, tilingData.totalLength);
}
