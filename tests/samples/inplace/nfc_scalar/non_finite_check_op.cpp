// Test sample: a plain scalar NonFiniteCheckOp on one core, reading the
// list through ListTensorDesc/TensorDesc: right on every case.
#include "kernel_operator.h"

using namespace AscendC;

template <typename T>
__aicore__ inline bool NonFinite(T v)
{
    const float f = (float)v;
    return !(f - f == 0.0f);
}

extern "C" __global__ __aicore__ void non_finite_check_op(GM_ADDR tensor_list, GM_ADDR found_flag,
                                                          GM_ADDR workspace, GM_ADDR tiling)
{
    if (GetBlockIdx() != 0) {
        return;
    }
    ListTensorDesc list(tensor_list);
    GlobalTensor<float> flag;
    flag.SetGlobalBuffer((__gm__ float*)found_flag, 1);
    float found = 0.0f;
    for (uint32_t m = 0; m < list.GetSize() && found == 0.0f; m++) {
        uint64_t shape[8];
        TensorDesc<DTYPE_TENSOR_LIST> desc;
        desc.SetShapeAddr(shape);
        list.GetDesc(desc, m);
        GlobalTensor<DTYPE_TENSOR_LIST> x = desc.GetDataObj();
        for (uint64_t i = 0; i < x.GetSize(); i++) {
            if (NonFinite(x.GetValue(i))) {
                found = 1.0f;
                break;
            }
        }
    }
    flag.SetValue(0, found);
}
