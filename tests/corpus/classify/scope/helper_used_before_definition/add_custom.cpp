#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t DEPTH = 2;

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    const uint32_t coreLen = t.totalLength / GetBlockNum();
    const uint32_t coreOff = coreLen * GetBlockIdx();
    const uint32_t tiles = t.tileNum * DEPTH;
    const uint32_t tileLen = RoundDownToBlock(coreLen / tiles);

    GlobalTensor<DTYPE_X> xGm;
    GlobalTensor<DTYPE_Y> yGm;
    GlobalTensor<DTYPE_Z> zGm;
    xGm.SetGlobalBuffer((__gm__ DTYPE_X *)x + coreOff, coreLen);
    yGm.SetGlobalBuffer((__gm__ DTYPE_Y *)y + coreOff, coreLen);
    zGm.SetGlobalBuffer((__gm__ DTYPE_Z *)z + coreOff, coreLen);

    TPipe pipe;
    TQue<QuePosition::VECIN, DEPTH> inX, inY;
    TQue<QuePosition::VECOUT, DEPTH> outZ;
    pipe.InitBuffer(inX, DEPTH, tileLen * sizeof(DTYPE_X));
    pipe.InitBuffer(inY, DEPTH, tileLen * sizeof(DTYPE_Y));
    pipe.InitBuffer(outZ, DEPTH, tileLen * sizeof(DTYPE_Z));

    for (uint32_t k = 0; k < tiles; ++k) {
        LocalTensor<DTYPE_X> xl = inX.AllocTensor<DTYPE_X>();
        LocalTensor<DTYPE_Y> yl = inY.AllocTensor<DTYPE_Y>();
        DataCopy(xl, xGm[k * tileLen], tileLen);
        DataCopy(yl, yGm[k * tileLen], tileLen);
        inX.EnQue(xl);
        inY.EnQue(yl);

        xl = inX.DeQue<DTYPE_X>();
        yl = inY.DeQue<DTYPE_Y>();
        LocalTensor<DTYPE_Z> zl = outZ.AllocTensor<DTYPE_Z>();
        Add(zl, xl, yl, tileLen);
        outZ.EnQue(zl);
        inX.FreeTensor(xl);
        inY.FreeTensor(yl);

        zl = outZ.DeQue<DTYPE_Z>();
        DataCopy(zGm[k * tileLen], zl, tileLen);
        outZ.FreeTensor(zl);
    }
}

__aicore__ inline uint32_t RoundDownToBlock(uint32_t n)
{
    return n / 16 * 16;
}
