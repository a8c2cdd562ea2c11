#include "kernel_operator.h"

using namespace AscendC;

// Single-buffered: x, y and z each get one UB tile, ordered by hand with flags.
constexpr uint32_t TILE = 3072;

class KernelAddFlags {
public:
    __aicore__ inline KernelAddFlags() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength)
    {
        count = totalLength / GetBlockNum();
        uint32_t base = count * GetBlockIdx();
        xGm.SetGlobalBuffer((__gm__ half *)x + base, count);
        yGm.SetGlobalBuffer((__gm__ half *)y + base, count);
        zGm.SetGlobalBuffer((__gm__ half *)z + base, count);
        pipe.InitBuffer(xBuf, TILE * sizeof(half));
        pipe.InitBuffer(yBuf, TILE * sizeof(half));
        pipe.InitBuffer(zBuf, TILE * sizeof(half));
    }
    __aicore__ inline void Process()
    {
        LocalTensor<half> xt = xBuf.Get<half>();
        LocalTensor<half> yt = yBuf.Get<half>();
        LocalTensor<half> zt = zBuf.Get<half>();
        SetFlag<HardEvent::V_MTE2>(EVENT_ID0);
        SetFlag<HardEvent::MTE3_V>(EVENT_ID0);
        for (uint32_t done = 0; done < count; done += TILE) {
            uint32_t len = (count - done < TILE) ? (count - done) : TILE;
            WaitFlag<HardEvent::V_MTE2>(EVENT_ID0);
            DataCopy(xt, xGm[done], len);
            DataCopy(yt, yGm[done], len);
            if (len == TILE) {
                SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
                WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
            }
            WaitFlag<HardEvent::MTE3_V>(EVENT_ID0);
            Add(zt, xt, yt, len);
            SetFlag<HardEvent::V_MTE2>(EVENT_ID0);
            SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
            WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
            DataCopy(zGm[done], zt, len);
            SetFlag<HardEvent::MTE3_V>(EVENT_ID0);
        }
        WaitFlag<HardEvent::V_MTE2>(EVENT_ID0);
        WaitFlag<HardEvent::MTE3_V>(EVENT_ID0);
    }

private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> xBuf, yBuf, zBuf;
    GlobalTensor<half> xGm, yGm, zGm;
    uint32_t count = 0;
};

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelAddFlags op;
    op.Init(x, y, z, tilingData.totalLength);
    op.Process();
}
