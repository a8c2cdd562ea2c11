#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Adds in float for accuracy: the half tiles are widened, added and rounded back once.
class KernelAddFp32 {
public:
    __aicore__ inline KernelAddFp32() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength, uint32_t tileNum)
    {
        blockLen = totalLength / GetBlockNum();
        tileLen = blockLen / (tileNum * BUFFER_NUM);
        uint32_t loops = blockLen / tileLen;
        uint64_t start = static_cast<uint64_t>(blockLen) * GetBlockIdx();
        xGm.SetGlobalBuffer((__gm__ half *)x + start, blockLen);
        yGm.SetGlobalBuffer((__gm__ half *)y + start, blockLen);
        zGm.SetGlobalBuffer((__gm__ half *)z + start, blockLen);
        pipe.InitBuffer(xQue, BUFFER_NUM, tileLen * sizeof(half));
        pipe.InitBuffer(yQue, BUFFER_NUM, tileLen * sizeof(half));
        pipe.InitBuffer(zQue, BUFFER_NUM, tileLen * sizeof(half));
        pipe.InitBuffer(xFloat, tileLen * sizeof(float));
        pipe.InitBuffer(yFloat, tileLen * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < loops; i++) {
            CopyIn(i);
            Compute();
            CopyOut(i);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i)
    {
        LocalTensor<half> xt = xQue.AllocTensor<half>();
        LocalTensor<half> yt = yQue.AllocTensor<half>();
        DataCopy(xt, xGm[i * tileLen], tileLen);
        DataCopy(yt, yGm[i * tileLen], tileLen);
        xQue.EnQue(xt);
        yQue.EnQue(yt);
    }
    __aicore__ inline void Compute()
    {
        LocalTensor<half> xt = xQue.DeQue<half>();
        LocalTensor<half> yt = yQue.DeQue<half>();
        LocalTensor<half> zt = zQue.AllocTensor<half>();
        LocalTensor<float> xf = xFloat.Get<float>();
        LocalTensor<float> yf = yFloat.Get<float>();
        Cast(xf, xt, RoundMode::CAST_NONE, tileLen);
        Cast(yf, yt, RoundMode::CAST_NONE, tileLen);
        PipeBarrier<PIPE_V>();
        Add(xf, xf, yf, tileLen);
        PipeBarrier<PIPE_V>();
        Cast(zt, xf, RoundMode::CAST_ROUND, tileLen);
        zQue.EnQue(zt);
        xQue.FreeTensor(xt);
        yQue.FreeTensor(yt);
    }
    __aicore__ inline void CopyOut(uint32_t i)
    {
        LocalTensor<half> zt = zQue.DeQue<half>();
        DataCopy(zGm[i * tileLen], zt, tileLen);
        zQue.FreeTensor(zt);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> xQue, yQue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> zQue;
    TBuf<QuePosition::VECCALC> xFloat, yFloat;
    GlobalTensor<half> xGm, yGm, zGm;
    uint32_t blockLen = 0;
    uint32_t tileLen = 0;
    uint32_t loops = 0;
};

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelAddFp32 op;
    op.Init(x, y, z, tilingData.totalLength, tilingData.tileNum);
    op.Process();
}
