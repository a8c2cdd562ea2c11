/* inputs_x4.c - uniform and normal inputs, four chunks at a time
 * (inputs_x4.h).
 *
 * A tensor's chunks have independent streams (inputs.c), so four of them
 * can advance side by side in the four 64-bit lanes of an AVX2 register:
 * lane j runs chunk j's xoshiro256** and turns each draw into a value
 * with the same operations as the one-chunk loop, each exact or rounded
 * once in IEEE arithmetic (no fused multiply-add: the target is AVX2
 * alone), so the bits are those of inputs.c's loop on every machine. A
 * normal draw outside its ziggurat layer's rectangle (about 1.2% of them)
 * leaves the lanes: that lane's stream goes through inputs.c's own code
 * and comes back. */
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

#define X4 __attribute__((target("avx2"), always_inline)) static inline

static void store_lane(enum npukb_dtype dt, void *buf, size_t first, const float *fv, size_t n)
{
	if (dt == NPUKB_DT_FLOAT16)
		npukb_f32_to_f16_n(fv, (uint16_t *)buf + first, n);
	else if (dt == NPUKB_DT_BFLOAT16)
		npukb_f32_to_bf16_n(fv, (uint16_t *)buf + first, n);
	else
		memcpy((float *)buf + first, fv, n * sizeof(float));
}

/* Four xoshiro256** streams, lane j's state word k in s[k]. */
struct x4_rng {
	__m256i s[4];
};

#define ROTL4(x, k) _mm256_or_si256(_mm256_slli_epi64((x), (k)), _mm256_srli_epi64((x), 64 - (k)))

/* Each lane's next draw; the streams advance as rng_next advances one. */
X4 __m256i x4_next(struct x4_rng *g)
{
	const __m256i s1x5 = _mm256_add_epi64(g->s[1], _mm256_slli_epi64(g->s[1], 2));
	const __m256i rot = ROTL4(s1x5, 7);
	const __m256i res = _mm256_add_epi64(rot, _mm256_slli_epi64(rot, 3));
	const __m256i t = _mm256_slli_epi64(g->s[1], 17);
	g->s[2] = _mm256_xor_si256(g->s[2], g->s[0]);
	g->s[3] = _mm256_xor_si256(g->s[3], g->s[1]);
	g->s[1] = _mm256_xor_si256(g->s[1], g->s[2]);
	g->s[0] = _mm256_xor_si256(g->s[0], g->s[3]);
	g->s[2] = _mm256_xor_si256(g->s[2], t);
	g->s[3] = ROTL4(g->s[3], 45);
	return res;
}

/* Exact doubles of 64-bit lanes below 2^52: through 2^52's mantissa. */
X4 __m256d x4_small_to_pd(__m256i v)
{
	const __m256i magic = _mm256_set1_epi64x(0x4330000000000000ll);
	return _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(v, magic)), _mm256_set1_pd(0x1p52));
}

/* Exact doubles of lanes below 2^53: each 32-bit half, then joined. */
X4 __m256d x4_u53_to_pd(__m256i x)
{
	const __m256d hi = x4_small_to_pd(_mm256_srli_epi64(x, 32));
	const __m256d lo = x4_small_to_pd(_mm256_and_si256(x, _mm256_set1_epi64x(0xffffffffll)));
	return _mm256_add_pd(_mm256_mul_pd(hi, _mm256_set1_pd(0x1p32)), lo);
}

/* rng_uniform01's value of each lane's next draw. */
X4 __m256d x4_uniform01(struct x4_rng *g)
{
	return _mm256_mul_pd(x4_u53_to_pd(_mm256_srli_epi64(x4_next(g), 11)),
			     _mm256_set1_pd(0x1p-53));
}

/* (double)((int64_t)w >> 10) of each lane, exactly (|value| <= 2^53):
 * the 54-bit two's complement number split into a signed upper part
 * (bits 32..53) and an unsigned lower one. */
X4 __m256d x4_signed54_to_pd(__m256i w)
{
	const __m256i t = _mm256_srli_epi64(w, 10);
	const __m256i hi = _mm256_srli_epi64(t, 32); /* 22 bits, bit 21 the sign */
	const __m256i neg = _mm256_and_si256(hi, _mm256_set1_epi64x(1ll << 21));
	const __m256d hi_d = _mm256_sub_pd(x4_small_to_pd(hi),
					   _mm256_mul_pd(x4_small_to_pd(neg), _mm256_set1_pd(2.0)));
	const __m256d lo = x4_small_to_pd(_mm256_and_si256(t, _mm256_set1_epi64x(0xffffffffll)));
	return _mm256_add_pd(_mm256_mul_pd(hi_d, _mm256_set1_pd(0x1p32)), lo);
}

/* inputs.c's normal() for each lane: the common case here, the rest in
 * npukb_inputs_normal_rest on that lane's stream alone. */
X4 __m256d x4_normal(struct x4_rng *g)
{
	const __m256i w = x4_next(g);
	/* four loads each: cheaper than a gather on some CPUs (Zen 4) */
	uint64_t wv[4] __attribute__((aligned(32)));
	_mm256_store_si256((__m256i *)wv, w);
	const size_t i0 = wv[0] & (NPUKB_ZIG_LAYERS - 1), i1 = wv[1] & (NPUKB_ZIG_LAYERS - 1);
	const size_t i2 = wv[2] & (NPUKB_ZIG_LAYERS - 1), i3 = wv[3] & (NPUKB_ZIG_LAYERS - 1);
	const __m256d xi = _mm256_set_pd(npukb_zig_x[i3], npukb_zig_x[i2], npukb_zig_x[i1],
					 npukb_zig_x[i0]);
	const __m256d xn = _mm256_set_pd(npukb_zig_x[i3 + 1], npukb_zig_x[i2 + 1],
					 npukb_zig_x[i1 + 1], npukb_zig_x[i0 + 1]);
	__m256d x = _mm256_mul_pd(_mm256_mul_pd(x4_signed54_to_pd(w), _mm256_set1_pd(0x1p-53)), xi);
	const __m256d ax = _mm256_andnot_pd(_mm256_set1_pd(-0.0), x);
	const int in = _mm256_movemask_pd(_mm256_cmp_pd(ax, xn, _CMP_LT_OQ));

	if (__builtin_expect(in != 0xf, 0)) {
		uint64_t s[4][4], *wl = wv;
		double xl[4];
		_mm256_storeu_pd(xl, x);
		for (int k = 0; k < 4; k++)
			_mm256_storeu_si256((__m256i *)s[k], g->s[k]);
		for (int l = 0; l < 4; l++) {
			struct npukb_rng r;
			if (in & (1 << l))
				continue;
			for (int k = 0; k < 4; k++)
				r.s[k] = s[k][l];
			xl[l] = npukb_inputs_normal_rest(&r, wl[l]);
			for (int k = 0; k < 4; k++)
				s[k][l] = r.s[k];
		}
		for (int k = 0; k < 4; k++)
			g->s[k] = _mm256_loadu_si256((const __m256i *)s[k]);
		x = _mm256_loadu_pd(xl);
	}
	return x;
}

/* One value of each lane as a float: a + width * u (uniform) or a + b * z
 * (normal), as draw_one computes it. */
X4 __m128 x4_value(enum npukb_dist_kind kind, struct x4_rng *g, __m256d a, __m256d m)
{
	const __m256d v = kind == NPUKB_DIST_NORMAL ? x4_normal(g) : x4_uniform01(g);
	return _mm256_cvtpd_ps(_mm256_add_pd(a, _mm256_mul_pd(m, v)));
}

X4 void fill_x4(enum npukb_dist_kind kind, enum npukb_dtype dt, void *buf,
		const size_t first[4], size_t n, double a, double m, const struct npukb_rng st[4])
{
	float fb[4][X4_BATCH] __attribute__((aligned(16))); /* 16 KiB, per thread */
	const __m256d va = _mm256_set1_pd(a), vm = _mm256_set1_pd(m);
	struct x4_rng g;
	size_t i, nb = 0;
	int l;

	for (int k = 0; k < 4; k++)
		g.s[k] = _mm256_set_epi64x((long long)st[3].s[k], (long long)st[2].s[k],
					   (long long)st[1].s[k], (long long)st[0].s[k]);
	for (i = 0; i < n; i += 4) {
		__m128 r0 = x4_value(kind, &g, va, vm), r1 = x4_value(kind, &g, va, vm);
		__m128 r2 = x4_value(kind, &g, va, vm), r3 = x4_value(kind, &g, va, vm);
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

__attribute__((target("avx2"))) static void uniform_x4(enum npukb_dtype dt, void *buf,
							   const size_t first[4], size_t n,
							   double a, double width,
							   const struct npukb_rng st[4])
{
	fill_x4(NPUKB_DIST_UNIFORM, dt, buf, first, n, a, width, st);
}

__attribute__((target("avx2"))) static void normal_x4(enum npukb_dtype dt, void *buf,
							  const size_t first[4], size_t n,
							  double mean, double stddev,
							  const struct npukb_rng st[4])
{
	fill_x4(NPUKB_DIST_NORMAL, dt, buf, first, n, mean, stddev, st);
}

static int usable(enum npukb_dtype dt, size_t n)
{
	static int avx2 = -1;
	if (portable_only || n % 4 ||
	    (dt != NPUKB_DT_FLOAT16 && dt != NPUKB_DT_BFLOAT16 && dt != NPUKB_DT_FLOAT32))
		return 0;
	if (avx2 < 0)
		avx2 = __builtin_cpu_supports("avx2");
	return avx2;
}

int npukb_inputs_x4_uniform(enum npukb_dtype dt, void *buf, const size_t first[4], size_t n,
			    double a, double width, const struct npukb_rng st[4])
{
	if (!usable(dt, n))
		return -1;
	uniform_x4(dt, buf, first, n, a, width, st);
	return 0;
}

int npukb_inputs_x4_normal(enum npukb_dtype dt, void *buf, const size_t first[4], size_t n,
			   double mean, double stddev, const struct npukb_rng st[4])
{
	if (!usable(dt, n))
		return -1;
	normal_x4(dt, buf, first, n, mean, stddev, st);
	return 0;
}

#else

int npukb_inputs_x4_uniform(enum npukb_dtype dt, void *buf, const size_t first[4], size_t n,
			    double a, double width, const struct npukb_rng st[4])
{
	(void)dt; (void)buf; (void)first; (void)n; (void)a; (void)width; (void)st;
	return -1;
}

int npukb_inputs_x4_normal(enum npukb_dtype dt, void *buf, const size_t first[4], size_t n,
			   double mean, double stddev, const struct npukb_rng st[4])
{
	(void)dt; (void)buf; (void)first; (void)n; (void)mean; (void)stddev; (void)st;
	return -1;
}

#endif
