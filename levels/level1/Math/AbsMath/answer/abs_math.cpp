// AbsMath expert answer: y = |x| for bfloat16, float16, float32, int32,
// int64 and complex64 (kernel-only mode, Ascend 910B), on the shared
// element-wise skeleton (multi-core split, double-buffered tiles,
// DataCopyPad tails).
//  - half, float: Abs. bfloat16: widened to float (exact) and narrowed.
//  - int32: max(x, -x); -(-2^31) wraps to -2^31, as two's complement does.
//  - int64: the vector unit has no 64-bit arithmetic, so the scalar unit
//    takes each element of the UB tile.
//  - complex64 -> float32: squares of both parts, PairReduceSum adds each
//    (re^2, im^2) pair, then Sqrt.
#include "kernel_operator.h"
#include "../../../../common/elementwise.h"

using namespace AscendC;
using namespace npukb_answer;

template <typename T, bool COMPLEX>
struct AbsOp {
    // a complex64 element travels as one 64-bit word
    using In = typename std::conditional<COMPLEX, uint64_t, T>::type;
    using Out = T;
    static constexpr int NIN = 1;
    static constexpr uint32_t TMP_BYTES_PER_ELEM =
        COMPLEX ? 8 : ((IsSameType<T, bfloat16_t>::value || IsSameType<T, int32_t>::value) ? 4 : 0);

    __aicore__ inline void Compute(const LocalTensor<Out>& y, const LocalTensor<In>* x,
                                   const LocalTensor<uint8_t>& tmp, uint32_t count)
    {
        if constexpr (COMPLEX) {
            // 64 floats (32 complex) per repeat, at most 255 repeats a call
            constexpr uint32_t PER_REPEAT = 32;
            constexpr uint32_t MAX_REPEAT = 255;
            LocalTensor<float> parts = x[0].template ReinterpretCast<float>();
            LocalTensor<float> sq = TmpAs<float>(tmp, 0);
            Mul(sq, parts, parts, 2 * count);
            PipeBarrier<PIPE_V>();
            for (uint32_t done = 0; done < count; done += PER_REPEAT * MAX_REPEAT) {
                const uint32_t left = count - done;
                const uint32_t n = left < PER_REPEAT * MAX_REPEAT ? left : PER_REPEAT * MAX_REPEAT;
                PairReduceSum<float>(y[done], sq[2 * done], n / PER_REPEAT, 64, 1, 1, 8);
            }
            PipeBarrier<PIPE_V>();
            Sqrt(y, y, count);
        } else if constexpr (IsSameType<T, bfloat16_t>::value) {
            LocalTensor<float> f = TmpAs<float>(tmp, 0);
            Cast(f, x[0], RoundMode::CAST_NONE, count);
            PipeBarrier<PIPE_V>();
            Abs(f, f, count);
            PipeBarrier<PIPE_V>();
            Cast(y, f, RoundMode::CAST_RINT, count);
        } else if constexpr (IsSameType<T, int32_t>::value) {
            LocalTensor<int32_t> n = TmpAs<int32_t>(tmp, 0);
            Muls(n, x[0], -1, count);
            PipeBarrier<PIPE_V>();
            Max(y, x[0], n, count);
        } else if constexpr (IsSameType<T, int64_t>::value) {
            // No vector Abs for int64: the scalar unit does it, after the
            // copy-in has landed and before the copy-out reads y.
            PipeBarrier<PIPE_ALL>();
            for (uint32_t i = 0; i < count; i++) {
                const int64_t v = x[0].GetValue(i);
                // unsigned negation: |INT64_MIN| wraps to INT64_MIN
                y.SetValue(i, v < 0 ? static_cast<int64_t>(0ULL - static_cast<uint64_t>(v)) : v);
            }
            PipeBarrier<PIPE_ALL>();
        } else {
            Abs(y, x[0], count);
        }
    }
};

extern "C" __global__ __aicore__ void abs_math(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    AbsOp<DTYPE_Y, DTYPE_X_COMPLEX> op;
    GM_ADDR in[1] = {x};
    RunElementwise(op, in, y, tilingData.totalLength);
}
