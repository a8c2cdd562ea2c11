// Muls expert answer: y = x * value, value a one-element float32 tensor,
// for bfloat16, float16, float32, int16, int32 and complex64 (kernel-only
// mode, Ascend 910B), on the shared element-wise skeleton.
//  - float32: Muls. float16 and bfloat16: widened to float, multiplied,
//    rounded once (value is not a half: multiplying in half would round
//    it first).
//  - int16, int32: widened to float, multiplied, truncated toward zero
//    (exact for |x| < 2^24, the range of integers float holds).
//  - complex64: both parts scaled, on the float view of the tile.
#include "kernel_operator.h"
#include "../../../../common/elementwise.h"

using namespace AscendC;
using namespace npukb_answer;

template <typename T, bool COMPLEX>
struct MulsOp {
    using In = typename std::conditional<COMPLEX, uint64_t, T>::type;
    using Out = In;
    static constexpr int NIN = 1;
    static constexpr bool WIDEN = !COMPLEX && !IsSameType<T, float>::value;
    static constexpr uint32_t TMP_BYTES_PER_ELEM = WIDEN ? 4 : 0;
    float value;

    __aicore__ inline void Compute(const LocalTensor<Out>& y, const LocalTensor<In>* x,
                                   const LocalTensor<uint8_t>& tmp, uint32_t count)
    {
        if constexpr (COMPLEX) {
            Muls(y.template ReinterpretCast<float>(), x[0].template ReinterpretCast<float>(), value, 2 * count);
        } else if constexpr (WIDEN) {
            constexpr bool INTEGER = IsSameType<T, int16_t>::value || IsSameType<T, int32_t>::value;
            LocalTensor<float> f = TmpAs<float>(tmp, 0);
            Cast(f, x[0], RoundMode::CAST_NONE, count);
            PipeBarrier<PIPE_V>();
            Muls(f, f, value, count);
            PipeBarrier<PIPE_V>();
            Cast(y, f, INTEGER ? RoundMode::CAST_TRUNC : RoundMode::CAST_RINT, count);
        } else {
            Muls(y, x[0], value, count);
        }
    }
};

extern "C" __global__ __aicore__ void muls(GM_ADDR x, GM_ADDR value, GM_ADDR y, GM_ADDR workspace,
                                           GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    GlobalTensor<float> v;
    MulsOp<DTYPE_X, DTYPE_X_COMPLEX> op;
    v.SetGlobalBuffer((__gm__ float*)value, 1);
    op.value = v.GetValue(0);
    GM_ADDR in[1] = {x};
    RunElementwise(op, in, y, tilingData.totalLength);
}
