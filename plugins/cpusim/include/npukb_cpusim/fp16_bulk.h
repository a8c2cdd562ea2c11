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

/* The F16C instruction through the compiler's builtin, not <immintrin.h>:
 * that header declares every x86 intrinsic and tripled the time to compile
 * a kernel (0.6 s -> 1.9 s for kernel_operator.h alone). */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
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
typedef float f16c_v8sf __attribute__((vector_size(32)));
typedef short f16c_v8hi __attribute__((vector_size(16)));

/* vcvtps2ph with immediate 0: round to nearest even */
__attribute__((target("avx,f16c"))) inline void f32_to_f16_n_f16c(const float *src, half *dst, size_t n)
{
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		f16c_v8sf v;
		memcpy(&v, src + i, sizeof v);
		const f16c_v8hi h = __builtin_ia32_vcvtps2ph256(v, 0);
		memcpy((void *)(dst + i), &h, sizeof h);
	}
	for (; i < n; i++)
		dst[i].bits = f64_to_f16((double)src[i]);
}

/* CPUID leaf 1: ECX bit 27 OSXSAVE, 28 AVX, 29 F16C; and the OS saves the
 * YMM state (XCR0 bits 1 and 2). By hand: clang 14's
 * __builtin_cpu_supports knows no "f16c". */
inline bool have_f16c()
{
	static const bool yes = [] {
		unsigned a, b, c, d;
		__asm__("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(1), "c"(0));
		const unsigned need = (1u << 27) | (1u << 28) | (1u << 29);
		if ((c & need) != need)
			return false;
		unsigned lo, hi;
		__asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
		return (lo & 6u) == 6u;
	}();
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
