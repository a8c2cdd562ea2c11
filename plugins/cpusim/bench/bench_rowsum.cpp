// cpusim speed benchmark kernel: y[r] = sum of row r of x (rows of 1024
// floats), one ReduceSum per row, rows dealt to the cores, 16 rows a tile
// double-buffered (see run-speed.sh).
#include "kernel_operator.h"
#include "../../../levels/common/elementwise.h"

using namespace AscendC;
using namespace npukb_answer;

constexpr uint32_t ROW = 1024;
constexpr uint32_t ROWS_PER_TILE = 16;

extern "C" __global__ __aicore__ void bench(GM_ADDR x, GM_ADDR y, GM_ADDR n)
{
    const uint64_t rows = *(__gm__ uint64_t*)n / ROW;
    const uint64_t perCore = CeilDiv(rows, GetBlockNum());
    const uint64_t first = perCore * GetBlockIdx();
    if (first >= rows) {
        return;
    }
    const uint64_t mine = rows - first < perCore ? rows - first : perCore;
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<QuePosition::VECCALC> work, sums;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x + first * ROW, mine * ROW);
    yGm.SetGlobalBuffer((__gm__ float*)y + first, mine);
    pipe.InitBuffer(inQ, 2, ROWS_PER_TILE * ROW * sizeof(float));
    pipe.InitBuffer(outQ, 2, 64 * sizeof(float));
    pipe.InitBuffer(work, ROW * sizeof(float));
    pipe.InitBuffer(sums, ROWS_PER_TILE * 32);
    LocalTensor<float> w = work.Get<float>();
    LocalTensor<float> s = sums.Get<float>();
    for (uint64_t r = 0; r < mine; r += ROWS_PER_TILE) {
        const uint32_t k = static_cast<uint32_t>(mine - r < ROWS_PER_TILE ? mine - r : ROWS_PER_TILE);
        LocalTensor<float> t = inQ.AllocTensor<float>();
        DataCopy(t, xGm[r * ROW], k * ROW);
        inQ.EnQue(t);
        t = inQ.DeQue<float>();
        LocalTensor<float> o = outQ.AllocTensor<float>();
        // one 32-byte slot per row's sum, gathered by the scalar unit
        for (uint32_t i = 0; i < k; i++) {
            ReduceSum(s[i * 8], t[i * ROW], w, ROW);
            PipeBarrier<PIPE_V>();
        }
        PipeBarrier<PIPE_ALL>();
        for (uint32_t i = 0; i < k; i++) {
            o.SetValue(i, s.GetValue(i * 8));
        }
        PipeBarrier<PIPE_ALL>();
        outQ.EnQue(o);
        inQ.FreeTensor(t);
        o = outQ.DeQue<float>();
        CopyUbToGm(yGm[r], o, k);
        outQ.FreeTensor(o);
    }
}
