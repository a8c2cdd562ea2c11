// TopKV3 expert answer (kernel-only mode, Ascend 910B, vector cores): the k
// largest (or smallest) elements of every line along dim, with their int64
// positions, found with the 910B sort instructions.
//
// A line is x[o, :, i] of x seen as [outer, len, inner]. A tile is up to R
// lines: consecutive o when inner == 1 (the lines are contiguous in GM),
// consecutive i at one o otherwise (a [len, w] block, rows inner apart).
// The tiles are split over the blocks in contiguous ranges.
//
// Per tile, in UB:
//  1. The lines are loaded with DataCopyPad; when they are not already
//     contiguous lines of whole 32-element groups, one Gather (byte offsets
//     worked out once per block) rearranges them into rows of Lcp elements,
//     Lcp the line length rounded up to 32. For the smallest, the scores
//     are negated (exact), so that a descending sort finds them; the tail
//     of each row (Lcp - len) gets -inf with one masked Duplicate.
//  2. Concat + Sort (Sort32) sort every group of 32 into (score, index)
//     pairs, the indices coming from a 0..Lcp-1 table built once.
//  3. Each line's groups are merged four at a time with MrgSort, round after
//     round, every list cut to its first kk = min(k, len) pairs (the top kk
//     of a line are among the top kk of its groups): a 2048-long line with
//     k = 2 merges 8 pairs at a time instead of sorting 2048. When lines are
//     whole fours of groups, the first round of the whole tile is a single
//     repeated MrgSort, on lists GatherMask has cut and packed back to back.
//     The last round writes the line's list into a result area, kq = kk
//     rounded up to 4 pairs apart (32 bytes, MrgSort's destination
//     alignment).
//     A line longer than one chunk (4096 contiguous or 256 strided halves)
//     is done chunk by chunk: each chunk's top kk merged (MrgSort of two
//     lists) into the line's running top kk, the indices offset by the
//     chunk's start.
//  4. Extract splits the result pairs into scores and uint32 indices; two
//     Gathers (offset tables built once) pick the first k of each line into
//     the output layout: [R, k] rows, or [k, w] for inner > 1. Cast widens
//     the indices to int64, the smallest are negated back, and DataCopyPad
//     writes both outputs.
//
// Limits: k >= 1, and k small enough for every line's lists to fit UB
// (and MrgSort's 4095 pairs a list): a few hundred for lines along the
// last dim, about a hundred along another (each rank's output row is then
// padded to 16 lines); a larger k overflows UB at InitBuffer.
#include "kernel_operator.h"

using namespace AscendC;

using T = DTYPE_X;

namespace {

constexpr uint32_t SZ = sizeof(T);
constexpr uint32_t EPB = 32 / SZ;        // elements of T in a 32-byte block
constexpr uint32_t GROUP = 32;           // Sort32 sorts groups of 32
constexpr uint32_t PAIR = 8;             // bytes of a (score, index) pair
constexpr uint32_t UB_BYTES = 192 * 1024;
constexpr uint32_t MAX_REPEAT = 255;
constexpr uint32_t MAX_GROUPS = 128;     // groups of a line chunk (C / 32)
// Extract of half takes indices from twice the pairs it takes scores from
constexpr uint32_t IDX_EXTRACT = SZ == 2 ? 2 : 1;

__aicore__ inline uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
__aicore__ inline uint32_t RoundUp(uint32_t a, uint32_t b) { return CeilDiv(a, b) * b; }
__aicore__ inline uint32_t Min(uint32_t a, uint32_t b) { return a < b ? a : b; }
__aicore__ inline uint32_t Max(uint32_t a, uint32_t b) { return a > b ? a : b; }

// The merge rounds of one chunk of G groups: how many lists each round
// leaves, and the largest slot (pairs) a list of that round can need.
struct Rounds {
    uint32_t n;            // rounds
    uint32_t lists[8];     // lists after round i
    uint32_t slot[8];      // pairs per list of round i (a multiple of 4)
};

__aicore__ inline Rounds PlanRounds(uint32_t groups, uint32_t kq, uint32_t listLen)
{
    Rounds p;
    p.n = 0;
    uint32_t n = groups, in = Min(kq, listLen);
    while (n > 1) {
        n = CeilDiv(n, 4);
        p.lists[p.n] = n;
        p.slot[p.n] = RoundUp(4 * in, 4);
        in = Min(kq, 4 * in);
        p.n++;
    }
    return p;
}

class TopK {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR values, GM_ADDR indices, const TopKV3TilingData &t)
    {
        outer_ = t.outer;
        len_ = t.len;
        inner_ = t.inner;
        k_ = t.k;
        largest_ = t.largest != 0;
        kk_ = Min(k_, len_);
        kq_ = RoundUp(kk_, 4);
        xg_.SetGlobalBuffer((__gm__ T *)x, (uint64_t)outer_ * len_ * inner_);
        vg_.SetGlobalBuffer((__gm__ T *)values, (uint64_t)outer_ * k_ * inner_);
        ig_.SetGlobalBuffer((__gm__ int64_t *)indices, (uint64_t)outer_ * k_ * inner_);
        // The largest chunk, then the most lines a tile, that leave
        // everything inside UB (a large k needs long lists for every line).
        uint32_t c = 4096, lines = MAX_GROUPS;
        while (Layout(c, lines) > UB_BYTES) {
            if (lines > 1)
                lines /= 2;
            else if (c > 1024)
                c /= 2, lines = MAX_GROUPS;
            else
                break; // k too large for this kernel: InitBuffer overflows UB
        }
        Allocate();
    }

    __aicore__ inline void Process()
    {
        const uint32_t nb = GetBlockNum(), me = GetBlockIdx();
        if (inner_ == 1) {
            const uint32_t per = CeilDiv(outer_, nb), first = per * me;
            const uint32_t last = Min(outer_, first + per);
            if (first < last)
                BuildTables();
            for (uint32_t o = first; o < last; o += r_)
                Tile(o, 0, Min(r_, last - o));
        } else {
            const uint32_t tilesPerRow = CeilDiv(inner_, w_);
            const uint32_t items = outer_ * tilesPerRow, per = CeilDiv(items, nb);
            const uint32_t first = per * me, last = Min(items, first + per);
            if (first < last)
                BuildTables();
            for (uint32_t it = first; it < last; it++) {
                const uint32_t o = it / tilesPerRow, i0 = (it % tilesPerRow) * w_;
                Tile(o, i0, Min(w_, inner_ - i0));
            }
        }
    }

private:
    // Sizes for chunks of c elements and tiles of at most maxLines lines;
    // returns the UB bytes they need.
    __aicore__ inline uint32_t Layout(uint32_t c, uint32_t maxLines)
    {
        const uint32_t lp = RoundUp(len_, GROUP);
        // strided lines: a [chunk, w] block of rows at least one 32-byte
        // block wide must fit c elements too
        ch_ = inner_ == 1 ? c : c / EPB;
        multi_ = lp > ch_;
        lcp_ = multi_ ? ch_ : lp;
        if (inner_ == 1) {
            r_ = multi_ ? 1 : Min(c / lcp_, maxLines);
            w_ = 1;
            p_ = RoundUp(multi_ ? ch_ : len_, EPB);
            gatherIn_ = (len_ % GROUP) != 0;
        } else {
            r_ = c / lcp_ / EPB * EPB;
            // enough tiles for every block when there are few lines
            w_ = Min(Min(Min(r_, maxLines), inner_), Max(1, CeilDiv(outer_ * inner_, GetBlockNum())));
            r_ = w_;
            p_ = RoundUp(w_, EPB);
            gatherIn_ = true;
        }
        // Lines of whole fours of groups: the first merge round of every
        // line in one MrgSort (repeatTimes), on lists cut to l1_ pairs and
        // packed back to back by GatherMask; the rounds after it per line.
        const uint32_t groups = lcp_ / GROUP;
        batch_ = !multi_ && groups % 4 == 0;
        l1_ = Min(kq_, GROUP);
        const Rounds rd = batch_ ? PlanRounds(groups / 4, kq_, 4 * l1_) : PlanRounds(groups, kq_, GROUP);
        bufA_ = bufB_ = 0;
        for (uint32_t i = 0; i + 1 < rd.n; i++) {
            const uint32_t need = rd.lists[i] * rd.slot[i];
            if (i % 2 == 0)
                bufA_ = Max(bufA_, need);
            else
                bufB_ = Max(bufB_, need);
        }
        // strided output rows: pit_ elements apart, whole 32-byte blocks of
        // half, float and int64 alike
        pit_ = RoundUp(r_, 16);
        // the output gathers read the extracted pairs of pit_ lines
        nExt_ = RoundUp((inner_ == 1 ? r_ : pit_) * kq_, GROUP);
        resPairs_ = RoundUp(Max(r_ * kq_ + 4 * kq_, nExt_ * IDX_EXTRACT), 4);
        nOut_ = inner_ == 1 ? r_ * k_ : k_ * pit_;
        const uint32_t rows = r_ * lcp_;
        uint32_t b = 0;
        oSorted_ = b;  b += RoundUp(rows * PAIR, 256);
        oLines_ = b;   b += gatherIn_ ? RoundUp(rows * SZ, 256) : 0;
        oGoff_ = b;    b += gatherIn_ ? RoundUp(rows * 4, 256) : 0;
        oIdx0_ = b;    b += RoundUp(rows * 4, 256);
        oIdxC_ = b;    b += multi_ ? RoundUp(rows * 4, 256) : 0;
        oPack_ = b;    b += batch_ && l1_ < GROUP ? RoundUp(rows / GROUP * l1_ * PAIR, 256) + 256 : 0;
        oFirst_ = b;   b += batch_ ? RoundUp(rows / GROUP * l1_ * PAIR, 256) : 0;
        oBufA_ = b;    b += RoundUp(bufA_ * PAIR, 256);
        oBufB_ = b;    b += RoundUp(bufB_ * PAIR, 256);
        oRes_ = b;     b += RoundUp(resPairs_ * PAIR, 256);
        runBytes_ = RoundUp(r_ * 4 * kq_ * PAIR, 256);
        oRun_ = b;     b += multi_ ? 2 * runBytes_ + RoundUp(4 * kq_ * PAIR, 256) : 0;
        oExtV_ = b;    b += RoundUp(nExt_ * SZ, 256);
        oExtI_ = b;    b += RoundUp(nExt_ * IDX_EXTRACT * 4, 256);
        oVoff_ = b;    b += RoundUp(nOut_ * 4, 256);
        oIoff_ = b;    b += RoundUp(nOut_ * 4, 256);
        oIdx32_ = b;   b += RoundUp(nOut_ * 4, 256);
        work_ = b;
        // the gather reads whole rows of lcp_ from each line's start
        rawBytes_ = RoundUp((inner_ == 1 ? r_ * lcp_ : lcp_ * p_) * SZ, 256);
        outVBytes_ = RoundUp(nOut_ * SZ, 256);
        outIBytes_ = RoundUp(nOut_ * 8, 256);
        return work_ + 2 * (rawBytes_ + outVBytes_ + outIBytes_);
    }

    __aicore__ inline void Allocate()
    {
        // first, so that its carving starts on a 256-byte boundary (Sort32's
        // destination alignment), and every queue buffer keeps it
        pipe_.InitBuffer(work_b_, work_);
        pipe_.InitBuffer(rawQ_, 2, rawBytes_);
        pipe_.InitBuffer(outV_, 2, outVBytes_);
        pipe_.InitBuffer(outI_, 2, outIBytes_);
    }

    template <class U>
    __aicore__ inline LocalTensor<U> Region(uint32_t offBytes, uint32_t bytes)
    {
        LocalTensor<U> t = work_b_.Get<U>()[offBytes / sizeof(U)];
        t.SetSize(bytes / sizeof(U));
        return t;
    }
    __aicore__ inline LocalTensor<T> Pairs(uint32_t off, uint32_t pairs) { return Region<T>(off, pairs * PAIR); }

    // Offsets tables and the index table, once per block.
    __aicore__ inline void BuildTables()
    {
        const uint32_t rows = r_ * lcp_;
        LocalTensor<int32_t> idx0 = Region<int32_t>(oIdx0_, rows * 4);
        LocalTensor<int32_t> goff = Region<int32_t>(oGoff_, rows * 4);
        // the first 8 entries (one block) by the scalar unit, the rest by
        // doubling with the vector unit
        for (uint32_t l = 0; l < 8; l++) {
            idx0.SetValue(l, (int32_t)l);
            if (gatherIn_)
                goff.SetValue(l, (int32_t)(l * (inner_ == 1 ? 1 : p_) * SZ));
        }
        if (batch_ && l1_ < GROUP) {
            // a group's 32 pairs are 64 words: keep the first 2 x l1_
            LocalTensor<uint32_t> pat = Region<uint32_t>(oPack_ + RoundUp(rows / GROUP * l1_ * PAIR, 256), 32);
            const uint64_t bits = (1ull << (2 * l1_)) - 1;
            pat.SetValue(0, (uint32_t)bits);
            pat.SetValue(1, (uint32_t)(bits >> 32));
        }
        LocalTensor<int32_t> voff = Region<int32_t>(oVoff_, nOut_ * 4);
        LocalTensor<int32_t> ioff = Region<int32_t>(oIoff_, nOut_ * 4);
        OutSeeds(voff, SZ);
        OutSeeds(ioff, 4);
        event_t sv = static_cast<event_t>(pipe_.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(sv);
        WaitFlag<HardEvent::S_V>(sv);
        for (uint32_t n = 8; n < lcp_; n *= 2) {
            const uint32_t m = Min(n, lcp_ - n);
            Adds(idx0[n], idx0, (int32_t)n, m);
            if (gatherIn_)
                Adds(goff[n], goff, (int32_t)(n * (inner_ == 1 ? 1 : p_) * SZ), m);
            PipeBarrier<PIPE_V>();
        }
        // every row the same indices; its gather offsets one row (one
        // column, for strided lines) further on
        for (uint32_t r = 1; r < r_; r++) {
            Adds(idx0[r * lcp_], idx0, (int32_t)0, lcp_);
            if (gatherIn_)
                Adds(goff[r * lcp_], goff, (int32_t)(r * (inner_ == 1 ? p_ : 1) * SZ), lcp_);
        }
        OutDoubling(voff, SZ);
        OutDoubling(ioff, 4);
    }

    // The output gathers' byte offsets: output (line r, rank j) comes from
    // extracted pair r * kq_ + j, of esz bytes. The output is [r_, k] for
    // contiguous lines, [k, pit_] for strided ones. Seeds by the scalar
    // unit (whole 32-byte blocks), the rest by doubling.
    __aicore__ inline void OutSeeds(const LocalTensor<int32_t> &tab, uint32_t esz)
    {
        if (inner_ == 1) {
            for (uint32_t r = 0; r < Min(8, r_); r++)
                for (uint32_t j = 0; j < k_; j++)
                    tab.SetValue(r * k_ + j, (int32_t)((r * kq_ + j) * esz));
        } else {
            for (uint32_t r = 0; r < 8; r++)
                tab.SetValue(r, (int32_t)(r * kq_ * esz));
        }
    }
    __aicore__ inline void OutDoubling(const LocalTensor<int32_t> &tab, uint32_t esz)
    {
        if (inner_ == 1) {
            // 8 lines make whole blocks whatever k is
            for (uint32_t n = 8; n < r_; n *= 2) {
                Adds(tab[n * k_], tab, (int32_t)(n * kq_ * esz), Min(n, r_ - n) * k_);
                PipeBarrier<PIPE_V>();
            }
            return;
        }
        for (uint32_t n = 8; n < pit_; n *= 2) {
            Adds(tab[n], tab, (int32_t)(n * kq_ * esz), Min(n, pit_ - n));
            PipeBarrier<PIPE_V>();
        }
        // rank j's row is rank 0's, j pairs on
        for (uint32_t n = 1; n < k_; n *= 2) {
            Adds(tab[n * pit_], tab, (int32_t)(n * esz), Min(n, k_ - n) * pit_);
            PipeBarrier<PIPE_V>();
        }
    }

    // One tile of n lines: o0.. (inner == 1) or columns i0.. of row o0.
    __aicore__ inline void Tile(uint32_t o0, uint32_t i0, uint32_t n)
    {
        const uint32_t chunks = CeilDiv(len_, ch_);
        uint32_t runLen = 0;
        for (uint32_t c = 0; c < chunks; c++) {
            const uint32_t c0 = c * ch_, lc = Min(ch_, len_ - c0), lcp = RoundUp(lc, GROUP);
            LocalTensor<T> raw = LoadChunk(o0, i0, n, c0, lc);
            LocalTensor<T> scores = raw;
            if (gatherIn_) {
                scores = Region<T>(oLines_, r_ * lcp_ * SZ);
                LocalTensor<uint32_t> goff = Region<uint32_t>(oGoff_, r_ * lcp_ * 4);
                // row pitch lcp_ (not lcp): the offsets were built for it
                Gather(scores, raw, goff, (uint32_t)0, n * lcp_);
                PipeBarrier<PIPE_V>();
            }
            PrepareScores(scores, n, lc, lcp);
            LocalTensor<uint32_t> idx = Region<uint32_t>(oIdx0_, r_ * lcp_ * 4);
            if (c0 != 0) {
                LocalTensor<int32_t> shifted = Region<int32_t>(oIdxC_, r_ * lcp_ * 4);
                Adds(shifted, Region<int32_t>(oIdx0_, r_ * lcp_ * 4), (int32_t)c0, n * lcp_);
                PipeBarrier<PIPE_V>();
                idx = shifted.ReinterpretCast<uint32_t>();
            }
            SortGroups(scores, idx, n, lcp);
            rawQ_.FreeTensor(raw);
            const uint32_t groups = lcp / GROUP;
            if (!multi_) {
                if (groups == 1) {
                    // nothing to merge: each line's sorted group is its list
                    DataCopyParams cp((uint16_t)n, (uint16_t)(kq_ * PAIR / 32), (uint16_t)((GROUP - kq_) * PAIR / 32), 0);
                    DataCopy(Pairs(oRes_, resPairs_), Pairs(oSorted_, r_ * lcp_), cp);
                } else if (batch_) {
                    FirstRound(n * groups);
                    LocalTensor<T> first = Pairs(oFirst_, r_ * groups * l1_);
                    const uint32_t perLine = groups * l1_; // pairs: groups / 4 lists of 4 l1_
                    if (groups == 4) {
                        // one list a line already: its first kq pairs into place
                        DataCopyParams cp((uint16_t)n, (uint16_t)(kq_ * PAIR / 32),
                                          (uint16_t)((perLine - kq_) * PAIR / 32), 0);
                        DataCopy(Pairs(oRes_, resPairs_), first, cp);
                    } else {
                        for (uint32_t r = 0; r < n; r++)
                            MergeLine(first, r * perLine, 4 * l1_, groups / 4,
                                      Pairs(oRes_, resPairs_)[GetSortOffset<T>(r * kq_)]);
                    }
                } else {
                    for (uint32_t r = 0; r < n; r++)
                        MergeLine(Pairs(oSorted_, r_ * lcp_), r * lcp_, GROUP, groups,
                                  Pairs(oRes_, resPairs_)[GetSortOffset<T>(r * kq_)]);
                }
                PipeBarrier<PIPE_V>();
                continue;
            }
            // long lines: each chunk's top kk merged into the line's running list
            LocalTensor<T> run[2] = {Pairs(oRun_, r_ * 4 * kq_), Pairs(oRun_ + runBytes_, r_ * 4 * kq_)};
            uint32_t newLen = 0;
            for (uint32_t r = 0; r < n; r++) {
                if (c == 0) {
                    newLen = Min(MergeLine(Pairs(oSorted_, r_ * lcp_), r * lcp_, GROUP, groups,
                                           run[0][GetSortOffset<T>(r * 4 * kq_)]), kk_);
                    continue;
                }
                LocalTensor<T> chunkTop = Pairs(oRun_ + 2 * runBytes_, 4 * kq_);
                uint32_t topLen = Min(kk_, GROUP);
                if (groups > 1)
                    topLen = Min(MergeLine(Pairs(oSorted_, r_ * lcp_), r * lcp_, GROUP, groups, chunkTop), kk_);
                else
                    chunkTop = Pairs(oSorted_, r_ * lcp_)[GetSortOffset<T>(r * lcp_)];
                const uint16_t counts[4] = {(uint16_t)runLen, (uint16_t)topLen, 0, 0};
                MrgSortSrcList<T> lists(run[(c - 1) % 2][GetSortOffset<T>(r * 4 * kq_)], chunkTop, chunkTop, chunkTop);
                uint32_t done[4];
                LocalTensor<T> dst = c + 1 == chunks ? Pairs(oRes_, resPairs_)[GetSortOffset<T>(r * kq_)]
                                                     : run[c % 2][GetSortOffset<T>(r * 4 * kq_)];
                MrgSort<T>(dst, lists, counts, done, 0b11, 1);
                // the next line's merges reuse chunkTop
                PipeBarrier<PIPE_V>();
                newLen = Min(runLen + topLen, kk_);
            }
            runLen = newLen;
            PipeBarrier<PIPE_V>();
        }
        WriteOut(o0, i0, n);
    }

    __aicore__ inline LocalTensor<T> LoadChunk(uint32_t o0, uint32_t i0, uint32_t n, uint32_t c0, uint32_t lc)
    {
        LocalTensor<T> raw = rawQ_.AllocTensor<T>();
        DataCopyPadExtParams<T> noPad{false, 0, 0, (T)0};
        if (inner_ == 1) {
            // n lines (chunks of lines) of lc elements, rows p_ apart
            DataCopyExtParams cp((uint16_t)n, lc * SZ, (len_ - lc) * SZ, (p_ - RoundUp(lc, EPB)) * SZ / 32, 0);
            DataCopyPad(raw, xg_[(uint64_t)o0 * len_ + c0], cp, noPad);
        } else {
            // lc rows of n elements, inner apart in GM, p_ apart in UB
            DataCopyExtParams cp((uint16_t)lc, n * SZ, (inner_ - n) * SZ, (p_ - RoundUp(n, EPB)) * SZ / 32, 0);
            DataCopyPad(raw, xg_[((uint64_t)o0 * len_ + c0) * inner_ + i0], cp, noPad);
        }
        rawQ_.EnQue(raw);
        return rawQ_.DeQue<T>();
    }

    // Negation for the smallest, -inf after the end of each line.
    __aicore__ inline void PrepareScores(const LocalTensor<T> &scores, uint32_t n, uint32_t lc, uint32_t lcp)
    {
        if (!largest_) {
            Muls(scores, scores, (T)-1.0f, n * lcp_);
            PipeBarrier<PIPE_V>();
        }
        if (lc == lcp)
            return;
        const uint32_t tail = lcp - lc;
        uint64_t mask[2] = {((1ull << GROUP) - 1) & ~((1ull << (GROUP - tail)) - 1), 0};
        const T lowest = (T)(-__builtin_huge_valf());
        const uint32_t stride = lcp_ * SZ / 32;
        if (stride <= MAX_REPEAT) {
            for (uint32_t r = 0; r < n; r += MAX_REPEAT)
                Duplicate(scores[r * lcp_ + lcp - GROUP], lowest, mask, (int32_t)Min(MAX_REPEAT, n - r), 1,
                          (uint8_t)stride);
        } else {
            for (uint32_t r = 0; r < n; r++)
                Duplicate(scores[r * lcp_ + lcp - GROUP], lowest, mask, 1, 1, 0);
        }
        PipeBarrier<PIPE_V>();
    }

    // Sort32 over every group of the n rows (lcp used of each row's lcp_).
    __aicore__ inline void SortGroups(const LocalTensor<T> &scores, const LocalTensor<uint32_t> &idx, uint32_t n,
                                      uint32_t lcp)
    {
        LocalTensor<T> sorted = Pairs(oSorted_, r_ * lcp_);
        LocalTensor<T> noTmp;
        // rows lcp_ apart, of which lcp are used (less only in a long line's last chunk)
        const uint32_t groups = ((n - 1) * lcp_ + lcp) / GROUP;
        // Concat counts 16 elements a repeat: at most 127 groups a call
        for (uint32_t g = 0; g < groups; g += MAX_REPEAT / 2) {
            const int32_t rep = (int32_t)Min(MAX_REPEAT / 2, groups - g);
            LocalTensor<T> concat;
            Concat(concat, scores[g * GROUP], noTmp, rep * 2);
            Sort<T, false>(sorted[GetSortOffset<T>(g * GROUP)], concat, idx[g * GROUP], noTmp, rep);
        }
        PipeBarrier<PIPE_V>();
    }

    // Merges one line's sorted lists (`groups` lists of listLen pairs, back
    // to back from pair `base` of src) into dst; returns the length of what
    // it wrote.
    __aicore__ inline uint32_t MergeLine(LocalTensor<T> src, uint32_t base, uint32_t listLen, uint32_t groups,
                                         const LocalTensor<T> &dst)
    {
        const Rounds rd = PlanRounds(groups, kq_, listLen);
        uint32_t pos[MAX_GROUPS], len[MAX_GROUPS];
        for (uint32_t g = 0; g < groups; g++) {
            pos[g] = base + g * listLen;
            len[g] = listLen;
        }
        uint32_t n = groups, out = 0;
        for (uint32_t round = 0; round < rd.n; round++) {
            const bool last = round + 1 == rd.n;
            LocalTensor<T> to = last ? dst : round % 2 == 0 ? Pairs(oBufA_, bufA_) : Pairs(oBufB_, bufB_);
            uint32_t i = 0, made = 0;
            while (i < n) {
                // four at a time; five left become three and two, so that
                // no list is left alone
                uint32_t cnt = n - i == 5 ? 3 : Min(4, n - i);
                uint16_t counts[4] = {0, 0, 0, 0};
                LocalTensor<T> l[4];
                uint32_t sum = 0;
                for (uint32_t q = 0; q < 4; q++) {
                    const uint32_t at = i + (q < cnt ? q : 0);
                    l[q] = src[GetSortOffset<T>(pos[at])];
                    if (q < cnt) {
                        counts[q] = (uint16_t)Min(len[at], kk_);
                        sum += counts[q];
                    }
                }
                MrgSortSrcList<T> lists(l[0], l[1], l[2], l[3]);
                uint32_t done[4];
                const uint32_t slot = last ? 0 : made * rd.slot[round];
                MrgSort<T>(to[GetSortOffset<T>(slot)], lists, counts, done, (uint16_t)((1u << cnt) - 1), 1);
                pos[made] = slot;
                len[made] = sum;
                out = sum;
                made++;
                i += cnt;
            }
            PipeBarrier<PIPE_V>();
            n = made;
            src = to;
        }
        return out;
    }

    // The first merge round of `groups` sorted groups (whole fours of a
    // line): the first l1_ pairs of each packed back to back (unless that
    // is all 32), then every four merged by one repeated MrgSort.
    __aicore__ inline void FirstRound(uint32_t groups)
    {
        LocalTensor<T> lists = Pairs(oSorted_, r_ * lcp_);
        if (l1_ < GROUP) {
            const uint32_t packBytes = RoundUp(r_ * lcp_ / GROUP * l1_ * PAIR, 256);
            LocalTensor<uint32_t> packed = Region<uint32_t>(oPack_, packBytes);
            LocalTensor<uint32_t> pat = Region<uint32_t>(oPack_ + packBytes, 32);
            LocalTensor<uint32_t> words = lists.ReinterpretCast<uint32_t>();
            for (uint32_t g = 0; g < groups; g += MAX_REPEAT) {
                const uint16_t rep = (uint16_t)Min(MAX_REPEAT, groups - g);
                uint64_t kept = 0;
                GatherMask(packed[g * l1_ * 2], words[g * GROUP * 2], pat, false, 0,
                           GatherMaskParams(1, rep, 8, 0), kept);
            }
            PipeBarrier<PIPE_V>();
            lists = Region<T>(oPack_, packBytes);
        }
        LocalTensor<T> first = Pairs(oFirst_, r_ * lcp_ / GROUP * l1_);
        const uint16_t counts[4] = {(uint16_t)l1_, (uint16_t)l1_, (uint16_t)l1_, (uint16_t)l1_};
        uint32_t done[4];
        const uint32_t four = 4 * l1_; // pairs a repeat reads and writes
        for (uint32_t q = 0; q < groups / 4; q += MAX_REPEAT) {
            const uint32_t rep = Min(MAX_REPEAT, groups / 4 - q);
            LocalTensor<T> at = lists[GetSortOffset<T>(q * four)];
            MrgSortSrcList<T> src(at, at[GetSortOffset<T>(l1_)], at[GetSortOffset<T>(2 * l1_)],
                                  at[GetSortOffset<T>(3 * l1_)]);
            MrgSort<T>(first[GetSortOffset<T>(q * four)], src, counts, done, 0b1111, (int32_t)rep);
        }
        PipeBarrier<PIPE_V>();
    }

    __aicore__ inline void WriteOut(uint32_t o0, uint32_t i0, uint32_t n)
    {
        LocalTensor<T> res = Pairs(oRes_, resPairs_);
        LocalTensor<T> extV = Region<T>(oExtV_, nExt_ * SZ);
        LocalTensor<uint32_t> extI = Region<uint32_t>(oExtI_, nExt_ * IDX_EXTRACT * 4);
        const uint32_t pairs = RoundUp(n * kq_, GROUP);
        for (uint32_t p = 0; p < pairs; p += MAX_REPEAT * GROUP) {
            const int32_t rep = (int32_t)Min(MAX_REPEAT, (pairs - p) / GROUP);
            Extract(extV[p], extI[p], res[GetSortOffset<T>(p)], rep);
        }
        PipeBarrier<PIPE_V>();
        LocalTensor<T> v = outV_.AllocTensor<T>();
        LocalTensor<int64_t> ix64 = outI_.AllocTensor<int64_t>();
        const uint32_t nv = inner_ == 1 ? n * k_ : nOut_;
        LocalTensor<int32_t> ix32 = Region<int32_t>(oIdx32_, nOut_ * 4);
        Gather(v, extV, Region<uint32_t>(oVoff_, nOut_ * 4), (uint32_t)0, nv);
        Gather(ix32, extI.ReinterpretCast<int32_t>(), Region<uint32_t>(oIoff_, nOut_ * 4), (uint32_t)0, nv);
        PipeBarrier<PIPE_V>();
        if (!largest_)
            Muls(v, v, (T)-1.0f, nv);
        Cast(ix64, ix32, RoundMode::CAST_NONE, nv);
        outV_.EnQue(v);
        outI_.EnQue(ix64);
        v = outV_.DeQue<T>();
        ix64 = outI_.DeQue<int64_t>();
        if (inner_ == 1) {
            DataCopyPad(vg_[(uint64_t)o0 * k_], v, DataCopyExtParams(1, n * k_ * SZ, 0, 0, 0));
            DataCopyPad(ig_[(uint64_t)o0 * k_], ix64, DataCopyExtParams(1, n * k_ * 8, 0, 0, 0));
        } else {
            const uint64_t at = (uint64_t)o0 * k_ * inner_ + i0;
            DataCopyPad(vg_[at], v,
                        DataCopyExtParams(k_, n * SZ, (pit_ * SZ - RoundUp(n * SZ, 32)) / 32, (inner_ - n) * SZ, 0));
            DataCopyPad(ig_[at], ix64,
                        DataCopyExtParams(k_, n * 8, (pit_ * 8 - RoundUp(n * 8, 32)) / 32, (inner_ - n) * 8, 0));
        }
        outV_.FreeTensor(v);
        outI_.FreeTensor(ix64);
    }

    TPipe pipe_;
    TBuf<TPosition::VECCALC> work_b_;
    TQue<TPosition::VECIN, 2> rawQ_;
    TQue<TPosition::VECOUT, 2> outV_, outI_;
    GlobalTensor<T> xg_, vg_;
    GlobalTensor<int64_t> ig_;
    uint32_t outer_ = 0, len_ = 0, inner_ = 0, k_ = 0, kk_ = 0, kq_ = 0;
    bool largest_ = true;
    uint32_t ch_ = 0, lcp_ = 0, r_ = 0, w_ = 0, p_ = 0;
    bool multi_ = false, gatherIn_ = false;
    uint32_t l1_ = 0, oPack_ = 0, oFirst_ = 0;
    bool batch_ = false;
    uint32_t bufA_ = 0, bufB_ = 0, nExt_ = 0, resPairs_ = 0, nOut_ = 0, pit_ = 0;
    uint32_t oSorted_ = 0, oLines_ = 0, oGoff_ = 0, oIdx0_ = 0, oIdxC_ = 0, oBufA_ = 0, oBufB_ = 0;
    uint32_t oRes_ = 0, oRun_ = 0, oExtV_ = 0, oExtI_ = 0, oVoff_ = 0, oIoff_ = 0, oIdx32_ = 0;
    uint32_t work_ = 0, runBytes_ = 0, rawBytes_ = 0, outVBytes_ = 0, outIBytes_ = 0;
};

} // namespace

extern "C" __global__ __aicore__ void top_k_v3(GM_ADDR x, GM_ADDR values, GM_ADDR indices, GM_ADDR workspace,
                                               GM_ADDR tiling)
{
    (void)workspace;
    GET_TILING_DATA(t, tiling);
    TopK op;
    op.Init(x, values, indices, t);
    op.Process();
}
