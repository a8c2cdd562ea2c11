/* dtype.c - dtype names and sizes, IEEE binary16 / bfloat16 conversions,
 * and element access by dtype (npukb/dtype.h).
 *
 * The narrowing conversions work on the bit patterns with integers only:
 * the result must not depend on the host's floating-point environment or on
 * whether the compiler has a half type, and double -> half must round once,
 * from the double itself. Going through float first rounds twice and is
 * wrong in rare ties (1 + 2^-11 + 2^-40 is above the half-way point between
 * two halves as a double, exactly on it as a float). */
#include <npukb/dtype.h>

#include <pthread.h>
#include <string.h>
#include <strings.h>

struct dtype_info {
	const char *name;
	size_t size;
	int is_float;
};

/* Indexed by enum npukb_dtype. */
static const struct dtype_info infos[NPUKB_DT_COUNT_] = {
	[NPUKB_DT_INVALID] = { "invalid", 0, 0 },
	[NPUKB_DT_FLOAT16] = { "float16", 2, 1 },
	[NPUKB_DT_BFLOAT16] = { "bfloat16", 2, 1 },
	[NPUKB_DT_FLOAT32] = { "float32", 4, 1 },
	[NPUKB_DT_FLOAT64] = { "float64", 8, 1 },
	[NPUKB_DT_INT8] = { "int8", 1, 0 },
	[NPUKB_DT_UINT8] = { "uint8", 1, 0 },
	[NPUKB_DT_INT16] = { "int16", 2, 0 },
	[NPUKB_DT_INT32] = { "int32", 4, 0 },
	[NPUKB_DT_INT64] = { "int64", 8, 0 },
	[NPUKB_DT_BOOL] = { "bool", 1, 0 },
	/* Two float32 values (real, imaginary); floating point for the
	 * purpose of tolerances. */
	[NPUKB_DT_COMPLEX64] = { "complex64", 8, 1 },
};

/* Spellings seen in upstream data besides the canonical names. */
static const struct {
	const char *alias;
	enum npukb_dtype dt;
} aliases[] = {
	{ "float", NPUKB_DT_FLOAT32 },   { "fp32", NPUKB_DT_FLOAT32 },
	{ "half", NPUKB_DT_FLOAT16 },    { "fp16", NPUKB_DT_FLOAT16 },
	{ "bf16", NPUKB_DT_BFLOAT16 },   { "i8", NPUKB_DT_INT8 },
	{ "u8", NPUKB_DT_UINT8 },        { "i32", NPUKB_DT_INT32 },
	{ "i64", NPUKB_DT_INT64 },       { "c64", NPUKB_DT_COMPLEX64 },
	{ "double", NPUKB_DT_FLOAT64 },
};

static int valid(enum npukb_dtype dt)
{
	return dt > NPUKB_DT_INVALID && dt < NPUKB_DT_COUNT_;
}

const char *npukb_dtype_name(enum npukb_dtype dt)
{
	return valid(dt) ? infos[dt].name : "invalid";
}

/* Case-insensitive: manifests and CSV files are written by hand. */
enum npukb_dtype npukb_dtype_from_name(const char *name)
{
	if (!name)
		return NPUKB_DT_INVALID;
	for (int dt = NPUKB_DT_INVALID + 1; dt < NPUKB_DT_COUNT_; dt++)
		if (strcasecmp(name, infos[dt].name) == 0)
			return (enum npukb_dtype)dt;
	for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
		if (strcasecmp(name, aliases[i].alias) == 0)
			return aliases[i].dt;
	return NPUKB_DT_INVALID;
}

size_t npukb_dtype_size(enum npukb_dtype dt)
{
	return valid(dt) ? infos[dt].size : 0;
}

int npukb_dtype_is_float(enum npukb_dtype dt)
{
	return valid(dt) ? infos[dt].is_float : 0;
}

/* ---- binary16 / bfloat16 ------------------------------------------------- */

static uint32_t f32_bits(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof u);
	return u;
}

static float f32_from_bits(uint32_t u)
{
	float f;

	memcpy(&f, &u, sizeof f);
	return f;
}

static uint64_t f64_bits(double d)
{
	uint64_t u;

	memcpy(&u, &d, sizeof u);
	return u;
}

static int top_bit(uint64_t v)
{
	int n = 0;

	while (v >>= 1)
		n++;
	return n;
}

/* The narrow format: `mbits` stored fraction bits, exponents emin..emax for
 * normal numbers (binary16: 10, -14, 15; bfloat16: 7, -126, 127). */
struct narrow {
	int mbits, emin, emax;
};

static const struct narrow HALF = { 10, -14, 15 };
static const struct narrow BF16 = { 7, -126, 127 };

/* Magnitude bits of mant * 2^exp (mant > 0) in the narrow format, rounded to
 * nearest, ties to even. Subnormal results and overflow to infinity fall
 * out of the same arithmetic: the rounding quantum is 2^(max(e, emin) -
 * mbits), and adding the rounded significand to the exponent field carries
 * into the next binade (or into the infinity pattern) by itself. */
static uint32_t round_to_narrow(uint64_t mant, int exp, struct narrow n)
{
	const uint32_t inf = (uint32_t)(n.emax - n.emin + 2) << n.mbits;
	int e = exp + top_bit(mant); /* mant * 2^exp lies in [2^e, 2^(e+1)) */
	int scale = e < n.emin ? n.emin : e;
	int shift = scale - n.mbits - exp;
	uint64_t q;
	uint32_t bits;

	if (e > n.emax)
		return inf;
	if (shift <= 0) {
		/* Exact: the source has no more precision than the target.
		 * Not reached from float or double, kept for completeness. */
		q = mant << -shift;
	} else if (shift >= 64) {
		/* Below half the smallest subnormal: mant < 2^63 <= half. */
		q = 0;
	} else {
		uint64_t rem = mant & ((UINT64_C(1) << shift) - 1);
		uint64_t half = UINT64_C(1) << (shift - 1);

		q = mant >> shift;
		if (rem > half || (rem == half && (q & 1)))
			q++;
	}
	bits = ((uint32_t)(scale - n.emin) << n.mbits) + (uint32_t)q;
	return bits >= inf ? inf : bits;
}

/* The quiet bit is the top fraction bit; a NaN keeps the top of its
 * payload and is always made quiet, so it never turns into infinity. */
static uint16_t narrow_nan(uint16_t sign, struct narrow n, uint64_t frac, int frac_bits)
{
	uint32_t inf = (uint32_t)(n.emax - n.emin + 2) << n.mbits;
	uint32_t quiet = UINT32_C(1) << (n.mbits - 1);

	return (uint16_t)(sign | inf | quiet | (uint32_t)(frac >> (frac_bits - n.mbits)));
}

static uint16_t f32_to_narrow(float f, struct narrow n)
{
	uint32_t u = f32_bits(f);
	uint16_t sign = (uint16_t)((u >> 16) & 0x8000);
	uint32_t bexp = (u >> 23) & 0xff;
	uint32_t frac = u & 0x7fffff;

	if (bexp == 0xff)
		return frac ? narrow_nan(sign, n, frac, 23)
			    : (uint16_t)(sign | ((uint32_t)(n.emax - n.emin + 2) << n.mbits));
	if (bexp == 0 && frac == 0)
		return sign;
	if (bexp == 0)
		return (uint16_t)(sign | round_to_narrow(frac, -126 - 23, n));
	return (uint16_t)(sign | round_to_narrow(frac | 0x800000, (int)bexp - 127 - 23, n));
}

static uint16_t f64_to_narrow(double d, struct narrow n)
{
	uint64_t u = f64_bits(d);
	uint16_t sign = (uint16_t)((u >> 48) & 0x8000);
	uint32_t bexp = (uint32_t)((u >> 52) & 0x7ff);
	uint64_t frac = u & ((UINT64_C(1) << 52) - 1);

	if (bexp == 0x7ff)
		return frac ? narrow_nan(sign, n, frac, 52)
			    : (uint16_t)(sign | ((uint32_t)(n.emax - n.emin + 2) << n.mbits));
	if (bexp == 0 && frac == 0)
		return sign;
	if (bexp == 0)
		return (uint16_t)(sign | round_to_narrow(frac, -1022 - 52, n));
	return (uint16_t)(sign | round_to_narrow(frac | (UINT64_C(1) << 52),
						 (int)bexp - 1023 - 52, n));
}

uint16_t npukb_f32_to_f16(float f)
{
	return f32_to_narrow(f, HALF);
}

/* Through float when that cannot round twice wrongly: rounding d to the
 * nearest float never crosses a half-way point between two halves (those
 * are floats), so the second rounding agrees with a direct one unless the
 * first landed exactly on such a point (the 13 dropped bits 1000000000000)
 * from a d that was not on it. Normal halves only; the rest, and those
 * ties, go the exact way. */
static inline uint16_t f64_to_f16_one(double d)
{
	const float f = (float)d;
	const uint32_t u = f32_bits(f), mag = u & 0x7fffffff;

	if (mag >= 0x38800000u && mag < 0x477ff000u && ((u & 0x1fff) != 0x1000 || (double)f == d)) {
		const uint32_t r = mag + 0xfff + ((mag >> 13) & 1);
		return (uint16_t)(((u >> 16) & 0x8000) | ((r >> 13) - (112u << 10)));
	}
	return f64_to_narrow(d, HALF);
}

uint16_t npukb_f64_to_f16(double d)
{
	return f64_to_f16_one(d);
}

uint16_t npukb_f32_to_bf16(float f)
{
	return f32_to_narrow(f, BF16);
}

/* bfloat16 is the top half of a float: round the bottom half away, to
 * nearest even. The carry of a round-up moves into the exponent by
 * itself, up to the infinity pattern; subnormals round the same way. */
static uint16_t f32_to_bf16_bits(float f)
{
	uint32_t u = f32_bits(f);
	if ((u & 0x7fffffff) > 0x7f800000)
		return (uint16_t)((u >> 16) | 0x40);
	u += 0x7fff + ((u >> 16) & 1);
	return (uint16_t)(u >> 16);
}

/* Through float, as npukb_f64_to_f16 does: every bfloat16 half-way point
 * is a float (subnormal ones too, float's grid being finer), so rounding
 * to float first goes wrong only when it lands exactly on such a point
 * (the 16 dropped bits 0x8000) from a d that was not on it; those ties
 * and NaNs go the exact way. A d too large for float rounds to infinity
 * in both. The references store most of their bf16 outputs here. */
static inline uint16_t f64_to_bf16_one(double d)
{
	const float f = (float)d;
	const uint32_t u = f32_bits(f);

	if (d == d && ((u & 0xffff) != 0x8000 || (double)f == d))
		return f32_to_bf16_bits(f);
	return f64_to_narrow(d, BF16);
}

uint16_t npukb_f64_to_bf16(double d)
{
	return f64_to_bf16_one(d);
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

static int have_avx2(void)
{
	static int cached = -1;
	if (cached < 0)
		cached = __builtin_cpu_supports("avx2");
	return cached;
}

/* f32_to_bf16_bits on eight float bit patterns, NaN lanes excepted (their
 * rounding add would carry into the sign or make them infinities): those
 * the caller's mask marks. The sums stay below 2^32, so packus' unsigned
 * saturation never bites; its lane order is undone by the permute. */
__attribute__((target("avx2"))) static inline __m128i bf16_round8(__m256i u)
{
	const __m256i r = _mm256_srli_epi32(
		_mm256_add_epi32(_mm256_add_epi32(u, _mm256_set1_epi32(0x7fff)),
				 _mm256_and_si256(_mm256_srli_epi32(u, 16), _mm256_set1_epi32(1))),
		16);
	return _mm256_castsi256_si128(
		_mm256_permute4x64_epi64(_mm256_packus_epi32(r, _mm256_setzero_si256()), 0x08));
}

/* npukb_f32_to_bf16_n eight at a time; NaN lanes go through the one-value
 * form (test_dtype compares the two on 2^20 patterns and every tie). */
__attribute__((target("avx2"))) static void f32_to_bf16_avx2(const float *src, uint16_t *dst,
							     size_t n)
{
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		const __m256 f = _mm256_loadu_ps(src + i);
		const unsigned nan = (unsigned)_mm256_movemask_ps(_mm256_cmp_ps(f, f, _CMP_UNORD_Q));
		_mm_storeu_si128((__m128i *)(void *)(dst + i), bf16_round8(_mm256_castps_si256(f)));
		if (nan)
			for (int k = 0; k < 8; k++)
				if (nan >> k & 1)
					dst[i + k] = f32_to_bf16_bits(src[i + k]);
	}
	for (; i < n; i++)
		dst[i] = f32_to_bf16_bits(src[i]);
}

/* npukb_f64_to_bf16 eight at a time: each double to float (vcvtpd2ps, the
 * one-value form's (float)d), then the float's rounding. The one-value
 * form's exact path is taken by the lanes it takes it for: NaNs, and
 * floats on a bfloat16 tie (low 16 bits 0x8000) that the double was not
 * exactly on. */
__attribute__((target("avx2"))) static void f64_to_bf16_avx2(const double *src, uint16_t *dst,
							     size_t n)
{
	const __m256i low16 = _mm256_set1_epi32(0xffff), tie = _mm256_set1_epi32(0x8000);
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		const __m256d d0 = _mm256_loadu_pd(src + i), d1 = _mm256_loadu_pd(src + i + 4);
		const __m128 f0 = _mm256_cvtpd_ps(d0), f1 = _mm256_cvtpd_ps(d1);
		const __m256i u = _mm256_castps_si256(_mm256_set_m128(f1, f0));
		const unsigned nan = (unsigned)_mm256_movemask_pd(_mm256_cmp_pd(d0, d0, _CMP_UNORD_Q)) |
				     (unsigned)_mm256_movemask_pd(_mm256_cmp_pd(d1, d1, _CMP_UNORD_Q)) << 4;
		const unsigned exact =
			(unsigned)_mm256_movemask_pd(_mm256_cmp_pd(_mm256_cvtps_pd(f0), d0, _CMP_EQ_OQ)) |
			(unsigned)_mm256_movemask_pd(_mm256_cmp_pd(_mm256_cvtps_pd(f1), d1, _CMP_EQ_OQ)) << 4;
		const unsigned at_tie = (unsigned)_mm256_movemask_ps(
			_mm256_castsi256_ps(_mm256_cmpeq_epi32(_mm256_and_si256(u, low16), tie)));
		const unsigned redo = nan | (at_tie & ~exact);
		_mm_storeu_si128((__m128i *)(void *)(dst + i), bf16_round8(u));
		if (redo)
			for (int k = 0; k < 8; k++)
				if (redo >> k & 1)
					dst[i + k] = f64_to_bf16_one(src[i + k]);
	}
	for (; i < n; i++)
		dst[i] = f64_to_bf16_one(src[i]);
}
#endif

void npukb_f32_to_bf16_n(const float *src, uint16_t *dst, size_t n)
{
#if defined(__x86_64__) && defined(__GNUC__)
	if (have_avx2()) {
		f32_to_bf16_avx2(src, dst, n);
		return;
	}
#endif
	for (size_t i = 0; i < n; i++)
		dst[i] = f32_to_bf16_bits(src[i]);
}

void npukb_f64_to_bf16_n(const double *src, uint16_t *dst, size_t n)
{
#if defined(__x86_64__) && defined(__GNUC__)
	if (have_avx2()) {
		f64_to_bf16_avx2(src, dst, n);
		return;
	}
#endif
	for (size_t i = 0; i < n; i++)
		dst[i] = f64_to_bf16_one(src[i]);
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

/* vcvtps2ph with an explicit round-to-nearest-even (MXCSR's rounding mode
 * does not apply) gives the same bits as f32_to_narrow, NaNs included;
 * tests/unit/test_dtype.c compares the two. */
__attribute__((target("avx,f16c"))) static void f32_to_f16_f16c(const float *src, uint16_t *dst, size_t n)
{
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		__m256 v = _mm256_loadu_ps(src + i);
		__m128i h = _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
		_mm_storeu_si128((__m128i *)(void *)(dst + i), h);
	}
	for (; i < n; i++)
		dst[i] = f32_to_narrow(src[i], HALF);
}

/* npukb_f64_to_f16 eight values at a time: each double rounded to float
 * (vcvtpd2ps, the rounding of the one-value form's (float)d), the floats
 * to half by vcvtps2ph. That is exact where the one-value form takes its
 * fast path: normal halves (float magnitude bits in [0x38800000,
 * 0x477ff000)) whose float is not a half-way point between two halves
 * (dropped 13 bits 0x1000) reached by rounding, plus zeros. Every other
 * lane (subnormal or overflowing halves, infinities, NaNs, those ties) is
 * redone by the exact one-value form. */
__attribute__((target("avx,f16c"))) static void f64_to_f16_f16c(const double *src, uint16_t *dst,
								  size_t n)
{
	const __m128i lo = _mm_set1_epi32(0x387fffff), hi = _mm_set1_epi32(0x477ff000);
	const __m128i absmask = _mm_set1_epi32(0x7fffffff), low13 = _mm_set1_epi32(0x1fff);
	const __m128i tie = _mm_set1_epi32(0x1000), zero = _mm_setzero_si128();
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		const __m256d d0 = _mm256_loadu_pd(src + i), d1 = _mm256_loadu_pd(src + i + 4);
		const __m128 f0 = _mm256_cvtpd_ps(d0), f1 = _mm256_cvtpd_ps(d1);
		unsigned ok = 0;
		for (int half = 0; half < 2; half++) {
			const __m128 f = half ? f1 : f0;
			const __m256d d = half ? d1 : d0;
			const __m128i mag = _mm_and_si128(_mm_castps_si128(f), absmask);
			const __m128i in = _mm_and_si128(_mm_cmpgt_epi32(mag, lo), _mm_cmplt_epi32(mag, hi));
			const __m128i at_tie = _mm_cmpeq_epi32(_mm_and_si128(mag, low13), tie);
			const unsigned m_in = (unsigned)_mm_movemask_ps(_mm_castsi128_ps(in));
			const unsigned m_tie = (unsigned)_mm_movemask_ps(_mm_castsi128_ps(at_tie));
			const unsigned m_zero =
				(unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(mag, zero)));
			const unsigned m_exact = (unsigned)_mm256_movemask_pd(
				_mm256_cmp_pd(_mm256_cvtps_pd(f), d, _CMP_EQ_OQ));
			ok |= ((m_in & (~m_tie | m_exact)) | m_zero) << (4 * half);
		}
		_mm_storeu_si128((__m128i *)(void *)(dst + i),
				 _mm256_cvtps_ph(_mm256_set_m128(f1, f0),
						 _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
		if (ok != 0xff)
			for (int k = 0; k < 8; k++)
				if (!(ok >> k & 1))
					dst[i + k] = f64_to_f16_one(src[i + k]);
	}
	for (; i < n; i++)
		dst[i] = f64_to_f16_one(src[i]);
}

static int have_f16c(void)
{
	static int cached = -1;
	if (cached < 0)
		cached = __builtin_cpu_supports("f16c") && __builtin_cpu_supports("avx");
	return cached;
}
#endif

void npukb_f32_to_f16_n(const float *src, uint16_t *dst, size_t n)
{
#if defined(__x86_64__) && defined(__GNUC__)
	if (have_f16c()) {
		f32_to_f16_f16c(src, dst, n);
		return;
	}
#endif
	for (size_t i = 0; i < n; i++)
		dst[i] = f32_to_narrow(src[i], HALF);
}

void npukb_f64_to_f16_n(const double *src, uint16_t *dst, size_t n)
{
#if defined(__x86_64__) && defined(__GNUC__)
	if (have_f16c()) {
		f64_to_f16_f16c(src, dst, n);
		return;
	}
#endif
	for (size_t i = 0; i < n; i++)
		dst[i] = f64_to_f16_one(src[i]);
}

/* Exact: every binary16 value is a float. NaNs come out quiet, as the
 * hardware converters do. */
static float f16_to_f32_bits(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000) << 16;
	int bexp = (h >> 10) & 0x1f;
	uint32_t frac = h & 0x3ff;

	if (bexp == 0x1f)
		return f32_from_bits(sign | 0x7f800000 | (frac ? 0x400000 | (frac << 13) : 0));
	if (bexp == 0) {
		if (frac == 0)
			return f32_from_bits(sign);
		/* Subnormal: normalise so the leading 1 becomes implicit. */
		bexp = 1;
		while (!(frac & 0x400)) {
			frac <<= 1;
			bexp--;
		}
		frac &= 0x3ff;
	}
	return f32_from_bits(sign | ((uint32_t)(bexp - 15 + 127) << 23) | (frac << 13));
}

/* All 65536 halves widened once: the core widens every element of every
 * half tensor it compares or feeds a reference. */
static float f16_table[65536];
static pthread_once_t f16_table_once = PTHREAD_ONCE_INIT;

static void f16_table_fill(void)
{
	for (uint32_t h = 0; h < 65536; h++)
		f16_table[h] = f16_to_f32_bits((uint16_t)h);
}

float npukb_f16_to_f32(uint16_t h)
{
	pthread_once(&f16_table_once, f16_table_fill);
	return f16_table[h];
}

/* Exact: bfloat16 is the top half of a float. */
float npukb_bf16_to_f32(uint16_t b)
{
	return f32_from_bits((uint32_t)b << 16);
}

#if defined(__x86_64__) && defined(__GNUC__)
/* vcvtph2ps: exact, as the table; NaNs come out quiet with their payload,
 * as f16_to_f32_bits makes them (test_dtype compares all 65536 patterns
 * bit for bit). */
__attribute__((target("avx,f16c"))) static void f16_to_f32_f16c(const unsigned char *p, size_t n,
								  float *dst)
{
	size_t k = 0;
	for (; k + 8 <= n; k += 8)
		_mm256_storeu_ps(dst + k, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)(p + 2 * k))));
	for (; k < n; k++) {
		uint16_t h;
		memcpy(&h, p + 2 * k, 2);
		dst[k] = f16_to_f32_bits(h);
	}
}
#endif

#if defined(__x86_64__) && defined(__GNUC__)
/* Eight bfloat16s to floats by interleaving zero halves below them (SSE2,
 * every x86-64 has it); returns how many it did, a multiple of 8. */
static size_t bf16_to_f32_sse2(const unsigned char *p, size_t n, float *dst)
{
	const __m128i zero = _mm_setzero_si128();
	size_t k = 0;
	for (; k + 8 <= n; k += 8) {
		const __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(p + 2 * k));
		_mm_storeu_si128((__m128i *)(void *)(dst + k), _mm_unpacklo_epi16(zero, b));
		_mm_storeu_si128((__m128i *)(void *)(dst + k + 4), _mm_unpackhi_epi16(zero, b));
	}
	return k;
}
#endif

int npukb_load_as_float_n(enum npukb_dtype dt, const void *buf, size_t i, size_t n, float *dst)
{
	size_t k;
	switch (dt) {
	case NPUKB_DT_FLOAT16: {
		const unsigned char *p = (const unsigned char *)buf + 2 * i;
#if defined(__x86_64__) && defined(__GNUC__)
		if (have_f16c()) {
			f16_to_f32_f16c(p, n, dst);
			return 0;
		}
#endif
		pthread_once(&f16_table_once, f16_table_fill);
		for (k = 0; k < n; k++) {
			uint16_t h;
			memcpy(&h, p + 2 * k, 2);
			dst[k] = f16_table[h];
		}
		return 0;
	}
	case NPUKB_DT_BFLOAT16: {
		/* the shift inline, not the exported npukb_bf16_to_f32 through
		 * the PLT per element (a tenth of a bf16 Foreach run) */
		const unsigned char *p = (const unsigned char *)buf + 2 * i;
		k = 0;
#if defined(__x86_64__) && defined(__GNUC__)
		k = bf16_to_f32_sse2(p, n, dst);
#endif
		for (; k < n; k++) {
			uint16_t b;
			memcpy(&b, p + 2 * k, 2);
			dst[k] = f32_from_bits((uint32_t)b << 16);
		}
		return 0;
	}
	case NPUKB_DT_FLOAT32:
		memcpy(dst, (const unsigned char *)buf + 4 * i, n * 4);
		return 0;
	default:
		return -1;
	}
}

/* ---- element access -------------------------------------------------------- */

/* double -> integer of `bits` width, as the mirrored framework stores an
 * out-of-range integer result: through int64, wrapping modulo 2^bits (300
 * into int8 is 44, -1 into uint8 is 255). What it does with NaN, infinity
 * and values beyond int64 is whatever the host's conversion instruction
 * does (undefined behaviour in C), so it is pinned down here to keep
 * references identical on every machine: NaN -> 0, and +-inf or any value
 * beyond the int64 range saturates to the target's own minimum/maximum. */
static uint64_t to_int_bits(double v, int bits, int is_unsigned)
{
	const double two63 = 9223372036854775808.0;
	uint64_t mask = bits == 64 ? ~UINT64_C(0) : (UINT64_C(1) << bits) - 1;

	if (v != v)
		return 0;
	if (v >= two63 || v < -two63) {
		if (is_unsigned)
			return v > 0 ? mask : 0;
		/* Signed max is 0111..1, min is 1000..0 within the width. */
		return v > 0 ? mask >> 1 : (mask >> 1) + 1;
	}
	return (uint64_t)(int64_t)v & mask; /* truncates toward zero */
}

static void put(void *buf, size_t i, size_t size, const void *src)
{
	memcpy((char *)buf + i * size, src, size);
}

static void get(const void *buf, size_t i, size_t size, void *dst)
{
	memcpy(dst, (const char *)buf + i * size, size);
}

double npukb_load_as_double(enum npukb_dtype dt, const void *buf, size_t i)
{
	union {
		uint16_t u16;
		float f32;
		double f64;
		int8_t i8;
		uint8_t u8;
		int16_t i16;
		int32_t i32;
		int64_t i64;
		float c64[2];
	} v;

	if (!buf || !valid(dt))
		return 0.0;
	get(buf, i, infos[dt].size, &v);
	switch (dt) {
	case NPUKB_DT_FLOAT16: return npukb_f16_to_f32(v.u16);
	case NPUKB_DT_BFLOAT16: return npukb_bf16_to_f32(v.u16);
	case NPUKB_DT_FLOAT32: return v.f32;
	case NPUKB_DT_FLOAT64: return v.f64;
	case NPUKB_DT_INT8: return v.i8;
	case NPUKB_DT_UINT8: return v.u8;
	case NPUKB_DT_INT16: return v.i16;
	case NPUKB_DT_INT32: return v.i32;
	case NPUKB_DT_INT64: return (double)v.i64; /* exact up to 2^53 */
	case NPUKB_DT_BOOL: return v.u8 != 0;
	/* Element i is the (real, imaginary) pair at floats 2i, 2i+1; the
	 * scalar view of a complex element is its real part. */
	case NPUKB_DT_COMPLEX64: return v.c64[0];
	default: return 0.0;
	}
}

static inline void store_one(enum npukb_dtype dt, void *buf, size_t i, double v)
{
	uint16_t u16;
	float f32;
	float c64[2];
	uint64_t w;
	uint8_t u8;
	uint16_t w16;
	uint32_t w32;

	if (!buf || !valid(dt))
		return;
	switch (dt) {
	case NPUKB_DT_FLOAT16:
		u16 = f64_to_f16_one(v);
		put(buf, i, 2, &u16);
		break;
	case NPUKB_DT_BFLOAT16:
		u16 = f64_to_bf16_one(v);
		put(buf, i, 2, &u16);
		break;
	case NPUKB_DT_FLOAT32:
		/* IEEE conversion (Annex F): round to nearest even, +-inf on
		 * overflow. */
		f32 = (float)v;
		put(buf, i, 4, &f32);
		break;
	case NPUKB_DT_FLOAT64:
		put(buf, i, 8, &v);
		break;
	case NPUKB_DT_INT8:
	case NPUKB_DT_UINT8:
		u8 = (uint8_t)to_int_bits(v, 8, dt == NPUKB_DT_UINT8);
		put(buf, i, 1, &u8);
		break;
	case NPUKB_DT_INT16:
		w16 = (uint16_t)to_int_bits(v, 16, 0);
		put(buf, i, 2, &w16);
		break;
	case NPUKB_DT_INT32:
		w32 = (uint32_t)to_int_bits(v, 32, 0);
		put(buf, i, 4, &w32);
		break;
	case NPUKB_DT_INT64:
		w = to_int_bits(v, 64, 0);
		put(buf, i, 8, &w);
		break;
	case NPUKB_DT_BOOL:
		u8 = v != 0; /* NaN is true, as bool(nan) is */
		put(buf, i, 1, &u8);
		break;
	case NPUKB_DT_COMPLEX64:
		/* A real value becomes (v, 0): the imaginary part is zeroed,
		 * not left as it was. */
		c64[0] = (float)v;
		c64[1] = 0.0f;
		put(buf, i, 8, c64);
		break;
	default:
		break;
	}
}

void npukb_store_from_double(enum npukb_dtype dt, void *buf, size_t i, double v)
{
	store_one(dt, buf, i, v);
}

/* The reference's outputs and the integer inputs come here a block at a
 * time: one call and one dispatch on the dtype per block instead of a
 * call (through the library's PLT) and a switch per element. */
void npukb_store_from_double_n(enum npukb_dtype dt, void *buf, size_t i, const double *v,
			       size_t n)
{
	size_t k;
	uint16_t h[256];

	if (!buf || !valid(dt))
		return;
	switch (dt) {
	case NPUKB_DT_FLOAT16:
		/* through an aligned block: buf + 2i need not be 2-aligned */
		for (k = 0; k < n; k += 256) {
			size_t m = n - k < 256 ? n - k : 256;
			npukb_f64_to_f16_n(v + k, h, m);
			memcpy((char *)buf + 2 * (i + k), h, 2 * m);
		}
		break;
	case NPUKB_DT_BFLOAT16:
		for (k = 0; k < n; k += 256) {
			size_t m = n - k < 256 ? n - k : 256;
			npukb_f64_to_bf16_n(v + k, h, m);
			memcpy((char *)buf + 2 * (i + k), h, 2 * m);
		}
		break;
	case NPUKB_DT_FLOAT32:
		for (k = 0; k < n; k++) {
			float f = (float)v[k];
			put(buf, i + k, 4, &f);
		}
		break;
	case NPUKB_DT_INT32:
		for (k = 0; k < n; k++) {
			uint32_t w = (uint32_t)to_int_bits(v[k], 32, 0);
			put(buf, i + k, 4, &w);
		}
		break;
	default:
		for (k = 0; k < n; k++)
			store_one(dt, buf, i + k, v[k]);
		break;
	}
}
