// Rsqrt expert answer: y = 1 / sqrt(x) for bfloat16, float16 and float32 (kernel-only
// mode, Ascend 910B). The streaming, multi-core split and double buffering
// are the shared element-wise skeleton; half and float use the vector Rsqrt
// directly, bfloat16 (no arithmetic of its own) is widened to float and
// rounded back to nearest even.
#include "kernel_operator.h"
#include "../../../../common/elementwise.h"

using namespace AscendC;
using namespace npukb_answer;

template <typename T>
struct RsqrtOp {
    using In = T;
    using Out = T;
    static constexpr int NIN = 1;
    static constexpr uint32_t TMP_BYTES_PER_ELEM = IsSameType<T, bfloat16_t>::value ? 4 : 0;

    __aicore__ inline void Compute(const LocalTensor<T>& y, const LocalTensor<T>* x,
                                   const LocalTensor<uint8_t>& tmp, uint32_t count)
    {
        if constexpr (IsSameType<T, bfloat16_t>::value) {
            LocalTensor<float> f = TmpAs<float>(tmp, 0);
            Cast(f, x[0], RoundMode::CAST_NONE, count);
            PipeBarrier<PIPE_V>();
            Rsqrt(f, f, count);
            PipeBarrier<PIPE_V>();
            Cast(y, f, RoundMode::CAST_RINT, count);
        } else {
            Rsqrt(y, x[0], count);
        }
    }
};

extern "C" __global__ __aicore__ void rsqrt(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    RsqrtOp<DTYPE_X> op;
    GM_ADDR inputs[1] = {x};
    RunElementwise(op, inputs, y, tilingData.totalLength);
}
