// Icamax expert answer: the 1-based index of the first largest |Re| + |Im| of x[i * incx], complex64 (BLAS; kernel-only mode, Ascend 910B). One core
// loads the strided vector into UB as float (levels/common/blas1.h says why
// one core), forms the magnitudes and finds the extreme with one ReduceMax
// with calIndex: its index is the first one on ties, as BLAS wants.
#include "kernel_operator.h"
#include "../../../../common/blas1.h"

using namespace AscendC;
using namespace npukb_answer;

extern "C" __global__ __aicore__ void icamax(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    if (GetBlockIdx() != 0) {
        return;
    }
    const uint32_t n = tilingData.n;
    const uint32_t incx = tilingData.incx;
    GlobalTensor<int32_t> out;
    out.SetGlobalBuffer((__gm__ int32_t*)y, 1);
    if (n == 0 || n > BLAS1_MAX_ELEMS || incx == 0) {
        out.SetValue(0, 0); // BLAS: no element, index 0
        return;
    }
    constexpr uint32_t PARTS = 2;
    TPipe pipe;
    TBuf<QuePosition::VECCALC> stageBuf, offBuf, valBuf, workBuf, resBuf;
    const uint32_t span = ((n - 1) * incx + 1) * PARTS;
    pipe.InitBuffer(stageBuf, static_cast<uint32_t>((AlignUp(span, 64) + AlignUp(n * PARTS, 64)) * sizeof(float)));
    pipe.InitBuffer(offBuf, static_cast<uint32_t>(AlignUp(n * PARTS, 64) * sizeof(uint32_t)));
    pipe.InitBuffer(valBuf, static_cast<uint32_t>(AlignUp(n * PARTS, 64) * sizeof(float)));
    pipe.InitBuffer(workBuf, static_cast<uint32_t>(AlignUp(n * PARTS, 64) * sizeof(float)));
    pipe.InitBuffer(resBuf, 32);
    LocalTensor<float> v = valBuf.Get<float>();
    LocalTensor<float> work = workBuf.Get<float>();
    LocalTensor<float> res = resBuf.Get<float>();
    LoadStrided<float, PARTS>(v, stageBuf.Get<float>(), offBuf.Get<uint32_t>(), x, n, incx);
    Abs(v, v, n * PARTS);
    PipeBarrier<PIPE_V>();
    // |re| + |im| of each complex element: PairReduceSum adds each pair
    for (uint32_t done = 0; done < n; done += 32 * 255) {
        const uint32_t k = n - done < 32 * 255 ? n - done : 32 * 255;
        PairReduceSum<float>(work[done], v[2 * done], static_cast<int32_t>(CeilDiv(k, 32)), 64, 1, 1, 8);
    }
    PipeBarrier<PIPE_V>();
    Adds(v, work, 0.0f, n);
    PipeBarrier<PIPE_V>();
    ReduceMax(res, v, work, n, true);
    PipeBarrier<PIPE_ALL>();
    // the index sits in the second result slot as an unsigned integer; BLAS counts from 1
    out.SetValue(0, static_cast<int32_t>(res.ReinterpretCast<uint32_t>().GetValue(1)) + 1);
}
