// Gemv expert answer: out = alpha a x + beta y, float32 (kernel-only mode,
// Ascend 910B), on the vector unit: a matrix-vector product reads each
// element of a once, so it is bound by the GM reads, not by arithmetic, and
// the cube would gain nothing. The rows are split into contiguous ranges
// over the 24 blocks; x is brought into UB once per block, then rows of a
// come in groups (double-buffered, so the next group loads while this one is
// reduced), each row multiplied by x and summed with ReduceSum; the group's
// dot products are scaled by alpha and added to beta y in one vector pass.
#include "kernel_operator.h"

using namespace AscendC;

using T = DTYPE_OUT;

constexpr uint32_t GROUP = 32;             // rows of a per UB load
constexpr uint32_t A_BYTES = 64 * 1024;    // each of the two row buffers
constexpr uint32_t PER_BLOCK = 32 / sizeof(T);

extern "C" __global__ __aicore__ void gemv(GM_ADDR a, GM_ADDR x, GM_ADDR y, GM_ADDR alpha, GM_ADDR beta,
                                           GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    const uint32_t m = t.m, n = t.n;
    const uint32_t blocks = GetBlockNum(), me = GetBlockIdx();
    // whole 32-byte blocks of out per core, so no two cores share one
    const uint32_t per = ((m + blocks - 1) / blocks + PER_BLOCK - 1) / PER_BLOCK * PER_BLOCK;
    const uint32_t r0 = per * me;
    if (r0 >= m)
        return;
    const uint32_t rows = m - r0 < per ? m - r0 : per;

    GlobalTensor<T> ga, gx, gy, gout;
    GlobalTensor<float> gs;
    ga.SetGlobalBuffer((__gm__ T *)a, (uint64_t)m * n);
    gx.SetGlobalBuffer((__gm__ T *)x, n);
    gy.SetGlobalBuffer((__gm__ T *)y, m);
    gout.SetGlobalBuffer((__gm__ T *)out, m);
    gs.SetGlobalBuffer((__gm__ float *)alpha, 1);
    const float al = gs.GetValue(0);
    gs.SetGlobalBuffer((__gm__ float *)beta, 1);
    const float be = gs.GetValue(0);

    const uint32_t nPad = (n + PER_BLOCK - 1) / PER_BLOCK * PER_BLOCK;
    // rows per load: as many as fit the buffer, at most GROUP
    uint32_t g = A_BYTES / (nPad * sizeof(T));
    g = g < GROUP ? g : GROUP;

    TPipe pipe;
    TQue<TPosition::VECIN, 1> qx, qy;
    TQue<TPosition::VECIN, 2> qa;
    TQue<TPosition::VECOUT, 1> qo;
    TBuf<TPosition::VECCALC> bprod, bsum, bwork, bdots;
    pipe.InitBuffer(qx, 1, nPad * sizeof(T));
    pipe.InitBuffer(qa, 2, A_BYTES);
    pipe.InitBuffer(qy, 1, GROUP * sizeof(T));
    pipe.InitBuffer(qo, 1, GROUP * sizeof(T));
    pipe.InitBuffer(bprod, nPad * sizeof(T));
    pipe.InitBuffer(bsum, 32);
    // ReduceSum's work area: one value per 64-element repeat, rounded up
    pipe.InitBuffer(bwork, ((nPad + 63) / 64 + PER_BLOCK) * sizeof(T) + 32);
    pipe.InitBuffer(bdots, GROUP * sizeof(T));

    DataCopyPadExtParams<T> pad{true, 0, (uint8_t)(nPad - n), (T)0};
    LocalTensor<T> xv = qx.AllocTensor<T>();
    DataCopyPad(xv, gx, DataCopyExtParams(1, n * sizeof(T), 0, 0, 0), pad);
    qx.EnQue(xv);
    xv = qx.DeQue<T>();
    LocalTensor<T> prod = bprod.Get<T>(), sum = bsum.Get<T>(), work = bwork.Get<T>(), dots = bdots.Get<T>();

    for (uint32_t i0 = 0; i0 < rows; i0 += g) {
        const uint32_t gr = rows - i0 < g ? rows - i0 : g;
        const uint64_t row = (uint64_t)(r0 + i0);
        LocalTensor<T> av = qa.AllocTensor<T>();
        DataCopyPad(av, ga[row * n], DataCopyExtParams(gr, n * sizeof(T), 0, 0, 0), pad);
        qa.EnQue(av);
        LocalTensor<T> yv = qy.AllocTensor<T>();
        DataCopyPad(yv, gy[row], DataCopyExtParams(1, gr * sizeof(T), 0, 0, 0), DataCopyPadExtParams<T>{false, 0, 0, 0});
        qy.EnQue(yv);
        av = qa.DeQue<T>();
        yv = qy.DeQue<T>();
        for (uint32_t r = 0; r < gr; r++) {
            Mul(prod, av[r * nPad], xv, n);
            ReduceSum(sum, prod, work, n);
            // the scalar unit reads the sum the vector unit wrote
            event_t vs = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
            SetFlag<HardEvent::V_S>(vs);
            WaitFlag<HardEvent::V_S>(vs);
            dots.SetValue(r, sum.GetValue(0));
            // and the next vector instruction waits for the scalar's write
            event_t sv = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
            SetFlag<HardEvent::S_V>(sv);
            WaitFlag<HardEvent::S_V>(sv);
        }
        qa.FreeTensor(av);
        LocalTensor<T> o = qo.AllocTensor<T>();
        Muls(o, dots, (T)al, gr);
        Muls(yv, yv, (T)be, gr);
        Add(o, o, yv, gr);
        qy.FreeTensor(yv);
        qo.EnQue(o);
        o = qo.DeQue<T>();
        DataCopyPad(gout[row], o, DataCopyExtParams(1, gr * sizeof(T), 0, 0, 0));
        qo.FreeTensor(o);
    }
    qx.FreeTensor(xv);
}
