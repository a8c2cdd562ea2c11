/* npukb_cpusim/fp16_bulk.h - whole-range conversions between float and the
 * 16-bit float types, for Cast's count form.
 *
 * Each gives, bit for bit, what fp16.h's per-element conversion gives
 * (tests/cpusim/test_cpusim_api.cpp checks every half and bfloat16 value and
 * a spread of floats): they exist because a Foreach kernel on a 67M-element
 * half tensor spent most of its emulated time converting one element at a
 * time in software. half -> float is a table lookup (exact, so a table of
 * the 65,536 results is the conversion); float -> half uses the CPU's F16C
 * instructions where it has them, which round to nearest even once from
 * float, as fp16.h does from the float's exact double. */
#ifndef NPUKB_CPUSIM_FP16_BULK_H
#define NPUKB_CPUSIM_FP16_BULK_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <vector>

#include "npukb_cpusim/fp16.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define NPUKB_CPUSIM_F16C 1
#endif

static_assert(sizeof(half) == 2 && sizeof(bfloat16_t) == 2, "the 16-bit types are their bits");

namespace npukb_cpusim {

inline const float *f16_to_f32_table()
{
	static const std::vector<float> table = [] {
		std::vector<float> t(65536);
		for (uint32_t u = 0; u < 65536; u++)
			t[u] = f16_to_f32((uint16_t)u);
		return t;
	}();
	return table.data();
}

inline void f16_to_f32_n(const half *src, float *dst, size_t n)
{
	const float *t = f16_to_f32_table();
	for (size_t i = 0; i < n; i++)
		dst[i] = t[src[i].bits];
}

inline void bf16_to_f32_n(const bfloat16_t *src, float *dst, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const uint32_t bits = (uint32_t)src[i].bits << 16;
		memcpy(dst + i, &bits, sizeof bits);
	}
}

/* Ties to even on the bit pattern: adding 0x7fff plus the kept part's
 * lowest bit carries into the kept half exactly when the dropped half is
 * over the tie, or at the tie with an odd kept half; a carry out of the
 * mantissa bumps the exponent, up to infinity. A NaN is made quiet with
 * its top payload bits kept, as round_double does. */
inline uint16_t f32_to_bf16_rne(float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof u);
	if ((u & 0x7fffffffu) > 0x7f800000u)
		return (uint16_t)((u >> 16) | 0x40);
	return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1)) >> 16);
}

inline void f32_to_bf16_n(const float *src, bfloat16_t *dst, size_t n)
{
	for (size_t i = 0; i < n; i++)
		dst[i].bits = f32_to_bf16_rne(src[i]);
}

#ifdef NPUKB_CPUSIM_F16C
__attribute__((target("avx,f16c"))) inline void f32_to_f16_n_f16c(const float *src, half *dst, size_t n)
{
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		const __m256 v = _mm256_loadu_ps(src + i);
		_mm_storeu_si128((__m128i *)(void *)(dst + i), _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT));
	}
	for (; i < n; i++)
		dst[i].bits = f64_to_f16((double)src[i]);
}

inline bool have_f16c()
{
	static const bool yes = __builtin_cpu_supports("avx") && __builtin_cpu_supports("f16c");
	return yes;
}
#endif

inline void f32_to_f16_n_portable(const float *src, half *dst, size_t n)
{
	for (size_t i = 0; i < n; i++)
		dst[i].bits = f64_to_f16((double)src[i]);
}

inline void f32_to_f16_n(const float *src, half *dst, size_t n)
{
#ifdef NPUKB_CPUSIM_F16C
	if (have_f16c()) {
		f32_to_f16_n_f16c(src, dst, n);
		return;
	}
#endif
	f32_to_f16_n_portable(src, dst, n);
}

} // namespace npukb_cpusim

#endif
