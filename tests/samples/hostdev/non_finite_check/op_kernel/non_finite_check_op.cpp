// Test sample (host+device): one block reads every member of the list
// element by element; the flag is 1 when one of them is inf or NaN.
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void non_finite_check_op(GM_ADDR tensor_list, GM_ADDR found_flag,
                                                          GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    ListTensorDesc list(tensor_list);
    GlobalTensor<float> flag;
    flag.SetGlobalBuffer((__gm__ float *)found_flag, 1);
    float found = 0.0f;
    for (uint32_t m = 0; m < td.memberNum; m++) {
        GlobalTensor<DTYPE_TENSOR_LIST> t;
        t.SetGlobalBuffer(list.GetDataPtr<DTYPE_TENSOR_LIST>(m), td.memberLen[m]);
        for (uint64_t i = 0; i < td.memberLen[m]; i++) {
            const float v = static_cast<float>(t.GetValue(i));
            if (!(v - v == 0.0f)) { // inf - inf and NaN - NaN are NaN
                found = 1.0f;
            }
        }
    }
    flag.SetValue(0, found);
}
