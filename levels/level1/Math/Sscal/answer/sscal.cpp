// Sscal expert answer: x = alpha * x in place, float32 (BLAS; kernel-only
// mode, Ascend 910B). The shared element-wise skeleton with x as both its
// input and its output: each core streams its own contiguous range, and a
// tile is written back only after it was read, so updating in place needs
// nothing more.
#include "kernel_operator.h"
#include "../../../../common/elementwise.h"

using namespace AscendC;
using namespace npukb_answer;

struct SscalOp {
    using In = float;
    using Out = float;
    static constexpr int NIN = 1;
    static constexpr uint32_t TMP_BYTES_PER_ELEM = 0;
    float alpha;

    __aicore__ inline void Compute(const LocalTensor<float>& y, const LocalTensor<float>* x,
                                   const LocalTensor<uint8_t>& tmp, uint32_t count)
    {
        Muls(y, x[0], alpha, count);
    }
};

extern "C" __global__ __aicore__ void sscal(GM_ADDR x, GM_ADDR workSpace, GM_ADDR tilingGm)
{
    GET_TILING_DATA(tilingData, tilingGm);
    SscalOp op;
    op.alpha = tilingData.alpha;
    GM_ADDR in[1] = {x};
    RunElementwise(op, in, x, tilingData.n);
}
