/* npukb_cpusim/fp16.h - the device's 16-bit float types on the host.
 *
 * Owns: `half` (IEEE binary16) and `bfloat16_t`, stored as their bit
 * patterns, with round-to-nearest-even conversions that go straight from
 * double. Going through float first would round twice and could differ from
 * the hardware's single rounding. */
#ifndef NPUKB_CPUSIM_FP16_H
#define NPUKB_CPUSIM_FP16_H

#include <stdint.h>
#include <string.h>
#include <type_traits>

namespace npukb_cpusim {

/* Rounds d to a float format with MB mantissa bits, exponent bias BIAS and
 * EMAX as the largest unbiased exponent, returning the bit pattern. One
 * routine serves binary16 (10, 15, 15) and bfloat16 (7, 127, 127). */
template <int MB, int BIAS, int EMAX, int TOTAL>
inline uint32_t round_double(double d)
{
	uint64_t b;
	memcpy(&b, &d, sizeof b);
	const uint32_t sign = (uint32_t)(b >> 63) << (TOTAL - 1);
	const int exp = (int)((b >> 52) & 0x7ff);
	const uint64_t man = b & ((1ull << 52) - 1);
	const uint32_t inf = ((1u << (TOTAL - 1 - MB)) - 1) << MB;
	if (exp == 0x7ff) {
		if (man == 0)
			return sign | inf;
		/* Quiet NaN keeping the top payload bits. */
		return sign | inf | (1u << (MB - 1)) | (uint32_t)(man >> (52 - MB));
	}
	if (exp == 0) /* zero or a double subnormal: far below any subnormal here */
		return sign;
	const int e = exp - 1023;
	if (e > EMAX)
		return sign | inf;
	const int emin = 1 - BIAS;
	const uint64_t m = man | (1ull << 52);
	int shift = 52 - MB;
	if (e < emin) {
		shift += emin - e;
		if (shift > 63)
			return sign;
	}
	uint64_t q = m >> shift;
	const uint64_t rem = m & ((1ull << shift) - 1);
	const uint64_t halfway = 1ull << (shift - 1);
	if (rem > halfway || (rem == halfway && (q & 1)))
		q++;
	if (e < emin) /* subnormal; q == 1 << MB lands on the smallest normal */
		return sign | (uint32_t)q;
	uint32_t be = (uint32_t)(e + BIAS);
	if (q == (2ull << MB)) {
		q >>= 1;
		be++;
	}
	if (be >= (1u << (TOTAL - 1 - MB)) - 1)
		return sign | inf;
	return sign | (be << MB) | ((uint32_t)q & ((1u << MB) - 1));
}

inline uint16_t f64_to_f16(double d) { return (uint16_t)round_double<10, 15, 15, 16>(d); }
inline uint16_t f64_to_bf16(double d) { return (uint16_t)round_double<7, 127, 127, 16>(d); }

/* The same rounding with arithmetic only, for constant expressions
 * (`constexpr half ONE = 1.0;`): no bit casts. Slow, compile time only. */
constexpr uint16_t f64_to_f16_const(double d)
{
	if (d != d)
		return 0x7e00;
	const uint16_t sign = d < 0 ? 0x8000 : 0;
	const double a = d < 0 ? -d : d;
	if (a == 0)
		return sign;
	if (a >= 65520.0)
		return sign | 0x7c00;
	int e = 0;
	double p = 1.0;
	while (a >= 2 * p) {
		p *= 2;
		e++;
	}
	while (a < p) {
		p /= 2;
		e--;
	}
	if (e < -14)
		e = -14;
	double ulp = 1.0;
	for (int k = e - 10; k < 0; k++)
		ulp /= 2;
	for (int k = e - 10; k > 0; k--)
		ulp *= 2;
	const double q = a / ulp;
	uint32_t qi = (uint32_t)q;
	const double frac = q - (double)qi;
	if (frac > 0.5 || (frac == 0.5 && (qi & 1)))
		qi++;
	if (qi < 1024) /* subnormal */
		return (uint16_t)(sign | qi);
	if (qi == 2048) {
		qi = 1024;
		e++;
	}
	if (e > 15)
		return sign | 0x7c00;
	return (uint16_t)(sign | ((uint32_t)(e + 15) << 10) | (qi - 1024));
}

inline float f16_to_f32(uint16_t h)
{
	const uint32_t sign = (uint32_t)(h & 0x8000) << 16;
	const uint32_t e = (h >> 10) & 0x1f;
	const uint32_t m = h & 0x3ff;
	uint32_t bits;
	if (e == 0) {
		/* m * 2^-24 is exact in float. */
		float v = (float)m * 5.9604644775390625e-8f;
		return sign ? -v : v;
	}
	if (e == 31)
		bits = sign | 0x7f800000u | (m << 13);
	else
		bits = sign | ((e + 112) << 23) | (m << 13);
	float f;
	memcpy(&f, &bits, sizeof f);
	return f;
}

inline float bf16_to_f32(uint16_t h)
{
	uint32_t bits = (uint32_t)h << 16;
	float f;
	memcpy(&f, &bits, sizeof f);
	return f;
}

} // namespace npukb_cpusim

struct bfloat16_t;

/* The device compiler's `half` is a builtin arithmetic type; this class
 * behaves like one for the conversions kernels write (from bfloat16_t too,
 * through its exact float value). */
struct half {
	uint16_t bits;

	half() = default;
	template <class T, typename std::enable_if<std::is_arithmetic<T>::value, int>::type = 0>
	constexpr half(T v)
		: bits(__builtin_is_constant_evaluated() ? npukb_cpusim::f64_to_f16_const((double)v)
							 : npukb_cpusim::f64_to_f16((double)v)) {}
	inline half(const bfloat16_t &v);
	operator float() const { return npukb_cpusim::f16_to_f32(bits); }

	static half from_bits(uint16_t b) { half h; h.bits = b; return h; }
	half operator-() const { return from_bits((uint16_t)(bits ^ 0x8000)); }
	half operator+() const { return *this; }
};

struct bfloat16_t {
	uint16_t bits;

	bfloat16_t() = default;
	template <class T, typename std::enable_if<std::is_arithmetic<T>::value, int>::type = 0>
	bfloat16_t(T v) : bits(npukb_cpusim::f64_to_bf16((double)v)) {}
	explicit bfloat16_t(half h) : bits(npukb_cpusim::f64_to_bf16((double)(float)h)) {}
	operator float() const { return npukb_cpusim::bf16_to_f32(bits); }

	static bfloat16_t from_bits(uint16_t b) { bfloat16_t h; h.bits = b; return h; }
	bfloat16_t operator-() const { return from_bits((uint16_t)(bits ^ 0x8000)); }
};

inline half::half(const bfloat16_t &v) : bits(npukb_cpusim::f64_to_f16((double)(float)v)) {}

/* Arithmetic: same-type operands compute exactly in double and round once;
 * with an integer the result keeps the 16-bit type, with a float or double
 * the result is that wider type (the usual arithmetic conversions). */
#define NPUKB_FP16_OPS(H)                                                              \
	inline H operator+(H a, H b) { return H((double)(float)a + (double)(float)b); } \
	inline H operator-(H a, H b) { return H((double)(float)a - (double)(float)b); } \
	inline H operator*(H a, H b) { return H((double)(float)a * (double)(float)b); } \
	inline H operator/(H a, H b) { return H((double)(float)a / (double)(float)b); } \
	inline H &operator+=(H &a, H b) { return a = a + b; }                           \
	inline H &operator-=(H &a, H b) { return a = a - b; }                           \
	inline H &operator*=(H &a, H b) { return a = a * b; }                           \
	inline H &operator/=(H &a, H b) { return a = a / b; }                           \
	inline bool operator==(H a, H b) { return (float)a == (float)b; }               \
	inline bool operator!=(H a, H b) { return (float)a != (float)b; }               \
	inline bool operator<(H a, H b) { return (float)a < (float)b; }                 \
	inline bool operator<=(H a, H b) { return (float)a <= (float)b; }               \
	inline bool operator>(H a, H b) { return (float)a > (float)b; }                 \
	inline bool operator>=(H a, H b) { return (float)a >= (float)b; }

NPUKB_FP16_OPS(half)
NPUKB_FP16_OPS(bfloat16_t)
#undef NPUKB_FP16_OPS

namespace npukb_cpusim {
template <class H> struct is_fp16 : std::false_type {};
template <> struct is_fp16<half> : std::true_type {};
template <> struct is_fp16<bfloat16_t> : std::true_type {};
template <class H, class U>
using mixed_t = typename std::enable_if<is_fp16<H>::value && std::is_arithmetic<U>::value,
	typename std::conditional<std::is_floating_point<U>::value, U, H>::type>::type;
template <class H, class U>
using mixed_cmp_t = typename std::enable_if<is_fp16<H>::value && std::is_arithmetic<U>::value, bool>::type;
} // namespace npukb_cpusim

#define NPUKB_FP16_MIXED(OP)                                                                 \
	template <class H, class U>                                                          \
	inline npukb_cpusim::mixed_t<H, U> operator OP(H a, U b)                              \
	{ return npukb_cpusim::mixed_t<H, U>((double)(float)a OP (double)b); }              \
	template <class H, class U>                                                          \
	inline npukb_cpusim::mixed_t<H, U> operator OP(U a, H b)                              \
	{ return npukb_cpusim::mixed_t<H, U>((double)a OP (double)(float)b); }
#define NPUKB_FP16_MIXED_CMP(OP)                                                             \
	template <class H, class U>                                                          \
	inline npukb_cpusim::mixed_cmp_t<H, U> operator OP(H a, U b)                          \
	{ return (double)(float)a OP (double)b; }                                          \
	template <class H, class U>                                                          \
	inline npukb_cpusim::mixed_cmp_t<H, U> operator OP(U a, H b)                          \
	{ return (double)a OP (double)(float)b; }

NPUKB_FP16_MIXED(+)
NPUKB_FP16_MIXED(-)
NPUKB_FP16_MIXED(*)
NPUKB_FP16_MIXED(/)
NPUKB_FP16_MIXED_CMP(==)
NPUKB_FP16_MIXED_CMP(!=)
NPUKB_FP16_MIXED_CMP(<)
NPUKB_FP16_MIXED_CMP(<=)
NPUKB_FP16_MIXED_CMP(>)
NPUKB_FP16_MIXED_CMP(>=)
#undef NPUKB_FP16_MIXED
#undef NPUKB_FP16_MIXED_CMP

#endif
