// Test sample (host+device): y = -x member by member, the members' lengths
// from the tiling.
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void foreach_neg(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    ListTensorDesc in(x), out(y);
    for (uint32_t m = 0; m < td.memberNum; m++) {
        GlobalTensor<DTYPE_X> src, dst;
        src.SetGlobalBuffer(in.GetDataPtr<DTYPE_X>(m), td.memberLen[m]);
        dst.SetGlobalBuffer(out.GetDataPtr<DTYPE_X>(m), td.memberLen[m]);
        for (uint64_t i = 0; i < td.memberLen[m]; i++) {
            dst.SetValue(i, static_cast<DTYPE_X>(-static_cast<float>(src.GetValue(i))));
        }
    }
}
