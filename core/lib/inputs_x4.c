/* inputs_x4.c - uniform inputs, four chunks at a time (inputs_x4.h).
 *
 * A tensor's chunks have independent streams (inputs.c), so four of them
 * can advance side by side in the four 64-bit lanes of an AVX2 register:
 * lane j runs chunk j's xoshiro256** and turns each draw into a value
 * with the same operations as the one-chunk loop, each exact or rounded
 * once in IEEE arithmetic (no fused multiply-add: the target is AVX2
 * alone), so the bits are those of inputs.c's loop on every machine. */
#include "inputs_x4.h"

#include <npukb/dtype.h>

#include <string.h>

static int portable_only;

void npukb_inputs_x4_disable(int off)
{
	portable_only = off;
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

/* Values converted to the dtype in one go, per lane. */
#define X4_BATCH 1024

static void store_lane(enum npukb_dtype dt, void *buf, size_t first, const float *fv, size_t n)
{
	if (dt == NPUKB_DT_FLOAT16)
		npukb_f32_to_f16_n(fv, (uint16_t *)buf + first, n);
	else if (dt == NPUKB_DT_BFLOAT16)
		npukb_f32_to_bf16_n(fv, (uint16_t *)buf + first, n);
	else
		memcpy((float *)buf + first, fv, n * sizeof(float));
}

#define ROTL4(x, k) _mm256_or_si256(_mm256_slli_epi64((x), (k)), _mm256_srli_epi64((x), 64 - (k)))

/* One draw of each lane, as a float of a + width * u, u in [0, 1). */
#define X4_DRAW(out)                                                                      \
	do {                                                                              \
		const __m256i s1x5 = _mm256_add_epi64(s1, _mm256_slli_epi64(s1, 2));      \
		const __m256i rot = ROTL4(s1x5, 7);                                         \
		const __m256i res = _mm256_add_epi64(rot, _mm256_slli_epi64(rot, 3));      \
		const __m256i t = _mm256_slli_epi64(s1, 17);                                \
		const __m256i x = _mm256_srli_epi64(res, 11); /* < 2^53 */                \
		/* exact: each 32-bit half through 2^52's mantissa, then joined */       \
		const __m256d hi = _mm256_sub_pd(                                           \
			_mm256_castsi256_pd(_mm256_or_si256(_mm256_srli_epi64(x, 32), magic)), \
			two52);                                                             \
		const __m256d lo = _mm256_sub_pd(                                           \
			_mm256_castsi256_pd(_mm256_or_si256(_mm256_and_si256(x, low32), magic)), \
			two52);                                                             \
		const __m256d u = _mm256_mul_pd(                                            \
			_mm256_add_pd(_mm256_mul_pd(hi, two32), lo), two_m53);              \
		(out) = _mm256_cvtpd_ps(_mm256_add_pd(va, _mm256_mul_pd(vw, u)));          \
		s2 = _mm256_xor_si256(s2, s0);                                              \
		s3 = _mm256_xor_si256(s3, s1);                                              \
		s1 = _mm256_xor_si256(s1, s2);                                              \
		s0 = _mm256_xor_si256(s0, s3);                                              \
		s2 = _mm256_xor_si256(s2, t);                                               \
		s3 = ROTL4(s3, 45);                                                         \
	} while (0)

__attribute__((target("avx2"))) static void uniform_x4(enum npukb_dtype dt, void *buf,
							   const size_t first[4], size_t n,
							   double a, double width,
							   const struct npukb_rng st[4])
{
	float fb[4][X4_BATCH] __attribute__((aligned(32))); /* 16 KiB, per thread */
	__m256i s0 = _mm256_set_epi64x((long long)st[3].s[0], (long long)st[2].s[0],
				       (long long)st[1].s[0], (long long)st[0].s[0]);
	__m256i s1 = _mm256_set_epi64x((long long)st[3].s[1], (long long)st[2].s[1],
				       (long long)st[1].s[1], (long long)st[0].s[1]);
	__m256i s2 = _mm256_set_epi64x((long long)st[3].s[2], (long long)st[2].s[2],
				       (long long)st[1].s[2], (long long)st[0].s[2]);
	__m256i s3 = _mm256_set_epi64x((long long)st[3].s[3], (long long)st[2].s[3],
				       (long long)st[1].s[3], (long long)st[0].s[3]);
	const __m256i magic = _mm256_set1_epi64x(0x4330000000000000ll);
	const __m256i low32 = _mm256_set1_epi64x(0xffffffffll);
	const __m256d two52 = _mm256_set1_pd(0x1p52), two32 = _mm256_set1_pd(0x1p32);
	const __m256d two_m53 = _mm256_set1_pd(0x1p-53);
	const __m256d va = _mm256_set1_pd(a), vw = _mm256_set1_pd(width);
	size_t i, nb = 0;
	int l;

	for (i = 0; i < n; i += 4) {
		__m128 r0, r1, r2, r3;
		X4_DRAW(r0);
		X4_DRAW(r1);
		X4_DRAW(r2);
		X4_DRAW(r3);
		/* rows become lanes: r0 holds lane 0's four values, ... */
		_MM_TRANSPOSE4_PS(r0, r1, r2, r3);
		_mm_store_ps(&fb[0][nb], r0);
		_mm_store_ps(&fb[1][nb], r1);
		_mm_store_ps(&fb[2][nb], r2);
		_mm_store_ps(&fb[3][nb], r3);
		nb += 4;
		if (nb == X4_BATCH) {
			for (l = 0; l < 4; l++)
				store_lane(dt, buf, first[l] + i + 4 - nb, fb[l], nb);
			nb = 0;
		}
	}
	for (l = 0; nb && l < 4; l++)
		store_lane(dt, buf, first[l] + n - nb, fb[l], nb);
}

int npukb_inputs_x4_uniform(enum npukb_dtype dt, void *buf, const size_t first[4], size_t n,
			    double a, double width, const struct npukb_rng st[4])
{
	static int avx2 = -1;
	if (portable_only || n % 4 ||
	    (dt != NPUKB_DT_FLOAT16 && dt != NPUKB_DT_BFLOAT16 && dt != NPUKB_DT_FLOAT32))
		return -1;
	if (avx2 < 0)
		avx2 = __builtin_cpu_supports("avx2");
	if (!avx2)
		return -1;
	uniform_x4(dt, buf, first, n, a, width, st);
	return 0;
}

#else

int npukb_inputs_x4_uniform(enum npukb_dtype dt, void *buf, const size_t first[4], size_t n,
			    double a, double width, const struct npukb_rng st[4])
{
	(void)dt; (void)buf; (void)first; (void)n; (void)a; (void)width; (void)st;
	return -1;
}

#endif
