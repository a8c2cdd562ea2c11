/* npukb_cpusim/cast.h - AscendC Cast between half, float, bfloat16_t and the
 * integer types, in count and mask/repeat forms.
 *
 * Every source value is exact in double; it is rounded once, in the
 * requested mode, to the destination. CAST_NONE means CAST_RINT when the
 * conversion loses precision (and is exact otherwise, which rounding an
 * exact value gives anyway). Integer destinations saturate (NaN gives 0);
 * float destinations overflow as IEEE directed rounding says (to infinity
 * or to the largest finite value, depending on the mode). Float to float
 * with a rounding mode rounds to an integral value. The pairs accepted are
 * those the 910B (A2) supports; another pair is a compile error. Which modes
 * each pair accepts is not checked. */
#ifndef NPUKB_CPUSIM_CAST_H
#define NPUKB_CPUSIM_CAST_H

#include <float.h>

#include "npukb_cpusim/fp16_bulk.h"

#include <limits>

namespace AscendC {

enum class RoundMode : uint8_t { CAST_NONE = 0, CAST_RINT, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC, CAST_ODD };

namespace detail {

template <class D, class S> struct cast_ok : std::false_type {};
#define NPUKB_CAST_PAIR(S, D) template <> struct cast_ok<D, S> : std::true_type {};
NPUKB_CAST_PAIR(half, float) NPUKB_CAST_PAIR(half, int32_t) NPUKB_CAST_PAIR(half, int16_t)
NPUKB_CAST_PAIR(half, int8_t) NPUKB_CAST_PAIR(half, uint8_t)
NPUKB_CAST_PAIR(float, half) NPUKB_CAST_PAIR(float, float) NPUKB_CAST_PAIR(float, int32_t)
NPUKB_CAST_PAIR(float, int16_t) NPUKB_CAST_PAIR(float, int64_t) NPUKB_CAST_PAIR(float, bfloat16_t)
NPUKB_CAST_PAIR(bfloat16_t, float) NPUKB_CAST_PAIR(bfloat16_t, int32_t)
NPUKB_CAST_PAIR(int32_t, float) NPUKB_CAST_PAIR(int32_t, half) NPUKB_CAST_PAIR(int32_t, int16_t)
NPUKB_CAST_PAIR(int32_t, int64_t)
NPUKB_CAST_PAIR(int16_t, half) NPUKB_CAST_PAIR(int16_t, float)
NPUKB_CAST_PAIR(int8_t, half) NPUKB_CAST_PAIR(uint8_t, half)
NPUKB_CAST_PAIR(int64_t, int32_t) NPUKB_CAST_PAIR(int64_t, float)
#undef NPUKB_CAST_PAIR

/* x rounded to an integral value. */
inline double round_integral(double x, RoundMode m)
{
	switch (m) {
	case RoundMode::CAST_FLOOR: return floor(x);
	case RoundMode::CAST_CEIL: return ceil(x);
	case RoundMode::CAST_ROUND: return round(x);
	case RoundMode::CAST_TRUNC: return trunc(x);
	case RoundMode::CAST_ODD: {
		double t = trunc(x);
		if (t != x && fmod(t, 2.0) == 0.0)
			t += x > 0 ? 1.0 : -1.0;
		return t;
	}
	default: return nearbyint(x); /* the default FP environment: ties to even */
	}
}

/* x rounded to a binary float with mb mantissa bits, minimum normal
 * exponent emin and largest finite value maxfin; the result is exact in
 * the destination format. */
inline double round_format(double x, int mb, int emin, double maxfin, RoundMode m)
{
	if (x != x || x == 0 || x - x != 0) /* NaN, zero, infinity */
		return x;
	int e;
	frexp(x, &e);
	const int q = (e - 1 > emin ? e - 1 : emin) - mb;
	const double r = ldexp(round_integral(ldexp(x, -q), m), q);
	if (fabs(r) <= maxfin)
		return r;
	const double inf = x > 0 ? HUGE_VAL : -HUGE_VAL, big = x > 0 ? maxfin : -maxfin;
	switch (m) {
	case RoundMode::CAST_TRUNC:
	case RoundMode::CAST_ODD: return big;
	case RoundMode::CAST_FLOOR: return x > 0 ? big : inf;
	case RoundMode::CAST_CEIL: return x > 0 ? inf : big;
	default: return inf;
	}
}

template <class D>
inline D to_int(double x, RoundMode m)
{
	if (x != x)
		return 0;
	const double r = round_integral(x, m == RoundMode::CAST_NONE ? RoundMode::CAST_RINT : m);
	const double lo = (double)std::numeric_limits<D>::min(), hi = (double)std::numeric_limits<D>::max();
	if (r <= lo)
		return std::numeric_limits<D>::min();
	if (r >= hi)
		return std::numeric_limits<D>::max();
	return (D)r;
}

template <class D> struct conv {
	static D from(double x, RoundMode m) { return to_int<D>(x, m); }
};
template <> struct conv<half> {
	static half from(double x, RoundMode m) { return half(round_format(x, 10, -14, 65504.0, m)); }
};
template <> struct conv<bfloat16_t> {
	static bfloat16_t from(double x, RoundMode m)
	{
		return bfloat16_t(round_format(x, 7, -126, ldexp(255.0, 120), m));
	}
};
template <> struct conv<float> {
	static float from(double x, RoundMode m) { return (float)round_format(x, 23, -126, FLT_MAX, m); }
};

inline double exact(half v) { return (double)npukb_cpusim::f16_to_f32(v.bits); }
inline double exact(bfloat16_t v) { return (double)npukb_cpusim::bf16_to_f32(v.bits); }
template <class S>
inline double exact(S v) { return (double)v; }

template <class D, class S>
inline D cast_one(S v, RoundMode m)
{
	/* float -> float is the only same-type pair: CAST_NONE copies. */
	if (std::is_same<D, S>::value && m == RoundMode::CAST_NONE)
		return (D)v;
	if (std::is_same<D, S>::value)
		return conv<D>::from(round_integral(exact(v), m), RoundMode::CAST_RINT);
	/* Ties-to-even into a float type is what the types' own conversions
	 * from double do: the fast path for the common casts. */
	if (!std::is_integral<D>::value && (m == RoundMode::CAST_NONE || m == RoundMode::CAST_RINT))
		return D(exact(v));
	return conv<D>::from(exact(v), m);
}

/* int32_t -> half goes through the DEQSCALE register on the 910B (A2):
 * the value is scaled by SetDeqScale(half)'s scale before rounding once
 * [the register's reset value, taken as 1, is unconfirmed]. */
template <>
inline half cast_one<half, int32_t>(int32_t v, RoundMode m)
{
	const double x = (double)v * npukb_cpusim::g.deq_scale;
	return m == RoundMode::CAST_NONE || m == RoundMode::CAST_RINT ? half(x) : conv<half>::from(x, m);
}

} // namespace detail

namespace detail {
/* The float <-> half and float <-> bfloat16_t casts kernels use most, a
 * whole range at a time (fp16_bulk.h), with the bits cast_one gives:
 * widening is exact in every mode, narrowing here only ties to even
 * (CAST_NONE, CAST_RINT). Returns false for the other pairs and modes. */
template <class D, class S>
inline bool bulk_cast(const LocalTensor<D> &dst, const LocalTensor<S> &src, RoundMode m, uint32_t count,
		      SrcLoc loc)
{
	namespace rt = npukb_cpusim;
	const bool rne = m == RoundMode::CAST_NONE || m == RoundMode::CAST_RINT;
	if constexpr (std::is_same<D, float>::value && std::is_same<S, half>::value) {
		vunary_n(dst, src, (int32_t)count, "Cast", rep(), loc, [](float *d, const half *x, int32_t n) {
			rt::f16_to_f32_n(x, d, (size_t)n);
		});
		return true;
	} else if constexpr (std::is_same<D, float>::value && std::is_same<S, bfloat16_t>::value) {
		vunary_n(dst, src, (int32_t)count, "Cast", rep(), loc, [](float *d, const bfloat16_t *x, int32_t n) {
			rt::bf16_to_f32_n(x, d, (size_t)n);
		});
		return true;
	} else if constexpr (std::is_same<D, half>::value && std::is_same<S, float>::value) {
		if (!rne)
			return false;
		vunary_n(dst, src, (int32_t)count, "Cast", rep(), loc, [](half *d, const float *x, int32_t n) {
			rt::f32_to_f16_n(x, d, (size_t)n);
		});
		return true;
	} else if constexpr (std::is_same<D, bfloat16_t>::value && std::is_same<S, float>::value) {
		if (!rne)
			return false;
		vunary_n(dst, src, (int32_t)count, "Cast", rep(), loc, [](bfloat16_t *d, const float *x, int32_t n) {
			rt::f32_to_bf16_n(x, d, (size_t)n);
		});
		return true;
	} else {
		(void)dst, (void)src, (void)rne, (void)count, (void)loc;
		return false;
	}
}
} // namespace detail

/* Sets the DEQSCALE register that Cast int32_t -> half scales by. */
inline void SetDeqScale(half scale) { npukb_cpusim::g.deq_scale = detail::exact(scale); }

template <class D, class S>
inline void Cast(const LocalTensor<D> &dst, const LocalTensor<S> &src, const RoundMode &round_mode,
		 const uint32_t count, SrcLoc loc = NPUKB_LOC)
{
	static_assert(detail::cast_ok<D, S>::value, "Cast: this source/destination type pair is not supported on this SoC");
	const RoundMode m = round_mode;
	if (detail::bulk_cast(dst, src, m, count, loc))
		return;
	detail::vunary(dst, src, (int32_t)count, "Cast", detail::rep(), loc,
		       [m](S v) { return detail::cast_one<D, S>(v, m); });
}

namespace detail {
template <class D, class S>
inline void cast_mask(const Plan &pl, const LocalTensor<D> &dst, const LocalTensor<S> &src, RoundMode m,
		      const UnaryRepeatParams &p, SrcLoc loc)
{
	mask_unary(pl, dst, src, p, "Cast", rep(), loc, [m](S v) { return cast_one<D, S>(v, m); });
}
} // namespace detail

template <class D, class S, bool isSetMask = true>
inline void Cast(const LocalTensor<D> &dst, const LocalTensor<S> &src, const RoundMode &round_mode, uint64_t mask,
		 int32_t repeatTimes, const UnaryRepeatParams &params, SrcLoc loc = NPUKB_LOC)
{
	static_assert(detail::cast_ok<D, S>::value, "Cast: this source/destination type pair is not supported on this SoC");
	const detail::Plan pl = detail::plan_len(isSetMask, mask, detail::lanes_of(sizeof(D) > sizeof(S) ? sizeof(D) : sizeof(S)),
						 repeatTimes, "Cast", loc);
	detail::cast_mask(pl, dst, src, round_mode, params, loc);
}

template <class D, class S, bool isSetMask = true>
inline void Cast(const LocalTensor<D> &dst, const LocalTensor<S> &src, const RoundMode &round_mode,
		 const uint64_t mask[], int32_t repeatTimes, const UnaryRepeatParams &params, SrcLoc loc = NPUKB_LOC)
{
	static_assert(detail::cast_ok<D, S>::value, "Cast: this source/destination type pair is not supported on this SoC");
	const detail::Plan pl = detail::plan_bits(isSetMask, mask, detail::lanes_of(sizeof(D) > sizeof(S) ? sizeof(D) : sizeof(S)),
						  repeatTimes, "Cast", loc);
	detail::cast_mask(pl, dst, src, round_mode, params, loc);
}

} // namespace AscendC

#endif
