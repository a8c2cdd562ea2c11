// cube_matmul.h - the cube path of the Level 3 matmul answers (Ascend 910B):
// C = A B for row-major A [m, k], B [k, n], C [m, n] in GM, half or
// bfloat16 inputs accumulated in float32 on L0C.
//
// C is cut into BASE_M x BASE_N tiles shared round-robin over the cores;
// each tile walks K in L1 chunks of L1_K (A and B brought in as NZ by the
// MTE2's Nd2Nz conversion, whose zero fill pads the column tails), each
// chunk in L0 steps of L0_K (L1 -> L0A as ZZ, L1 -> L0B as ZN through the
// 2D load's fractal transpose) that Mmad accumulates into L0C; Fixpipe
// then converts the tile to the output dtype and writes it row-major.
// Every level has two buffers, so the MTE2 fills one L1 chunk while the
// MTE1 and the cube work on the other, and Fixpipe drains one L0C tile
// while the cube fills the next.
//
// B may also come transposed (bTrans: the GM matrix is B^T, [n, k] row
// major, as K is in attention's Q K^T): Nd2Nz then lays B^T's rows out as
// NZ, whose fractals already hold B's fractals column-major, so the L0B
// load copies them without the 2D load's transpose, and K runs along the
// columns, whose tail Nd2Nz zero-fills.
//
// Sizes: L1 holds 2 x (128 x 256 + 256 x 128) halves = 256 KiB of 512;
// L0A/L0B 2 x 128 x 64 halves = 32 KiB of 64; L0C 2 x 128 x 128 floats =
// 128 KiB.
//
// K need not be a multiple of 16 (the fractal depth). Nd2Nz zero-fills a
// column tail but not a row tail, so when K runs along the rows of an L1
// chunk (always for B, and for A when it is given K-major, aKMajor) the
// rows from K up to the next 16 are set to zero with Fill: whatever the
// buffer held before (NaN or Inf bits included) then adds nothing, on any
// cube, however it rounds K up inside a fractal.
#ifndef NPUKB_ANSWER_CUBE_MATMUL_H
#define NPUKB_ANSWER_CUBE_MATMUL_H

#include "kernel_operator.h"

namespace npukb_answer {

using namespace AscendC;

template <class T>
struct CubeMatmul {
    static constexpr uint32_t BASE_M = 128;
    static constexpr uint32_t BASE_N = 128;
    static constexpr uint32_t L1_K = 256;
    static constexpr uint32_t L0_K = 64;
    static constexpr uint32_t FRAC = 256; // elements of a 16 x 16 fractal

    // A given as [k, m] row-major (its transpose is multiplied): the L1
    // chunk holds K along its rows and L0A gets each fractal transposed
    bool aKMajor = false;

    TPipe *pipe;
    TQue<TPosition::A1, 2> qa1;
    TQue<TPosition::B1, 2> qb1;
    TQue<TPosition::A2, 2> qa2;
    TQue<TPosition::B2, 2> qb2;
    TQue<TPosition::CO1, 2> qc;

    __aicore__ inline void Init(TPipe *p)
    {
        pipe = p;
        pipe->InitBuffer(qa1, 2, BASE_M * L1_K * sizeof(T));
        pipe->InitBuffer(qb1, 2, L1_K * BASE_N * sizeof(T));
        pipe->InitBuffer(qa2, 2, BASE_M * L0_K * sizeof(T));
        pipe->InitBuffer(qb2, 2, L0_K * BASE_N * sizeof(T));
        pipe->InitBuffer(qc, 2, BASE_M * BASE_N * sizeof(float));
    }

    static __aicore__ inline uint32_t Ceil16(uint32_t v) { return (v + 15) / 16 * 16; }

    // rows x cols of a row-major matrix (rows ld apart) into L1 as NZ with
    // column blocks rowsPad rows apart. Nd2Nz's source row stride is 16 bits
    // (at most 65535 elements): longer rows (k or n = 65536) go one row at a
    // time, each its own one-row matrix landing on its row of every block.
    static __aicore__ inline void CopyNd2Nz(const LocalTensor<T> &dst, const GlobalTensor<T> &src, uint32_t rows,
                                            uint32_t cols, uint32_t ld, uint32_t rowsPad)
    {
        constexpr uint32_t C0 = 32 / sizeof(T);
        if (ld <= 65535) {
            DataCopy(dst, src, Nd2NzParams(1, rows, cols, 0, ld, rowsPad, 1, 0));
            return;
        }
        for (uint32_t r = 0; r < rows; r++)
            DataCopy(dst[r * C0], src[(uint64_t)r * ld], Nd2NzParams(1, 1, cols, 0, cols, rowsPad, 1, 0));
    }

    // Rows rows..Ceil16(rows) of every column block of an NZ chunk whose
    // blocks are Ceil16(rows) rows apart: one Fill iteration per block.
    static __aicore__ inline void ZeroRowTail(const LocalTensor<T> &buf, uint32_t rows, uint32_t cols)
    {
        const uint32_t rowsPad = Ceil16(rows), blocks = Ceil16(cols) / 16;
        if (rowsPad == rows)
            return;
        // a row of a column block is one 32-byte L1 block of C0 = 16 elements
        Fill(buf[rows * 16], InitConstValueParams<T>((uint16_t)blocks, (uint16_t)(rowsPad - rows), (uint16_t)rows, (T)0));
    }

    // Accumulates A [mt, k0..k0+kt) B [k0..k0+kt), nt) into the L0C tile c
    // (the first chunk of a tile starts from zero when first is set).
    // a points at A's row of the tile and column k0, lda its row length
    // (with aKMajor: at A's row k0 and the tile's column, in [k, m]);
    // b at B's row k0 and the tile's column, ldb its row length (bTrans: at
    // B^T's row of the tile's first column and column k0).
    __aicore__ inline void Chunk(const LocalTensor<float> &c, const GlobalTensor<T> &a, uint32_t lda,
                                 const GlobalTensor<T> &b, uint32_t ldb, uint32_t mt, uint32_t nt, uint32_t kt,
                                 bool first, bool bTrans = false)
    {
        const uint32_t mp = Ceil16(mt), np = Ceil16(nt), kp = Ceil16(kt);
        const uint16_t m1 = mp / 16, n1 = np / 16, k1 = kp / 16;

        LocalTensor<T> a1 = qa1.AllocTensor<T>();
        LocalTensor<T> b1 = qb1.AllocTensor<T>();
        // NZ in L1: column block j of A starts mp rows after block j - 1,
        // so A's fractal (i, j) is fractal j * m1 + i; B's (i, j) likewise
        // j * k1 + i. K-major A is held as its [kt, mt] slab: fractal
        // (k-block i, m-block j) at j * k1 + i.
        if (aKMajor) {
            CopyNd2Nz(a1, a, kt, mt, lda, kp);
            ZeroRowTail(a1, kt, mt);
        } else {
            CopyNd2Nz(a1, a, mt, kt, lda, mp);
        }
        // B^T as NZ: fractal (n block j, k block i) is j + i * n1, each
        // row-major over (n, k), which is B's fractal column-major.
        if (bTrans) {
            CopyNd2Nz(b1, b, nt, kt, ldb, np);
        } else {
            CopyNd2Nz(b1, b, kt, nt, ldb, kp);
            ZeroRowTail(b1, kt, nt);
        }
        qa1.EnQue(a1);
        qb1.EnQue(b1);
        a1 = qa1.DeQue<T>();
        b1 = qb1.DeQue<T>();

        for (uint32_t k0 = 0; k0 < kt; k0 += L0_K) {
            const uint32_t ks = kt - k0 < L0_K ? kt - k0 : L0_K;
            const uint16_t ks1 = Ceil16(ks) / 16, kb0 = k0 / 16;
            LocalTensor<T> a2 = qa2.AllocTensor<T>();
            LocalTensor<T> b2 = qb2.AllocTensor<T>();
            // L0A wants the fractals row after row (ZZ): one load per
            // fractal row, walking L1's column blocks m1 fractals apart.
            // K-major A: fractal row i is m-block i of the slab, its
            // fractals consecutive in L1 and each transposed on the way.
            for (uint16_t i = 0; i < m1; i++) {
                if (aKMajor)
                    LoadData(a2[i * ks1 * FRAC], a1, LoadData2DParams(i * k1 + kb0, ks1, 1, 0, 0, true, 0));
                else
                    LoadData(a2[i * ks1 * FRAC], a1, LoadData2DParams(kb0 * m1 + i, ks1, m1, 0, 0, false, 0));
            }
            // L0B wants B's fractals row after row, each transposed (ZN).
            if (bTrans) {
                LoadData(b2, b1, LoadData2DParams(kb0 * n1, ks1 * n1, 1, 0, 0, false, 0));
            } else {
                for (uint16_t i = 0; i < ks1; i++)
                    LoadData(b2[i * n1 * FRAC], b1, LoadData2DParams(kb0 + i, n1, k1, 0, 0, true, 0));
            }
            qa2.EnQue(a2);
            qb2.EnQue(b2);
            a2 = qa2.DeQue<T>();
            b2 = qb2.DeQue<T>();
            MmadParams mm;
            mm.m = mt;
            mm.n = nt;
            mm.k = ks;
            mm.cmatrixInitVal = first && k0 == 0;
            Mmad(c, a2, b2, mm);
            qa2.FreeTensor(a2);
            qb2.FreeTensor(b2);
        }
        qa1.FreeTensor(a1);
        qb1.FreeTensor(b1);
    }

    // One output tile of C = A[rows m0.., k in kBegin..kEnd) B[that k, cols
    // n0..]: a points at A's row m0, b at B's column n0, c at C's element
    // (m0, n0); lda, ldb, ldc are their row lengths (bTrans: b points at
    // B^T's row n0, ldb its row length).
    template <class OutT>
    __aicore__ inline void Tile(const GlobalTensor<T> &a, const GlobalTensor<T> &b, const GlobalTensor<OutT> &c,
                                uint32_t lda, uint32_t ldb, uint32_t ldc, uint32_t mt, uint32_t nt,
                                uint32_t kBegin, uint32_t kEnd, bool bTrans = false)
    {
        LocalTensor<float> acc = qc.AllocTensor<float>();
        Accumulate(acc, a, b, lda, ldb, mt, nt, kBegin, kEnd, true, bTrans);
        Store(c, acc, ldc, mt, nt);
    }

    // Adds A[rows, kBegin..kEnd) B[that k, cols] to the L0C tile acc (from
    // zero when first is set), so that products of several operand pairs
    // can share one tile before Store.
    __aicore__ inline void Accumulate(const LocalTensor<float> &acc, const GlobalTensor<T> &a,
                                      const GlobalTensor<T> &b, uint32_t lda, uint32_t ldb, uint32_t mt,
                                      uint32_t nt, uint32_t kBegin, uint32_t kEnd, bool first, bool bTrans = false)
    {
        for (uint32_t k0 = kBegin; k0 < kEnd; k0 += L1_K) {
            const uint32_t kt = kEnd - k0 < L1_K ? kEnd - k0 : L1_K;
            Chunk(acc, aKMajor ? a[(uint64_t)k0 * lda] : a[k0], lda, bTrans ? b[k0] : b[(uint64_t)k0 * ldb], ldb,
                  mt, nt, kt, first && k0 == kBegin, bTrans);
        }
    }

    // The L0C tile acc (from qc.AllocTensor) out to c, rows ldc apart,
    // converted to OutT; gives acc back to qc.
    template <class OutT>
    __aicore__ inline void Store(const GlobalTensor<OutT> &c, LocalTensor<float> &acc, uint32_t ldc, uint32_t mt,
                                 uint32_t nt)
    {
        qc.EnQue(acc);
        acc = qc.DeQue<float>();
        FixpipeParamsV220 fp;
        fp.nSize = nt;
        fp.mSize = mt;
        fp.srcStride = Ceil16(mt);
        fp.dstStride = ldc;
        fp.quantPre = QuantOf<OutT>();
        Fixpipe<OutT, float, CFG_ROW_MAJOR>(c, acc, fp);
        qc.FreeTensor(acc);
    }

    // An mt x nt tile of zeros at c (row length ldc), for an output with
    // nothing to sum (a group of length 0): zeros filled into L0A and L0B,
    // one 16-deep Mmad to clear the L0C tile, Fixpipe out like a product.
    template <class OutT>
    __aicore__ inline void ZeroTile(const GlobalTensor<OutT> &c, uint32_t ldc, uint32_t mt, uint32_t nt)
    {
        const uint16_t m1 = Ceil16(mt) / 16, n1 = Ceil16(nt) / 16;
        LocalTensor<T> a2 = qa2.AllocTensor<T>();
        LocalTensor<T> b2 = qb2.AllocTensor<T>();
        Fill(a2, InitConstValueParams<T>(1, m1, 0, (T)0));
        Fill(b2, InitConstValueParams<T>(1, n1, 0, (T)0));
        qa2.EnQue(a2);
        qb2.EnQue(b2);
        a2 = qa2.DeQue<T>();
        b2 = qb2.DeQue<T>();
        LocalTensor<float> acc = qc.AllocTensor<float>();
        MmadParams mm;
        mm.m = mt;
        mm.n = nt;
        mm.k = 16;
        mm.cmatrixInitVal = true;
        Mmad(acc, a2, b2, mm);
        qa2.FreeTensor(a2);
        qb2.FreeTensor(b2);
        Store(c, acc, ldc, mt, nt);
    }

    template <class OutT>
    static __aicore__ inline QuantMode_t QuantOf()
    {
        if constexpr (IsSameType<OutT, half>::value)
            return QuantMode_t::F322F16;
        else if constexpr (IsSameType<OutT, bfloat16_t>::value)
            return QuantMode_t::F322BF16;
        else
            return QuantMode_t::NoQuant;
    }

    // The whole product of one matrix pair, this core's share of its tiles
    // (tiles numbered from tileBase, so batches continue the round-robin).
    __aicore__ inline uint32_t Run(const GlobalTensor<T> &a, const GlobalTensor<T> &b, const GlobalTensor<T> &c,
                                   uint32_t m, uint32_t k, uint32_t n, uint32_t tileBase)
    {
        const uint32_t tm = (m + BASE_M - 1) / BASE_M, tn = (n + BASE_N - 1) / BASE_N;
        const uint32_t cores = GetBlockNum(), me = GetBlockIdx();
        const uint32_t tiles = tm * tn;
        // first tile of this core at or after tileBase in the global numbering
        uint32_t t = (me + cores - tileBase % cores) % cores;
        for (; t < tiles; t += cores) {
            const uint32_t im = t / tn, in = t % tn;
            const uint32_t m0 = im * BASE_M, n0 = in * BASE_N;
            const uint32_t mt = m - m0 < BASE_M ? m - m0 : BASE_M;
            const uint32_t nt = n - n0 < BASE_N ? n - n0 : BASE_N;
            Tile<T>(a[(uint64_t)m0 * k], b[n0], c[(uint64_t)m0 * n + n0], k, n, n, mt, nt, 0, k);
        }
        return tileBase + tiles;
    }
};

} // namespace npukb_answer

#endif
