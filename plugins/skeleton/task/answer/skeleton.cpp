// The expert answer of the skeleton task: y = 2 * x, float32, kernel-only
// mode. A plain starting point (element by element through GM); replace it
// with your best kernel: npukb times samples against it.
#include "kernel_operator.h"

using namespace AscendC;

// Cores split the tensor in whole 32-byte blocks (8 floats).
constexpr uint32_t BLOCK_ELEMS = 32 / sizeof(float);

extern "C" __global__ __aicore__ void skeleton(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    const uint32_t n = tilingData.totalLength;
    const uint32_t blocks = static_cast<uint32_t>(GetBlockNum());
    const uint32_t idx = static_cast<uint32_t>(GetBlockIdx());
    const uint32_t units = (n + BLOCK_ELEMS - 1) / BLOCK_ELEMS;
    const uint32_t per = (units + blocks - 1) / blocks * BLOCK_ELEMS;
    const uint32_t begin = idx * per;
    const uint32_t end = begin + per < n ? begin + per : n;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;

    if (begin >= end) {
        return;
    }
    xGm.SetGlobalBuffer((__gm__ float *)x, n);
    yGm.SetGlobalBuffer((__gm__ float *)y, n);
    for (uint32_t i = begin; i < end; i++) {
        yGm.SetValue(i, xGm.GetValue(i) * 2.0f);
    }
}
