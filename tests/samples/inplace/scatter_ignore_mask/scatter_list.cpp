// Test sample: a scalar ScatterList that updates every tensor, ignoring
// mask: right where the mask is all true, wrong where it is not.
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void scatter_list(GM_ADDR var, GM_ADDR indice, GM_ADDR updates, GM_ADDR mask,
                                                   GM_ADDR varOut, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    if (GetBlockIdx() != 0) {
        return;
    }
    ListTensorDesc list(varOut);
    GlobalTensor<int64_t> ind;
    ind.SetGlobalBuffer((__gm__ int64_t*)indice, 2 * t.tensorNum);
    GlobalTensor<DTYPE_VAR> upd;
    upd.SetGlobalBuffer((__gm__ DTYPE_VAR*)updates);
    for (uint32_t i = 0; i < t.tensorNum; i++) {
        GlobalTensor<DTYPE_VAR> v;
        v.SetGlobalBuffer(list.GetDataPtr<DTYPE_VAR>(i), (uint64_t)t.rows * t.axisDim * t.cols);
        const uint64_t start = ind.GetValue(2 * i), len = ind.GetValue(2 * i + 1);
        for (uint64_t r = 0; r < t.rows; r++) {
            for (uint64_t k = 0; k < len * t.cols; k++) {
                v.SetValue((r * t.axisDim + start) * t.cols + k,
                           upd.GetValue(((uint64_t)i * t.rows + r) * t.axisDim * t.cols + k));
            }
        }
    }
}
