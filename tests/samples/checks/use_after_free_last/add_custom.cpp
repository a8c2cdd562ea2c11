// Test sample: the RmsNorm family's pattern. The inputs' queue tensors are
// freed before the Add that reads them, but nothing allocates them again
// afterwards: FreeTensor only marks the buffers, they still hold the
// inputs, and the device computes the right sum. A defect (queue-misuse,
// listed; --strict fails it), not an error.
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,
                                                 GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    const uint32_t n = td.totalLength / GetBlockNum();
    const uint32_t base = n * GetBlockIdx();
    GlobalTensor<half> xGm, yGm, zGm;
    xGm.SetGlobalBuffer((__gm__ half*)x + base, n);
    yGm.SetGlobalBuffer((__gm__ half*)y + base, n);
    zGm.SetGlobalBuffer((__gm__ half*)z + base, n);
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> qx, qy;
    TQue<QuePosition::VECOUT, 1> qz;
    pipe.InitBuffer(qx, 1, n * sizeof(half));
    pipe.InitBuffer(qy, 1, n * sizeof(half));
    pipe.InitBuffer(qz, 1, n * sizeof(half));
    LocalTensor<half> a = qx.AllocTensor<half>();
    LocalTensor<half> b = qy.AllocTensor<half>();
    DataCopy(a, xGm, n);
    DataCopy(b, yGm, n);
    qx.EnQue(a);
    qy.EnQue(b);
    a = qx.DeQue<half>();
    b = qy.DeQue<half>();
    qx.FreeTensor(a);
    qy.FreeTensor(b);
    LocalTensor<half> c = qz.AllocTensor<half>();
    Add(c, a, b, n);
    qz.EnQue(c);
    c = qz.DeQue<half>();
    DataCopy(zGm, c, n);
    qz.FreeTensor(c);
}
