// dequant_matmul.h - the quantised Level 3 matmuls (QuantMatmul and the
// grouped PerTokenDequant forms) on Ascend 910B: int8 A times int8 B summed
// exactly in int32 on the cube, then dequantised on the vector unit:
// out[i][j] = float(acc[i][j]) * scale[j] * perToken[i], rounded once to
// half or bfloat16.
//
// The Fixpipe cannot do this alone: its dequantisation (DEQF16, VDEQF16)
// takes one scale or one per output channel, while the per-token factor
// varies along the rows. So each block's vector core drives its AI core's cube
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
// of scales, 5 KiB of float scales and 8 KiB for a group list: 109 KiB of
// 192. Workspace: two 64 KiB int32 tiles per block (3 MiB for 24 blocks).
#ifndef NPUKB_ANSWER_DEQUANT_MATMUL_H
#define NPUKB_ANSWER_DEQUANT_MATMUL_H

#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "matmul_api_tiles.h"

namespace npukb_answer {

using namespace AscendC;

constexpr uint32_t DQ_TILE_M = MM_TILE_M;
constexpr uint32_t DQ_TILE_N = MM_TILE_N;

// The output tile, 128, 64 or 32 on a side: the one that finishes soonest
// if every tile costs what it moves through GM, its rows of A and columns of
// B ((tm + tn) k bytes) and 10 bytes per output element (the int32 written
// and read back, the 2-byte result), and the blocks take the tiles in
// rounds. So small products use smaller tiles and more blocks; large ones
// keep 128 x 128 (the least traffic). tilesOf(tm, tn) counts the tiles;
// ties go to the larger tile.
template <class TilesOf>
__aicore__ inline void PickTile(uint32_t &tileM, uint32_t &tileN, uint32_t k, TilesOf tilesOf)
{
    const uint64_t cores = GetBlockNum();
    uint64_t best = ~(uint64_t)0;
    for (uint32_t tm = DQ_TILE_M; tm >= 32; tm /= 2)
        for (uint32_t tn = DQ_TILE_N; tn >= 32; tn /= 2) {
            const uint64_t rounds = ((uint64_t)tilesOf(tm, tn) + cores - 1) / cores;
            const uint64_t cost = rounds * ((uint64_t)(tm + tn) * k + 10ull * tm * tn);
            if (cost < best) {
                best = cost;
                tileM = tm;
                tileN = tn;
            }
        }
}

__aicore__ inline uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

// The Matmul tiling of the int8 product for tm x tn tiles: matmul_api_tiles.h's
// settings with the tile as the base block and a K step of 128 int8 (128
// bytes, an L0A/L0B buffer of at most 16 KiB as for half's 64); L1 then
// holds 8 such blocks of A and of B (at most 256 KiB of 512), L0C one
// int32 tile (at most 64 KiB).
__aicore__ inline void FillInt8MatmulTiling(TCubeTiling &t, uint32_t m, uint32_t n, uint32_t k, uint32_t tm,
                                            uint32_t tn)
{
    FillMatmulTiling(t, m, n, k, false);
    t.singleCoreM = m < tm ? m : tm;
    t.singleCoreN = n < tn ? n : tn;
    t.baseM = tm;
    t.baseN = tn;
    t.baseK = 128;
}

// The int64 group list in UB, read there by the scalar (2 cycles a value
// rather than 100 through GM's data cache). At most MAX_GROUPS groups. The
// cube core of a mix kernel, which runs the same tiling code up to
// REGIST_MATMUL_OBJ but has no UB, reads the list in GM.
struct GroupEnds {
    static constexpr uint32_t MAX_GROUPS = 1024;
    TBuf<TPosition::VECCALC> buf;
    LocalTensor<int64_t> ends;
    GlobalTensor<int64_t> gmList;

    __aicore__ inline void Load(TPipe *pipe, const GlobalTensor<int64_t> &list, uint32_t groups)
    {
        gmList = list;
        if ASCEND_IS_AIC {
            return;
        }
        pipe->InitBuffer(buf, MAX_GROUPS * sizeof(int64_t));
        ends = buf.Get<int64_t>();
        DataCopyPadExtParams<int64_t> noPad{false, 0, 0, 0};
        DataCopyPad(ends, list, DataCopyExtParams(1, groups * sizeof(int64_t), 0, 0, 0), noPad);
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(ev);
        WaitFlag<HardEvent::MTE2_S>(ev);
    }

    // Group g's end, clamped to [start, limit] so that a bad list cannot
    // send the cube outside its operands.
    __aicore__ inline uint32_t End(uint32_t g, uint32_t start, uint32_t limit) const
    {
        int64_t e;
        if ASCEND_IS_AIC {
            e = gmList.GetValue(g);
        } else {
            e = ends.GetValue(g);
        }
        return e < (int64_t)start ? start : e > (int64_t)limit ? limit : (uint32_t)e;
    }
};

template <class OutT, class ScaleT>
struct DequantEpilogue {
    static constexpr uint32_t SUB_M = 64;
    static constexpr uint32_t LANES = 64;                      // floats in a 256-byte repeat
    static constexpr uint32_t ACC_BLOCKS = DQ_TILE_N * 4 / 32; // one UB row of int32/float
    static constexpr uint32_t OUT_BLOCKS = DQ_TILE_N * sizeof(OutT) / 32;

    GlobalTensor<int32_t> ws; // this block's two int32 tiles
    uint32_t next = 0;
    TQue<TPosition::VECIN, 2> qacc;
    TQue<TPosition::VECOUT, 2> qout;
    TQue<TPosition::VECIN, 1> qscale;
    TBuf<TPosition::VECCALC> fbuf;

    __aicore__ inline void Init(TPipe *pipe, GM_ADDR workspace)
    {
        constexpr uint64_t TILE = DQ_TILE_M * DQ_TILE_N;
        ws.SetGlobalBuffer((__gm__ int32_t *)GetUserWorkspace(workspace) + GetBlockIdx() * 2 * TILE, 2 * TILE);
        pipe->InitBuffer(qacc, 2, SUB_M * DQ_TILE_N * sizeof(int32_t));
        pipe->InitBuffer(qout, 2, SUB_M * DQ_TILE_N * sizeof(OutT));
        pipe->InitBuffer(qscale, 1, (DQ_TILE_N + DQ_TILE_M) * sizeof(ScaleT));
        pipe->InitBuffer(fbuf, (DQ_TILE_N + DQ_TILE_M + DQ_TILE_M * 8) * sizeof(float));
    }

    // The workspace tile for the next Matmul, the two used in turn, so the
    // cube writes one while the vector unit still reads the other (Run
    // makes sure the last reads of the tile handed out are done).
    __aicore__ inline GlobalTensor<int32_t> NextAcc()
    {
        next ^= 1;
        return ws[next * DQ_TILE_M * DQ_TILE_N];
    }

    static __aicore__ inline uint32_t Blocks(uint32_t bytes) { return (bytes + 31) / 32; }

    // out (rows ldo apart) = the mt x nt int32 tile acc (dense, nt columns)
    // times col[j] times row[i].
    __aicore__ inline void Run(const GlobalTensor<int32_t> &acc, const GlobalTensor<ScaleT> &col,
                               const GlobalTensor<ScaleT> &row, const GlobalTensor<OutT> &out, uint32_t ldo,
                               uint32_t mt, uint32_t nt)
    {
        // The previous Run's loads read the other workspace tile, which the
        // next Matmul overwrites: the scalar waits for them before going on.
        // They were issued before this tile's Matmul, which the scalar has
        // waited for, so this costs next to nothing.
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(ev);
        WaitFlag<HardEvent::MTE2_S>(ev);
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
            qacc.EnQue(ai);
            ai = qacc.DeQue<int32_t>();
            LocalTensor<float> af = ai.ReinterpretCast<float>();
            LocalTensor<OutT> o = qout.AllocTensor<OutT>();
            for (uint32_t c0 = 0; c0 < nt; c0 += LANES) {
                const uint64_t lanes = nt - c0 < LANES ? nt - c0 : LANES;
                const uint8_t reps = (uint8_t)rs;
                // one repeat per row: row strides of 16 blocks (float) and
                // 8 (half / bfloat16). int32 -> float is exact up to 2^24;
                // beyond (k * 128 * 128 can reach it) it rounds to nearest.
                Cast(af[c0], ai[c0], RoundMode::CAST_RINT, lanes, reps,
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
