// IsFinite expert answer: y = 1.0 where x is finite, else 0.0, for float16
// and float32 (kernel-only mode, Ascend 910B): the test is shared with its
// sibling answer (levels/common/float_class.h), the streaming is the
// element-wise skeleton (multi-core split, double-buffered tiles, tails).
#include "kernel_operator.h"
#include "../../../../common/float_class.h"

using namespace AscendC;
using namespace npukb_answer;

extern "C" __global__ __aicore__ void is_finite(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    FloatClassOp<DTYPE_X, false> op;
    GM_ADDR in[1] = {x};
    RunElementwise(op, in, y, tilingData.totalLength);
}
