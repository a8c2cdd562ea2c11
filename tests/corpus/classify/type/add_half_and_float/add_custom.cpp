#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr uint32_t TILE = 1024;
}

class AddFloatCompute {
public:
    __aicore__ inline AddFloatCompute() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const AddCustomTilingData &tiling)
    {
        uint32_t perCore = tiling.totalLength / GetBlockNum();
        uint32_t offset = perCore * GetBlockIdx();
        count = perCore;
        xGm.SetGlobalBuffer((__gm__ half *)x + offset, perCore);
        yGm.SetGlobalBuffer((__gm__ half *)y + offset, perCore);
        zGm.SetGlobalBuffer((__gm__ half *)z + offset, perCore);
        pipe.InitBuffer(xBuf, TILE * sizeof(half));
        pipe.InitBuffer(yBuf, TILE * sizeof(half));
        pipe.InitBuffer(zBuf, TILE * sizeof(half));
        pipe.InitBuffer(fa, TILE * sizeof(float));
        pipe.InitBuffer(fb, TILE * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        LocalTensor<half> xt = xBuf.Get<half>();
        LocalTensor<half> yt = yBuf.Get<half>();
        LocalTensor<half> zt = zBuf.Get<half>();
        LocalTensor<float> a = fa.Get<float>();
        LocalTensor<float> b = fb.Get<float>();
        for (uint32_t done = 0; done < count; done += TILE) {
            uint32_t n = (count - done) < TILE ? (count - done) : TILE;
            DataCopy(xt, xGm[done], n);
            DataCopy(yt, yGm[done], n);
            SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
            WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
            Cast(a, xt, RoundMode::CAST_NONE, n);
            Cast(b, yt, RoundMode::CAST_NONE, n);
            PipeBarrier<PIPE_V>();
            Add(a, xt, b, n);
            PipeBarrier<PIPE_V>();
            Cast(zt, a, RoundMode::CAST_ROUND, n);
            SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
            WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
            DataCopy(zGm[done], zt, n);
            SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
            WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
        }
    }

private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> xBuf, yBuf, zBuf, fa, fb;
    GlobalTensor<half> xGm, yGm, zGm;
    uint32_t count = 0;
};

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    AddFloatCompute op;
    op.Init(x, y, z, tilingData);
    op.Process();
}
