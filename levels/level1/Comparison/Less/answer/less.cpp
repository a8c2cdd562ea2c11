// Less expert answer: y = (x1<x2) as bool, for every dtype of the task
// (kernel-only mode, Ascend 910B). The comparison itself is shared by the
// three comparison answers (levels/common/compare.h); the streaming,
// multi-core split and double buffering are the element-wise skeleton.
#include "kernel_operator.h"
#include "../../../../common/compare.h"

using namespace AscendC;
using namespace npukb_answer;

extern "C" __global__ __aicore__ void less(GM_ADDR x1, GM_ADDR x2, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    CompareOp<DTYPE_X1, CMPMODE::LT> op;
    GM_ADDR inputs[2] = {x1, x2};
    RunElementwise(op, inputs, y, tilingData.totalLength);
}
