#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t BLOCK_ELEMS = 32 / sizeof(half);
// 3 queues x 2 buffers x 16 KiB = 96 KiB, half of the 192 KiB UB.
constexpr uint32_t MAX_TILE_ELEMS = 8192;
// Below 2 KiB per copy the fixed DMA latency dominates: ignore finer hints.
constexpr uint32_t MIN_TILE_ELEMS = 1024;

__aicore__ inline uint32_t CeilDivU32(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
__aicore__ inline uint32_t AlignUpU32(uint32_t a, uint32_t b) { return CeilDivU32(a, b) * b; }

class KernelAdd {
public:
    __aicore__ inline KernelAdd() {}

    // Returns false when this core has nothing to do.
    __aicore__ inline bool Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength, uint32_t tileNum)
    {
        const uint32_t blockNum = static_cast<uint32_t>(GetBlockNum());
        const uint32_t blockIdx = static_cast<uint32_t>(GetBlockIdx());
        const uint32_t units = totalLength / BLOCK_ELEMS;
        const uint32_t rest = totalLength % BLOCK_ELEMS;
        const uint32_t base = units / blockNum;
        const uint32_t extra = units % blockNum;
        const uint32_t myUnits = base + (blockIdx < extra ? 1 : 0);
        const uint32_t firstUnit = blockIdx * base + (blockIdx < extra ? blockIdx : extra);
        const uint32_t lastOwner = units == 0 ? 0 : (units < blockNum ? units - 1 : blockNum - 1);

        length = myUnits * BLOCK_ELEMS + (blockIdx == lastOwner ? rest : 0);
        if (length == 0) {
            return false;
        }
        const uint32_t start = firstUnit * BLOCK_ELEMS;
        xGm.SetGlobalBuffer((__gm__ half *)x + start, length);
        yGm.SetGlobalBuffer((__gm__ half *)y + start, length);
        zGm.SetGlobalBuffer((__gm__ half *)z + start, length);
        if (length < BLOCK_ELEMS) {
            tileLength = 0; // fewer than 16 elements in the whole tensor: scalar path
            return true;
        }

        // tileNum is the host's hint of tiles per buffer; keep tiles whole
        // 32-byte blocks, within UB and within the core's range.
        const uint32_t hint = tileNum == 0 ? 1 : tileNum;
        tileLength = AlignUpU32(CeilDivU32(length, hint * BUFFER_NUM));
        if (tileLength > MAX_TILE_ELEMS) {
            tileLength = MAX_TILE_ELEMS;
        }
        if (tileLength < MIN_TILE_ELEMS) {
            tileLength = MIN_TILE_ELEMS;
        }
        const uint32_t whole = length / BLOCK_ELEMS * BLOCK_ELEMS;
        if (tileLength > whole) {
            tileLength = whole;
        }
        loopCount = CeilDivU32(length, tileLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(half));
        pipe.InitBuffer(inQueueY, BUFFER_NUM, tileLength * sizeof(half));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, tileLength * sizeof(half));
        return true;
    }

    __aicore__ inline void Process()
    {
        if (tileLength == 0) {
            for (uint32_t i = 0; i < length; i++) {
                zGm.SetValue(i, xGm.GetValue(i) + yGm.GetValue(i));
            }
            return;
        }
        for (uint32_t i = 0; i < loopCount; i++) {
            uint32_t offset = i * tileLength;
            const uint32_t count = AlignUpU32(length - offset < tileLength ? length - offset : tileLength,
                                              BLOCK_ELEMS);
            if (offset + count > length) {
                offset = length - count; // slide back over the previous tile
            }
            CopyIn(offset, count);
            Compute(count);
            CopyOut(offset, count);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t offset, uint32_t count)
    {
        LocalTensor<half> xLocal = inQueueX.AllocTensor<half>();
        LocalTensor<half> yLocal = inQueueY.AllocTensor<half>();
        DataCopy(xLocal, xGm[offset], count);
        DataCopy(yLocal, yGm[offset], count);
        inQueueX.EnQue(xLocal);
        inQueueY.EnQue(yLocal);
    }

    __aicore__ inline void Compute(uint32_t count)
    {
        LocalTensor<half> xLocal = inQueueX.DeQue<half>();
        LocalTensor<half> yLocal = inQueueY.DeQue<half>();
        LocalTensor<half> zLocal = outQueueZ.AllocTensor<half>();
        Add(zLocal, xLocal, yLocal, count);
        outQueueZ.EnQue<half>(zLocal);
        inQueueX.FreeTensor(xLocal);
        inQueueY.FreeTensor(yLocal);
    }

    __aicore__ inline void CopyOut(uint32_t offset, uint32_t count)
    {
        LocalTensor<half> zLocal = outQueueZ.DeQue<half>();
        DataCopy(zGm[offset], zLocal, count);
        outQueueZ.FreeTensor(zLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueueY;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueZ;
    GlobalTensor<half> xGm;
    GlobalTensor<half> yGm;
    GlobalTensor<half> zGm;
    uint32_t length = 0;
    uint32_t tileLength = 0;
    uint32_t loopCount = 0;
};

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelAdd op;
    if (op.Init(x, y, z, tilingData.totalLength, tilingData.tileNum)) {
        op.Process();
    }
}
