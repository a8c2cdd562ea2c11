#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class AddKernel {
public:
    __aicore__ inline AddKernel() {}

    __aicore__ inline void Setup(GM_ADDR x, GM_ADDR y, GM_ADDR z, const AddCustomTilingData &td)
    {
        perCore = td.totalLength / GetBlockNum();
        tiles = td.tileNum * BUFFER_NUM;
        tileElems = perCore / tiles;
        const uint32_t base = perCore * GetBlockIdx();
        srcX.SetGlobalBuffer((__gm__ half *)x + base, perCore);
        srcY.SetGlobalBuffer((__gm__ half *)y + base, perCore);
        dstZ.SetGlobalBuffer((__gm__ half *)z + base, perCore);
        pipe.InitBuffer(qx, BUFFER_NUM, tileElems * sizeof(half));
        pipe.InitBuffer(qy, BUFFER_NUM, tileElems * sizeof(half));
        pipe.InitBuffer(qz, BUFFER_NUM, tileElems * sizeof(half));
    }

    __aicore__ inline void Run()
    {
        for (uint32_t t = 0; t < tiles; t++) {
            Load(t);
            Sum();
            Store(t);
        }
    }

private:
    __aicore__ inline void Load(uint32_t t)
    {
        LocalTensor<half> a = qx.AllocTensor<half>();
        LocalTensor<half> b = qy.AllocTensor<half>();
        DataCopy(a, srcX[t * tileElems], tileElems);
        DataCopy(b, srcY[t * tileElems], tileElems);
        qx.EnQue(a);
        qy.EnQue(b);
    }

    __aicore__ inline void Sum()
    {
        LocalTensor<half> a = qx.DeQue<half>();
        LocalTensor<half> b = qy.DeQue<half>();
        LocalTensor<half> c = qz.AllocTensor<half>();
        Add(c, a, b, tileElems);
        Adds(c, c, 0, tileElems);
        qz.EnQue(c);
        qx.FreeTensor(a);
        qy.FreeTensor(b);
    }

    __aicore__ inline void Store(uint32_t t)
    {
        LocalTensor<half> c = qz.DeQue<half>();
        DataCopy(dstZ[t * tileElems], c, tileElems);
        qz.FreeTensor(c);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> qx, qy;
    TQue<QuePosition::VECOUT, BUFFER_NUM> qz;
    GlobalTensor<half> srcX, srcY, dstZ;
    uint32_t perCore = 0;
    uint32_t tiles = 0;
    uint32_t tileElems = 0;
};

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    AddKernel kernel;
    kernel.Setup(x, y, z, td);
    kernel.Run();
}
