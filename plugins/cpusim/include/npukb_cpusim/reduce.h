/* npukb_cpusim/reduce.h - AscendC reductions: ReduceSum/Max/Min over a
 * count of elements, and the per-repeat WholeReduce* and per-block
 * BlockReduce* forms.
 *
 * Sums add adjacent pairs in a binary tree ((a0+a1)+(a2+a3))..., rounding
 * every addition to T; half additions saturate at +-65504 as documented.
 * ReduceSum reduces each repeat (256 bytes) by the tree and then the
 * per-repeat results the same way until one value is left [the order across
 * repeats is unconfirmed]. Masked-off lanes take part as zeros. Max/Min
 * report the first (lowest) index among equal values; an index is stored in
 * the result slot as an unsigned integer of the element's width. */
#ifndef NPUKB_CPUSIM_REDUCE_H
#define NPUKB_CPUSIM_REDUCE_H

namespace AscendC {

enum class ReduceOrder : uint8_t { ORDER_VALUE_INDEX = 0, ORDER_INDEX_VALUE, ORDER_ONLY_VALUE, ORDER_ONLY_INDEX };
/* Older spellings. */
constexpr ReduceOrder ORDER_VALUE_INDEX = ReduceOrder::ORDER_VALUE_INDEX;
constexpr ReduceOrder ORDER_INDEX_VALUE = ReduceOrder::ORDER_INDEX_VALUE;
constexpr ReduceOrder ORDER_ONLY_VALUE = ReduceOrder::ORDER_ONLY_VALUE;
constexpr ReduceOrder ORDER_ONLY_INDEX = ReduceOrder::ORDER_ONLY_INDEX;

namespace detail {

template <class T>
inline T add_sat(T a, T b)
{
	double s = widen(a) + widen(b);
	if (std::is_same<T, half>::value) {
		if (s > 65504.0)
			s = 65504.0;
		if (s < -65504.0)
			s = -65504.0;
	}
	return (T)s;
}

/* Sums v[0..n-1] in place by the adjacent-pair tree; returns v[0]. */
template <class T>
inline T tree_sum(T *v, uint64_t n)
{
	if (n == 0)
		return T(0);
	while (n > 1) {
		const uint64_t h = n / 2;
		for (uint64_t i = 0; i < h; i++)
			v[i] = add_sat(v[2 * i], v[2 * i + 1]);
		if (n & 1)
			v[h] = v[n - 1];
		n = h + (n & 1);
	}
	return v[0];
}

template <class T> using idx_t = typename std::conditional<sizeof(T) == 2, uint16_t, uint32_t>::type;

template <class T>
inline void put_index(T *slot, uint64_t idx)
{
	const idx_t<T> i = (idx_t<T>)idx;
	memcpy((void *)slot, &i, sizeof i);
}

inline void check_work(const void *work, const char *what, SrcLoc loc)
{
	npukb_cpusim::ub_check(work, 0, 0, what, "work tensor", loc);
}

/* The tail of ReduceSum's count form on 910B (__CCE_AICORE__ 220): after
 * its one vcadd the API waits for the vector pipe on the scalar unit
 * (V_S), stores the accumulator into dst with a scalar write, then sets
 * and waits S_V and S_MTE3 itself. Vector instructions and UB->GM copies
 * that follow are thus ordered after the result with no flag of the
 * kernel's own. ReduceMax/ReduceMin's count forms end the same way
 * (their last step stores value and index with scalar writes), except
 * with calIndex over at most one repeat, where one vector instruction
 * writes dst and nothing follows. Other SoCs take another path (not
 * modelled here). */
inline void finish_on_scalar(const void *dst, uint32_t bytes, const char *what, SrcLoc loc)
{
#if !defined(__CCE_AICORE__) || __CCE_AICORE__ == 220
	namespace rt = npukb_cpusim;
	rt::wait_until(rt::P_S, rt::g.done[rt::P_V]);
	rt::ub_note_access(rt::ub_offset(dst), bytes, what, "destination", loc);
	rt::cost_scalar(rt::g.soc.scalar_cycles);
	rt::wait_until(rt::P_V, rt::g.busy[rt::P_S]);
	rt::wait_until(rt::P_MTE3, rt::g.busy[rt::P_S]);
#else
	(void)dst;
	(void)bytes;
	(void)what;
	(void)loc;
#endif
}

} // namespace detail

template <class T>
inline void ReduceSum(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &work,
		      const int32_t count, SrcLoc loc = NPUKB_LOC)
{
	static_assert(detail::one_of_float<T>::value, "ReduceSum: element type not supported (half, float)");
	detail::check_count(count, "ReduceSum", loc);
	npukb_cpusim::ub_check(src.addr_, (uint64_t)count * sizeof(T), src.GetLength(), "ReduceSum", "source", loc);
	npukb_cpusim::ub_check_elem(dst.addr_, sizeof(T), dst.GetLength(), sizeof(T), "ReduceSum", "destination", loc);
	detail::check_work(work.addr_, "ReduceSum", loc);
	const uint64_t lanes = (uint64_t)detail::lanes_of(sizeof(T));
	uint64_t n = (uint64_t)count, repeats = 0;
	T *v = new T[n ? n : 1];
	memcpy(v, src.addr_, n * sizeof(T));
	/* One level: every repeat of `lanes` values becomes one value. */
	while (n > 1) {
		const uint64_t groups = (n + lanes - 1) / lanes;
		for (uint64_t gi = 0; gi < groups; gi++) {
			const uint64_t len = n - gi * lanes < lanes ? n - gi * lanes : lanes;
			v[gi] = detail::tree_sum(v + gi * lanes, len);
		}
		repeats += groups;
		n = groups;
	}
	dst.addr_[0] = count ? v[0] : T(0);
	delete[] v;
	npukb_cpusim::cost_vec_rep(repeats, detail::rep());
	detail::after_count_form();
	detail::finish_on_scalar(dst.addr_, sizeof(T), "ReduceSum", loc);
}

namespace detail {
template <class T, bool is_max>
inline void reduce_ext(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &work,
		       int32_t count, bool cal_index, const char *what, SrcLoc loc)
{
	check_count(count, what, loc);
	npukb_cpusim::ub_check(src.addr_, (uint64_t)count * sizeof(T), src.GetLength(), what, "source", loc);
	npukb_cpusim::ub_check_elem(dst.addr_, (cal_index ? 2 : 1) * sizeof(T), dst.GetLength(), sizeof(T), what,
				    "destination", loc);
	check_work(work.addr_, what, loc);
	uint64_t best = 0;
	for (int32_t i = 1; i < count; i++) {
		const double a = widen(src.addr_[i]), b = widen(src.addr_[best]);
		if (better(is_max, a, b))
			best = (uint64_t)i;
	}
	const T value = count ? src.addr_[best] : T(0);
	dst.addr_[0] = value;
	npukb_cpusim::g.rmm_value = widen(value);
	npukb_cpusim::g.rmm_index = best;
	if (cal_index)
		put_index(dst.addr_ + 1, best);
	const uint64_t lanes = (uint64_t)lanes_of(sizeof(T));
	uint64_t n = (uint64_t)count, repeats = 0;
	while (n > 1) {
		n = (n + lanes - 1) / lanes;
		repeats += n;
	}
	npukb_cpusim::cost_vec_rep(repeats, rep());
	npukb_cpusim::vreg_written();
	after_count_form();
	if (!(cal_index && (uint64_t)count <= lanes))
		finish_on_scalar(dst.addr_, (cal_index ? 2 : 1) * sizeof(T), what, loc);
}
} // namespace detail

template <class T>
inline void ReduceMax(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &work,
		      const int32_t count, bool calIndex = false, SrcLoc loc = NPUKB_LOC)
{
	static_assert(detail::one_of_float<T>::value, "ReduceMax: element type not supported (half, float)");
	detail::reduce_ext<T, true>(dst, src, work, count, calIndex, "ReduceMax", loc);
}

template <class T>
inline void ReduceMin(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &work,
		      const int32_t count, bool calIndex = false, SrcLoc loc = NPUKB_LOC)
{
	static_assert(detail::one_of_float<T>::value, "ReduceMin: element type not supported (half, float)");
	detail::reduce_ext<T, false>(dst, src, work, count, calIndex, "ReduceMin", loc);
}

/* The last ReduceMax/ReduceMin's value, and its index as the bit pattern of
 * an unsigned integer of T's width (read it back through a reinterpret). */
template <class T>
inline void GetReduceMaxMinCount(T &maxMinValue, T &maxMinIndex)
{
	static_assert(sizeof(T) == 2 || sizeof(T) == 4, "GetReduceMaxMinCount: element type not supported (half, float)");
	npukb_cpusim::vreg_read();
	maxMinValue = (T)npukb_cpusim::g.rmm_value;
	const detail::idx_t<T> i = (detail::idx_t<T>)npukb_cpusim::g.rmm_index;
	memcpy((void *)&maxMinIndex, &i, sizeof i);
}
template <class T>
inline void GetReduceMaxMinCount(T &maxMinValue)
{
	npukb_cpusim::vreg_read();
	maxMinValue = (T)npukb_cpusim::g.rmm_value;
}

/* ---- mask forms: all active lanes of all repeats to one value --------------------- */

namespace detail {
template <class T, int kind>
inline void reduce_mask(const Plan &pl, const LocalTensor<T> &dst, const LocalTensor<T> &src,
			const LocalTensor<T> &work, int32_t src_rep, bool cal_index, const char *what, SrcLoc loc);
}

#define NPUKB_REDUCE_MASK(NAME, KIND, IDX_PARAM, IDX_ARG)                                               \
	template <class T, bool isSetMask = true>                                                         \
	inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &work, \
			 int32_t mask, int32_t repeatTimes, int32_t srcRepStride IDX_PARAM,                 \
			 SrcLoc loc = NPUKB_LOC)                                                           \
	{                                                                                                  \
		static_assert(detail::one_of_float<T>::value, #NAME ": element type not supported (half, float)"); \
		const detail::Plan pl = detail::plan_len(isSetMask, (uint64_t)(uint32_t)mask,                 \
							 detail::lanes_of(sizeof(T)), repeatTimes, #NAME, loc);  \
		detail::reduce_mask<T, detail::KIND>(pl, dst, src, work, srcRepStride, IDX_ARG, #NAME, loc);   \
	}                                                                                                  \
	template <class T, bool isSetMask = true>                                                         \
	inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &work, \
			 const uint64_t mask[], int32_t repeatTimes, int32_t srcRepStride IDX_PARAM,         \
			 SrcLoc loc = NPUKB_LOC)                                                           \
	{                                                                                                  \
		static_assert(detail::one_of_float<T>::value, #NAME ": element type not supported (half, float)"); \
		const detail::Plan pl = detail::plan_bits(isSetMask, mask, detail::lanes_of(sizeof(T)),        \
							  repeatTimes, #NAME, loc);                              \
		detail::reduce_mask<T, detail::KIND>(pl, dst, src, work, srcRepStride, IDX_ARG, #NAME, loc);   \
	}

/* ---- per repeat ------------------------------------------------------------------ */

namespace detail {

enum WholeKind { W_SUM, W_MAX, W_MIN };

template <class T, int kind>
inline void whole_reduce(const Plan &pl, const LocalTensor<T> &dst, const LocalTensor<T> &src, int32_t dst_rep,
			 int32_t src_blk, int32_t src_rep, ReduceOrder order, const char *what, SrcLoc loc)
{
	const Opnd s = opnd(src, (uint32_t)src_blk, (uint32_t)src_rep, "source");
	check_opnd(pl, s, what, loc);
	const bool both = kind != W_SUM && (order == ReduceOrder::ORDER_VALUE_INDEX || order == ReduceOrder::ORDER_INDEX_VALUE);
	const uint64_t unit = both ? 2 : 1;
	const uint64_t span = pl.repeats ? ((uint64_t)(pl.repeats - 1) * (uint64_t)dst_rep + 1) * unit : 0;
	npukb_cpusim::ub_check_elem(dst.addr_, span * sizeof(T), dst.GetLength(), sizeof(T), what, "destination", loc);
	T v[256];
	/* The best over all repeats is what GetReduceMaxMinCount reads after
	 * a WholeReduceMax/Min (in counter mode one instruction covers the
	 * whole count); its index is the element's position in src. */
	bool found = false;
	double all_best = 0;
	uint64_t all_at = 0;
	for (int64_t r = 0; r < pl.repeats; r++) {
		T *out = dst.addr_ + (uint64_t)r * (uint64_t)dst_rep * unit;
		if (kind == W_SUM) {
			for (int l = 0; l < pl.lanes; l++)
				v[l] = pl.on(r, l) ? ld<T>(s, r, l) : T(0);
			out[0] = tree_sum(v, (uint64_t)pl.lanes);
			continue;
		}
		int best = -1;
		for (int l = 0; l < pl.lanes; l++) {
			if (!pl.on(r, l))
				continue;
			if (best < 0) {
				best = l;
				continue;
			}
			const double a = widen(ld<T>(s, r, l)), b = widen(ld<T>(s, r, best));
			if (better(kind == W_MAX, a, b))
				best = l;
		}
		if (best < 0)
			continue;
		const T value = ld<T>(s, r, best);
		if (!found || better(kind == W_MAX, widen(value), all_best)) {
			found = true;
			all_best = widen(value);
			all_at = (uint64_t)(s.at(r, best) - s.p) / sizeof(T);
		}
		switch (order) {
		case ReduceOrder::ORDER_VALUE_INDEX: out[0] = value; put_index(out + 1, (uint64_t)best); break;
		case ReduceOrder::ORDER_INDEX_VALUE: put_index(out, (uint64_t)best); out[1] = value; break;
		case ReduceOrder::ORDER_ONLY_VALUE: out[0] = value; break;
		case ReduceOrder::ORDER_ONLY_INDEX: put_index(out, (uint64_t)best); break;
		}
	}
	if (found) {
		npukb_cpusim::g.rmm_value = all_best;
		npukb_cpusim::g.rmm_index = all_at;
	}
	npukb_cpusim::cost_vec_rep((uint64_t)pl.repeats, rep());
	if (found)
		npukb_cpusim::vreg_written();
}

/* One result per 32-byte block of each repeat, 8 per repeat. */
template <class T, int kind>
inline void block_reduce(const Plan &pl, const LocalTensor<T> &dst, const LocalTensor<T> &src, int32_t dst_rep,
			 int32_t src_blk, int32_t src_rep, const char *what, SrcLoc loc)
{
	const Opnd s = opnd(src, (uint32_t)src_blk, (uint32_t)src_rep, "source");
	check_opnd(pl, s, what, loc);
	const uint64_t span = pl.repeats ? ((uint64_t)(pl.repeats - 1) * (uint64_t)dst_rep + 1) * 8 : 0;
	npukb_cpusim::ub_check_elem(dst.addr_, span * sizeof(T), dst.GetLength(), sizeof(T), what, "destination", loc);
	const int epb = 32 / (int)sizeof(T);
	T v[32];
	for (int64_t r = 0; r < pl.repeats; r++) {
		T res[8];
		for (int j = 0; j < 8; j++) {
			int n = 0;
			for (int k = 0; k < epb; k++) {
				const int l = j * epb + k;
				if (kind == W_SUM)
					v[k] = pl.on(r, l) ? ld<T>(s, r, l) : T(0);
				else if (pl.on(r, l))
					v[n++] = ld<T>(s, r, l);
			}
			if (kind == W_SUM) {
				res[j] = tree_sum(v, (uint64_t)epb);
			} else {
				T b = n ? v[0] : T(0);
				for (int k = 1; k < n; k++)
					if (better(kind == W_MAX, widen(v[k]), widen(b)))
						b = v[k];
				res[j] = b;
			}
		}
		memcpy((void *)(dst.addr_ + (uint64_t)r * (uint64_t)dst_rep * 8), res, sizeof res);
	}
	npukb_cpusim::cost_vec_rep((uint64_t)pl.repeats, rep());
}

} // namespace detail

#define NPUKB_WHOLE(NAME, KIND, ORDER_PARAM, ORDER_ARG)                                                 \
	template <class T, bool isSetMask = true>                                                         \
	inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, int32_t mask,               \
			 int32_t repeatTimes, int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride \
			 ORDER_PARAM, SrcLoc loc = NPUKB_LOC)                                              \
	{                                                                                                  \
		static_assert(detail::one_of_float<T>::value, #NAME ": element type not supported (half, float)"); \
		const detail::Plan pl = detail::plan_len(isSetMask, (uint64_t)(uint32_t)mask,                 \
							 detail::lanes_of(sizeof(T)), repeatTimes, #NAME, loc);  \
		detail::whole_reduce<T, detail::KIND>(pl, dst, src, dstRepStride, srcBlkStride, srcRepStride,  \
						       ORDER_ARG, #NAME, loc);                                  \
	}                                                                                                  \
	template <class T, bool isSetMask = true>                                                         \
	inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint64_t mask[],      \
			 int32_t repeatTimes, int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride \
			 ORDER_PARAM, SrcLoc loc = NPUKB_LOC)                                              \
	{                                                                                                  \
		static_assert(detail::one_of_float<T>::value, #NAME ": element type not supported (half, float)"); \
		const detail::Plan pl = detail::plan_bits(isSetMask, mask, detail::lanes_of(sizeof(T)),        \
							  repeatTimes, #NAME, loc);                              \
		detail::whole_reduce<T, detail::KIND>(pl, dst, src, dstRepStride, srcBlkStride, srcRepStride,  \
						       ORDER_ARG, #NAME, loc);                                  \
	}

#define NPUKB_COMMA ,
NPUKB_REDUCE_MASK(ReduceSum, W_SUM, , false)
NPUKB_REDUCE_MASK(ReduceMax, W_MAX, NPUKB_COMMA bool calIndex = false, calIndex)
NPUKB_REDUCE_MASK(ReduceMin, W_MIN, NPUKB_COMMA bool calIndex = false, calIndex)
#undef NPUKB_REDUCE_MASK
NPUKB_WHOLE(WholeReduceSum, W_SUM, , ReduceOrder::ORDER_ONLY_VALUE)
NPUKB_WHOLE(WholeReduceMax, W_MAX, NPUKB_COMMA ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX, order)
NPUKB_WHOLE(WholeReduceMin, W_MIN, NPUKB_COMMA ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX, order)
#undef NPUKB_WHOLE
#undef NPUKB_COMMA

namespace detail {
/* PairReduceSum: lanes 2k and 2k+1 of each repeat add into result k; a
 * repeat yields lanes/2 results, dstRepStride counts such groups. Pairs
 * with no active lane are left alone [unconfirmed]. */
template <class T>
inline void pair_reduce(const Plan &pl, const LocalTensor<T> &dst, const LocalTensor<T> &src, int32_t dst_rep,
			int32_t src_blk, int32_t src_rep, SrcLoc loc)
{
	const char *what = "PairReduceSum";
	const Opnd s = opnd(src, (uint32_t)src_blk, (uint32_t)src_rep, "source");
	check_opnd(pl, s, what, loc);
	const uint64_t half_lanes = (uint64_t)pl.lanes / 2;
	/* The destination reaches the last result of an active pair of the
	 * last repeat (a masked tail writes nothing beyond it). */
	uint64_t last = 0;
	for (uint64_t k = 0; pl.repeats && k < half_lanes; k++)
		if (pl.on(pl.repeats - 1, (int)(2 * k)) || pl.on(pl.repeats - 1, (int)(2 * k + 1)))
			last = k + 1;
	const uint64_t span = pl.repeats ? (uint64_t)(pl.repeats - 1) * (uint64_t)dst_rep * half_lanes + last : 0;
	npukb_cpusim::ub_check_elem(dst.addr_, span * sizeof(T), dst.GetLength(), sizeof(T), what, "destination", loc);
	T res[128];
	bool on[128];
	for (int64_t r = 0; r < pl.repeats; r++) {
		for (uint64_t k = 0; k < half_lanes; k++) {
			const int l = (int)(2 * k);
			const bool a = pl.on(r, l), b = pl.on(r, l + 1);
			on[k] = a || b;
			if (on[k])
				res[k] = add_sat(a ? ld<T>(s, r, l) : T(0), b ? ld<T>(s, r, l + 1) : T(0));
		}
		T *out = dst.addr_ + (uint64_t)r * (uint64_t)dst_rep * half_lanes;
		for (uint64_t k = 0; k < half_lanes; k++)
			if (on[k])
				out[k] = res[k];
	}
	npukb_cpusim::cost_vec_rep((uint64_t)pl.repeats, rep());
}
} // namespace detail

template <class T, bool isSetMask = true>
inline void PairReduceSum(const LocalTensor<T> &dst, const LocalTensor<T> &src, int32_t repeatTimes, int32_t mask,
			  int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride, SrcLoc loc = NPUKB_LOC)
{
	static_assert(detail::one_of_float<T>::value, "PairReduceSum: element type not supported (half, float)");
	const detail::Plan pl = detail::plan_len(isSetMask, (uint64_t)(uint32_t)mask, detail::lanes_of(sizeof(T)),
						 repeatTimes, "PairReduceSum", loc);
	detail::pair_reduce(pl, dst, src, dstRepStride, srcBlkStride, srcRepStride, loc);
}

template <class T, bool isSetMask = true>
inline void PairReduceSum(const LocalTensor<T> &dst, const LocalTensor<T> &src, int32_t repeatTimes,
			  const uint64_t mask[], int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride,
			  SrcLoc loc = NPUKB_LOC)
{
	static_assert(detail::one_of_float<T>::value, "PairReduceSum: element type not supported (half, float)");
	const detail::Plan pl = detail::plan_bits(isSetMask, mask, detail::lanes_of(sizeof(T)), repeatTimes,
						  "PairReduceSum", loc);
	detail::pair_reduce(pl, dst, src, dstRepStride, srcBlkStride, srcRepStride, loc);
}

#define NPUKB_BLOCK(NAME, KIND)                                                                         \
	template <class T, bool isSetMask = true>                                                         \
	inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, int32_t repeatTimes,         \
			 int32_t mask, int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride,   \
			 SrcLoc loc = NPUKB_LOC)                                                           \
	{                                                                                                  \
		static_assert(detail::one_of_float<T>::value, #NAME ": element type not supported (half, float)"); \
		const detail::Plan pl = detail::plan_len(isSetMask, (uint64_t)(uint32_t)mask,                 \
							 detail::lanes_of(sizeof(T)), repeatTimes, #NAME, loc);  \
		detail::block_reduce<T, detail::KIND>(pl, dst, src, dstRepStride, srcBlkStride, srcRepStride, #NAME, loc); \
	}                                                                                                  \
	template <class T, bool isSetMask = true>                                                         \
	inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, int32_t repeatTimes,         \
			 const uint64_t mask[], int32_t dstRepStride, int32_t srcBlkStride,                 \
			 int32_t srcRepStride, SrcLoc loc = NPUKB_LOC)                                     \
	{                                                                                                  \
		static_assert(detail::one_of_float<T>::value, #NAME ": element type not supported (half, float)"); \
		const detail::Plan pl = detail::plan_bits(isSetMask, mask, detail::lanes_of(sizeof(T)),        \
							  repeatTimes, #NAME, loc);                              \
		detail::block_reduce<T, detail::KIND>(pl, dst, src, dstRepStride, srcBlkStride, srcRepStride, #NAME, loc); \
	}

NPUKB_BLOCK(BlockReduceSum, W_SUM)
NPUKB_BLOCK(BlockReduceMax, W_MAX)
NPUKB_BLOCK(BlockReduceMin, W_MIN)
#undef NPUKB_BLOCK

namespace detail {
/* The index reported is the element's position in src [unconfirmed for
 * strided sources]. */
template <class T, int kind>
inline void reduce_mask(const Plan &pl, const LocalTensor<T> &dst, const LocalTensor<T> &src,
			const LocalTensor<T> &work, int32_t src_rep, bool cal_index, const char *what, SrcLoc loc)
{
	const Opnd s = opnd(src, 1u, (uint32_t)src_rep, "source");
	check_opnd(pl, s, what, loc);
	npukb_cpusim::ub_check_elem(dst.addr_, (cal_index ? 2 : 1) * sizeof(T), dst.GetLength(), sizeof(T), what,
				    "destination", loc);
	check_work(work.addr_, what, loc);
	const uint64_t nrep = pl.repeats > 0 ? (uint64_t)pl.repeats : 0;
	uint64_t cost = nrep;
	if (kind == W_SUM) {
		T *part = new T[nrep ? nrep : 1];
		T v[256];
		for (uint64_t r = 0; r < nrep; r++) {
			for (int l = 0; l < pl.lanes; l++)
				v[l] = pl.on((int64_t)r, l) ? ld<T>(s, (int64_t)r, l) : T(0);
			part[r] = tree_sum(v, (uint64_t)pl.lanes);
		}
		uint64_t n = nrep;
		const uint64_t lanes = (uint64_t)pl.lanes;
		while (n > 1) {
			const uint64_t groups = (n + lanes - 1) / lanes;
			for (uint64_t gi = 0; gi < groups; gi++)
				part[gi] = tree_sum(part + gi * lanes, n - gi * lanes < lanes ? n - gi * lanes : lanes);
			cost += groups;
			n = groups;
		}
		dst.addr_[0] = nrep ? part[0] : T(0);
		delete[] part;
	} else {
		bool found = false;
		T best = T(0);
		uint64_t at = 0;
		for (uint64_t r = 0; r < nrep; r++)
			for (int l = 0; l < pl.lanes; l++) {
				if (!pl.on((int64_t)r, l))
					continue;
				const T x = ld<T>(s, (int64_t)r, l);
				if (!found || better(kind == W_MAX, widen(x), widen(best))) {
					found = true;
					best = x;
					at = (uint64_t)(s.at((int64_t)r, l) - s.p) / sizeof(T);
				}
			}
		dst.addr_[0] = best;
		if (cal_index)
			put_index(dst.addr_ + 1, at);
		npukb_cpusim::g.rmm_value = widen(best);
		npukb_cpusim::g.rmm_index = at;
		cost += (nrep + (uint64_t)pl.lanes - 1) / (uint64_t)pl.lanes;
	}
	npukb_cpusim::cost_vec_rep(cost, rep());
}
} // namespace detail

/* AscendCUtils: the internal helpers kernels call directly. SetMask sets
 * the vector mask register as SetVectorMask does; GetC0Count is the
 * elements of one 32-byte block. */
struct AscendCUtils {
	template <typename T>
	static void SetMask(int32_t len)
	{
		SetVectorMask<T>(len);
	}
	template <typename T>
	static void SetMask(const uint64_t &maskHigh, const uint64_t &maskLow)
	{
		SetVectorMask<T>(maskHigh, maskLow);
	}
	static uint32_t GetC0Count(uint32_t typeSize) { return 32 / typeSize; }
};

} // namespace AscendC

/* The core the running block is on (npukb_cpusim::State::core_type), as
 * kernels test it: if (g_coreType == AIV), if ASCEND_IS_AIV. A run-time
 * test, since one kernel body runs on both kinds of core; a block of a
 * kernel that declares no type has both units and counts as AIV. */
constexpr int AIC = npukb_cpusim::CORE_AIC;
constexpr int AIV = npukb_cpusim::CORE_AIV;
inline const int32_t &g_coreType = npukb_cpusim::g.core_type;
#define ASCEND_IS_AIV (::npukb_cpusim::g.core_type == ::npukb_cpusim::CORE_AIV)
#define ASCEND_IS_AIC (::npukb_cpusim::g.core_type == ::npukb_cpusim::CORE_AIC)
#define ASCEND_IS_NOT_AIV (::npukb_cpusim::g.core_type != ::npukb_cpusim::CORE_AIV)
#define ASCEND_IS_NOT_AIC (::npukb_cpusim::g.core_type != ::npukb_cpusim::CORE_AIC)

/* vcadd, the instruction WholeReduceSum issues, called directly with UB
 * addresses: per repeat the sum of the lanes the mask register selects
 * into dst[r * dstRepStride]. With a null destination and the last
 * argument true it accumulates instead (the overload below). A raw
 * address reaches to the UB's end. */
namespace AscendC {
namespace detail {
/* A raw UB address as a tensor reaching to the end of the UB. */
template <typename T>
inline LocalTensor<T> ub_to_end(T *p)
{
	const uintptr_t end = (uintptr_t)npukb_cpusim::ub_arena + npukb_cpusim::g.soc.ub_bytes;
	const uintptr_t a = (uintptr_t)p;
	return LocalTensor<T>(p, a < end ? (uint32_t)((end - a) / sizeof(T)) : 0);
}
} // namespace detail
} // namespace AscendC

template <typename T>
inline void vcadd(T *dst, T *src, uint8_t repeat, uint16_t dstRepStride, uint16_t srcBlkStride,
		  uint16_t srcRepStride, bool accumulate, AscendC::SrcLoc loc = NPUKB_LOC)
{
	using namespace AscendC;
	static_assert(detail::one_of_float<T>::value, "vcadd: element type not supported (half, float)");
	if (!dst || accumulate)
		npukb_cpusim::fail("out-of-bounds", loc,
				   "vcadd: a destination with the accumulating flag set (or a null one without it) is "
				   "not an instruction form cpusim knows");
	const detail::Plan pl = detail::plan_len(false, 0, detail::lanes_of(sizeof(T)), repeat, "vcadd", loc);
	detail::whole_reduce<T, detail::W_SUM>(pl, detail::ub_to_end(dst), detail::ub_to_end(src), dstRepStride,
					       srcBlkStride, srcRepStride, ReduceOrder::ORDER_ONLY_VALUE, "vcadd", loc);
}

/* vcadd's accumulating form (null destination, last argument true): each
 * repeat's sum as above, the repeats' sums added in order into the
 * accumulator GetAccVal reads (each addition rounded to T) [the order
 * across repeats is unconfirmed]. The accumulator starts at zero on every
 * call. */
template <typename T>
inline void vcadd(std::nullptr_t, T *src, uint8_t repeat, uint16_t dstRepStride, uint16_t srcBlkStride,
		  uint16_t srcRepStride, bool accumulate, AscendC::SrcLoc loc = NPUKB_LOC)
{
	using namespace AscendC;
	static_assert(detail::one_of_float<T>::value, "vcadd: element type not supported (half, float)");
	(void)dstRepStride;
	if (!accumulate)
		npukb_cpusim::fail("out-of-bounds", loc, "vcadd: null destination without the accumulating flag");
	const detail::Plan pl = detail::plan_len(false, 0, detail::lanes_of(sizeof(T)), repeat, "vcadd", loc);
	const detail::Opnd s = detail::opnd(detail::ub_to_end(src), srcBlkStride, srcRepStride, "source");
	detail::check_opnd(pl, s, "vcadd", loc);
	T v[256], acc = T(0);
	for (int64_t r = 0; r < pl.repeats; r++) {
		for (int l = 0; l < pl.lanes; l++)
			v[l] = pl.on(r, l) ? detail::ld<T>(s, r, l) : T(0);
		acc = detail::add_sat(acc, detail::tree_sum(v, (uint64_t)pl.lanes));
	}
	uint64_t bits = 0;
	memcpy(&bits, &acc, sizeof acc);
	npukb_cpusim::g.acc_val = bits;
	npukb_cpusim::cost_vec_rep((uint64_t)pl.repeats, detail::rep());
	npukb_cpusim::vreg_written();
}

/* The accumulator of vcadd's accumulating form: T's bits, zero-extended;
 * read once the vcadd has completed. */
inline uint64_t GetAccVal()
{
	npukb_cpusim::vreg_read();
	return npukb_cpusim::g.acc_val;
}
inline uint64_t get_acc_val() { return GetAccVal(); }

#endif
