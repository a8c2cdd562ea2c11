// Test sample (host+device): the second operator's kernel, z = x - y, one
// 2048-element tile per block.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void sub_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    constexpr uint32_t TILE = 2048;
    const uint32_t at = TILE * AscendC::GetBlockIdx();
    const uint32_t n = td.totalLength - at < TILE ? td.totalLength - at : TILE;
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    AscendC::GlobalTensor<half> gx, gy, gz;

    gx.SetGlobalBuffer((__gm__ half *)x + at, n);
    gy.SetGlobalBuffer((__gm__ half *)y + at, n);
    gz.SetGlobalBuffer((__gm__ half *)z + at, n);
    pipe.InitBuffer(buf, 2 * TILE * sizeof(half));
    AscendC::LocalTensor<half> a = buf.Get<half>();
    AscendC::LocalTensor<half> b = a[TILE];
    AscendC::DataCopy(a, gx, n);
    AscendC::DataCopy(b, gy, n);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Sub(a, a, b, n);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(gz, a, n);
}
