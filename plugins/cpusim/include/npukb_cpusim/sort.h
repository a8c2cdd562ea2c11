/* npukb_cpusim/sort.h - the 910B (Atlas A2) sort family: Sort32, MrgSort
 * (with MrgSort4Info), GetMrgSortResult, and the high-level Concat, Sort,
 * Extract, MrgSort, GetSortOffset, GetSortLen. Included by
 * kernel_operator.h only.
 *
 * On the 910B a sorted element is an 8-byte (score, index) pair: the score
 * in the low bytes (a half in bytes 0-1, bytes 2-3 reserved; a float in
 * bytes 0-3), the uint32 index in bytes 4-7. Everything sorts descending
 * by score; of two equal scores the earlier one (lower position in a
 * Sort32 group, lower list in a merge) comes first. The 310P region
 * proposal layout (RpSort16, MrgSort4, ProposalConcat/Extract) is another
 * generation's and is not emulated.
 *
 * How the high-level calls map to the instructions on this generation is
 * CANN's kernel_operator_proposal_intf_impl.h (asc-devkit): Concat hands
 * back its source (no copy), Sort is Sort32 (plus, isFullSort, rounds of
 * 4-way merges through tmp), Extract is two GatherMask passes, GetSortLen
 * and GetSortOffset count elements of T (4 halves or 2 floats a pair,
 * whatever the reference's prose says about bytes). Cycle costs are
 * [unconfirmed]: Sort32 a division-speed repeat per group of 32, a merge
 * one plain repeat per 256 bytes it writes. */
#ifndef NPUKB_CPUSIM_SORT_H
#define NPUKB_CPUSIM_SORT_H

namespace AscendC {

constexpr int MRG_SORT_ELEMENT_LEN = 4;

struct MrgSort4Info {
	MrgSort4Info() {}
	MrgSort4Info(const uint16_t elementLengthsIn[MRG_SORT_ELEMENT_LEN], const bool ifExhaustedSuspensionIn,
		     const uint16_t validBitIn, const uint16_t repeatTimesIn)
		: ifExhaustedSuspension(ifExhaustedSuspensionIn), validBit(validBitIn), repeatTimes((uint8_t)repeatTimesIn)
	{
		for (int i = 0; i < MRG_SORT_ELEMENT_LEN; i++)
			elementLengths[i] = elementLengthsIn[i];
	}
	uint16_t elementLengths[MRG_SORT_ELEMENT_LEN] = {0};
	bool ifExhaustedSuspension = false;
	uint16_t validBit = 0;
	uint8_t repeatTimes = 1;
};

template <class T>
struct MrgSortSrcList {
	MrgSortSrcList() {}
	MrgSortSrcList(const LocalTensor<T> &a, const LocalTensor<T> &b, const LocalTensor<T> &c, const LocalTensor<T> &d)
		: src1(a), src2(b), src3(c), src4(d) {}
	LocalTensor<T> src1, src2, src3, src4;
};

namespace detail {

template <class T> struct one_of_sort
	: std::integral_constant<bool, std::is_same<T, half>::value || std::is_same<T, float>::value> {};

constexpr uint32_t SORT_PAIR_BYTES = 8;
constexpr uint32_t SORT32_GROUP = 32;

/* VMS4_SR, the merge status register: how many pairs the last merge took
 * from each list, 16 bits each, list 1 lowest. */
inline uint64_t vms4_sr;

inline double sort_score(const unsigned char *pair, bool is_half)
{
	if (is_half) {
		uint16_t b;
		memcpy(&b, pair, 2);
		return (double)npukb_cpusim::f16_to_f32(b);
	}
	float f;
	memcpy(&f, pair, 4);
	return (double)f;
}

inline void sort_align(const void *p, uint32_t align, const char *what, const char *operand, const char *rule,
		       SrcLoc loc)
{
	const uint32_t off = (uint32_t)((uintptr_t)p - (uintptr_t)npukb_cpusim::ub_arena);
	if (off % align != 0)
		npukb_cpusim::defect("misaligned", loc, "%s: %s at UB address 0x%x is not %u-byte aligned (%s)", what,
				     operand, off, align, rule);
}

/* Groups of 32 sorted one by one: repeat r reads 32 scores at src0 + 32r and
 * 32 indices at src1 + 32r and writes 32 pairs at dst + 256r bytes. */
template <class T>
inline void sort32(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<uint32_t> &src1,
		   int32_t repeat, const char *what, SrcLoc loc)
{
	static_assert(one_of_sort<T>::value, "Sort32/Sort: element type not supported (half, float)");
	check_repeat(repeat, what, loc);
	const uint64_t n = (uint64_t)repeat * SORT32_GROUP;
	npukb_cpusim::ub_check(dst.addr_, n * SORT_PAIR_BYTES, dst.GetLength(), what, "destination", loc);
	npukb_cpusim::ub_check(src0.addr_, n * sizeof(T), src0.GetLength(), what, "scores", loc);
	npukb_cpusim::ub_check(src1.addr_, n * 4, src1.GetLength(), what, "indices", loc);
	/* Every repeat starts on these boundaries (Sort32's constraints); the
	 * first repeat's decide them all. */
	sort_align(src0.addr_, sizeof(T) == 2 ? 64 : 128, what, "scores", "each repeat's scores on 64 bytes (half) or 128 (float)", loc);
	sort_align(src1.addr_, 128, what, "indices", "each repeat's indices on 128 bytes", loc);
	sort_align(dst.addr_, 256, what, "destination", "each repeat's pairs on 256 bytes", loc);
	const bool is_half = sizeof(T) == 2;
	unsigned char *out = new unsigned char[n ? n * SORT_PAIR_BYTES : 1];
	for (uint64_t r = 0; r < (uint64_t)repeat; r++) {
		unsigned char *grp = out + r * SORT32_GROUP * SORT_PAIR_BYTES;
		memset(grp, 0, SORT32_GROUP * SORT_PAIR_BYTES); /* the reserved bytes of a half pair read 0 [unconfirmed] */
		for (uint32_t i = 0; i < SORT32_GROUP; i++) {
			memcpy(grp + i * SORT_PAIR_BYTES, (const unsigned char *)src0.addr_ + (r * SORT32_GROUP + i) * sizeof(T),
			       sizeof(T));
			memcpy(grp + i * SORT_PAIR_BYTES + 4, src1.addr_ + r * SORT32_GROUP + i, 4);
		}
		/* Insertion sort moving only past strictly smaller scores: stable. */
		for (uint32_t i = 1; i < SORT32_GROUP; i++) {
			unsigned char cur[SORT_PAIR_BYTES];
			memcpy(cur, grp + i * SORT_PAIR_BYTES, SORT_PAIR_BYTES);
			const double s = sort_score(cur, is_half);
			uint32_t j = i;
			while (j > 0 && sort_score(grp + (j - 1) * SORT_PAIR_BYTES, is_half) < s) {
				memcpy(grp + j * SORT_PAIR_BYTES, grp + (j - 1) * SORT_PAIR_BYTES, SORT_PAIR_BYTES);
				j--;
			}
			memcpy(grp + j * SORT_PAIR_BYTES, cur, SORT_PAIR_BYTES);
		}
	}
	if (n)
		memcpy((void *)dst.addr_, out, n * SORT_PAIR_BYTES);
	delete[] out;
	npukb_cpusim::cost_vec_rep((uint64_t)repeat, rep_div());
}

inline bool ranges_overlap(uintptr_t a, uint64_t na, uintptr_t b, uint64_t nb)
{
	return na && nb && a < b + nb && b < a + na;
}

/* One merge instruction: up to four sorted lists into dst; see MrgSort. */
template <class T>
inline void mrgsort(const LocalTensor<T> &dst, const MrgSortSrcList<T> &src, const MrgSort4Info &p,
		    const char *what, SrcLoc loc)
{
	static_assert(one_of_sort<T>::value, "MrgSort: element type not supported (half, float)");
	if (p.validBit != 3 && p.validBit != 7 && p.validBit != 15)
		npukb_cpusim::fail("out-of-bounds", loc, "%s: validBit %u is not 3, 7 or 15 (2, 3 or 4 lists)", what,
				   (unsigned)p.validBit);
	const int nl = p.validBit == 3 ? 2 : p.validBit == 7 ? 3 : 4;
	const LocalTensor<T> *lists[4] = {&src.src1, &src.src2, &src.src3, &src.src4};
	uint64_t total = 0;
	for (int i = 0; i < nl; i++) {
		if (p.elementLengths[i] > 4095)
			npukb_cpusim::fail("out-of-bounds", loc, "%s: elementLengths[%d] = %u outside 0..4095", what, i,
					   (unsigned)p.elementLengths[i]);
		total += p.elementLengths[i];
	}
	const uint64_t reps = p.repeatTimes;
	if (reps == 0)
		return; /* a NOP on this generation */
	if (reps > 1) {
		/* The repeat only works on four equal, back-to-back lists, merged in full. */
		bool ok = nl == 4 && !p.ifExhaustedSuspension;
		for (int i = 1; i < 4 && ok; i++)
			ok = p.elementLengths[i] == p.elementLengths[0] &&
			     (const unsigned char *)lists[i]->addr_ ==
				     (const unsigned char *)lists[0]->addr_ + (uint64_t)i * p.elementLengths[0] * SORT_PAIR_BYTES;
		if (!ok)
			npukb_cpusim::fail("out-of-bounds", loc,
					   "%s: repeatTimes %u needs four lists of one length stored back to back, validBit 15 "
					   "and no exhausted suspension",
					   what, (unsigned)reps);
	}
	const uint64_t dbytes = reps * total * SORT_PAIR_BYTES;
	npukb_cpusim::ub_check(dst.addr_, dbytes, dst.GetLength(), what, "destination", loc);
	static const char *const names[4] = {"list 1", "list 2", "list 3", "list 4"};
	for (int i = 0; i < nl; i++) {
		/* the lists of the later repeats follow the four of the first */
		const uint64_t bytes = ((reps - 1) * total + p.elementLengths[i]) * SORT_PAIR_BYTES;
		npukb_cpusim::ub_check_elem(lists[i]->addr_, bytes, lists[i]->GetLength(), 8, what, names[i], loc);
		if (ranges_overlap((uintptr_t)lists[i]->addr_, bytes, (uintptr_t)dst.addr_, dbytes))
			npukb_cpusim::fail("out-of-bounds", loc, "%s: %s overlaps the destination (not supported)", what,
					   names[i]);
	}
	const bool is_half = sizeof(T) == 2;
	unsigned char *out = new unsigned char[dbytes ? dbytes : 1];
	uint64_t taken[4] = {0, 0, 0, 0};
	uint64_t n = 0;
	for (uint64_t r = 0; r < reps; r++) {
		const unsigned char *head[4];
		for (int i = 0; i < nl; i++) {
			head[i] = (const unsigned char *)lists[i]->addr_ + r * total * SORT_PAIR_BYTES;
			taken[i] = 0;
		}
		for (;;) {
			int best = -1;
			double bs = 0;
			bool exhausted = false;
			for (int i = 0; i < nl; i++) {
				if (taken[i] == p.elementLengths[i]) {
					exhausted = true;
					continue;
				}
				const double s = sort_score(head[i] + taken[i] * SORT_PAIR_BYTES, is_half);
				if (best < 0 || s > bs)
					best = i, bs = s;
			}
			if (best < 0 || (exhausted && p.ifExhaustedSuspension))
				break;
			memcpy(out + n * SORT_PAIR_BYTES, head[best] + taken[best] * SORT_PAIR_BYTES, SORT_PAIR_BYTES);
			taken[best]++;
			n++;
		}
	}
	if (n)
		memcpy((void *)dst.addr_, out, n * SORT_PAIR_BYTES);
	delete[] out;
	vms4_sr = 0;
	for (int i = 0; i < nl; i++)
		vms4_sr |= (taken[i] & 0xffff) << (16 * i);
	npukb_cpusim::cost_vec(n * SORT_PAIR_BYTES, rep());
}

} // namespace detail

/* ---- the instructions (basic API) ------------------------------------------- */

/* Sorts each group of 32 scores descending, pairing each with its index. */
template <class T>
inline void Sort32(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<uint32_t> &src1,
		   const int32_t repeatTime, SrcLoc loc = NPUKB_LOC)
{
	detail::sort32(dst, src0, src1, repeatTime, "Sort32", loc);
}

/* Merges 2..4 sorted lists of pairs (validBit 3, 7, 15) into one, descending.
 * With ifExhaustedSuspension it stops as soon as one list has been taken
 * whole; GetMrgSortResult then says how many pairs each list gave. */
template <class T>
inline void MrgSort(const LocalTensor<T> &dst, const MrgSortSrcList<T> &src, const MrgSort4Info &params,
		    SrcLoc loc = NPUKB_LOC)
{
	detail::mrgsort(dst, src, params, "MrgSort", loc);
}

/* How many pairs the last MrgSort took from each list. With
 * ifExhaustedSuspension the numbers are the reference's; without, cpusim
 * gives the same counts (the whole lists) [unconfirmed]. */
inline void GetMrgSortResult(uint16_t &mrgSortList1, uint16_t &mrgSortList2, uint16_t &mrgSortList3,
			     uint16_t &mrgSortList4)
{
	npukb_cpusim::cost_scalar(npukb_cpusim::g.soc.scalar_cycles);
	mrgSortList1 = (uint16_t)(detail::vms4_sr & 0xffff);
	mrgSortList2 = (uint16_t)((detail::vms4_sr >> 16) & 0xffff);
	mrgSortList3 = (uint16_t)((detail::vms4_sr >> 32) & 0xffff);
	mrgSortList4 = (uint16_t)((detail::vms4_sr >> 48) & 0xffff);
}

/* ---- the high-level sort API -------------------------------------------------- */

/* Pairs are 8 bytes: these count elements of T, for indexing a LocalTensor<T>. */
template <class T>
inline uint32_t GetSortOffset(const uint32_t elemOffset)
{
	static_assert(detail::one_of_sort<T>::value, "GetSortOffset: element type not supported (half, float)");
	return elemOffset * (detail::SORT_PAIR_BYTES / (uint32_t)sizeof(T));
}

template <class T>
inline uint32_t GetSortLen(const uint32_t elemCount)
{
	static_assert(detail::one_of_sort<T>::value, "GetSortLen: element type not supported (half, float)");
	return elemCount * (detail::SORT_PAIR_BYTES / (uint32_t)sizeof(T));
}

/* The scores Sort reads are the source itself on this generation: concat
 * becomes src, and tmp is not touched. */
template <class T>
inline void Concat(LocalTensor<T> &concat, const LocalTensor<T> &src, const LocalTensor<T> &tmp, const int32_t repeatTime,
		   SrcLoc loc = NPUKB_LOC)
{
	static_assert(detail::one_of_sort<T>::value, "Concat: element type not supported (half, float)");
	(void)tmp;
	detail::check_repeat(repeatTime, "Concat", loc);
	concat = src;
}

/* Sort32 over repeatTime groups; isFullSort then merges the groups four at
 * a time, round after round, through tmp (which must hold as many pairs and
 * is left holding the result too), so that all repeatTime x 32 pairs end
 * up in one descending order, equal scores in their input order. */
template <class T, bool isFullSort>
inline void Sort(const LocalTensor<T> &dst, const LocalTensor<T> &concat, const LocalTensor<uint32_t> &index,
		 LocalTensor<T> &tmp, const int32_t repeatTime, SrcLoc loc = NPUKB_LOC)
{
	detail::sort32(dst, concat, index, repeatTime, "Sort", loc);
	if (!isFullSort || repeatTime <= 0)
		return;
	const uint64_t n = (uint64_t)repeatTime * detail::SORT32_GROUP;
	const uint64_t bytes = n * detail::SORT_PAIR_BYTES;
	npukb_cpusim::ub_check(tmp.addr_, bytes, tmp.GetLength(), "Sort", "work tensor", loc);
	const bool is_half = sizeof(T) == 2;
	unsigned char *d = (unsigned char *)dst.addr_;
	/* Groups of equal scores keep their order through the merges, which
	 * favour the earlier list: a stable sort of the pairs. */
	for (uint64_t i = 1; i < n; i++) {
		unsigned char cur[detail::SORT_PAIR_BYTES];
		memcpy(cur, d + i * detail::SORT_PAIR_BYTES, detail::SORT_PAIR_BYTES);
		const double s = detail::sort_score(cur, is_half);
		uint64_t j = i;
		while (j > 0 && detail::sort_score(d + (j - 1) * detail::SORT_PAIR_BYTES, is_half) < s) {
			memcpy(d + j * detail::SORT_PAIR_BYTES, d + (j - 1) * detail::SORT_PAIR_BYTES, detail::SORT_PAIR_BYTES);
			j--;
		}
		memcpy(d + j * detail::SORT_PAIR_BYTES, cur, detail::SORT_PAIR_BYTES);
	}
	memcpy((void *)tmp.addr_, d, bytes);
	/* A copy into tmp, then per round a merge over everything and a copy back. */
	npukb_cpusim::cost_vec(bytes, detail::rep());
	for (uint64_t lists = (uint64_t)repeatTime; lists > 1; lists = (lists + 3) / 4) {
		npukb_cpusim::cost_vec(bytes, detail::rep());
		npukb_cpusim::cost_vec(bytes, detail::rep());
	}
}

/* Splits sorted pairs into scores and indices: repeatTime x 32 scores and,
 * as CANN's implementation does it, indices from 2 x repeatTime x 32 pairs
 * for half (a GatherMask of repeatTime x 2 repeats over the pairs seen as
 * uint32) and repeatTime x 32 for float. */
template <class T>
inline void Extract(const LocalTensor<T> &dstValue, const LocalTensor<uint32_t> &dstIndex, const LocalTensor<T> &sorted,
		    const int32_t repeatTime, SrcLoc loc = NPUKB_LOC)
{
	static_assert(detail::one_of_sort<T>::value, "Extract: element type not supported (half, float)");
	const char *what = "Extract";
	detail::check_repeat(repeatTime, what, loc);
	const uint64_t nv = (uint64_t)repeatTime * detail::SORT32_GROUP;
	const uint64_t ni = sizeof(T) == 2 ? 2 * nv : nv;
	npukb_cpusim::ub_check(dstValue.addr_, nv * sizeof(T), dstValue.GetLength(), what, "destination", loc);
	npukb_cpusim::ub_check(sorted.addr_, nv * detail::SORT_PAIR_BYTES, sorted.GetLength(), what, "source", loc);
	npukb_cpusim::cost_vec_rep((uint64_t)repeatTime, detail::rep());
	npukb_cpusim::ub_check(dstIndex.addr_, ni * 4, dstIndex.GetLength(), what, "destination", loc);
	npukb_cpusim::ub_check(sorted.addr_, ni * detail::SORT_PAIR_BYTES, sorted.GetLength(), what, "source", loc);
	const unsigned char *s = (const unsigned char *)sorted.addr_;
	T *v = new T[nv ? nv : 1];
	uint32_t *ix = new uint32_t[ni ? ni : 1];
	for (uint64_t i = 0; i < nv; i++)
		memcpy(&v[i], s + i * detail::SORT_PAIR_BYTES, sizeof(T));
	for (uint64_t i = 0; i < ni; i++)
		memcpy(&ix[i], s + i * detail::SORT_PAIR_BYTES + 4, 4);
	if (nv)
		memcpy((void *)dstValue.addr_, v, nv * sizeof(T));
	if (ni)
		memcpy((void *)dstIndex.addr_, ix, ni * 4);
	delete[] v;
	delete[] ix;
	npukb_cpusim::cost_vec_rep((uint64_t)(sizeof(T) == 2 ? 2 * repeatTime : repeatTime), detail::rep());
}

/* The high-level merge: MrgSort4Info from the arguments; with
 * isExhaustedSuspension, sortedNum receives GetMrgSortResult's counts. */
template <class T, bool isExhaustedSuspension = false>
inline void MrgSort(const LocalTensor<T> &dst, const MrgSortSrcList<T> &sortList, const uint16_t elementCountList[4],
		    uint32_t sortedNum[4], uint16_t validBit, const int32_t repeatTime, SrcLoc loc = NPUKB_LOC)
{
	if (repeatTime < 0 || repeatTime > 255)
		npukb_cpusim::fail("out-of-bounds", loc, "MrgSort: repeat times %d outside 0..255", repeatTime);
	MrgSort4Info info(elementCountList, isExhaustedSuspension, validBit, (uint16_t)repeatTime);
	detail::mrgsort(dst, sortList, info, "MrgSort", loc);
	if (isExhaustedSuspension)
		for (int i = 0; i < 4; i++)
			sortedNum[i] = (uint32_t)((detail::vms4_sr >> (16 * i)) & 0xffff);
}

} // namespace AscendC

#endif
