// Test sample: the last block copies 16 elements more of x and y than its
// range holds (a whole 32-byte block past the tensors' end) but adds and
// stores only its own range. The bytes read lie in the allocations'
// padding, which the device has and nothing else uses: the output is
// right, a defect (out-of-bounds, listed; --strict fails it).
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,
                                                 GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    const uint32_t n = td.totalLength / GetBlockNum();
    const uint32_t base = n * GetBlockIdx();
    GlobalTensor<half> xGm, yGm, zGm;
    xGm.SetGlobalBuffer((__gm__ half*)x + base, n + 16);
    yGm.SetGlobalBuffer((__gm__ half*)y + base, n + 16);
    zGm.SetGlobalBuffer((__gm__ half*)z + base, n);
    TPipe pipe;
    TBuf<QuePosition::VECCALC> bx, by;
    pipe.InitBuffer(bx, (n + 16) * sizeof(half));
    pipe.InitBuffer(by, (n + 16) * sizeof(half));
    LocalTensor<half> a = bx.Get<half>();
    LocalTensor<half> b = by.Get<half>();
    const uint32_t more = GetBlockIdx() + 1 == GetBlockNum() ? 16 : 0;
    DataCopy(a, xGm, n + more);
    DataCopy(b, yGm, n + more);
    PipeBarrier<PIPE_ALL>();
    Add(a, a, b, n);
    PipeBarrier<PIPE_ALL>();
    DataCopy(zGm, a, n);
}
