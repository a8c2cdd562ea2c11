// Test sample: looks at the first tensor of the list only, reading the
// descriptor by hand (offset of the address table, then the addresses) as
// hardware kernels do. It must fail whenever the seed plants the
// non-finite values in another tensor.
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void non_finite_check_op(GM_ADDR tensor_list, GM_ADDR found_flag,
                                                          GM_ADDR workspace, GM_ADDR tiling)
{
    if (GetBlockIdx() != 0) {
        return;
    }
    __gm__ uint64_t* words = reinterpret_cast<__gm__ uint64_t*>(tensor_list);
    __gm__ uint64_t* table = words + (words[0] >> 3);
    const uint64_t rank = words[1];
    uint64_t n = 1;
    for (uint64_t d = 0; d < rank; d++) {
        n *= words[2 + d];
    }
    GlobalTensor<DTYPE_TENSOR_LIST> x;
    x.SetGlobalBuffer(reinterpret_cast<__gm__ DTYPE_TENSOR_LIST*>(table[0]), n);
    GlobalTensor<float> flag;
    flag.SetGlobalBuffer((__gm__ float*)found_flag, 1);
    float found = 0.0f;
    for (uint64_t i = 0; i < n; i++) {
        const float f = (float)x.GetValue(i);
        if (!(f - f == 0.0f)) {
            found = 1.0f;
        }
    }
    flag.SetValue(0, found);
}
