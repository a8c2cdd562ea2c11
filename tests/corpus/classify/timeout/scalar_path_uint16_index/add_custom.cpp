#include "kernel_operator.h"

using namespace AscendC;

// Simple scalar version: one core walks the whole tensor.
class KernelAddScalar {
public:
    __aicore__ inline KernelAddScalar() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength)
    {
        this->totalLength = totalLength;
        xGm.SetGlobalBuffer((__gm__ half *)x, totalLength);
        yGm.SetGlobalBuffer((__gm__ half *)y, totalLength);
        zGm.SetGlobalBuffer((__gm__ half *)z, totalLength);
    }

    __aicore__ inline void Process()
    {
        if (GetBlockIdx() != 0) {
            return;
        }
        for (uint16_t i = 0; i < totalLength; i++) {
            half a = xGm.GetValue(i);
            half b = yGm.GetValue(i);
            zGm.SetValue(i, a + b);
        }
    }

private:
    GlobalTensor<half> xGm;
    GlobalTensor<half> yGm;
    GlobalTensor<half> zGm;
    uint32_t totalLength = 0;
};

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelAddScalar op;
    op.Init(x, y, z, tilingData.totalLength);
    op.Process();
}
