// Snrm2 expert answer: sqrt of the sum of x[i * incx]^2 for i < n, float32
// (BLAS; kernel-only mode, Ascend 910B). One core loads the strided vector
// into UB as float (levels/common/blas1.h says why one core), then squares,
// one ReduceSum and Sqrt; the sum of squares overflows float only for |x| near
// 1e17 and above, far beyond the tasks' inputs.
#include "kernel_operator.h"
#include "../../../../common/blas1.h"

using namespace AscendC;
using namespace npukb_answer;

template <typename T>
__aicore__ inline void Run(GM_ADDR x, GM_ADDR result, uint32_t n, uint32_t incx)
{
    TPipe pipe;
    TBuf<QuePosition::VECCALC> stageBuf, offBuf, valBuf, workBuf, resBuf;
    GlobalTensor<T> out;
    out.SetGlobalBuffer((__gm__ T*)result, 1);
    if (n == 0 || n > BLAS1_MAX_ELEMS || incx == 0) {
        out.SetValue(0, static_cast<T>(0.0f)); // BLAS: nothing to sum
        return;
    }
    const uint32_t span = (n - 1) * incx + 1;
    pipe.InitBuffer(stageBuf, static_cast<uint32_t>((AlignUp(span, 64) + AlignUp(n, 64)) * sizeof(T)));
    pipe.InitBuffer(offBuf, static_cast<uint32_t>(AlignUp(n, 64) * sizeof(uint32_t)));
    pipe.InitBuffer(valBuf, static_cast<uint32_t>(AlignUp(n, 64) * sizeof(float)));
    pipe.InitBuffer(workBuf, static_cast<uint32_t>(AlignUp(n, 64) * sizeof(float)));
    pipe.InitBuffer(resBuf, 32);
    LocalTensor<float> v = valBuf.Get<float>();
    LocalTensor<float> work = workBuf.Get<float>();
    LocalTensor<float> res = resBuf.Get<float>();
    LoadStrided<T>(v, stageBuf.Get<T>(), offBuf.Get<uint32_t>(), x, n, incx);
    Mul(v, v, v, n);
    PipeBarrier<PIPE_V>();
    ReduceSum(res, v, work, n);
    PipeBarrier<PIPE_V>();
    Sqrt(res, res, 1);
    PipeBarrier<PIPE_ALL>();
    out.SetValue(0, static_cast<T>(res.GetValue(0)));
}

extern "C" __global__ __aicore__ void snrm2(GM_ADDR x, GM_ADDR result, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    if (GetBlockIdx() != 0) {
        return;
    }
    Run<DTYPE_X>(x, result, tilingData.n, tilingData.incx);
}
