#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// z = x + y with the GM atomic adder: y += x, then z = y.
class KernelAddAtomic {
public:
    __aicore__ inline KernelAddAtomic() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength, uint32_t tileNum)
    {
        blockLength = totalLength / GetBlockNum();
        loopCount = tileNum * BUFFER_NUM;
        tileLength = blockLength / loopCount;
        const uint32_t offset = blockLength * GetBlockIdx();
        xGm.SetGlobalBuffer((__gm__ half *)x + offset, blockLength);
        yGm.SetGlobalBuffer((__gm__ half *)y + offset, blockLength);
        zGm.SetGlobalBuffer((__gm__ half *)z + offset, blockLength);
        pipe.InitBuffer(inQueue, BUFFER_NUM, tileLength * sizeof(half));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tileLength * sizeof(half));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < loopCount; i++) {
            // y[tile] += x[tile]
            LocalTensor<half> xLocal = inQueue.AllocTensor<half>();
            DataCopy(xLocal, xGm[i * tileLength], tileLength);
            inQueue.EnQue(xLocal);
            xLocal = inQueue.DeQue<half>();
            SetAtomicAdd<half>();
            DataCopy(yGm[i * tileLength], xLocal, tileLength);
            SetAtomicNone();
            inQueue.FreeTensor(xLocal);
            SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
            WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);

            // z[tile] = y[tile]
            LocalTensor<half> sLocal = outQueue.AllocTensor<half>();
            DataCopy(sLocal, yGm[i * tileLength], tileLength);
            outQueue.EnQue(sLocal);
            sLocal = outQueue.DeQue<half>();
            DataCopy(zGm[i * tileLength], sLocal, tileLength);
            outQueue.FreeTensor(sLocal);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    GlobalTensor<half> xGm, yGm, zGm;
    uint32_t blockLength = 0;
    uint32_t loopCount = 0;
    uint32_t tileLength = 0;
};

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelAddAtomic op;
    op.Init(x, y, z, tilingData.totalLength, tilingData.tileNum);
    op.Process();
}
