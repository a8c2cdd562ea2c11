// Test sample: -x member by member over a tensor list, the result a list
// of the same shapes; each member's length comes from its descriptor.
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void foreach_neg(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    ListTensorDesc in(x), out(y);
    uint64_t dims[8];
    for (uint32_t m = 0; m < td.memberNum; m++) {
        TensorDesc<DTYPE_X> desc;
        desc.SetShapeAddr(dims);
        in.GetDesc(desc, m);
        uint64_t n = 1;
        for (uint64_t d = 0; d < desc.GetDim(); d++) {
            n *= desc.GetShape(d);
        }
        GlobalTensor<DTYPE_X> src, dst;
        src.SetGlobalBuffer(in.GetDataPtr<DTYPE_X>(m), n);
        dst.SetGlobalBuffer(out.GetDataPtr<DTYPE_X>(m), n);
        for (uint64_t i = 0; i < n; i++) {
            const float v = static_cast<float>(src.GetValue(i));
            dst.SetValue(i, static_cast<DTYPE_X>(-v));
        }
    }
}
