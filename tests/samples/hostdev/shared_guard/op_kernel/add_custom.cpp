// Test sample (host+device): AddCustom whose kernel reads the tiling into
// its own struct, declared in a header that shares its include guard with
// the op_host's tiling header.
#include "kernel_operator.h"
#include "add_custom_tiling.h"

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    AddCustomKernelTiling td;
    const __gm__ uint32_t *words = reinterpret_cast<const __gm__ uint32_t *>(tiling);
    td.totalLength = words[0];
    td.tileNum = words[1];
    uint32_t blocks = AscendC::GetBlockNum();
    uint32_t n = td.totalLength / blocks;
    uint32_t off = n * AscendC::GetBlockIdx();
    if (AscendC::GetBlockIdx() == blocks - 1)
        n = td.totalLength - off;
    AscendC::GlobalTensor<half> xg, yg, zg;
    xg.SetGlobalBuffer((__gm__ half *)x + off, n);
    yg.SetGlobalBuffer((__gm__ half *)y + off, n);
    zg.SetGlobalBuffer((__gm__ half *)z + off, n);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    const uint32_t tile = 4096;
    pipe.InitBuffer(buf, 3 * tile * sizeof(half));
    AscendC::LocalTensor<half> a = buf.Get<half>(), b = a[tile], c = a[2 * tile];
    for (uint32_t done = 0; done < n; done += tile) {
        uint32_t len = n - done < tile ? n - done : tile;
        uint32_t padded = (len + 15) / 16 * 16;
        AscendC::DataCopyExtParams cp{1, (uint32_t)(len * sizeof(half)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<half> pad{false, 0, 0, 0};
        AscendC::DataCopyPad(a, xg[done], cp, pad);
        AscendC::DataCopyPad(b, yg[done], cp, pad);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::Add(c, a, b, padded);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::DataCopyPad(zg[done], c, cp);
        AscendC::PipeBarrier<PIPE_ALL>();
    }
}
