#include "kernel_operator.h"

template <typename T, int32_t DEPTH>
class VecAddOp {
public:
    __aicore__ inline VecAddOp() {}
    // destination first, as in the AscendC vector API
    __aicore__ inline void Init(GM_ADDR z, GM_ADDR x, GM_ADDR y, uint32_t total, uint32_t tiles)
    {
        span = total / AscendC::GetBlockNum();
        tileLen = span / tiles;
        gmOffset = span * AscendC::GetBlockIdx();
        xG.SetGlobalBuffer((__gm__ T *)x, total);
        yG.SetGlobalBuffer((__gm__ T *)y, total);
        zG.SetGlobalBuffer((__gm__ T *)z, total);
        pipe.InitBuffer(xq, DEPTH, tileLen * sizeof(T));
        pipe.InitBuffer(yq, DEPTH, tileLen * sizeof(T));
        pipe.InitBuffer(zq, DEPTH, tileLen * sizeof(T));
    }
    __aicore__ inline void Process()
    {
        uint32_t remaining = span;
        uint32_t pos = gmOffset;
        while (remaining > 0) {
            uint32_t n = remaining < tileLen ? remaining : tileLen;
            Stage1(pos, n);
            Stage2(n);
            Stage3(pos, n);
            pos += n;
            remaining -= n;
        }
    }

private:
    __aicore__ inline void Stage1(uint32_t pos, uint32_t n)
    {
        AscendC::LocalTensor<T> a = xq.template AllocTensor<T>();
        AscendC::LocalTensor<T> b = yq.template AllocTensor<T>();
        AscendC::DataCopy(a, xG[pos], n);
        AscendC::DataCopy(b, yG[pos], n);
        xq.EnQue(a);
        yq.EnQue(b);
    }
    __aicore__ inline void Stage2(uint32_t n)
    {
        AscendC::LocalTensor<T> a = xq.template DeQue<T>();
        AscendC::LocalTensor<T> b = yq.template DeQue<T>();
        AscendC::LocalTensor<T> c = zq.template AllocTensor<T>();
        AscendC::Add(c, a, b, n);
        zq.EnQue(c);
        xq.FreeTensor(a);
        yq.FreeTensor(b);
    }
    __aicore__ inline void Stage3(uint32_t pos, uint32_t n)
    {
        AscendC::LocalTensor<T> c = zq.template DeQue<T>();
        AscendC::DataCopy(zG[pos], c, n);
        zq.FreeTensor(c);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, DEPTH> xq, yq;
    AscendC::TQue<AscendC::TPosition::VECOUT, DEPTH> zq;
    AscendC::GlobalTensor<T> xG, yG, zG;
    uint32_t span = 0;
    uint32_t tileLen = 0;
    uint32_t gmOffset = 0;
};

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    VecAddOp<half, 1> op;
    op.Init(x, y, z, tilingData.totalLength, tilingData.tileNum);
    op.Process();
}
