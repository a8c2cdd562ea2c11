// dequant_matmul.h - the quantised Level 3 matmuls (QuantMatmul and the
// grouped PerTokenDequant forms) on Ascend 910B: int8 A times int8 B summed
// exactly in int32 on the cube, then dequantised on the vector unit:
// out[i][j] = float(acc[i][j]) * scale[j] * perToken[i], rounded once to
// half or bfloat16.
//
// The Fixpipe cannot do this alone: its dequantisation (VDEQF16) scales per
// output channel only and writes half only, and the per-token factor varies
// along the rows. So each block's vector core drives its AI core's cube
// through the high-level Matmul (mix mode), which leaves an int32 tile of at
// most 128 x 128 in the block's own slice of the workspace (the cube reaches
// GM and L1 only, never the vector core's UB); the vector core then brings
// the tile into UB 64 rows at a time, converts it to float, multiplies by
// the column scales (one row broadcast down the repeats: src1 repeat stride
// 0) and by the per-token scales (Brcb spreads each row's factor over one
// 32-byte block, read by every block of that row's repeat: block stride 0),
// converts to the output dtype and writes the rows out with DataCopyPad.
//
// UB: 2 x 32 KiB int32/float sub-tiles, 2 x 16 KiB output sub-tiles, 512 B
// of scales and 5 KiB of float scales: 101 KiB of 192. Workspace: one
// 64 KiB int32 tile per block (1.5 MiB for 24 blocks).
#ifndef NPUKB_ANSWER_DEQUANT_MATMUL_H
#define NPUKB_ANSWER_DEQUANT_MATMUL_H

#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "matmul_api_tiles.h"

namespace npukb_answer {

using namespace AscendC;

constexpr uint32_t DQ_TILE_M = MM_TILE_M;
constexpr uint32_t DQ_TILE_N = MM_TILE_N;

// The Matmul tiling of the int8 product: matmul_api_tiles.h's 128 x 128
// base blocks with a K step of 128 int8 (128 bytes, one L0A/L0B buffer of
// 16 KiB as for half's 64); L1 then holds 8 such blocks of A and of B
// (256 KiB of 512), L0C one 128 x 128 int32 tile (64 KiB).
__aicore__ inline void FillInt8MatmulTiling(TCubeTiling &t, uint32_t m, uint32_t n, uint32_t k)
{
    FillMatmulTiling(t, m, n, k, false);
    t.baseK = 128;
}

// This block's int32 tile in the workspace.
__aicore__ inline GlobalTensor<int32_t> BlockAccTile(GM_ADDR workspace)
{
    GlobalTensor<int32_t> ws;
    ws.SetGlobalBuffer((__gm__ int32_t *)GetUserWorkspace(workspace) +
                           (uint64_t)GetBlockIdx() * DQ_TILE_M * DQ_TILE_N,
                       DQ_TILE_M * DQ_TILE_N);
    return ws;
}

template <class OutT, class ScaleT>
struct DequantEpilogue {
    static constexpr uint32_t SUB_M = 64;
    static constexpr uint32_t LANES = 64;                      // floats in a 256-byte repeat
    static constexpr uint32_t ACC_BLOCKS = DQ_TILE_N * 4 / 32; // one UB row of int32/float
    static constexpr uint32_t OUT_BLOCKS = DQ_TILE_N * sizeof(OutT) / 32;

    TQue<TPosition::VECIN, 2> qacc;
    TQue<TPosition::VECOUT, 2> qout;
    TQue<TPosition::VECIN, 1> qscale;
    TBuf<TPosition::VECCALC> fbuf;

    __aicore__ inline void Init(TPipe *pipe)
    {
        pipe->InitBuffer(qacc, 2, SUB_M * DQ_TILE_N * sizeof(int32_t));
        pipe->InitBuffer(qout, 2, SUB_M * DQ_TILE_N * sizeof(OutT));
        pipe->InitBuffer(qscale, 1, (DQ_TILE_N + DQ_TILE_M) * sizeof(ScaleT));
        pipe->InitBuffer(fbuf, (DQ_TILE_N + DQ_TILE_M + DQ_TILE_M * 8) * sizeof(float));
    }

    static __aicore__ inline uint32_t Blocks(uint32_t bytes) { return (bytes + 31) / 32; }

    // out (rows ldo apart) = the mt x nt int32 tile acc (dense, nt columns)
    // times col[j] times row[i].
    __aicore__ inline void Run(const GlobalTensor<int32_t> &acc, const GlobalTensor<ScaleT> &col,
                               const GlobalTensor<ScaleT> &row, const GlobalTensor<OutT> &out, uint32_t ldo,
                               uint32_t mt, uint32_t nt)
    {
        DataCopyPadExtParams<ScaleT> noPadS{false, 0, 0, 0};
        LocalTensor<ScaleT> sh = qscale.AllocTensor<ScaleT>();
        DataCopyPad(sh, col, DataCopyExtParams(1, nt * sizeof(ScaleT), 0, 0, 0), noPadS);
        DataCopyPad(sh[DQ_TILE_N], row, DataCopyExtParams(1, mt * sizeof(ScaleT), 0, 0, 0), noPadS);
        qscale.EnQue(sh);
        sh = qscale.DeQue<ScaleT>();
        LocalTensor<float> colF = fbuf.Get<float>();
        LocalTensor<float> rowF = colF[DQ_TILE_N];
        LocalTensor<float> rowB = colF[DQ_TILE_N + DQ_TILE_M];
        Cast(colF, sh, RoundMode::CAST_NONE, nt);
        Cast(rowF, sh[DQ_TILE_N], RoundMode::CAST_NONE, mt);
        qscale.FreeTensor(sh);
        // row i's factor fills block i of rowB (8 floats)
        Brcb(rowB, rowF, (mt + 7) / 8, BrcbRepeatParams(1, 8));

        DataCopyPadExtParams<int32_t> noPad{false, 0, 0, 0};
        for (uint32_t r0 = 0; r0 < mt; r0 += SUB_M) {
            const uint32_t rs = mt - r0 < SUB_M ? mt - r0 : SUB_M;
            LocalTensor<int32_t> ai = qacc.AllocTensor<int32_t>();
            DataCopyPad(ai, acc[r0 * nt],
                        DataCopyExtParams(rs, nt * sizeof(int32_t), 0, ACC_BLOCKS - Blocks(nt * 4), 0), noPad);
            // The scalar waits for the load: once it returns, the caller's
            // next Matmul may overwrite the workspace tile while the vector
            // unit still works on this one.
            event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
            SetFlag<HardEvent::MTE2_S>(ev);
            WaitFlag<HardEvent::MTE2_S>(ev);
            qacc.EnQue(ai);
            ai = qacc.DeQue<int32_t>();
            LocalTensor<float> af = ai.ReinterpretCast<float>();
            LocalTensor<OutT> o = qout.AllocTensor<OutT>();
            for (uint32_t c0 = 0; c0 < nt; c0 += LANES) {
                const uint64_t lanes = nt - c0 < LANES ? nt - c0 : LANES;
                const uint8_t reps = (uint8_t)rs;
                // one repeat per row: row strides of 16 blocks (float) and
                // 8 (half / bfloat16)
                Cast(af[c0], ai[c0], RoundMode::CAST_NONE, lanes, reps,
                     UnaryRepeatParams(1, 1, ACC_BLOCKS, ACC_BLOCKS));
                Mul(af[c0], af[c0], colF[c0], lanes, reps,
                    BinaryRepeatParams(1, 1, 1, ACC_BLOCKS, ACC_BLOCKS, 0));
                Mul(af[c0], af[c0], rowB[r0 * 8], lanes, reps,
                    BinaryRepeatParams(1, 1, 0, ACC_BLOCKS, ACC_BLOCKS, 1));
                Cast(o[c0], af[c0], RoundMode::CAST_RINT, lanes, reps,
                     UnaryRepeatParams(1, 1, OUT_BLOCKS, ACC_BLOCKS));
            }
            qacc.FreeTensor(ai);
            qout.EnQue(o);
            o = qout.DeQue<OutT>();
            DataCopyPad(out[(uint64_t)r0 * ldo], o,
                        DataCopyExtParams(rs, nt * sizeof(OutT), OUT_BLOCKS - Blocks(nt * sizeof(OutT)),
                                          (ldo - nt) * sizeof(OutT), 0));
            qout.FreeTensor(o);
        }
    }

    // out (rows ldo apart, mt x nt) = 0: a group that sums nothing.
    __aicore__ inline void Zero(const GlobalTensor<OutT> &out, uint32_t ldo, uint32_t mt, uint32_t nt)
    {
        for (uint32_t r0 = 0; r0 < mt; r0 += SUB_M) {
            const uint32_t rs = mt - r0 < SUB_M ? mt - r0 : SUB_M;
            LocalTensor<OutT> o = qout.AllocTensor<OutT>();
            // +0 is all-zero bits in half and bfloat16 alike
            Duplicate(o.template ReinterpretCast<uint16_t>(), (uint16_t)0, rs * DQ_TILE_N);
            qout.EnQue(o);
            o = qout.DeQue<OutT>();
            DataCopyPad(out[(uint64_t)r0 * ldo], o,
                        DataCopyExtParams(rs, nt * sizeof(OutT), OUT_BLOCKS - Blocks(nt * sizeof(OutT)),
                                          (ldo - nt) * sizeof(OutT), 0));
            qout.FreeTensor(o);
        }
    }
};

} // namespace npukb_answer

#endif
