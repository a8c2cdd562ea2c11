#include "kernel_operator.h"

using namespace AscendC;

class KernelAddSlices {
public:
    __aicore__ inline KernelAddSlices() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength, uint32_t tileNum)
    {
        blockLength = totalLength / GetBlockNum();
        sliceNum = tileNum + 1; // one extra slice picks up the remainder
        sliceLength = blockLength / sliceNum;
        const uint32_t offset = blockLength * GetBlockIdx();
        xGm.SetGlobalBuffer((__gm__ half *)x + offset, blockLength);
        yGm.SetGlobalBuffer((__gm__ half *)y + offset, blockLength);
        zGm.SetGlobalBuffer((__gm__ half *)z + offset, blockLength);
        pipe.InitBuffer(inQueueX, 1, blockLength * sizeof(half));
        pipe.InitBuffer(inQueueY, 1, blockLength * sizeof(half));
        pipe.InitBuffer(outQueueZ, 1, blockLength * sizeof(half));
    }

    __aicore__ inline void Process()
    {
        LocalTensor<half> xLocal = inQueueX.AllocTensor<half>();
        LocalTensor<half> yLocal = inQueueY.AllocTensor<half>();
        DataCopy(xLocal, xGm, blockLength);
        DataCopy(yLocal, yGm, blockLength);
        inQueueX.EnQue(xLocal);
        inQueueY.EnQue(yLocal);

        xLocal = inQueueX.DeQue<half>();
        yLocal = inQueueY.DeQue<half>();
        LocalTensor<half> zLocal = outQueueZ.AllocTensor<half>();
        for (uint32_t s = 0; s < sliceNum; s++) {
            const uint32_t start = s * sliceLength;
            const uint32_t count = (s == sliceNum - 1) ? blockLength - start : sliceLength;
            Add(zLocal[start], xLocal[start], yLocal[start], count);
        }
        outQueueZ.EnQue<half>(zLocal);
        inQueueX.FreeTensor(xLocal);
        inQueueY.FreeTensor(yLocal);

        zLocal = outQueueZ.DeQue<half>();
        DataCopy(zGm, zLocal, blockLength);
        outQueueZ.FreeTensor(zLocal);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueueX, inQueueY;
    TQue<QuePosition::VECOUT, 1> outQueueZ;
    GlobalTensor<half> xGm, yGm, zGm;
    uint32_t blockLength = 0;
    uint32_t sliceNum = 0;
    uint32_t sliceLength = 0;
};

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelAddSlices op;
    op.Init(x, y, z, tilingData.totalLength, tilingData.tileNum);
    op.Process();
}
