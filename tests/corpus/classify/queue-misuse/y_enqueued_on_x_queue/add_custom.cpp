#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t kDepth = 2;
constexpr uint32_t kAlignElems = 32 / sizeof(half);
} // namespace

class AddKernel {
public:
    __aicore__ inline AddKernel() = default;

    __aicore__ inline void Setup(GM_ADDR xAddr, GM_ADDR yAddr, GM_ADDR zAddr, const AddCustomTilingData &td)
    {
        perCore_ = td.totalLength / GetBlockNum();
        const uint32_t start = perCore_ * GetBlockIdx();
        tile_ = perCore_ / (td.tileNum * kDepth);
        tile_ = (tile_ + kAlignElems - 1) / kAlignElems * kAlignElems;
        gx_.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(xAddr) + start, perCore_);
        gy_.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(yAddr) + start, perCore_);
        gz_.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(zAddr) + start, perCore_);
        pipe_.InitBuffer(qx_, kDepth, tile_ * sizeof(half));
        pipe_.InitBuffer(qy_, kDepth, tile_ * sizeof(half));
        pipe_.InitBuffer(qz_, kDepth, tile_ * sizeof(half));
    }

    __aicore__ inline void Run()
    {
        for (uint32_t off = 0; off < perCore_; off += tile_) {
            LoadTile(off);
            AddTile();
            StoreTile(off);
        }
    }

private:
    __aicore__ inline void LoadTile(uint32_t off)
    {
        LocalTensor<half> xt = qx_.AllocTensor<half>();
        LocalTensor<half> yt = qy_.AllocTensor<half>();
        DataCopy(xt, gx_[off], tile_);
        DataCopy(yt, gy_[off], tile_);
        qx_.EnQue(xt);
        qx_.EnQue(yt);
    }

    __aicore__ inline void AddTile()
    {
        LocalTensor<half> xt = qx_.DeQue<half>();
        LocalTensor<half> yt = qy_.DeQue<half>();
        LocalTensor<half> zt = qz_.AllocTensor<half>();
        Add(zt, xt, yt, tile_);
        qz_.EnQue(zt);
        qx_.FreeTensor(xt);
        qy_.FreeTensor(yt);
    }

    __aicore__ inline void StoreTile(uint32_t off)
    {
        LocalTensor<half> zt = qz_.DeQue<half>();
        DataCopy(gz_[off], zt, tile_);
        qz_.FreeTensor(zt);
    }

    TPipe pipe_;
    TQue<TPosition::VECIN, kDepth> qx_;
    TQue<TPosition::VECIN, kDepth> qy_;
    TQue<TPosition::VECOUT, kDepth> qz_;
    GlobalTensor<half> gx_;
    GlobalTensor<half> gy_;
    GlobalTensor<half> gz_;
    uint32_t perCore_ = 0;
    uint32_t tile_ = 0;
};

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    AddKernel kernel;
    kernel.Setup(x, y, z, td);
    kernel.Run();
}
