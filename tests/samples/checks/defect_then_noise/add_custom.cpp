// Test sample: ub_overalloc_untouched's defect (InitBuffer past the UB,
// never touched), then the kernel floods stderr past what the plugin keeps
// of it and closes it. The defect must still be listed (and fail under
// --strict): the verdict takes defects from the harness's stats file, not
// from the kernel's stderr.
#include "kernel_operator.h"
#include <cstdio>
#include <unistd.h>

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
    TBuf<QuePosition::VECCALC> bx, by;
    pipe.InitBuffer(bx, n * sizeof(half));
    pipe.InitBuffer(by, n * sizeof(half));
    TBuf<QuePosition::VECCALC> spare;
    pipe.InitBuffer(spare, 192 * 1024);
    LocalTensor<half> a = bx.Get<half>();
    LocalTensor<half> b = by.Get<half>();
    DataCopy(a, xGm, n);
    DataCopy(b, yGm, n);
    PipeBarrier<PIPE_ALL>();
    Add(a, a, b, n);
    PipeBarrier<PIPE_ALL>();
    DataCopy(zGm, a, n);
    if (GetBlockIdx() == GetBlockNum() - 1) {
        for (int i = 0; i < 2000; i++)
            fprintf(stderr, "noise line %d of a kernel that hides what came before\n", i);
        fflush(stderr);
        close(2);
    }
}
