// Addcmul expert answer: y = input_data + value * x1 * x2, value a one-element
// tensor, for bfloat16, float16 and float32 (kernel-only mode, Ascend 910B).
// float16 and bfloat16 are computed in float and rounded once: in half the
// two roundings of the product alone can exceed the 1/512 tolerance. The
// streaming is the shared element-wise skeleton.
#include "kernel_operator.h"
#include "../../../../common/elementwise.h"

using namespace AscendC;
using namespace npukb_answer;

template <typename T>
struct AddcmulOp {
    using In = T;
    using Out = T;
    static constexpr int NIN = 3;
    static constexpr bool WIDE = !IsSameType<T, float>::value;
    static constexpr uint32_t TMP_BYTES_PER_ELEM = WIDE ? 12 : 4;
    float value;

    __aicore__ inline void Compute(const LocalTensor<T>& y, const LocalTensor<T>* x,
                                   const LocalTensor<uint8_t>& tmp, uint32_t count)
    {
        LocalTensor<float> p = TmpAs<float>(tmp, 0);
        if constexpr (WIDE) {
            LocalTensor<float> a = TmpAs<float>(tmp, count * 4);
            LocalTensor<float> b = TmpAs<float>(tmp, count * 8);
            Cast(a, x[1], RoundMode::CAST_NONE, count);
            Cast(b, x[2], RoundMode::CAST_NONE, count);
            PipeBarrier<PIPE_V>();
            Mul(p, a, b, count);
            Cast(a, x[0], RoundMode::CAST_NONE, count);
            PipeBarrier<PIPE_V>();
            Muls(p, p, value, count);
            PipeBarrier<PIPE_V>();
            Add(p, p, a, count);
            PipeBarrier<PIPE_V>();
            Cast(y, p, RoundMode::CAST_RINT, count);
        } else {
            Mul(p, x[1], x[2], count);
            PipeBarrier<PIPE_V>();
            Muls(p, p, value, count);
            PipeBarrier<PIPE_V>();
            Add(y, p, x[0], count);
        }
    }
};

extern "C" __global__ __aicore__ void addcmul(GM_ADDR input_data, GM_ADDR x1, GM_ADDR x2, GM_ADDR value,
                                            GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    using T = DTYPE_INPUT_DATA;
    GlobalTensor<T> v;
    AddcmulOp<T> op;
    v.SetGlobalBuffer((__gm__ T*)value, 1);
    op.value = static_cast<float>(v.GetValue(0));
    GM_ADDR in[3] = {input_data, x1, x2};
    RunElementwise(op, in, y, tilingData.totalLength);
}
