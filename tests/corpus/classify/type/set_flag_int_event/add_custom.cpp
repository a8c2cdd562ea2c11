#include "kernel_operator.h"

using namespace AscendC;

// Single-buffered version: one UB buffer per operand, ordered by hand with
// hardware flags instead of queues.
class KernelAddFlags {
public:
    __aicore__ inline KernelAddFlags() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength, uint32_t tileNum)
    {
        blockLength = totalLength / GetBlockNum();
        loopCount = tileNum;
        tileLength = blockLength / tileNum;
        const uint32_t offset = blockLength * GetBlockIdx();
        xGm.SetGlobalBuffer((__gm__ half *)x + offset, blockLength);
        yGm.SetGlobalBuffer((__gm__ half *)y + offset, blockLength);
        zGm.SetGlobalBuffer((__gm__ half *)z + offset, blockLength);
        pipe.InitBuffer(xBuf, tileLength * sizeof(half));
        pipe.InitBuffer(yBuf, tileLength * sizeof(half));
        pipe.InitBuffer(zBuf, tileLength * sizeof(half));
    }

    __aicore__ inline void Process()
    {
        LocalTensor<half> xLocal = xBuf.Get<half>();
        LocalTensor<half> yLocal = yBuf.Get<half>();
        LocalTensor<half> zLocal = zBuf.Get<half>();
        for (uint32_t i = 0; i < loopCount; i++) {
            if (i > 0) {
                WaitFlag<HardEvent::V_MTE2>(EVENT_ID0);
            }
            DataCopy(xLocal, xGm[i * tileLength], tileLength);
            DataCopy(yLocal, yGm[i * tileLength], tileLength);
            SetFlag<2>(EVENT_ID0);
            WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
            if (i > 0) {
                WaitFlag<HardEvent::MTE3_V>(EVENT_ID0);
            }
            Add(zLocal, xLocal, yLocal, tileLength);
            SetFlag<HardEvent::V_MTE2>(EVENT_ID0);
            SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
            WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
            DataCopy(zGm[i * tileLength], zLocal, tileLength);
            SetFlag<HardEvent::MTE3_V>(EVENT_ID0);
        }
        WaitFlag<HardEvent::V_MTE2>(EVENT_ID0);
        WaitFlag<HardEvent::MTE3_V>(EVENT_ID0);
    }

private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> xBuf, yBuf, zBuf;
    GlobalTensor<half> xGm, yGm, zGm;
    uint32_t blockLength = 0;
    uint32_t loopCount = 0;
    uint32_t tileLength = 0;
};

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelAddFlags op;
    op.Init(x, y, z, tilingData.totalLength, tilingData.tileNum);
    op.Process();
}
