/* math.h - AscendC's high-level math APIs (the "advanced" library:
 * Sigmoid, Tanh, Sin, Cos, Log, Power, Erf, Gelu ...), count forms and
 * whole-tensor forms (no count: the source's size), with and without the
 * sharedTmpBuffer argument.
 *
 * On the device these are sequences of basic vector instructions working
 * in a temporary buffer; here each element is computed exactly (double)
 * and rounded once to T, which is at least as accurate as the device and
 * within every tolerance rule of npukb. The temporary buffer, when given,
 * must be a unified-buffer tensor; its size is not checked (the host
 * computes it with GetXxxMaxMinTmpSize). The cost is that of the basic
 * instructions the device would run: STEPS repeats-worth per 256 bytes at
 * the transcendental rate [unconfirmed]. Gelu is the tanh approximation
 * x * sigmoid(1.5958 * (x + 0.044715 x^3)), FasterGelu x * sigmoid(1.702 x)
 * [formulas unconfirmed against the device]. */
#ifndef NPUKB_CPUSIM_MATH_H
#define NPUKB_CPUSIM_MATH_H

#include <math.h>

#include "float_trig.h"

namespace AscendC {
namespace detail {

/* A float count form through a whole-range routine that gives the bits
 * EXPR would (float_trig.h: Sin and Cos), or element by element through f.
 * A destination that overlaps the source without being it stays element
 * by element: the routine reads a block before writing it. */
typedef void (*float_bulk_fn)(float *dst, const float *src, size_t n);

inline void sin_f32_n(float *d, const float *x, size_t n) { npukb_ft_apply(d, x, n, 0); }
inline void cos_f32_n(float *d, const float *x, size_t n) { npukb_ft_apply(d, x, n, 1); }

template <class T, class F>
inline void hl_unary(const LocalTensor<T> &dst, const LocalTensor<T> &src, int32_t count, const char *what,
		     double per_repeat, SrcLoc loc, F f, float_bulk_fn bulk)
{
	if constexpr (std::is_same<T, float>::value) {
		const float *d = dst.addr_, *x = src.addr_;
		if (bulk && count > 0 && (d == x || d + count <= x || x + count <= d)) {
			vunary_n(dst, src, count, what, per_repeat, loc,
				 [bulk](float *o, const float *i, int32_t n) { bulk(o, i, (size_t)n); });
			return;
		}
	}
	vunary(dst, src, count, what, per_repeat, loc, f);
}

template <class T>
inline void tmp_check(const LocalTensor<T> &tmp, const char *what, SrcLoc loc)
{
	npukb_cpusim::ub_check(tmp.addr_, 0, tmp.GetLength(), what, "temporary buffer", loc);
}

inline double gelu_tanh(double x)
{
	return x / (1.0 + exp(-1.5957691216057308 * (x + 0.044715 * x * x * x)));
}

inline double sign_of(double x)
{
	return x > 0 ? 1.0 : x < 0 ? -1.0 : x; /* keeps +-0 and NaN */
}

} // namespace detail

#define NPUKB_HL_UNARY_BULK(NAME, STEPS, EXPR, BULK)                                             \
	template <typename T, bool isReuseSource = false>                                         \
	inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src,                    \
			 const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount,    \
			 SrcLoc loc = NPUKB_LOC)                                                  \
	{                                                                                         \
		static_assert(detail::one_of_float<T>::value, #NAME ": element type not supported (half, float)"); \
		detail::tmp_check(sharedTmpBuffer, #NAME, loc);                                   \
		detail::hl_unary(dst, src, (int32_t)calCount, #NAME, (STEPS) * detail::rep_tr(), loc, \
				 detail::tabulated<T>([](T x) {                                   \
					 const double a = detail::widen(x);                       \
					 return detail::narrow<T>(EXPR);                          \
				 }),                                                              \
				 BULK);                                                           \
	}                                                                                         \
	template <typename T, bool isReuseSource = false>                                         \
	inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint32_t calCount, \
			 SrcLoc loc = NPUKB_LOC)                                                  \
	{                                                                                         \
		static_assert(detail::one_of_float<T>::value, #NAME ": element type not supported (half, float)"); \
		detail::hl_unary(dst, src, (int32_t)calCount, #NAME, (STEPS) * detail::rep_tr(), loc, \
				 detail::tabulated<T>([](T x) {                                   \
					 const double a = detail::widen(x);                       \
					 return detail::narrow<T>(EXPR);                          \
				 }),                                                              \
				 BULK);                                                           \
	}                                                                                         \
	/* The whole source tensor: calCount is its size. */                                      \
	template <typename T, bool isReuseSource = false>                                         \
	inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src,                    \
			 const LocalTensor<uint8_t> &sharedTmpBuffer, SrcLoc loc = NPUKB_LOC)     \
	{                                                                                         \
		NAME<T, isReuseSource>(dst, src, sharedTmpBuffer, src.GetSize(), loc);            \
	}                                                                                         \
	template <typename T, bool isReuseSource = false>                                         \
	inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, SrcLoc loc = NPUKB_LOC) \
	{                                                                                         \
		NAME<T, isReuseSource>(dst, src, src.GetSize(), loc);                             \
	}                                                                                         \
	/* The exact AscendC signatures (no location), for a kernel that                          \
	 * passes the op as a template argument: the pack is empty. */                            \
	template <typename T, bool isReuseSource = false, class... NoLoc,                         \
		  std::enable_if_t<sizeof...(NoLoc) == 0, int> = 0>                               \
	inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src,                    \
			 const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount, NoLoc...) \
	{                                                                                         \
		NAME<T, isReuseSource>(dst, src, sharedTmpBuffer, calCount, NPUKB_LOC);           \
	}                                                                                         \
	template <typename T, bool isReuseSource = false, class... NoLoc,                         \
		  std::enable_if_t<sizeof...(NoLoc) == 0, int> = 0>                               \
	inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint32_t calCount, \
			 NoLoc...)                                                                \
	{                                                                                         \
		NAME<T, isReuseSource>(dst, src, calCount, NPUKB_LOC);                            \
	}

#define NPUKB_HL_UNARY(NAME, STEPS, EXPR) NPUKB_HL_UNARY_BULK(NAME, STEPS, EXPR, nullptr)

NPUKB_HL_UNARY(Sigmoid, 4, 1.0 / (1.0 + exp(-a)))
NPUKB_HL_UNARY(Tanh, 6, tanh(a))
NPUKB_HL_UNARY_BULK(Sin, 12, sin(a), detail::sin_f32_n)
NPUKB_HL_UNARY_BULK(Cos, 12, cos(a), detail::cos_f32_n)
NPUKB_HL_UNARY(Tan, 14, tan(a))
NPUKB_HL_UNARY(Asin, 14, asin(a))
NPUKB_HL_UNARY(Acos, 14, acos(a))
NPUKB_HL_UNARY(Atan, 12, atan(a))
NPUKB_HL_UNARY(Sinh, 6, sinh(a))
NPUKB_HL_UNARY(Cosh, 6, cosh(a))
NPUKB_HL_UNARY(Asinh, 8, asinh(a))
NPUKB_HL_UNARY(Acosh, 8, acosh(a))
NPUKB_HL_UNARY(Atanh, 8, atanh(a))
NPUKB_HL_UNARY(Erf, 12, erf(a))
NPUKB_HL_UNARY(Erfc, 14, erfc(a))
NPUKB_HL_UNARY(Log, 1, log(a))
NPUKB_HL_UNARY(Log2, 2, log2(a))
NPUKB_HL_UNARY(Log10, 2, log10(a))
NPUKB_HL_UNARY(Floor, 2, floor(a))
NPUKB_HL_UNARY(Ceil, 2, ceil(a))
NPUKB_HL_UNARY(Trunc, 2, trunc(a))
NPUKB_HL_UNARY(Round, 2, nearbyint(a))
NPUKB_HL_UNARY(Frac, 3, a - trunc(a))
NPUKB_HL_UNARY(Sign, 3, detail::sign_of(a))
NPUKB_HL_UNARY(Gelu, 8, detail::gelu_tanh(a))
NPUKB_HL_UNARY(FasterGelu, 5, a / (1.0 + exp(-1.702 * a)))
NPUKB_HL_UNARY(Silu, 5, a / (1.0 + exp(-a)))
#undef NPUKB_HL_UNARY
#undef NPUKB_HL_UNARY_BULK

/* The high-level Exp (lib/math): the basic Exp refined by a Taylor series of
 * taylorExpandLevel terms, for precision. cpusim's basic Exp is already exact
 * to one rounding, so every level gives that result; the cost grows with the
 * level [per-term cost unconfirmed]. Level 0 is the basic instruction. */
template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
inline void Exp(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<uint8_t> &sharedTmpBuffer,
		const uint32_t calCount, SrcLoc loc = NPUKB_LOC)
{
	static_assert(detail::one_of_float<T>::value, "Exp: element type not supported (half, float)");
	detail::tmp_check(sharedTmpBuffer, "Exp", loc);
	detail::vunary(dst, src, (int32_t)calCount, "Exp", (1 + 2 * taylorExpandLevel) * detail::rep_tr(), loc,
		       detail::tabulated<T>([](T x) { return detail::narrow<T>(exp(detail::widen(x))); }));
}
template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
inline void Exp(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint32_t calCount,
		SrcLoc loc = NPUKB_LOC)
{
	static_assert(detail::one_of_float<T>::value, "Exp: element type not supported (half, float)");
	detail::vunary(dst, src, (int32_t)calCount, "Exp", (1 + 2 * taylorExpandLevel) * detail::rep_tr(), loc,
		       detail::tabulated<T>([](T x) { return detail::narrow<T>(exp(detail::widen(x))); }));
}

/* Power: tensor ^ tensor, tensor ^ scalar, scalar ^ tensor; half, float
 * and int32_t (AscendC's data types for Power on 220x). int32_t is the exact
 * integer power wrapped to 32 bits; a negative exponent gives 0 unless the
 * base is 1 or -1 (the integer part of the real power) [unconfirmed]. */
namespace detail {
template <class T> struct one_of_power
	: std::integral_constant<bool, one_of_float<T>::value || std::is_same<T, int32_t>::value> {};
template <class T>
inline T power_elem(T x, T y)
{
	return narrow<T>(pow(widen(x), widen(y)));
}
template <>
inline int32_t power_elem<int32_t>(int32_t x, int32_t y)
{
	if (y < 0)
		return x == 1 ? 1 : x == -1 ? ((y & 1) ? -1 : 1) : 0;
	uint32_t r = 1, b = (uint32_t)x;
	for (uint32_t e = (uint32_t)y; e; e >>= 1) {
		if (e & 1)
			r *= b;
		b *= b;
	}
	return (int32_t)r;
}
} // namespace detail

template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,
		  const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount, SrcLoc loc = NPUKB_LOC)
{
	static_assert(detail::one_of_power<T>::value, "Power: element type not supported (half, float, int32_t)");
	detail::tmp_check(sharedTmpBuffer, "Power", loc);
	detail::vbinary(dst, src0, src1, (int32_t)calCount, "Power", 6 * detail::rep_tr(), loc, [](T x, T y) {
		return detail::power_elem<T>(x, y);
	});
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,
		  const uint32_t calCount, SrcLoc loc = NPUKB_LOC)
{
	static_assert(detail::one_of_power<T>::value, "Power: element type not supported (half, float, int32_t)");
	detail::vbinary(dst, src0, src1, (int32_t)calCount, "Power", 6 * detail::rep_tr(), loc, [](T x, T y) {
		return detail::power_elem<T>(x, y);
	});
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const T &exponent,
		  const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount, SrcLoc loc = NPUKB_LOC)
{
	detail::tmp_check(sharedTmpBuffer, "Power", loc);
	Power<T, isReuseSource>(dst, src0, exponent, calCount, loc);
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T> &dst, const T &base, const LocalTensor<T> &src1,
		  const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount, SrcLoc loc = NPUKB_LOC)
{
	detail::tmp_check(sharedTmpBuffer, "Power", loc);
	Power<T, isReuseSource>(dst, base, src1, calCount, loc);
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const T &exponent,
		  const uint32_t calCount, SrcLoc loc = NPUKB_LOC)
{
	static_assert(detail::one_of_power<T>::value, "Power: element type not supported (half, float, int32_t)");
	const T e = exponent;
	detail::vunary(dst, src0, (int32_t)calCount, "Power", 6 * detail::rep_tr(), loc,
		       [e](T x) { return detail::power_elem<T>(x, e); });
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T> &dst, const T &base, const LocalTensor<T> &src1,
		  const uint32_t calCount, SrcLoc loc = NPUKB_LOC)
{
	static_assert(detail::one_of_power<T>::value, "Power: element type not supported (half, float, int32_t)");
	const T b = base;
	detail::vunary(dst, src1, (int32_t)calCount, "Power", 6 * detail::rep_tr(), loc,
		       [b](T y) { return detail::power_elem<T>(b, y); });
}

/* Sum: per row of `outter` rows, the sum of the first n of its `inner`
 * elements (inner * sizeof(T) a multiple of 32 bytes, n <= inner) into
 * dst[row]. Each sum is computed exactly (double) and rounded once to T;
 * the device adds in its own order [unconfirmed]. */
struct SumParams {
	uint32_t outter = 1;
	uint32_t inner = 0;
	uint32_t n = 0;
};
namespace detail {
/* Sum and Mean: per row of `inner` elements (a whole number of 32-byte
 * blocks), the first n summed exactly, divided by `div`, rounded once;
 * `extra` vector repeats per row beyond the row's own (Mean's division). */
template <typename T>
inline void row_reduce(const LocalTensor<T> &dst, const LocalTensor<T> &src, uint32_t outter, uint32_t inner,
		       uint32_t n, double div, uint64_t extra, const char *what, SrcLoc loc)
{
	static_assert(one_of_float<T>::value, "Sum/Mean: element type not supported (half, float)");
	if ((inner * sizeof(T)) % 32 != 0 || n > inner || n == 0)
		npukb_cpusim::fail("out-of-bounds", loc,
				   "%s: inner (%u) must be a whole number of 32-byte blocks and n (%u) in 1..inner",
				   what, inner, n);
	npukb_cpusim::ub_check_elem(src.addr_, (uint64_t)outter * inner * sizeof(T), src.GetLength(), sizeof(T),
				    what, "source", loc);
	npukb_cpusim::ub_check_elem(dst.addr_, (uint64_t)outter * sizeof(T), dst.GetLength(), sizeof(T), what,
				    "destination", loc);
	for (uint32_t r = 0; r < outter; r++) {
		double acc = 0;
		for (uint32_t j = 0; j < n; j++)
			acc += widen(src.addr_[(uint64_t)r * inner + j]);
		dst.addr_[r] = narrow<T>(acc / div);
	}
	const uint64_t lanes = (uint64_t)lanes_of(sizeof(T));
	npukb_cpusim::cost_vec_rep((uint64_t)outter * ((inner + lanes - 1) / lanes + extra), rep());
}
} // namespace detail

template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
inline void Sum(const LocalTensor<T> &dst, const LocalTensor<T> &src, const SumParams &p, SrcLoc loc = NPUKB_LOC)
{
	detail::row_reduce(dst, src, p.outter, p.inner, p.n, 1.0, 0, "Sum", loc);
}
template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
inline void Sum(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<uint8_t> &sharedTmpBuffer,
		const SumParams &p, SrcLoc loc = NPUKB_LOC)
{
	detail::tmp_check(sharedTmpBuffer, "Sum", loc);
	Sum<T, reduceDim, isReuseSource, isBasicBlock>(dst, src, p, loc);
}

/* Mean: per row of `inner` elements (a whole number of 32-byte blocks),
 * the mean of the first n, exact and rounded once to T (the device sums
 * in accType: at least as accurate) [instruction sequence unconfirmed]. */
struct MeanParams {
	uint32_t outter = 1;
	uint32_t inner = 0;
	uint32_t n = 0;
};
template <typename T, typename accType = T, bool isReuseSource = false, bool isBasicBlock = false,
	  int32_t reduceDim = -1>
inline void Mean(const LocalTensor<T> &dst, const LocalTensor<T> &src, const MeanParams &p, SrcLoc loc = NPUKB_LOC)
{
	detail::row_reduce(dst, src, p.outter, p.inner, p.n, (double)p.n, 1, "Mean", loc);
}
template <typename T, typename accType = T, bool isReuseSource = false, bool isBasicBlock = false,
	  int32_t reduceDim = -1>
inline void Mean(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<uint8_t> &sharedTmpBuffer,
		 const MeanParams &p, SrcLoc loc = NPUKB_LOC)
{
	detail::tmp_check(sharedTmpBuffer, "Mean", loc);
	Mean<T, accType, isReuseSource, isBasicBlock, reduceDim>(dst, src, p, loc);
}

/* InitGlobalMemory: size elements of GM from gm's start set to value (a
 * vector Duplicate then UB->GM copies on the device, costed as the copy).
 * InitOutput is its older name (the tensor by value), which the FeedsRepeat
 * answer also instantiates for bfloat16_t: it takes any 16- or 32-bit type
 * [its type list is unconfirmed]. */
namespace detail {
template <typename T>
inline void init_gm(GlobalTensor<T> &gm, const uint64_t size, const T value, const char *what, SrcLoc loc)
{
	const uint64_t bytes = size * sizeof(T);
	npukb_cpusim::gm_check(gm.addr_, bytes, what, loc);
	npukb_cpusim::gm_note_write(gm.addr_, bytes, loc);
	for (uint64_t i = 0; i < size; i++)
		gm.addr_[i] = value;
	npukb_cpusim::cost_dma(npukb_cpusim::P_MTE3, bytes);
}
} // namespace detail
template <typename T>
inline void InitGlobalMemory(GlobalTensor<T> &gm, const uint64_t size, const T value, SrcLoc loc = NPUKB_LOC)
{
	static_assert(std::is_same<T, uint16_t>::value || std::is_same<T, int16_t>::value ||
			      std::is_same<T, half>::value || std::is_same<T, uint32_t>::value ||
			      std::is_same<T, int32_t>::value || std::is_same<T, float>::value,
		      "InitGlobalMemory: element type not supported (uint16_t, int16_t, half, uint32_t, int32_t, float)");
	detail::init_gm(gm, size, value, "InitGlobalMemory writes", loc);
}
template <typename T>
inline void InitOutput(GlobalTensor<T> gm, const uint64_t size, const T value = T(0), SrcLoc loc = NPUKB_LOC)
{
	static_assert(sizeof(T) == 2 || sizeof(T) == 4, "InitOutput: element type not supported (16- or 32-bit)");
	detail::init_gm(gm, size, value, "InitOutput writes", loc);
}

} // namespace AscendC

#endif
