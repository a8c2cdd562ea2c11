// ClipByValue expert answer: y = min(max(x, lo), hi) with lo and hi
// one-element tensors, for float16, float32 and int32 (kernel-only mode,
// Ascend 910B). lo > hi gives hi, as torch.clamp does. The bounds are read
// once per core; the streaming is the shared element-wise skeleton.
#include "kernel_operator.h"
#include "../../../../common/elementwise.h"

using namespace AscendC;
using namespace npukb_answer;

template <typename T>
struct ClipOp {
    using In = T;
    using Out = T;
    static constexpr int NIN = 1;
    static constexpr uint32_t TMP_BYTES_PER_ELEM = 0;
    T lo;
    T hi;

    __aicore__ inline void Compute(const LocalTensor<T>& y, const LocalTensor<T>* x,
                                   const LocalTensor<uint8_t>& tmp, uint32_t count)
    {
        Maxs(y, x[0], lo, count);
        PipeBarrier<PIPE_V>();
        Mins(y, y, hi, count);
    }
};

extern "C" __global__ __aicore__ void clip_by_value(GM_ADDR x, GM_ADDR clip_value_min, GM_ADDR clip_value_max,
                                                    GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    using T = DTYPE_X;
    GlobalTensor<T> bound;
    ClipOp<T> op;
    bound.SetGlobalBuffer((__gm__ T*)clip_value_min, 1);
    op.lo = bound.GetValue(0);
    bound.SetGlobalBuffer((__gm__ T*)clip_value_max, 1);
    op.hi = bound.GetValue(0);
    GM_ADDR in[1] = {x};
    RunElementwise(op, in, y, tilingData.totalLength);
}
