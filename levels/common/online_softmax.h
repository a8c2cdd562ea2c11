// online_softmax.h - the vector half of the Level 3 attention answers
// (FlashAttention's online softmax, Ascend 910B vector unit).
//
// The cube leaves one block of scores S [rows, n <= BN] (float32, rows BN
// apart) in a GM workspace; Step turns it into probabilities P (the input
// dtype, for the cube's P V) against a running row maximum m, and keeps
// the row sums l and each row's rescaling factor alpha = exp(m_old - m_new).
// Accumulate then folds the cube's P V block into the float32 output
// accumulator, acc = acc * alpha + PV, which lives in UB for the whole
// query tile; Finish divides by l and writes the rows out.
//
// Rows go through UB GROUP at a time. The row reductions are two
// WholeReduce passes: 64 lanes per repeat into BN / 64 = 8 partials per
// row, then those 8 (one 32-byte block) into one value; per-row scalars are
// broadcast to 32-byte blocks by Brcb and applied with a zero block stride
// on the second operand.
//
// UB: 2 x GROUP x BN floats in (64 KiB), 2 x GROUP x BN halves out (32 KiB),
// the accumulator rowsMax x d floats (64 KiB at most, the caller's
// bound) and a few hundred bytes of row statistics: about 161 KiB of 192.
#ifndef NPUKB_ANSWER_ONLINE_SOFTMAX_H
#define NPUKB_ANSWER_ONLINE_SOFTMAX_H

#include "kernel_operator.h"

namespace npukb_answer {

using namespace AscendC;

template <class T>
struct OnlineSoftmax {
    static constexpr uint32_t BN = 512;    // score columns per block: 8 x 64 lanes
    static constexpr uint32_t GROUP = 16;  // rows per UB pass: 16 x 8 = 128 repeats
    static constexpr uint32_t ACC_FLOATS = 16384; // 64 KiB of accumulator
    // Below any score: its exp is 0, and m_old - m_new stays finite.
    static constexpr float NEG = -3.0e38f;

    TQue<TPosition::VECIN, 2> qin;
    TQue<TPosition::VECOUT, 2> qout;
    TBuf<TPosition::VECCALC> bAcc, bStat;
    LocalTensor<float> acc, rowMax, rowSum, alpha, part, blkVal, brc;
    uint32_t rowsMax = 0, d = 0;

    static __aicore__ inline uint32_t Up(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

    // The largest query tile for head dim dh that the accumulator holds (a
    // multiple of 16, at most 128 for the cube's M).
    static __aicore__ inline uint32_t MaxRows(uint32_t dh)
    {
        uint32_t r = ACC_FLOATS / dh / 16 * 16;
        return r > 128 ? 128 : r;
    }

    __aicore__ inline void Init(TPipe *pipe, uint32_t rows, uint32_t dh)
    {
        rowsMax = Up(rows, GROUP);
        d = dh;
        const uint32_t inFloats = GROUP * (BN > dh ? BN : dh);
        pipe->InitBuffer(qin, 2, inFloats * sizeof(float));
        pipe->InitBuffer(qout, 2, inFloats * sizeof(T));
        pipe->InitBuffer(bAcc, rowsMax * dh * sizeof(float));
        // m, l, alpha (rowsMax each), the 8 partials of each group row,
        // one group's reduced values and its broadcast blocks
        pipe->InitBuffer(bStat, (3 * rowsMax + GROUP * 8 + GROUP + GROUP * 8) * sizeof(float));
        acc = bAcc.Get<float>();
        LocalTensor<float> st = bStat.Get<float>();
        rowMax = st;
        rowSum = st[rowsMax];
        alpha = st[2 * rowsMax];
        part = st[3 * rowsMax];
        blkVal = st[3 * rowsMax + GROUP * 8];
        brc = st[3 * rowsMax + GROUP * 8 + GROUP];
    }

    // A new query tile of rows rows.
    __aicore__ inline void Begin(uint32_t rows)
    {
        Duplicate(rowMax, NEG, (int32_t)rowsMax);
        Duplicate(rowSum, 0.0f, (int32_t)rowsMax);
        Duplicate(acc, 0.0f, (int32_t)(Up(rows, GROUP) * d));
    }

    // Each group row's value of v (rows r0 .. r0 + rg) into its own 32-byte
    // block of brc.
    __aicore__ inline void Broadcast(const LocalTensor<float> &v, uint32_t rg)
    {
        Brcb(brc, v, (int32_t)((rg + 7) / 8), BrcbRepeatParams(1, 8));
    }

    enum class RowOp { SUB, MUL, DIV };

    // x [rg rows, cols] (rows ld floats apart) op= the row's block of brc.
    template <RowOp OP>
    __aicore__ inline void RowsOp(const LocalTensor<float> &x, uint32_t rg, uint32_t cols, uint32_t ld)
    {
        const uint8_t rs = (uint8_t)(ld / 8);
        const BinaryRepeatParams rp(1, 1, 0, rs, rs, 1);
        for (uint32_t c = 0; c < cols; c += 64) {
            const uint64_t lanes = cols - c < 64 ? cols - c : 64;
            if constexpr (OP == RowOp::SUB)
                Sub(x[c], x[c], brc, lanes, (int32_t)rg, rp);
            else if constexpr (OP == RowOp::MUL)
                Mul(x[c], x[c], brc, lanes, (int32_t)rg, rp);
            else
                Div(x[c], x[c], brc, lanes, (int32_t)rg, rp);
        }
    }

    // One block of scores: sWs [rows, n] (rows BN apart) times scale; P to
    // pWs [rows, BN], its columns n .. BN zero.
    __aicore__ inline void Step(const GlobalTensor<float> &sWs, const GlobalTensor<T> &pWs, uint32_t rows,
                                uint32_t n, float scale)
    {
        const uint32_t n8 = Up(n, 8);
        for (uint32_t r0 = 0; r0 < rows; r0 += GROUP) {
            const uint32_t rg = rows - r0 < GROUP ? rows - r0 : GROUP;
            LocalTensor<float> s = qin.AllocTensor<float>();
            // each row's last 32-byte block padded with NEG
            DataCopyPadExtParams<float> pad{true, 0, (uint8_t)(n8 - n), NEG};
            DataCopyPad(s, sWs[(uint64_t)r0 * BN],
                        DataCopyExtParams((uint16_t)rg, n * sizeof(float), (BN - n) * sizeof(float),
                                          (BN - n8) / 8, 0),
                        pad);
            qin.EnQue(s);
            s = qin.DeQue<float>();
            for (uint32_t c = n8; c < BN; c += 64) {
                const uint32_t lanes = BN - c < 64 ? BN - c : 64;
                Duplicate(s[c], NEG, (uint64_t)lanes, (int32_t)rg, 1, BN / 8);
            }
            Muls(s, s, scale, (int32_t)(rg * BN));
            WholeReduceMax(part, s, 64, (int32_t)(rg * BN / 64), 1, 1, 8, ReduceOrder::ORDER_ONLY_VALUE);
            WholeReduceMax(blkVal, part, 8, (int32_t)rg, 1, 1, 1, ReduceOrder::ORDER_ONLY_VALUE);
            // alpha = exp(m_old - m_new) = exp(-max(0, blockMax - m_old)),
            // so that m can be updated in place
            LocalTensor<float> m = rowMax[r0], l = rowSum[r0], a = alpha[r0];
            Sub(a, blkVal, m, (int32_t)rg);
            Max(m, m, blkVal, (int32_t)rg);
            Maxs(a, a, 0.0f, (int32_t)rg);
            Muls(a, a, -1.0f, (int32_t)rg);
            Exp(a, a, (int32_t)rg);
            Broadcast(m, rg);
            RowsOp<RowOp::SUB>(s, rg, BN, BN);
            Exp(s, s, (int32_t)(rg * BN));
            WholeReduceSum(part, s, 64, (int32_t)(rg * BN / 64), 1, 1, 8);
            WholeReduceSum(blkVal, part, 8, (int32_t)rg, 1, 1, 1);
            Mul(l, l, a, (int32_t)rg);
            Add(l, l, blkVal, (int32_t)rg);
            LocalTensor<T> p = qout.AllocTensor<T>();
            Cast(p, s, RoundMode::CAST_RINT, rg * BN);
            qin.FreeTensor(s);
            qout.EnQue(p);
            p = qout.DeQue<T>();
            DataCopy(pWs[(uint64_t)r0 * BN], p, rg * BN);
            qout.FreeTensor(p);
        }
    }

    // acc = acc * alpha + oWs [rows, d] (float32, rows d apart).
    __aicore__ inline void Accumulate(const GlobalTensor<float> &oWs, uint32_t rows)
    {
        for (uint32_t r0 = 0; r0 < rows; r0 += GROUP) {
            const uint32_t rg = rows - r0 < GROUP ? rows - r0 : GROUP;
            LocalTensor<float> o = qin.AllocTensor<float>();
            DataCopy(o, oWs[(uint64_t)r0 * d], rg * d);
            qin.EnQue(o);
            o = qin.DeQue<float>();
            LocalTensor<float> ag = acc[r0 * d];
            Broadcast(alpha[r0], rg);
            RowsOp<RowOp::MUL>(ag, rg, d, d);
            Add(ag, ag, o, (int32_t)(rg * d));
            qin.FreeTensor(o);
        }
    }

    // out [rows, d] (rows ld elements apart) = acc / l in T.
    __aicore__ inline void Finish(const GlobalTensor<T> &out, uint32_t rows, uint32_t ld)
    {
        for (uint32_t r0 = 0; r0 < rows; r0 += GROUP) {
            const uint32_t rg = rows - r0 < GROUP ? rows - r0 : GROUP;
            LocalTensor<float> ag = acc[r0 * d];
            Broadcast(rowSum[r0], rg);
            RowsOp<RowOp::DIV>(ag, rg, d, d);
            LocalTensor<T> o = qout.AllocTensor<T>();
            Cast(o, ag, RoundMode::CAST_RINT, rg * d);
            qout.EnQue(o);
            o = qout.DeQue<T>();
            DataCopyPad(out[(uint64_t)r0 * ld], o,
                        DataCopyExtParams((uint16_t)rg, d * sizeof(T), 0, (ld - d) * sizeof(T), 0));
            qout.FreeTensor(o);
        }
    }
};

} // namespace npukb_answer

#endif
