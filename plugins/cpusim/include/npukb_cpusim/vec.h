/* npukb_cpusim/vec.h - AscendC vector instructions: count forms and the
 * mask/repeat/stride forms, the mask register, Duplicate, Compare/Select,
 * the bitwise ops, Axpy and Brcb. Included by kernel_operator.h only.
 *
 * The model of one instruction: `repeats` repeats of up to `lanes` lanes
 * (256 bytes of the widest operand type); lane l of repeat r of an operand
 * lives at byte r*repStride*32 + (l/epb)*blkStride*32 + (l%epb)*size, epb
 * being the elements of a 32-byte block. Normal mask mode selects lanes by
 * a 128-bit pattern (or its first `len` lanes); counter mode processes the
 * first `count` elements across as many repeats as needed, ignoring the
 * repeat argument. A repeat reads all its sources before it writes, so
 * in-place forms behave as on the device. Masked-off lanes keep their old
 * values. Each element is computed exactly and rounded once to the
 * destination type; integers wrap. */
#ifndef NPUKB_CPUSIM_VEC_H
#define NPUKB_CPUSIM_VEC_H

#include <vector>

namespace AscendC {

constexpr uint64_t MASK_PLACEHOLDER = 0;
enum class MaskMode : uint8_t { NORMAL = 0, COUNTER = 1 };

struct UnaryRepeatParams {
	uint16_t dstBlkStride = 1, srcBlkStride = 1;
	uint16_t dstRepStride = 8, srcRepStride = 8;
	UnaryRepeatParams() = default;
	UnaryRepeatParams(uint32_t db, uint32_t sb, uint32_t dr, uint32_t sr)
		: dstBlkStride((uint16_t)db), srcBlkStride((uint16_t)sb), dstRepStride((uint16_t)dr),
		  srcRepStride((uint16_t)sr) {}
};

struct BinaryRepeatParams {
	uint16_t dstBlkStride = 1, src0BlkStride = 1, src1BlkStride = 1;
	uint16_t dstRepStride = 8, src0RepStride = 8, src1RepStride = 8;
	BinaryRepeatParams() = default;
	BinaryRepeatParams(uint32_t db, uint32_t s0b, uint32_t s1b, uint32_t dr, uint32_t s0r, uint32_t s1r)
		: dstBlkStride((uint16_t)db), src0BlkStride((uint16_t)s0b), src1BlkStride((uint16_t)s1b),
		  dstRepStride((uint16_t)dr), src0RepStride((uint16_t)s0r), src1RepStride((uint16_t)s1r) {}
};

struct BrcbRepeatParams {
	uint16_t dstBlkStride = 1, dstRepStride = 8;
	BrcbRepeatParams() = default;
	BrcbRepeatParams(uint32_t db, uint32_t dr) : dstBlkStride((uint16_t)db), dstRepStride((uint16_t)dr) {}
};

/* ---- the mask register ------------------------------------------------------ */

inline void SetMaskCount() { npukb_cpusim::g.mask_counter = true; }
inline void SetMaskNorm() { npukb_cpusim::g.mask_counter = false; }
inline void ResetMask()
{
	npukb_cpusim::g.vmask[0] = npukb_cpusim::g.vmask[1] = ~0ull;
}

/* Normal mode: the lane pattern (high: lanes 64..127). Counter mode: the
 * element count, in maskLow. */
template <class T, MaskMode mode = MaskMode::NORMAL>
inline void SetVectorMask(uint64_t maskHigh, uint64_t maskLow)
{
	npukb_cpusim::g.vmask[0] = maskLow;
	npukb_cpusim::g.vmask[1] = maskHigh;
}

/* Normal mode: the first len lanes; counter mode: len elements. */
template <class T, MaskMode mode = MaskMode::NORMAL>
inline void SetVectorMask(int32_t len)
{
	uint64_t *m = npukb_cpusim::g.vmask;
	if (mode == MaskMode::COUNTER || npukb_cpusim::g.mask_counter) {
		m[0] = (uint64_t)(uint32_t)len;
		m[1] = 0;
		return;
	}
	m[0] = len >= 64 ? ~0ull : len <= 0 ? 0 : (1ull << len) - 1;
	m[1] = len >= 128 ? ~0ull : len <= 64 ? 0 : (1ull << (len - 64)) - 1;
}

namespace detail {

template <class T> struct one_of_arith
	: std::integral_constant<bool, std::is_same<T, half>::value || std::is_same<T, float>::value ||
					       std::is_same<T, int16_t>::value || std::is_same<T, int32_t>::value> {};
template <class T> struct one_of_float
	: std::integral_constant<bool, std::is_same<T, half>::value || std::is_same<T, float>::value> {};
template <class T> struct one_of_b16
	: std::integral_constant<bool, std::is_same<T, int16_t>::value || std::is_same<T, uint16_t>::value> {};
template <class T> struct one_of_shift
	: std::integral_constant<bool, std::is_same<T, int16_t>::value || std::is_same<T, uint16_t>::value ||
					       std::is_same<T, int32_t>::value || std::is_same<T, uint32_t>::value> {};
template <class T> struct one_of_b16_b32
	: std::integral_constant<bool, sizeof(T) == 2 || sizeof(T) == 4> {};

/* Each element is computed exactly (double for floats, int64 for integers)
 * and rounded once to T; integers wrap. */
template <class T>
using wide_t = typename std::conditional<std::is_integral<T>::value, int64_t, double>::type;
template <class T>
inline wide_t<T> widen(T v) { return (wide_t<T>)v; }
inline double widen(half v) { return (double)npukb_cpusim::f16_to_f32(v.bits); }
template <class T>
inline T narrow(wide_t<T> v) { return (T)v; }

/* Max/min reductions propagate NaN, as the device's do (NPUKernelBench's
 * NonFiniteCheckOp finds a NaN through ReduceMax): a NaN beats any number
 * and the first NaN stays. */
inline bool better(bool is_max, double a, double b)
{
	if (a != a)
		return b == b;
	if (b != b)
		return false;
	return is_max ? a > b : a < b;
}

inline void check_count(int32_t count, const char *what, SrcLoc loc)
{
	if (count < 0)
		npukb_cpusim::fail("out-of-bounds", loc, "%s: negative element count %d", what, count);
}

inline void check_repeat(int64_t repeat, const char *what, SrcLoc loc)
{
	if (repeat < 0 || repeat > 255)
		npukb_cpusim::fail("out-of-bounds", loc, "%s: repeat times %lld outside 0..255", what,
				   (long long)repeat);
}

inline double rep() { return npukb_cpusim::g.soc.vec_repeat_cycles; }
inline double rep_mul() { return npukb_cpusim::g.soc.vec_repeat_cycles_mul; }
inline double rep_div() { return npukb_cpusim::g.soc.vec_repeat_cycles_div; }
inline double rep_tr() { return npukb_cpusim::g.soc.vec_repeat_cycles_transc; }

/* Count forms run in counter mode inside the API and leave the mask
 * register in normal mode, all lanes on. */
inline void after_count_form()
{
	npukb_cpusim::g.mask_counter = false;
	ResetMask();
}

/* Which lanes one instruction touches. */
struct Plan {
	bool counter;
	uint64_t count;   /* counter mode */
	uint64_t bits[2]; /* normal mode */
	int lanes;
	int64_t repeats;

	bool on(int64_t r, int l) const
	{
		if (counter)
			return (uint64_t)r * (uint64_t)lanes + (uint64_t)l < count;
		return (bits[l >> 6] >> (l & 63)) & 1;
	}
};

inline Plan plan_common(int lanes, int64_t repeat, const char *what, SrcLoc loc)
{
	check_repeat(repeat, what, loc);
	Plan p;
	p.counter = npukb_cpusim::g.mask_counter;
	p.lanes = lanes;
	p.count = 0;
	p.bits[0] = p.bits[1] = 0;
	p.repeats = repeat;
	return p;
}

inline void plan_finish(Plan &p)
{
	if (p.counter)
		p.repeats = (int64_t)((p.count + (uint64_t)p.lanes - 1) / (uint64_t)p.lanes);
	else if (p.lanes <= 64)
		p.bits[0] &= p.lanes == 64 ? ~0ull : (1ull << p.lanes) - 1, p.bits[1] = 0;
}

/* The mask given as a lane count (continuous mode). */
inline Plan plan_len(bool is_set, uint64_t len, int lanes, int64_t repeat, const char *what, SrcLoc loc)
{
	Plan p = plan_common(lanes, repeat, what, loc);
	const uint64_t *m = npukb_cpusim::g.vmask;
	if (!is_set) {
		if (p.counter)
			p.count = m[0];
		else
			p.bits[0] = m[0], p.bits[1] = m[1];
	} else if (p.counter) {
		p.count = len;
	} else {
		if (len < 1 || len > (uint64_t)lanes)
			npukb_cpusim::fail("out-of-bounds", loc, "%s: mask %llu outside 1..%d for this type", what,
					   (unsigned long long)len, lanes);
		p.bits[0] = len >= 64 ? ~0ull : (1ull << len) - 1;
		p.bits[1] = len >= 128 ? ~0ull : len <= 64 ? 0 : (1ull << (len - 64)) - 1;
	}
	plan_finish(p);
	return p;
}

/* The mask given as a bit pattern (mask[0]: lanes 0..63, mask[1]: 64..127). */
inline Plan plan_bits(bool is_set, const uint64_t *mask, int lanes, int64_t repeat, const char *what, SrcLoc loc)
{
	Plan p = plan_common(lanes, repeat, what, loc);
	const uint64_t *m = is_set ? mask : npukb_cpusim::g.vmask;
	if (p.counter)
		p.count = m[0];
	else
		p.bits[0] = m[0], p.bits[1] = lanes > 64 ? m[1] : 0;
	plan_finish(p);
	return p;
}

/* One operand of an instruction: base, element size and strides in blocks. */
struct Opnd {
	unsigned char *p;
	uint32_t es;
	uint32_t blk, rep;
	uint64_t avail;
	const char *role;

	unsigned char *at(int64_t r, int l) const
	{
		const int epb = 32 / (int)es;
		return p + (uint64_t)r * rep * 32u + (uint64_t)(l / epb) * blk * 32u + (uint64_t)(l % epb) * es;
	}
};

template <class T>
inline Opnd opnd(const LocalTensor<T> &t, uint32_t blk, uint32_t rep, const char *role)
{
	return Opnd{(unsigned char *)t.addr_, (uint32_t)sizeof(T), blk, rep, t.GetLength(), role};
}

/* Bytes from the operand's base to the end of the furthest lane touched. */
inline uint64_t extent(const Plan &pl, const Opnd &o)
{
	uint64_t ext = 0;
	for (int64_t r = pl.repeats - 2 < 0 ? 0 : pl.repeats - 2; r < pl.repeats; r++)
		for (int l = 0; l < pl.lanes; l++)
			if (pl.on(r, l)) {
				const uint64_t e = (uint64_t)(o.at(r, l) - o.p) + o.es;
				if (e > ext)
					ext = e;
			}
	return ext;
}

inline void check_opnd(const Plan &pl, const Opnd &o, const char *what, SrcLoc loc)
{
	npukb_cpusim::ub_check(o.p, extent(pl, o), o.avail, what, o.role, loc);
}

template <class T>
inline T ld(const Opnd &o, int64_t r, int l)
{
	T v;
	memcpy(&v, o.at(r, l), sizeof v);
	return v;
}
template <class T>
inline void st(const Opnd &o, int64_t r, int l, T v)
{
	memcpy(o.at(r, l), &v, sizeof v);
}

constexpr int lanes_of(size_t widest) { return (int)(256 / widest); }

/* dst = f(src0[, src1]) lane by lane, one repeat at a time. */
template <class D, class S0, class S1, class F>
inline void run_map(const Plan &pl, const Opnd &d, const Opnd &s0, const Opnd *s1, F f)
{
	D buf[256];
	for (int64_t r = 0; r < pl.repeats; r++) {
		for (int l = 0; l < pl.lanes; l++)
			if (pl.on(r, l))
				buf[l] = f(ld<S0>(s0, r, l), s1 ? ld<S1>(*s1, r, l) : S1());
		for (int l = 0; l < pl.lanes; l++)
			if (pl.on(r, l))
				st<D>(d, r, l, buf[l]);
	}
}

template <class D, class S0, class S1, class F>
inline void mask_binary(const Plan &pl, const LocalTensor<D> &dst, const LocalTensor<S0> &a,
			const LocalTensor<S1> &b, const BinaryRepeatParams &p, const char *what,
			double per_repeat, SrcLoc loc, F f)
{
	const Opnd d = opnd(dst, p.dstBlkStride, p.dstRepStride, "destination");
	const Opnd x = opnd(a, p.src0BlkStride, p.src0RepStride, "first source");
	const Opnd y = opnd(b, p.src1BlkStride, p.src1RepStride, "second source");
	check_opnd(pl, d, what, loc);
	check_opnd(pl, x, what, loc);
	check_opnd(pl, y, what, loc);
	run_map<D, S0, S1>(pl, d, x, &y, f);
	npukb_cpusim::cost_vec_rep((uint64_t)pl.repeats, per_repeat);
}

template <class D, class S, class F>
inline void mask_unary(const Plan &pl, const LocalTensor<D> &dst, const LocalTensor<S> &a,
		       const UnaryRepeatParams &p, const char *what, double per_repeat, SrcLoc loc, F f)
{
	const Opnd d = opnd(dst, p.dstBlkStride, p.dstRepStride, "destination");
	const Opnd x = opnd(a, p.srcBlkStride, p.srcRepStride, "source");
	check_opnd(pl, d, what, loc);
	check_opnd(pl, x, what, loc);
	run_map<D, S, S>(pl, d, x, nullptr, [&f](S v, S) { return f(v); });
	npukb_cpusim::cost_vec_rep((uint64_t)pl.repeats, per_repeat);
}

/* Count forms: contiguous, so no plan is needed. */
template <class T, class F>
inline void vbinary(const LocalTensor<T> &dst, const LocalTensor<T> &a, const LocalTensor<T> &b,
		    int32_t count, const char *what, double per_repeat, SrcLoc loc, F f)
{
	check_count(count, what, loc);
	const uint64_t bytes = (uint64_t)count * sizeof(T);
	npukb_cpusim::ub_check(dst.addr_, bytes, dst.GetLength(), what, "destination", loc);
	npukb_cpusim::ub_check(a.addr_, bytes, a.GetLength(), what, "first source", loc);
	npukb_cpusim::ub_check(b.addr_, bytes, b.GetLength(), what, "second source", loc);
	T *d = dst.addr_;
	const T *x = a.addr_, *y = b.addr_;
	for (int32_t i = 0; i < count; i++)
		d[i] = f(x[i], y[i]);
	npukb_cpusim::cost_vec(bytes, per_repeat);
	after_count_form();
}

/* A pure unary op on half or bfloat16_t has only 65,536 inputs: the first
 * use in a launch computes f on all of them (about a millisecond), and every
 * element after that is a lookup giving the same bits f would. Emulating a
 * transcendental per element in double was most of the kernel's time on
 * large fp16 tensors (Sin: about 25 ns an element). Only for ops whose
 * result depends on the element alone: f must read no mode, mask or other
 * state, which is why the callers opt in rather than vunary doing it. */
template <class T> struct is_float16
	: std::integral_constant<bool, std::is_same<T, half>::value || std::is_same<T, bfloat16_t>::value> {};

template <class T, class F>
inline const T *table16(const F &f)
{
	static const std::vector<T> table = [&f] {
		std::vector<T> t(65536);
		for (uint32_t u = 0; u < 65536; u++)
			t[u] = f(T::from_bits((uint16_t)u));
		return t;
	}();
	return table.data();
}

template <class T>
struct Lookup16 {
	const T *table;
	T operator()(T x) const { return table[x.bits]; }
};

template <class T, class F, std::enable_if_t<is_float16<T>::value, int> = 0>
inline Lookup16<T> tabulated(F f)
{
	return Lookup16<T>{table16<T>(f)};
}
template <class T, class F, std::enable_if_t<!is_float16<T>::value, int> = 0>
inline F tabulated(F f)
{
	return f;
}

/* A count form whose conversion g(d, x, n) handles the whole range at
 * once (Cast's bulk conversions); vunary is the element-by-element one. */
template <class D, class S, class G>
inline void vunary_n(const LocalTensor<D> &dst, const LocalTensor<S> &a, int32_t count,
		     const char *what, double per_repeat, SrcLoc loc, G g)
{
	check_count(count, what, loc);
	const uint64_t dbytes = (uint64_t)count * sizeof(D), sbytes = (uint64_t)count * sizeof(S);
	npukb_cpusim::ub_check(dst.addr_, dbytes, dst.GetLength(), what, "destination", loc);
	npukb_cpusim::ub_check(a.addr_, sbytes, a.GetLength(), what, "source", loc);
	if (count > 0)
		g(dst.addr_, a.addr_, count);
	npukb_cpusim::cost_vec(dbytes > sbytes ? dbytes : sbytes, per_repeat);
	after_count_form();
}

template <class D, class S, class F>
inline void vunary(const LocalTensor<D> &dst, const LocalTensor<S> &a, int32_t count,
		   const char *what, double per_repeat, SrcLoc loc, F f)
{
	vunary_n(dst, a, count, what, per_repeat, loc, [&f](D *d, const S *x, int32_t n) {
		for (int32_t i = 0; i < n; i++)
			d[i] = f(x[i]);
	});
}

} // namespace detail

/* ---- arithmetic ------------------------------------------------------------- */

#define NPUKB_BINARY(NAME, TRAIT, TYPES, COST, EXPR)                                             \
	template <class T>                                                                        \
	inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src0,                   \
			 const LocalTensor<T> &src1, const int32_t &count, SrcLoc loc = NPUKB_LOC) \
	{                                                                                         \
		static_assert(detail::TRAIT<T>::value, #NAME ": element type not supported (" TYPES ")"); \
		detail::vbinary(dst, src0, src1, count, #NAME, COST, loc, [](T x, T y) {          \
			const detail::wide_t<T> a = detail::widen(x), b = detail::widen(y);       \
			return detail::narrow<T>(EXPR);                                           \
		});                                                                               \
	}                                                                                         \
	/* The exact AscendC signature (no location), for a kernel that                           \
	 * passes the op as a template argument: the pack is empty. */                            \
	template <class T, class... NoLoc, std::enable_if_t<sizeof...(NoLoc) == 0, int> = 0>      \
	inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src0,                   \
			 const LocalTensor<T> &src1, const int32_t &count, NoLoc...)              \
	{                                                                                         \
		NAME(dst, src0, src1, count, NPUKB_LOC);                                          \
	}                                                                                         \
	template <class T, bool isSetMask = true>                                                \
	inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src0,                   \
			 const LocalTensor<T> &src1, uint64_t mask, int32_t repeatTimes,          \
			 const BinaryRepeatParams &params, SrcLoc loc = NPUKB_LOC)                \
	{                                                                                         \
		static_assert(detail::TRAIT<T>::value, #NAME ": element type not supported (" TYPES ")"); \
		const detail::Plan pl = detail::plan_len(isSetMask, mask, detail::lanes_of(sizeof(T)), \
							 repeatTimes, #NAME, loc);               \
		detail::mask_binary(pl, dst, src0, src1, params, #NAME, COST, loc, [](T x, T y) { \
			const detail::wide_t<T> a = detail::widen(x), b = detail::widen(y);       \
			return detail::narrow<T>(EXPR);                                           \
		});                                                                               \
	}                                                                                         \
	/* The mask form's exact AscendC signature (uint8_t repeats), for a                       \
	 * kernel that passes the op as a template argument; R must be uint8_t,                   \
	 * so that a direct call never finds two equally good conversions. */                     \
	template <class T, bool isSetMask = true, class R, class... NoLoc,                        \
		  std::enable_if_t<sizeof...(NoLoc) == 0 && std::is_same<R, uint8_t>::value, int> = 0> \
	inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src0,                   \
			 const LocalTensor<T> &src1, uint64_t mask, const R repeatTimes,          \
			 const BinaryRepeatParams &params, NoLoc...)                              \
	{                                                                                         \
		NAME<T, isSetMask>(dst, src0, src1, mask, (int32_t)repeatTimes, params, NPUKB_LOC); \
	}                                                                                         \
	template <class T, bool isSetMask = true>                                                \
	inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src0,                   \
			 const LocalTensor<T> &src1, const uint64_t mask[], int32_t repeatTimes,  \
			 const BinaryRepeatParams &params, SrcLoc loc = NPUKB_LOC)                \
	{                                                                                         \
		static_assert(detail::TRAIT<T>::value, #NAME ": element type not supported (" TYPES ")"); \
		const detail::Plan pl = detail::plan_bits(isSetMask, mask, detail::lanes_of(sizeof(T)), \
							  repeatTimes, #NAME, loc);              \
		detail::mask_binary(pl, dst, src0, src1, params, #NAME, COST, loc, [](T x, T y) { \
			const detail::wide_t<T> a = detail::widen(x), b = detail::widen(y);       \
			return detail::narrow<T>(EXPR);                                           \
		});                                                                               \
	}

NPUKB_BINARY(Add, one_of_arith, "half, float, int16_t, int32_t", detail::rep(), a + b)
NPUKB_BINARY(Sub, one_of_arith, "half, float, int16_t, int32_t", detail::rep(), a - b)
NPUKB_BINARY(Mul, one_of_arith, "half, float, int16_t, int32_t", detail::rep_mul(), a * b)
NPUKB_BINARY(Div, one_of_float, "half, float", detail::rep_div(), a / b)
NPUKB_BINARY(Max, one_of_arith, "half, float, int16_t, int32_t", detail::rep(), a > b ? a : b)
NPUKB_BINARY(Min, one_of_arith, "half, float, int16_t, int32_t", detail::rep(), a < b ? a : b)
NPUKB_BINARY(And, one_of_b16, "int16_t, uint16_t", detail::rep(), a & b)
NPUKB_BINARY(Or, one_of_b16, "int16_t, uint16_t", detail::rep(), a | b)
#undef NPUKB_BINARY

#define NPUKB_UNARY(NAME, TRAIT, TYPES, COST, EXPR)                                              \
	template <class T>                                                                        \
	inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t &count, \
			 SrcLoc loc = NPUKB_LOC)                                                  \
	{                                                                                         \
		static_assert(detail::TRAIT<T>::value, #NAME ": element type not supported (" TYPES ")"); \
		detail::vunary(dst, src, count, #NAME, COST, loc, detail::tabulated<T>([](T x) {  \
			const detail::wide_t<T> a = detail::widen(x);                             \
			return detail::narrow<T>(EXPR);                                           \
		}));                                                                              \
	}                                                                                         \
	/* The exact AscendC signature (no location), for a kernel that                           \
	 * passes the op as a template argument: the pack is empty. */                            \
	template <class T, class... NoLoc, std::enable_if_t<sizeof...(NoLoc) == 0, int> = 0>      \
	inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src,                    \
			 const int32_t &count, NoLoc...)                                          \
	{                                                                                         \
		NAME(dst, src, count, NPUKB_LOC);                                                 \
	}                                                                                         \
	template <class T, bool isSetMask = true>                                                \
	inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, uint64_t mask,     \
			 int32_t repeatTimes, const UnaryRepeatParams &params, SrcLoc loc = NPUKB_LOC) \
	{                                                                                         \
		static_assert(detail::TRAIT<T>::value, #NAME ": element type not supported (" TYPES ")"); \
		const detail::Plan pl = detail::plan_len(isSetMask, mask, detail::lanes_of(sizeof(T)), \
							 repeatTimes, #NAME, loc);               \
		detail::mask_unary(pl, dst, src, params, #NAME, COST, loc, detail::tabulated<T>([](T x) { \
			const detail::wide_t<T> a = detail::widen(x);                             \
			return detail::narrow<T>(EXPR);                                           \
		}));                                                                              \
	}                                                                                         \
	template <class T, bool isSetMask = true>                                                \
	inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint64_t mask[], \
			 int32_t repeatTimes, const UnaryRepeatParams &params, SrcLoc loc = NPUKB_LOC) \
	{                                                                                         \
		static_assert(detail::TRAIT<T>::value, #NAME ": element type not supported (" TYPES ")"); \
		const detail::Plan pl = detail::plan_bits(isSetMask, mask, detail::lanes_of(sizeof(T)), \
							  repeatTimes, #NAME, loc);              \
		detail::mask_unary(pl, dst, src, params, #NAME, COST, loc, detail::tabulated<T>([](T x) { \
			const detail::wide_t<T> a = detail::widen(x);                             \
			return detail::narrow<T>(EXPR);                                           \
		}));                                                                              \
	}

NPUKB_UNARY(Exp, one_of_float, "half, float", detail::rep_tr(), exp(a))
NPUKB_UNARY(Ln, one_of_float, "half, float", detail::rep_tr(), log(a))
NPUKB_UNARY(Sqrt, one_of_float, "half, float", detail::rep_tr(), sqrt(a))
NPUKB_UNARY(Rsqrt, one_of_float, "half, float", detail::rep_tr(), 1.0 / sqrt(a))
NPUKB_UNARY(Reciprocal, one_of_float, "half, float", detail::rep_div(), 1.0 / a)
NPUKB_UNARY(Abs, one_of_float, "half, float", detail::rep(), fabs(a))
NPUKB_UNARY(Relu, one_of_arith, "half, float, int16_t, int32_t", detail::rep(), a > 0 ? a : detail::wide_t<T>(0))
NPUKB_UNARY(Not, one_of_b16, "int16_t, uint16_t", detail::rep(), ~a)
#undef NPUKB_UNARY

/* Scalar forms: the scalar has the tensor's element type, as documented
 * (`const T&`), so a mismatched literal is a deduction error as on the device. */
#define NPUKB_SCALAR(NAME, TRAIT, TYPES, COST, EXPR)                                             \
	template <class T>                                                                        \
	inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const T &scalar,   \
			 const int32_t &count, SrcLoc loc = NPUKB_LOC)                            \
	{                                                                                         \
		static_assert(detail::TRAIT<T>::value, #NAME ": element type not supported (" TYPES ")"); \
		const detail::wide_t<T> s = detail::widen(scalar);                                \
		detail::vunary(dst, src, count, #NAME, COST, loc, [s](T x) {                      \
			const detail::wide_t<T> a = detail::widen(x);                             \
			return detail::narrow<T>(EXPR);                                           \
		});                                                                               \
	}                                                                                         \
	/* The exact AscendC signature (no location), for a kernel that                           \
	 * passes the op as a template argument: the pack is empty. */                            \
	template <class T, class... NoLoc, std::enable_if_t<sizeof...(NoLoc) == 0, int> = 0>      \
	inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const T &scalar,   \
			 const int32_t &count, NoLoc...)                                          \
	{                                                                                         \
		NAME(dst, src, scalar, count, NPUKB_LOC);                                         \
	}                                                                                         \
	template <class T, bool isSetMask = true>                                                \
	inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const T &scalar,   \
			 uint64_t mask, int32_t repeatTimes, const UnaryRepeatParams &params,     \
			 SrcLoc loc = NPUKB_LOC)                                                  \
	{                                                                                         \
		static_assert(detail::TRAIT<T>::value, #NAME ": element type not supported (" TYPES ")"); \
		const detail::wide_t<T> s = detail::widen(scalar);                                \
		const detail::Plan pl = detail::plan_len(isSetMask, mask, detail::lanes_of(sizeof(T)), \
							 repeatTimes, #NAME, loc);               \
		detail::mask_unary(pl, dst, src, params, #NAME, COST, loc, [s](T x) {             \
			const detail::wide_t<T> a = detail::widen(x);                             \
			return detail::narrow<T>(EXPR);                                           \
		});                                                                               \
	}                                                                                         \
	template <class T, bool isSetMask = true>                                                \
	inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const T &scalar,   \
			 const uint64_t mask[], int32_t repeatTimes, const UnaryRepeatParams &params, \
			 SrcLoc loc = NPUKB_LOC)                                                  \
	{                                                                                         \
		static_assert(detail::TRAIT<T>::value, #NAME ": element type not supported (" TYPES ")"); \
		const detail::wide_t<T> s = detail::widen(scalar);                                \
		const detail::Plan pl = detail::plan_bits(isSetMask, mask, detail::lanes_of(sizeof(T)), \
							  repeatTimes, #NAME, loc);              \
		detail::mask_unary(pl, dst, src, params, #NAME, COST, loc, [s](T x) {             \
			const detail::wide_t<T> a = detail::widen(x);                             \
			return detail::narrow<T>(EXPR);                                           \
		});                                                                               \
	}

NPUKB_SCALAR(Adds, one_of_arith, "half, float, int16_t, int32_t", detail::rep(), a + s)
NPUKB_SCALAR(Muls, one_of_arith, "half, float, int16_t, int32_t", detail::rep_mul(), a * s)
NPUKB_SCALAR(Maxs, one_of_arith, "half, float, int16_t, int32_t", detail::rep(), a > s ? a : s)
NPUKB_SCALAR(Mins, one_of_arith, "half, float, int16_t, int32_t", detail::rep(), a < s ? a : s)
/* LeakyRelu: x, or x times the scalar slope below zero (one multiply). */
NPUKB_SCALAR(LeakyRelu, one_of_float, "half, float", detail::rep_mul(), a >= 0 ? a : a * s)
/* Shifts: logical for unsigned, arithmetic for signed types; counts of the
 * type's width or more give 0 (or the sign) rather than C's undefined result. */
NPUKB_SCALAR(ShiftLeft, one_of_shift, "int16_t, uint16_t, int32_t, uint32_t", detail::rep(),
	     s < 0 || s >= (int64_t)(8 * sizeof(T)) ? 0 : (int64_t)((uint64_t)a << s))
NPUKB_SCALAR(ShiftRight, one_of_shift, "int16_t, uint16_t, int32_t, uint32_t", detail::rep(),
	     s < 0 ? a : s >= (int64_t)(8 * sizeof(T)) ? (a < 0 ? -1 : 0) : (a >> s))
#undef NPUKB_SCALAR

/* ---- Copy: UB->UB through the vector unit, with masks and strides ------------- */

struct CopyRepeatParams {
	uint16_t dstStride = 1, srcStride = 1;           /* block strides */
	uint16_t dstRepeatSize = 8, srcRepeatSize = 8;   /* repeat strides */
	CopyRepeatParams() = default;
	CopyRepeatParams(uint32_t ds, uint32_t ss, uint32_t dr, uint32_t sr)
		: dstStride((uint16_t)ds), srcStride((uint16_t)ss), dstRepeatSize((uint16_t)dr),
		  srcRepeatSize((uint16_t)sr) {}
};

namespace detail {
template <class T>
inline void copy_mask(const Plan &pl, const LocalTensor<T> &dst, const LocalTensor<T> &src,
		      const CopyRepeatParams &p, SrcLoc loc)
{
	const UnaryRepeatParams u(p.dstStride, p.srcStride, p.dstRepeatSize, p.srcRepeatSize);
	mask_unary(pl, dst, src, u, "Copy", rep(), loc, [](T v) { return v; });
}
} // namespace detail

template <class T, bool isSetMask = true>
inline void Copy(const LocalTensor<T> &dst, const LocalTensor<T> &src, uint64_t mask, int32_t repeatTimes,
		 const CopyRepeatParams &params, SrcLoc loc = NPUKB_LOC)
{
	static_assert(detail::one_of_b16_b32<T>::value, "Copy: element type not supported (16- or 32-bit types)");
	const detail::Plan pl = detail::plan_len(isSetMask, mask, detail::lanes_of(sizeof(T)), repeatTimes, "Copy", loc);
	detail::copy_mask(pl, dst, src, params, loc);
}

template <class T, bool isSetMask = true>
inline void Copy(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint64_t mask[], int32_t repeatTimes,
		 const CopyRepeatParams &params, SrcLoc loc = NPUKB_LOC)
{
	static_assert(detail::one_of_b16_b32<T>::value, "Copy: element type not supported (16- or 32-bit types)");
	const detail::Plan pl = detail::plan_bits(isSetMask, mask, detail::lanes_of(sizeof(T)), repeatTimes, "Copy", loc);
	detail::copy_mask(pl, dst, src, params, loc);
}

/* ---- Duplicate ---------------------------------------------------------------- */

template <class T>
inline void Duplicate(const LocalTensor<T> &dst, const T &scalar, const int32_t &count,
		      SrcLoc loc = NPUKB_LOC)
{
	static_assert(detail::one_of_b16_b32<T>::value, "Duplicate: element type not supported (16- or 32-bit types)");
	detail::check_count(count, "Duplicate", loc);
	const uint64_t bytes = (uint64_t)count * sizeof(T);
	npukb_cpusim::ub_check(dst.addr_, bytes, dst.GetLength(), "Duplicate", "destination", loc);
	for (int32_t i = 0; i < count; i++)
		dst.addr_[i] = scalar;
	npukb_cpusim::cost_vec(bytes, detail::rep());
	detail::after_count_form();
}

namespace detail {
template <class T>
inline void dup_mask(const Plan &pl, const LocalTensor<T> &dst, T scalar, uint32_t blk, uint32_t rep_stride, SrcLoc loc)
{
	const Opnd d = opnd(dst, blk, rep_stride, "destination");
	check_opnd(pl, d, "Duplicate", loc);
	for (int64_t r = 0; r < pl.repeats; r++)
		for (int l = 0; l < pl.lanes; l++)
			if (pl.on(r, l))
				st<T>(d, r, l, scalar);
	npukb_cpusim::cost_vec_rep((uint64_t)pl.repeats, rep());
}
} // namespace detail

template <class T, bool isSetMask = true>
inline void Duplicate(const LocalTensor<T> &dst, const T &scalar, uint64_t mask, int32_t repeatTimes,
		      uint32_t dstBlockStride, uint32_t dstRepeatStride, SrcLoc loc = NPUKB_LOC)
{
	static_assert(detail::one_of_b16_b32<T>::value, "Duplicate: element type not supported (16- or 32-bit types)");
	const detail::Plan pl = detail::plan_len(isSetMask, mask, detail::lanes_of(sizeof(T)), repeatTimes, "Duplicate", loc);
	detail::dup_mask(pl, dst, scalar, dstBlockStride, dstRepeatStride, loc);
}

template <class T, bool isSetMask = true>
inline void Duplicate(const LocalTensor<T> &dst, const T &scalar, const uint64_t mask[], int32_t repeatTimes,
		      uint32_t dstBlockStride, uint32_t dstRepeatStride, SrcLoc loc = NPUKB_LOC)
{
	static_assert(detail::one_of_b16_b32<T>::value, "Duplicate: element type not supported (16- or 32-bit types)");
	const detail::Plan pl = detail::plan_bits(isSetMask, mask, detail::lanes_of(sizeof(T)), repeatTimes, "Duplicate", loc);
	detail::dup_mask(pl, dst, scalar, dstBlockStride, dstRepeatStride, loc);
}

/* ---- FusedMulAdd: dst = src0 * dst + src1 (count form) -------------------------- */

template <class T>
inline void FusedMulAdd(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,
			const int32_t &count, SrcLoc loc = NPUKB_LOC)
{
	static_assert(detail::one_of_float<T>::value, "FusedMulAdd: element type not supported (half, float)");
	detail::check_count(count, "FusedMulAdd", loc);
	const uint64_t bytes = (uint64_t)count * sizeof(T);
	npukb_cpusim::ub_check(dst.addr_, bytes, dst.GetLength(), "FusedMulAdd", "destination", loc);
	npukb_cpusim::ub_check(src0.addr_, bytes, src0.GetLength(), "FusedMulAdd", "first source", loc);
	npukb_cpusim::ub_check(src1.addr_, bytes, src1.GetLength(), "FusedMulAdd", "second source", loc);
	for (int32_t i = 0; i < count; i++)
		dst.addr_[i] = detail::narrow<T>(detail::widen(src0.addr_[i]) * detail::widen(dst.addr_[i]) +
						 detail::widen(src1.addr_[i]));
	npukb_cpusim::cost_vec(bytes, detail::rep_mul());
	detail::after_count_form();
}

/* ---- Axpy: dst = src * scalar + dst ------------------------------------------ */

namespace detail {
template <class T, class U> struct axpy_ok
	: std::integral_constant<bool, (std::is_same<T, U>::value && one_of_float<T>::value) ||
					       (std::is_same<T, float>::value && std::is_same<U, half>::value)> {};
}

template <class T, class U>
inline void Axpy(const LocalTensor<T> &dst, const LocalTensor<U> &src, const U scalarValue,
		 const int32_t &count, SrcLoc loc = NPUKB_LOC)
{
	static_assert(detail::axpy_ok<T, U>::value,
		      "Axpy: element types not supported (half/half, float/float, float dst with half src)");
	detail::check_count(count, "Axpy", loc);
	const uint64_t db = (uint64_t)count * sizeof(T), sb = (uint64_t)count * sizeof(U);
	npukb_cpusim::ub_check(dst.addr_, db, dst.GetLength(), "Axpy", "destination", loc);
	npukb_cpusim::ub_check(src.addr_, sb, src.GetLength(), "Axpy", "source", loc);
	const double s = detail::widen(scalarValue);
	for (int32_t i = 0; i < count; i++)
		dst.addr_[i] = (T)(detail::widen(src.addr_[i]) * s + detail::widen(dst.addr_[i]));
	npukb_cpusim::cost_vec(db > sb ? db : sb, detail::rep_mul());
	detail::after_count_form();
}

template <class T, class U, bool isSetMask = true>
inline void Axpy(const LocalTensor<T> &dst, const LocalTensor<U> &src, const U scalarValue, uint64_t mask,
		 int32_t repeatTimes, const UnaryRepeatParams &params, SrcLoc loc = NPUKB_LOC)
{
	static_assert(detail::axpy_ok<T, U>::value,
		      "Axpy: element types not supported (half/half, float/float, float dst with half src)");
	const detail::Plan pl = detail::plan_len(isSetMask, mask, detail::lanes_of(sizeof(T) > sizeof(U) ? sizeof(T) : sizeof(U)),
						 repeatTimes, "Axpy", loc);
	const detail::Opnd d = detail::opnd(dst, params.dstBlkStride, params.dstRepStride, "destination");
	const detail::Opnd x = detail::opnd(src, params.srcBlkStride, params.srcRepStride, "source");
	detail::check_opnd(pl, d, "Axpy", loc);
	detail::check_opnd(pl, x, "Axpy", loc);
	const double s = detail::widen(scalarValue);
	detail::run_map<T, U, T>(pl, d, x, &d, [s](U v, T acc) { return (T)(detail::widen(v) * s + detail::widen(acc)); });
	npukb_cpusim::cost_vec_rep((uint64_t)pl.repeats, detail::rep_mul());
}

/* ---- Brcb: each of 8 source elements fills one 32-byte block ------------------ */

constexpr uint32_t BRCB_BROADCAST_NUMBER = 8; /* source elements per repeat */

template <class T>
inline void Brcb(const LocalTensor<T> &dst, const LocalTensor<T> &src, int32_t repeatTimes,
		 const BrcbRepeatParams &params, SrcLoc loc = NPUKB_LOC)
{
	static_assert(detail::one_of_b16_b32<T>::value, "Brcb: element type not supported (16- or 32-bit types)");
	detail::check_repeat(repeatTimes, "Brcb", loc);
	const uint64_t n = (uint64_t)repeatTimes * 8;
	npukb_cpusim::ub_check(src.addr_, n * sizeof(T), src.GetLength(), "Brcb", "source", loc);
	const uint64_t span = repeatTimes ? ((uint64_t)(repeatTimes - 1) * params.dstRepStride + 7ull * params.dstBlkStride + 1) * 32 : 0;
	npukb_cpusim::ub_check(dst.addr_, span, dst.GetLength(), "Brcb", "destination", loc);
	T tmp[255 * 8];
	memcpy(tmp, src.addr_, n * sizeof(T));
	unsigned char *d = (unsigned char *)dst.addr_;
	for (int32_t r = 0; r < repeatTimes; r++)
		for (int j = 0; j < 8; j++) {
			T *blk = (T *)(void *)(d + ((uint64_t)r * params.dstRepStride + (uint64_t)j * params.dstBlkStride) * 32);
			for (size_t k = 0; k < 32 / sizeof(T); k++)
				blk[k] = tmp[r * 8 + j];
		}
	npukb_cpusim::cost_vec_rep((uint64_t)repeatTimes, detail::rep());
}

/* ---- Gather: dst[i] = the element at byte srcBase + offset[i] of src ---------- */

template <class T>
inline void Gather(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<uint32_t> &srcOffset,
		   const uint32_t srcBaseAddr, const uint32_t count, SrcLoc loc = NPUKB_LOC)
{
	static_assert(detail::one_of_b16_b32<T>::value, "Gather: element type not supported (16- or 32-bit types)");
	const uint64_t bytes = (uint64_t)count * sizeof(T);
	npukb_cpusim::ub_check(dst.addr_, bytes, dst.GetLength(), "Gather", "destination", loc);
	npukb_cpusim::ub_check(srcOffset.addr_, (uint64_t)count * 4, srcOffset.GetLength(), "Gather", "offsets", loc);
	npukb_cpusim::ub_check(src.addr_, 0, src.GetLength(), "Gather", "source", loc);
	const unsigned char *s = (const unsigned char *)src.addr_;
	T *tmp = new T[count ? count : 1];
	for (uint32_t i = 0; i < count; i++) {
		const uint64_t at = (uint64_t)srcBaseAddr + srcOffset.addr_[i];
		if (at % sizeof(T) != 0)
			npukb_cpusim::fail("misaligned", loc, "Gather: offset %u of element %u is not a multiple of %zu bytes",
					   srcOffset.addr_[i], i, sizeof(T));
		if (at + sizeof(T) > src.GetLength())
			npukb_cpusim::fail("out-of-bounds", loc, "Gather: element %u reads byte %llu of a %u-byte source",
					   i, (unsigned long long)at, src.GetLength());
		memcpy(&tmp[i], s + at, sizeof(T));
	}
	memcpy((void *)dst.addr_, tmp, bytes);
	delete[] tmp;
	npukb_cpusim::cost_vec(bytes, detail::rep_div());
	detail::after_count_form();
}

/* ---- GatherMask: the lanes a pattern selects, packed ------------------------- */

struct GatherMaskParams {
	uint8_t src0BlockStride = 1;
	uint16_t repeatTimes = 1;
	uint16_t src0RepeatStride = 8;
	uint8_t src1RepeatStride = 1;
	GatherMaskParams() = default;
	GatherMaskParams(uint8_t blk, uint16_t repeat, uint16_t rep0, uint8_t rep1)
		: src0BlockStride(blk), repeatTimes(repeat), src0RepeatStride(rep0), src1RepeatStride(rep1) {}
};
enum class GatherMaskMode : uint8_t { VERSION_V1 = 0, VERSION_V2 = 1 };
constexpr GatherMaskMode defaultGatherMaskMode = GatherMaskMode::VERSION_V1;

namespace detail {
/* Lane l of a repeat is taken when sel(r, l). Normal mode (reduceMode
 * false): every repeat covers its 256 bytes and mask is ignored; counter
 * mode (reduceMode true): mask is the element count over all repeats
 * [unconfirmed]. The taken elements are packed into dst in order and
 * rsvdCnt is their number. */
template <class T, class Sel>
inline void gather_mask(const LocalTensor<T> &dst, const LocalTensor<T> &src0, bool reduce, uint32_t mask,
			const GatherMaskParams &p, uint64_t &rsvdCnt, Sel sel, SrcLoc loc)
{
	const char *what = "GatherMask";
	const int lanes = lanes_of(sizeof(T));
	Plan pl = plan_common(lanes, reduce ? (int64_t)((mask + (uint32_t)lanes - 1) / (uint32_t)lanes) : p.repeatTimes,
			      what, loc);
	pl.counter = reduce;
	pl.count = mask;
	pl.bits[0] = pl.bits[1] = ~0ull;
	const Opnd s = opnd(src0, p.src0BlockStride, p.src0RepeatStride, "source");
	check_opnd(pl, s, what, loc);
	T *out = new T[pl.repeats > 0 ? (uint64_t)pl.repeats * (uint64_t)lanes : 1];
	uint64_t n = 0;
	for (int64_t r = 0; r < pl.repeats; r++)
		for (int l = 0; l < lanes; l++)
			if (pl.on(r, l) && sel(r, l))
				out[n++] = ld<T>(s, r, l);
	npukb_cpusim::ub_check(dst.addr_, n * sizeof(T), dst.GetLength(), what, "destination", loc);
	if (n)
		memcpy((void *)dst.addr_, out, n * sizeof(T));
	delete[] out;
	rsvdCnt = n;
	npukb_cpusim::cost_vec_rep((uint64_t)pl.repeats, rep());
}
} // namespace detail

/* Built-in patterns: 1 even lanes, 2 odd lanes, 3..6 lane 0..3 of every
 * four, 7 all lanes. */
template <class T, GatherMaskMode mode = defaultGatherMaskMode>
inline void GatherMask(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const uint8_t src1Pattern,
		       const bool reduceMode, const uint32_t mask, const GatherMaskParams &gatherMaskParams,
		       uint64_t &rsvdCnt, SrcLoc loc = NPUKB_LOC)
{
	static_assert(detail::one_of_b16_b32<T>::value, "GatherMask: element type not supported (16- or 32-bit types)");
	if (src1Pattern < 1 || src1Pattern > 7)
		npukb_cpusim::fail("out-of-bounds", loc, "GatherMask: pattern %u outside 1..7", (unsigned)src1Pattern);
	detail::gather_mask(dst, src0, reduceMode, mask, gatherMaskParams, rsvdCnt,
			    [src1Pattern](int64_t, int l) {
				    switch (src1Pattern) {
				    case 1: return l % 2 == 0;
				    case 2: return l % 2 == 1;
				    case 7: return true;
				    default: return l % 4 == src1Pattern - 3;
				    }
			    },
			    loc);
}

/* A pattern tensor: in normal mode bit l of repeat r's pattern
 * (src1RepeatStride 32-byte blocks per repeat; 0 reuses the first) selects
 * lane l. In counter mode the bits run on over the repeats, bit i for
 * element i, whatever src1RepeatStride says: kernels build the pattern with
 * one Compare over all the elements and pass strides of 1 (MaskedSelectV3's
 * answer, for half) or 8 [unconfirmed: inferred from those kernels]. */
template <class T, class U, GatherMaskMode mode = defaultGatherMaskMode>
inline void GatherMask(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<U> &src1Pattern,
		       const bool reduceMode, const uint32_t mask, const GatherMaskParams &gatherMaskParams,
		       uint64_t &rsvdCnt, SrcLoc loc = NPUKB_LOC)
{
	static_assert(detail::one_of_b16_b32<T>::value, "GatherMask: element type not supported (16- or 32-bit types)");
	static_assert(sizeof(U) == 2 || sizeof(U) == 4, "GatherMask: pattern type not supported (uint16_t, uint32_t)");
	const int lanes = detail::lanes_of(sizeof(T));
	const uint64_t reps = reduceMode ? (mask + (uint32_t)lanes - 1) / (uint32_t)lanes : gatherMaskParams.repeatTimes;
	const uint64_t need = reduceMode ? ((uint64_t)mask + 7) / 8
			      : reps ? ((reps - 1) * gatherMaskParams.src1RepeatStride * 32 + (uint64_t)lanes / 8) : 0;
	npukb_cpusim::ub_check(src1Pattern.addr_, need, src1Pattern.GetLength(), "GatherMask", "pattern", loc);
	const unsigned char *bits = (const unsigned char *)src1Pattern.addr_;
	/* bytes of pattern per repeat: a repeat's lanes in counter mode */
	const uint64_t step = reduceMode ? (uint64_t)lanes / 8 : (uint64_t)gatherMaskParams.src1RepeatStride * 32;
	detail::gather_mask(dst, src0, reduceMode, mask, gatherMaskParams, rsvdCnt,
			    [bits, step](int64_t r, int l) {
				    const unsigned char *b = bits + (uint64_t)r * step;
				    return ((b[l >> 3] >> (l & 7)) & 1) != 0;
			    },
			    loc);
}

/* ---- Compare and Select ------------------------------------------------------- */

enum class CMPMODE : uint8_t { LT = 0, GT, EQ, LE, GE, NE };
enum class SELMODE : uint8_t { VSEL_CMPMASK_SPR = 0, VSEL_TENSOR_SCALAR_MODE, VSEL_TENSOR_TENSOR_MODE };

namespace detail {
template <class W>
inline bool cmp(W a, W b, CMPMODE m)
{
	switch (m) {
	case CMPMODE::LT: return a < b;
	case CMPMODE::GT: return a > b;
	case CMPMODE::EQ: return a == b;
	case CMPMODE::LE: return a <= b;
	case CMPMODE::GE: return a >= b;
	case CMPMODE::NE: return a != b;
	}
	return false;
}
inline void set_bit(unsigned char *bits, uint64_t i, bool v)
{
	if (v)
		bits[i >> 3] |= (unsigned char)(1u << (i & 7));
	else
		bits[i >> 3] &= (unsigned char)~(1u << (i & 7));
}
inline bool get_bit(const unsigned char *bits, uint64_t i) { return (bits[i >> 3] >> (i & 7)) & 1; }
template <class T> struct one_of_cmp
	: std::integral_constant<bool, std::is_same<T, half>::value || std::is_same<T, float>::value ||
					       std::is_same<T, int32_t>::value> {};
} // namespace detail

/* dst gets one bit per element (bit i%8 of byte i/8), 1 where the relation holds. */
template <class T, class U>
inline void Compare(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,
		    CMPMODE cmpMode, uint32_t count, SrcLoc loc = NPUKB_LOC)
{
	static_assert(detail::one_of_cmp<T>::value, "Compare: element type not supported (half, float, int32_t)");
	static_assert(std::is_integral<U>::value, "Compare: the destination holds bits (uint8_t etc.)");
	const uint64_t bytes = (uint64_t)count * sizeof(T);
	if (bytes % 256 != 0)
		npukb_cpusim::fail("out-of-bounds", loc, "Compare: count %u x %zu bytes is not a multiple of 256 bytes",
				   count, sizeof(T));
	npukb_cpusim::ub_check(src0.addr_, bytes, src0.GetLength(), "Compare", "first source", loc);
	npukb_cpusim::ub_check(src1.addr_, bytes, src1.GetLength(), "Compare", "second source", loc);
	npukb_cpusim::ub_check(dst.addr_, (count + 7) / 8, dst.GetLength(), "Compare", "destination", loc);
	unsigned char *bits = (unsigned char *)dst.addr_;
	for (uint32_t i = 0; i < count; i++)
		detail::set_bit(bits, i, detail::cmp(detail::widen(src0.addr_[i]), detail::widen(src1.addr_[i]), cmpMode));
	npukb_cpusim::cost_vec(bytes, detail::rep());
	detail::after_count_form();
}

namespace detail {
template <class T, class U>
inline void cmp_mask(const Plan &pl, const LocalTensor<U> &dst, const LocalTensor<T> &src0,
		     const LocalTensor<T> &src1, CMPMODE m, const BinaryRepeatParams &p, SrcLoc loc)
{
	const Opnd x = opnd(src0, p.src0BlkStride, p.src0RepStride, "first source");
	const Opnd y = opnd(src1, p.src1BlkStride, p.src1RepStride, "second source");
	check_opnd(pl, x, "Compare", loc);
	check_opnd(pl, y, "Compare", loc);
	/* Results of repeat r land at bit r*lanes: the destination is packed. */
	npukb_cpusim::ub_check(dst.addr_, ((uint64_t)pl.repeats * pl.lanes + 7) / 8, dst.GetLength(), "Compare",
			       "destination", loc);
	unsigned char *bits = (unsigned char *)dst.addr_;
	for (int64_t r = 0; r < pl.repeats; r++)
		for (int l = 0; l < pl.lanes; l++)
			if (pl.on(r, l))
				set_bit(bits, (uint64_t)r * pl.lanes + l, cmp(widen(ld<T>(x, r, l)), widen(ld<T>(y, r, l)), m));
	npukb_cpusim::cost_vec_rep((uint64_t)pl.repeats, rep());
}
} // namespace detail

template <class T, class U, bool isSetMask = true>
inline void Compare(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,
		    CMPMODE cmpMode, uint64_t mask, int32_t repeatTimes, const BinaryRepeatParams &params,
		    SrcLoc loc = NPUKB_LOC)
{
	static_assert(detail::one_of_cmp<T>::value, "Compare: element type not supported (half, float, int32_t)");
	const detail::Plan pl = detail::plan_len(isSetMask, mask, detail::lanes_of(sizeof(T)), repeatTimes, "Compare", loc);
	detail::cmp_mask(pl, dst, src0, src1, cmpMode, params, loc);
}

template <class T, class U, bool isSetMask = true>
inline void Compare(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,
		    CMPMODE cmpMode, const uint64_t mask[], int32_t repeatTimes, const BinaryRepeatParams &params,
		    SrcLoc loc = NPUKB_LOC)
{
	static_assert(detail::one_of_cmp<T>::value, "Compare: element type not supported (half, float, int32_t)");
	const detail::Plan pl = detail::plan_bits(isSetMask, mask, detail::lanes_of(sizeof(T)), repeatTimes, "Compare", loc);
	detail::cmp_mask(pl, dst, src0, src1, cmpMode, params, loc);
}

template <class T, class U>
inline void CompareScalar(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const T src1Scalar,
			  CMPMODE cmpMode, uint32_t count, SrcLoc loc = NPUKB_LOC)
{
	static_assert(detail::one_of_cmp<T>::value, "CompareScalar: element type not supported (half, float, int32_t)");
	static_assert(std::is_integral<U>::value, "CompareScalar: the destination holds bits (uint8_t etc.)");
	const uint64_t bytes = (uint64_t)count * sizeof(T);
	npukb_cpusim::ub_check(src0.addr_, bytes, src0.GetLength(), "CompareScalar", "source", loc);
	npukb_cpusim::ub_check(dst.addr_, (count + 7) / 8, dst.GetLength(), "CompareScalar", "destination", loc);
	unsigned char *bits = (unsigned char *)dst.addr_;
	const auto s = detail::widen(src1Scalar);
	for (uint32_t i = 0; i < count; i++)
		detail::set_bit(bits, i, detail::cmp(detail::widen(src0.addr_[i]), s, cmpMode));
	npukb_cpusim::cost_vec(bytes, detail::rep());
	detail::after_count_form();
}

namespace detail {
/* Mode 0 reuses the first repeat's worth of mask bits for every repeat,
 * modes 1 and 2 consume the mask continuously. */
template <class T, class U>
inline void check_sel(const LocalTensor<T> &dst, const LocalTensor<U> &sel, const LocalTensor<T> &s0,
		      SELMODE mode, uint32_t count, SrcLoc loc)
{
	const uint64_t bytes = (uint64_t)count * sizeof(T);
	npukb_cpusim::ub_check(dst.addr_, bytes, dst.GetLength(), "Select", "destination", loc);
	npukb_cpusim::ub_check(s0.addr_, bytes, s0.GetLength(), "Select", "first source", loc);
	const uint64_t nbits = mode == SELMODE::VSEL_CMPMASK_SPR ? (uint64_t)lanes_of(sizeof(T)) : count;
	npukb_cpusim::ub_check(sel.addr_, (nbits + 7) / 8, sel.GetLength(), "Select", "mask", loc);
}
template <class T>
inline uint64_t sel_bit(SELMODE mode, uint32_t i)
{
	return mode == SELMODE::VSEL_CMPMASK_SPR ? i % (uint32_t)lanes_of(sizeof(T)) : i;
}
} // namespace detail

template <class T, class U>
inline void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0,
		   const LocalTensor<T> &src1, SELMODE selMode, uint32_t count, SrcLoc loc = NPUKB_LOC)
{
	static_assert(detail::one_of_float<T>::value, "Select: element type not supported (half, float)");
	detail::check_sel(dst, selMask, src0, selMode, count, loc);
	npukb_cpusim::ub_check(src1.addr_, (uint64_t)count * sizeof(T), src1.GetLength(), "Select", "second source", loc);
	const unsigned char *bits = (const unsigned char *)selMask.addr_;
	for (uint32_t i = 0; i < count; i++)
		dst.addr_[i] = detail::get_bit(bits, detail::sel_bit<T>(selMode, i)) ? src0.addr_[i] : src1.addr_[i];
	npukb_cpusim::cost_vec((uint64_t)count * sizeof(T), detail::rep());
	detail::after_count_form();
}

template <class T, class U>
inline void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0,
		   T src1Scalar, SELMODE selMode, uint32_t count, SrcLoc loc = NPUKB_LOC)
{
	static_assert(detail::one_of_float<T>::value, "Select: element type not supported (half, float)");
	detail::check_sel(dst, selMask, src0, selMode, count, loc);
	const unsigned char *bits = (const unsigned char *)selMask.addr_;
	for (uint32_t i = 0; i < count; i++)
		dst.addr_[i] = detail::get_bit(bits, detail::sel_bit<T>(selMode, i)) ? src0.addr_[i] : src1Scalar;
	npukb_cpusim::cost_vec((uint64_t)count * sizeof(T), detail::rep());
	detail::after_count_form();
}

} // namespace AscendC

#endif
