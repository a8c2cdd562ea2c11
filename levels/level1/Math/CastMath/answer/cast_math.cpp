// CastMath expert answer: y = x converted to the case's dst_type, with
// PyTorch's conversion rules (kernel-only mode, Ascend 910B), on the
// shared element-wise skeleton. Per source/destination pair:
//  - float16 -> float32, bfloat16 -> float32: exact Cast.
//  - float32 -> int32: Cast truncating toward zero.
//  - int8 -> bool: x != 0 (widened to half, compared, selected, narrowed).
//  - bool -> int8: 0/1 through half.
//  - any other pair (int32 -> int8 wraps modulo 256, which the vector
//    unit's saturating casts cannot do): the scalar unit, element by element.
#include "kernel_operator.h"
#include "../../../../common/elementwise.h"

using namespace AscendC;
using namespace npukb_answer;

template <typename T> struct Byte { using type = T; };
template <> struct Byte<bool> { using type = uint8_t; };

template <typename X, typename Y>
struct CastOp {
    using In = typename Byte<X>::type;
    using Out = typename Byte<Y>::type;
    static constexpr int NIN = 1;
    static constexpr bool INT8_TO_BOOL = IsSameType<X, int8_t>::value && IsSameType<Y, bool>::value;
    static constexpr bool BOOL_TO_INT8 = IsSameType<X, bool>::value && IsSameType<Y, int8_t>::value;
    static constexpr uint32_t TMP_BYTES_PER_ELEM = INT8_TO_BOOL ? 7 : (BOOL_TO_INT8 ? 2 : 0);

    __aicore__ inline void Compute(const LocalTensor<Out>& y, const LocalTensor<In>* x,
                                   const LocalTensor<uint8_t>& tmp, uint32_t count)
    {
        if constexpr ((IsSameType<X, half>::value || IsSameType<X, bfloat16_t>::value) &&
                      IsSameType<Y, float>::value) {
            Cast(y, x[0], RoundMode::CAST_NONE, count);
        } else if constexpr (IsSameType<X, float>::value && IsSameType<Y, int32_t>::value) {
            Cast(y, x[0], RoundMode::CAST_TRUNC, count);
        } else if constexpr (INT8_TO_BOOL) {
            LocalTensor<half> h = TmpAs<half>(tmp, 0);
            LocalTensor<half> one = TmpAs<half>(tmp, count * 2);
            LocalTensor<uint8_t> mask = TmpAs<uint8_t>(tmp, count * 4);
            Cast(h, x[0], RoundMode::CAST_NONE, count);
            Duplicate(one, (half)1.0f, count);
            PipeBarrier<PIPE_V>();
            CompareScalar(mask, h, (half)0.0f, CMPMODE::NE, count);
            PipeBarrier<PIPE_V>();
            Select(h, mask, one, (half)0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, count);
            PipeBarrier<PIPE_V>();
            Cast(y, h, RoundMode::CAST_NONE, count);
        } else if constexpr (BOOL_TO_INT8) {
            LocalTensor<half> h = TmpAs<half>(tmp, 0);
            Cast(h, x[0], RoundMode::CAST_NONE, count);
            PipeBarrier<PIPE_V>();
            Cast(y, h, RoundMode::CAST_NONE, count);
        } else {
            // Pairs without a vector Cast go through the scalar unit, after
            // the copy-in has landed and before the copy-out reads y.
            PipeBarrier<PIPE_ALL>();
            for (uint32_t i = 0; i < count; i++) {
                y.SetValue(i, static_cast<Out>(static_cast<Y>(x[0].GetValue(i))));
            }
            PipeBarrier<PIPE_ALL>();
        }
    }
};

extern "C" __global__ __aicore__ void cast_math(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    CastOp<DTYPE_X, DTYPE_Y> op;
    GM_ADDR in[1] = {x};
    RunElementwise(op, in, y, tilingData.totalLength);
}
