// Test sample: asks the list for one tensor more than it holds; cpusim
// must stop it with an out-of-bounds verdict naming the call.
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void non_finite_check_op(GM_ADDR tensor_list, GM_ADDR found_flag,
                                                          GM_ADDR workspace, GM_ADDR tiling)
{
    ListTensorDesc list(tensor_list);
    GlobalTensor<float> flag;
    flag.SetGlobalBuffer((__gm__ float*)found_flag, 1);
    DTYPE_TENSOR_LIST* p = list.GetDataPtr<DTYPE_TENSOR_LIST>(list.GetSize());
    flag.SetValue(0, (float)p[0]);
}
