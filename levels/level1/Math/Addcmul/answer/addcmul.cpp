// Addcmul expert answer: y = input_data + value * x1 common level1 schema x2, value a one-element
// tensor, for bfloat16, float16 and float32 (kernel-only mode, Ascend 910B).
// The computation (in float for the 16-bit types) is shared with its sibling
// answer in levels/common/addc.h; the streaming is the element-wise skeleton.
#include "kernel_operator.h"
#include "../../../../common/addc.h"

using namespace AscendC;
using namespace npukb_answer;

extern "C" __global__ __aicore__ void addcmul(GM_ADDR input_data, GM_ADDR x1, GM_ADDR x2, GM_ADDR value,
                                            GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    RunAddc<DTYPE_INPUT_DATA, false>(input_data, x1, x2, value, y, tilingData.totalLength);
}
