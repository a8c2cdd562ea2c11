/* test_dtype.c - dtype names, half/bfloat16 rounding, element access.
 *
 * Expected bit patterns are written out by hand from the IEEE 754 rules
 * (round to nearest, ties to even). Where the compiler has _Float16 its
 * conversions serve as a second, independent oracle over many values. */
#include <criterion/criterion.h>

#include <npukb/dtype.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint32_t fbits(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof u);
	return u;
}

static float bitsf(uint32_t u)
{
	float f;

	memcpy(&f, &u, sizeof f);
	return f;
}

static int f16_is_nan(uint16_t h)
{
	return (h & 0x7c00) == 0x7c00 && (h & 0x3ff) != 0;
}

static int bf16_is_nan(uint16_t b)
{
	return (b & 0x7f80) == 0x7f80 && (b & 0x7f) != 0;
}

/* ---- names -------------------------------------------------------------- */

Test(dtype, canonical_names_round_trip)
{
	for (int dt = NPUKB_DT_INVALID + 1; dt < NPUKB_DT_COUNT_; dt++) {
		const char *name = npukb_dtype_name((enum npukb_dtype)dt);

		cr_assert_str_neq(name, "invalid", "dtype %d has no name", dt);
		cr_assert_eq(npukb_dtype_from_name(name), dt, "%s", name);
	}
	cr_assert_str_eq(npukb_dtype_name(NPUKB_DT_FLOAT16), "float16");
	cr_assert_str_eq(npukb_dtype_name(NPUKB_DT_BFLOAT16), "bfloat16");
	cr_assert_str_eq(npukb_dtype_name(NPUKB_DT_FLOAT32), "float32");
	cr_assert_str_eq(npukb_dtype_name(NPUKB_DT_FLOAT64), "float64");
	cr_assert_str_eq(npukb_dtype_name(NPUKB_DT_INT8), "int8");
	cr_assert_str_eq(npukb_dtype_name(NPUKB_DT_UINT8), "uint8");
	cr_assert_str_eq(npukb_dtype_name(NPUKB_DT_INT16), "int16");
	cr_assert_str_eq(npukb_dtype_name(NPUKB_DT_INT32), "int32");
	cr_assert_str_eq(npukb_dtype_name(NPUKB_DT_INT64), "int64");
	cr_assert_str_eq(npukb_dtype_name(NPUKB_DT_BOOL), "bool");
	cr_assert_str_eq(npukb_dtype_name(NPUKB_DT_COMPLEX64), "complex64");
	cr_assert_str_eq(npukb_dtype_name(NPUKB_DT_INVALID), "invalid");
	cr_assert_str_eq(npukb_dtype_name(NPUKB_DT_COUNT_), "invalid");
	cr_assert_str_eq(npukb_dtype_name((enum npukb_dtype)-3), "invalid");
}

Test(dtype, aliases)
{
	static const struct {
		const char *name;
		enum npukb_dtype dt;
	} t[] = {
		{ "float", NPUKB_DT_FLOAT32 },     { "fp32", NPUKB_DT_FLOAT32 },
		{ "float32", NPUKB_DT_FLOAT32 },   { "half", NPUKB_DT_FLOAT16 },
		{ "fp16", NPUKB_DT_FLOAT16 },      { "float16", NPUKB_DT_FLOAT16 },
		{ "bf16", NPUKB_DT_BFLOAT16 },     { "bfloat16", NPUKB_DT_BFLOAT16 },
		{ "int8", NPUKB_DT_INT8 },         { "i8", NPUKB_DT_INT8 },
		{ "uint8", NPUKB_DT_UINT8 },       { "u8", NPUKB_DT_UINT8 },
		{ "int16", NPUKB_DT_INT16 },       { "int32", NPUKB_DT_INT32 },
		{ "i32", NPUKB_DT_INT32 },         { "int64", NPUKB_DT_INT64 },
		{ "i64", NPUKB_DT_INT64 },         { "bool", NPUKB_DT_BOOL },
		{ "complex64", NPUKB_DT_COMPLEX64 }, { "c64", NPUKB_DT_COMPLEX64 },
		{ "float64", NPUKB_DT_FLOAT64 },   { "double", NPUKB_DT_FLOAT64 },
		{ "FLOAT16", NPUKB_DT_FLOAT16 },   { "Float", NPUKB_DT_FLOAT32 },
	};

	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		cr_assert_eq(npukb_dtype_from_name(t[i].name), t[i].dt, "%s", t[i].name);
	cr_assert_eq(npukb_dtype_from_name("float8"), NPUKB_DT_INVALID);
	cr_assert_eq(npukb_dtype_from_name(""), NPUKB_DT_INVALID);
	cr_assert_eq(npukb_dtype_from_name("float16 "), NPUKB_DT_INVALID);
	cr_assert_eq(npukb_dtype_from_name("invalid"), NPUKB_DT_INVALID);
	cr_assert_eq(npukb_dtype_from_name(NULL), NPUKB_DT_INVALID);
}

Test(dtype, sizes_and_float_flags)
{
	static const size_t size[NPUKB_DT_COUNT_] = {
		[NPUKB_DT_FLOAT16] = 2, [NPUKB_DT_BFLOAT16] = 2, [NPUKB_DT_FLOAT32] = 4,
		[NPUKB_DT_FLOAT64] = 8, [NPUKB_DT_INT8] = 1,     [NPUKB_DT_UINT8] = 1,
		[NPUKB_DT_INT16] = 2,   [NPUKB_DT_INT32] = 4,    [NPUKB_DT_INT64] = 8,
		[NPUKB_DT_BOOL] = 1,    [NPUKB_DT_COMPLEX64] = 8,
	};

	for (int dt = 0; dt < NPUKB_DT_COUNT_; dt++)
		cr_assert_eq(npukb_dtype_size((enum npukb_dtype)dt), size[dt], "dtype %d", dt);
	cr_assert_eq(npukb_dtype_size(NPUKB_DT_COUNT_), 0);
	cr_assert(npukb_dtype_is_float(NPUKB_DT_FLOAT16));
	cr_assert(npukb_dtype_is_float(NPUKB_DT_BFLOAT16));
	cr_assert(npukb_dtype_is_float(NPUKB_DT_FLOAT32));
	cr_assert(npukb_dtype_is_float(NPUKB_DT_FLOAT64));
	cr_assert(npukb_dtype_is_float(NPUKB_DT_COMPLEX64));
	cr_assert_not(npukb_dtype_is_float(NPUKB_DT_INT32));
	cr_assert_not(npukb_dtype_is_float(NPUKB_DT_BOOL));
	cr_assert_not(npukb_dtype_is_float(NPUKB_DT_UINT8));
	cr_assert_not(npukb_dtype_is_float(NPUKB_DT_INVALID));
}

/* ---- binary16 ------------------------------------------------------------ */

Test(dtype, f16_round_trip_all_patterns)
{
	for (uint32_t h = 0; h <= 0xffff; h++) {
		float f = npukb_f16_to_f32((uint16_t)h);
		uint16_t back = npukb_f32_to_f16(f);
		uint16_t back_d = npukb_f64_to_f16((double)f);

		if (f16_is_nan((uint16_t)h)) {
			cr_assert(f != f, "0x%04x did not widen to NaN", h);
			cr_assert(f16_is_nan(back), "NaN 0x%04x came back as 0x%04x", h, back);
			cr_assert(f16_is_nan(back_d), "NaN 0x%04x came back as 0x%04x", h, back_d);
			cr_assert_eq(back & 0x8000, h & 0x8000, "NaN sign lost");
		} else {
			cr_assert_eq(back, h, "0x%04x -> %a -> 0x%04x", h, (double)f, back);
			cr_assert_eq(back_d, h, "0x%04x -> %a -> 0x%04x (double)", h, (double)f, back_d);
		}
	}
}

Test(dtype, f16_widening_values)
{
	cr_assert_eq(npukb_f16_to_f32(0x3c00), 1.0f);
	cr_assert_eq(npukb_f16_to_f32(0xc000), -2.0f);
	cr_assert_eq(npukb_f16_to_f32(0x7bff), 65504.0f);
	cr_assert_eq(npukb_f16_to_f32(0x0001), 0x1p-24f);
	cr_assert_eq(npukb_f16_to_f32(0x03ff), 0x3ffp-24f);
	cr_assert_eq(npukb_f16_to_f32(0x0400), 0x1p-14f);
	cr_assert_eq(npukb_f16_to_f32(0x3555), 0x1.554p-2f);
	cr_assert_eq(fbits(npukb_f16_to_f32(0x8000)), 0x80000000u);
	cr_assert_eq(fbits(npukb_f16_to_f32(0x7c00)), 0x7f800000u);
	cr_assert_eq(fbits(npukb_f16_to_f32(0xfc00)), 0xff800000u);
	/* A signalling half NaN widens to a quiet float NaN. */
	cr_assert_eq(fbits(npukb_f16_to_f32(0x7c01)), 0x7fc02000u);
}

static void expect_f16(double v, uint16_t want)
{
	uint16_t got_d = npukb_f64_to_f16(v);

	cr_expect_eq(got_d, want, "f64 %a -> 0x%04x, want 0x%04x", v, got_d, want);
	/* Every value below is exact in float too, so both paths agree. */
	if ((double)(float)v == v) {
		uint16_t got_f = npukb_f32_to_f16((float)v);

		cr_expect_eq(got_f, want, "f32 %a -> 0x%04x, want 0x%04x", v, got_f, want);
	}
}

Test(dtype, f16_known_values)
{
	expect_f16(0.0, 0x0000);
	expect_f16(-0.0, 0x8000);
	expect_f16(1.0, 0x3c00);
	expect_f16(-2.0, 0xc000);
	expect_f16(0.1, 0x2e66);
	expect_f16(1.0 / 3.0, 0x3555);
	expect_f16(65504.0, 0x7bff);
	expect_f16(65519.99, 0x7bff);
	expect_f16(65520.0, 0x7c00);   /* tie between 65504 and 2^16: even is 2^16 = inf */
	expect_f16(-65520.0, 0xfc00);
	expect_f16(1e10, 0x7c00);
	expect_f16(-1e300, 0xfc00);
	expect_f16(0x1p-14, 0x0400);  /* smallest normal */
	expect_f16(0x1p-24, 0x0001);  /* smallest subnormal */
	expect_f16(0x1p-25, 0x0000);  /* tie between 0 and 2^-24: even is 0 */
	expect_f16(-0x1p-25, 0x8000);
	expect_f16(0x1.8p-25, 0x0001); /* above the tie */
	expect_f16(0x1.000002p-25, 0x0001);
	expect_f16(0x3p-25, 0x0002);   /* 1.5 * 2^-24: tie, to the even 2 */
	expect_f16(0x5p-25, 0x0002);   /* 2.5 * 2^-24: tie, to the even 2 */
	expect_f16(0x7fep-25, 0x03ff);
	expect_f16(0x7ffp-25, 0x0400); /* largest subnormal + half: rounds up to normal */
	expect_f16(0x1p-30, 0x0000);
	expect_f16(1e-45, 0x0000);     /* float subnormal */
	expect_f16(4.9e-324, 0x0000);  /* double subnormal */
	expect_f16(1.0 + 0x1p-11, 0x3c00);      /* tie, to even 1 */
	expect_f16(1.0 + 3 * 0x1p-11, 0x3c02);  /* tie, to even 1 + 2^-9 */
	expect_f16(1.0 + 0x1p-11 + 0x1p-20, 0x3c01);
	expect_f16(2047.0, 0x67ff);
	expect_f16(2049.0, 0x6800);             /* tie, to even 2048 */
	expect_f16(2051.0, 0x6802);             /* tie, to even 2052 */
	expect_f16(0x1.ffcp15, 0x7bff);
	expect_f16(0x1.ffep15, 0x7c00);
}

Test(dtype, f16_specials)
{
	uint16_t n;

	cr_assert_eq(npukb_f32_to_f16(bitsf(0x7f800000)), 0x7c00);
	cr_assert_eq(npukb_f32_to_f16(bitsf(0xff800000)), 0xfc00);
	cr_assert_eq(npukb_f32_to_f16(bitsf(0x7f7fffff)), 0x7c00); /* FLT_MAX */
	n = npukb_f32_to_f16(bitsf(0x7fc00000));
	cr_assert(f16_is_nan(n) && (n & 0x0200), "0x%04x", n);
	/* A signalling NaN whose payload sits below half precision must not
	 * become infinity. */
	n = npukb_f32_to_f16(bitsf(0x7f800001));
	cr_assert(f16_is_nan(n) && (n & 0x0200), "0x%04x", n);
	n = npukb_f32_to_f16(bitsf(0xffc00000));
	cr_assert(f16_is_nan(n) && (n & 0x8000), "0x%04x", n);
	n = npukb_f64_to_f16(__builtin_nan(""));
	cr_assert(f16_is_nan(n) && (n & 0x0200), "0x%04x", n);
	n = npukb_f64_to_f16(-__builtin_nan("1"));
	cr_assert(f16_is_nan(n) && (n & 0x8000), "0x%04x", n);
	cr_assert_eq(npukb_f64_to_f16(__builtin_inf()), 0x7c00);
	cr_assert_eq(npukb_f64_to_f16(-__builtin_inf()), 0xfc00);
}

Test(dtype, double_rounds_once)
{
	/* As a double this lies just above the midpoint of 1 and 1 + 2^-10,
	 * so it rounds up; as a float it is exactly the midpoint, which then
	 * rounds to the even 1. */
	double d = 1.0 + 0x1p-11 + 0x1p-40;

	cr_assert_eq(npukb_f64_to_f16(d), 0x3c01);
	cr_assert_eq(npukb_f32_to_f16((float)d), 0x3c00);

	/* The same below the midpoint on the other side. */
	d = 1.0 + 3 * 0x1p-11 - 0x1p-40;
	cr_assert_eq(npukb_f64_to_f16(d), 0x3c01);
	cr_assert_eq(npukb_f32_to_f16((float)d), 0x3c02);

	/* Subnormal range. */
	d = 0x1p-25 + 0x1p-60;
	cr_assert_eq(npukb_f64_to_f16(d), 0x0001);
	cr_assert_eq(npukb_f32_to_f16((float)d), 0x0000);

	/* bfloat16: 1 + 2^-8 is the midpoint of 1 and 1 + 2^-7. */
	d = 1.0 + 0x1p-8 + 0x1p-40;
	cr_assert_eq(npukb_f64_to_bf16(d), 0x3f81);
	cr_assert_eq(npukb_f32_to_bf16((float)d), 0x3f80);
}

/* xorshift64*: a fixed, portable sequence of test inputs. */
static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * UINT64_C(2685821657736338717);
}

#ifdef __FLT16_MAX__

Test(dtype, f16_matches_compiler_half, .timeout = 60)
{
	uint64_t s = UINT64_C(0x9e3779b97f4a7c15);

	/* Every float whose exponent can reach binary16, fraction stepped. */
	for (uint32_t u = 0x30000000; u < 0x47800000; u += 61) {
		_Float16 h = (_Float16)bitsf(u);
		uint16_t want;

		memcpy(&want, &h, 2);
		cr_assert_eq(npukb_f32_to_f16(bitsf(u)), want, "float 0x%08x", u);
	}
	/* Random doubles around the binary16 range, with random low bits
	 * (these are the values where double rounding would show). */
	for (int i = 0; i < 2000000; i++) {
		uint64_t r = next_rand(&s);
		uint64_t exp = 1023 - 30 + (r >> 58) % 48; /* 2^-30 .. 2^17 */
		uint64_t bits = (r & 0x800fffffffffffffu) | (exp << 52);
		double d;
		_Float16 h;
		uint16_t want, got;

		if (i % 3 == 0) /* a tie in half precision plus a low-bit nudge */
			bits = (bits & ~((UINT64_C(1) << 42) - 1)) | (UINT64_C(1) << 41) | (r & 1);
		memcpy(&d, &bits, 8);
		h = (_Float16)d;
		memcpy(&want, &h, 2);
		got = npukb_f64_to_f16(d);
		cr_assert_eq(got, want, "double %a: got 0x%04x want 0x%04x", d, got, want);
	}
}
#endif

/* ---- bfloat16 ------------------------------------------------------------ */

/* bfloat16 of a double with a normal bfloat16 result, rounded to nearest
 * even on the double's own bits: 45 fraction bits dropped, the exponent
 * rebased from double's bias to float's. Independent of dtype.c's paths. */
static uint16_t bf16_of_normal_double(double d)
{
	uint64_t u;
	memcpy(&u, &d, 8);
	const uint64_t sign = u >> 63, mag = u & ~(UINT64_C(1) << 63);
	const uint64_t r = (mag + ((UINT64_C(1) << 44) - 1) + ((mag >> 45) & 1)) >> 45;
	const uint64_t exp = (r >> 7) - 1023 + 127;
	return (uint16_t)((sign << 15) | (exp << 7) | (r & 0x7f));
}

/* The fast path through float against exact rounding, on random doubles
 * whose low bits matter: a third of them a bfloat16 tie nudged by one ulp
 * of the double either way or left exact. */
Test(dtype, f64_to_bf16_rounds_once, .timeout = 60)
{
	uint64_t s = UINT64_C(0x2545f4914f6cdd1d);

	for (int i = 0; i < 2000000; i++) {
		uint64_t r = next_rand(&s);
		uint64_t exp = 1023 - 120 + (r >> 56) % 240; /* 2^-120 .. 2^119 */
		uint64_t bits = (r & 0x800fffffffffffffu) | (exp << 52);
		double d;

		if (i % 3 == 0)
			bits = (bits & ~((UINT64_C(1) << 45) - 1)) | (UINT64_C(1) << 44) | (r & 1);
		if (i % 3 == 1)
			bits = ((bits & ~((UINT64_C(1) << 45) - 1)) | (UINT64_C(1) << 44)) - (r & 1);
		memcpy(&d, &bits, 8);
		uint16_t got = npukb_f64_to_bf16(d), want = bf16_of_normal_double(d);
		cr_assert_eq(got, want, "double %a: got 0x%04x want 0x%04x", d, got, want);
	}
}

Test(dtype, bf16_round_trip_all_patterns)
{
	for (uint32_t b = 0; b <= 0xffff; b++) {
		float f = npukb_bf16_to_f32((uint16_t)b);

		cr_assert_eq(fbits(f), b << 16);
		if (bf16_is_nan((uint16_t)b)) {
			cr_assert(bf16_is_nan(npukb_f32_to_bf16(f)), "0x%04x", b);
			cr_assert(bf16_is_nan(npukb_f64_to_bf16(f)), "0x%04x", b);
		} else {
			cr_assert_eq(npukb_f32_to_bf16(f), b, "0x%04x", b);
			cr_assert_eq(npukb_f64_to_bf16(f), b, "0x%04x", b);
		}
	}
}

/* Reference rounding for float -> bfloat16 written the other common way
 * (add 0x7fff plus the lowest kept bit): agreement on every finite float
 * pattern checks the generic rounding against an independent formula. */
static uint16_t bf16_by_addition(uint32_t u)
{
	return (uint16_t)((u + 0x7fff + ((u >> 16) & 1)) >> 16);
}

Test(dtype, bf16_matches_addition_rounding, .timeout = 60)
{
	for (uint64_t u = 0; u <= 0xffffffffu; u += 257) {
		uint32_t x = (uint32_t)u;

		if ((x & 0x7f800000) == 0x7f800000)
			continue;
		cr_assert_eq(npukb_f32_to_bf16(bitsf(x)), bf16_by_addition(x), "0x%08x", x);
	}
}

Test(dtype, bf16_known_values)
{
	uint16_t n;

	cr_assert_eq(npukb_f32_to_bf16(1.0f), 0x3f80);
	cr_assert_eq(npukb_f32_to_bf16(-1.0f), 0xbf80);
	cr_assert_eq(npukb_f32_to_bf16(1.0f + 0x1p-8f), 0x3f80);     /* tie, to even */
	cr_assert_eq(npukb_f32_to_bf16(1.0f + 3 * 0x1p-8f), 0x3f82); /* tie, to even */
	cr_assert_eq(npukb_f32_to_bf16(1.0f + 0x1p-8f + 0x1p-20f), 0x3f81);
	cr_assert_eq(npukb_f64_to_bf16(1.0 + 0x1p-8), 0x3f80);
	cr_assert_eq(npukb_f64_to_bf16(3.14159265358979), 0x4049);
	cr_assert_eq(npukb_f32_to_bf16(bitsf(0x7f7f7fff)), 0x7f7f);
	cr_assert_eq(npukb_f32_to_bf16(bitsf(0x7f7f8000)), 0x7f80); /* tie at the top: inf */
	cr_assert_eq(npukb_f32_to_bf16(bitsf(0x7f7fffff)), 0x7f80);
	cr_assert_eq(npukb_f64_to_bf16(1e39), 0x7f80);
	cr_assert_eq(npukb_f64_to_bf16(-1e39), 0xff80);
	cr_assert_eq(npukb_f32_to_bf16(0x1p-133f), 0x0001);        /* smallest subnormal */
	cr_assert_eq(npukb_f32_to_bf16(0x1p-134f), 0x0000);        /* tie, to even 0 */
	cr_assert_eq(npukb_f32_to_bf16(0x1.8p-134f), 0x0001);
	cr_assert_eq(npukb_f64_to_bf16(0x1p-134 + 0x1p-160), 0x0001);
	cr_assert_eq(npukb_f64_to_bf16(0x1p-140), 0x0000);
	n = npukb_f32_to_bf16(bitsf(0x7f800001));
	cr_assert(bf16_is_nan(n), "0x%04x", n);
	n = npukb_f64_to_bf16(-__builtin_nan(""));
	cr_assert(bf16_is_nan(n) && (n & 0x8000), "0x%04x", n);
	cr_assert_eq(npukb_f64_to_bf16(__builtin_inf()), 0x7f80);
	cr_assert_eq(npukb_f32_to_bf16(-0.0f), 0x8000);
}

/* ---- element access ---------------------------------------------------------- */

Test(dtype, load_store_every_dtype)
{
	for (int dt = NPUKB_DT_INVALID + 1; dt < NPUKB_DT_COUNT_; dt++) {
		unsigned char buf[64];
		const double vals[] = { 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0 };

		memset(buf, 0xa5, sizeof buf);
		for (size_t i = 0; i < 8; i++)
			npukb_store_from_double((enum npukb_dtype)dt, buf, i, vals[i]);
		for (size_t i = 0; i < 8; i++)
			cr_assert_eq(npukb_load_as_double((enum npukb_dtype)dt, buf, i), vals[i],
				     "%s element %zu", npukb_dtype_name((enum npukb_dtype)dt), i);
		/* Nothing written past the last element. */
		for (size_t b = 8 * npukb_dtype_size((enum npukb_dtype)dt); b < sizeof buf; b++)
			cr_assert_eq(buf[b], 0xa5, "%s wrote past its end",
				     npukb_dtype_name((enum npukb_dtype)dt));
	}
}

Test(dtype, float_stores_round_to_nearest_even)
{
	uint16_t h[2];
	float f;

	npukb_store_from_double(NPUKB_DT_FLOAT16, h, 1, 1.0 + 0x1p-11 + 0x1p-40);
	cr_assert_eq(h[1], 0x3c01);
	npukb_store_from_double(NPUKB_DT_BFLOAT16, h, 0, 1.0 + 3 * 0x1p-8);
	cr_assert_eq(h[0], 0x3f82);
	cr_assert_eq(npukb_load_as_double(NPUKB_DT_BFLOAT16, h, 0), 1.0 + 0x1p-6);
	npukb_store_from_double(NPUKB_DT_FLOAT32, &f, 0, 0.1);
	cr_assert_eq(f, 0.1f);
	npukb_store_from_double(NPUKB_DT_FLOAT16, h, 0, 70000.0);
	cr_assert_eq(h[0], 0x7c00);
	cr_assert_eq(npukb_load_as_double(NPUKB_DT_FLOAT16, h, 0), __builtin_inf());
}

Test(dtype, integer_stores_wrap)
{
	int8_t i8;
	uint8_t u8;
	int16_t i16;
	int32_t i32;
	int64_t i64;

	npukb_store_from_double(NPUKB_DT_INT8, &i8, 0, 300.0);
	cr_assert_eq(i8, 44);
	npukb_store_from_double(NPUKB_DT_INT8, &i8, 0, 128.0);
	cr_assert_eq(i8, -128);
	npukb_store_from_double(NPUKB_DT_INT8, &i8, 0, -129.0);
	cr_assert_eq(i8, 127);
	npukb_store_from_double(NPUKB_DT_INT8, &i8, 0, -3.7);
	cr_assert_eq(i8, -3); /* truncation toward zero */
	npukb_store_from_double(NPUKB_DT_UINT8, &u8, 0, -1.0);
	cr_assert_eq(u8, 255);
	npukb_store_from_double(NPUKB_DT_UINT8, &u8, 0, 256.0 + 7.9);
	cr_assert_eq(u8, 7);
	npukb_store_from_double(NPUKB_DT_INT16, &i16, 0, 40000.0);
	cr_assert_eq(i16, 40000 - 65536);
	npukb_store_from_double(NPUKB_DT_INT32, &i32, 0, 2147483648.0);
	cr_assert_eq(i32, INT32_MIN);
	npukb_store_from_double(NPUKB_DT_INT32, &i32, 0, 4294967297.0);
	cr_assert_eq(i32, 1);
	npukb_store_from_double(NPUKB_DT_INT32, &i32, 0, -2147483649.0);
	cr_assert_eq(i32, INT32_MAX);
	npukb_store_from_double(NPUKB_DT_INT64, &i64, 0, -9223372036854775808.0);
	cr_assert_eq(i64, INT64_MIN);
	npukb_store_from_double(NPUKB_DT_INT64, &i64, 0, 123456789012.0);
	cr_assert_eq(i64, 123456789012LL);
	cr_assert_eq(npukb_load_as_double(NPUKB_DT_INT64, &i64, 0), 123456789012.0);
}

Test(dtype, nan_and_inf_into_integers_are_defined)
{
	int8_t i8;
	uint8_t u8;
	int32_t i32;
	int64_t i64;

	npukb_store_from_double(NPUKB_DT_INT32, &i32, 0, __builtin_nan(""));
	cr_assert_eq(i32, 0);
	npukb_store_from_double(NPUKB_DT_INT32, &i32, 0, __builtin_inf());
	cr_assert_eq(i32, INT32_MAX);
	npukb_store_from_double(NPUKB_DT_INT32, &i32, 0, -__builtin_inf());
	cr_assert_eq(i32, INT32_MIN);
	npukb_store_from_double(NPUKB_DT_INT8, &i8, 0, __builtin_inf());
	cr_assert_eq(i8, INT8_MAX);
	npukb_store_from_double(NPUKB_DT_INT8, &i8, 0, -1e300);
	cr_assert_eq(i8, INT8_MIN);
	npukb_store_from_double(NPUKB_DT_UINT8, &u8, 0, __builtin_inf());
	cr_assert_eq(u8, 255);
	npukb_store_from_double(NPUKB_DT_UINT8, &u8, 0, -__builtin_inf());
	cr_assert_eq(u8, 0);
	npukb_store_from_double(NPUKB_DT_INT64, &i64, 0, 1e19);
	cr_assert_eq(i64, INT64_MAX);
	npukb_store_from_double(NPUKB_DT_INT64, &i64, 0, __builtin_nan(""));
	cr_assert_eq(i64, 0);
}

Test(dtype, bool_and_complex)
{
	uint8_t b[4] = { 0, 1, 2, 255 };
	float c[4] = { 1.5f, -2.0f, 3.0f, 4.0f };

	cr_assert_eq(npukb_load_as_double(NPUKB_DT_BOOL, b, 0), 0.0);
	cr_assert_eq(npukb_load_as_double(NPUKB_DT_BOOL, b, 2), 1.0);
	cr_assert_eq(npukb_load_as_double(NPUKB_DT_BOOL, b, 3), 1.0);
	npukb_store_from_double(NPUKB_DT_BOOL, b, 0, -0.5);
	cr_assert_eq(b[0], 1);
	npukb_store_from_double(NPUKB_DT_BOOL, b, 1, 0.0);
	cr_assert_eq(b[1], 0);
	npukb_store_from_double(NPUKB_DT_BOOL, b, 1, -0.0);
	cr_assert_eq(b[1], 0);

	/* Element 1 is the pair at floats 2 and 3; load gives the real part. */
	cr_assert_eq(npukb_load_as_double(NPUKB_DT_COMPLEX64, c, 0), 1.5);
	cr_assert_eq(npukb_load_as_double(NPUKB_DT_COMPLEX64, c, 1), 3.0);
	npukb_store_from_double(NPUKB_DT_COMPLEX64, c, 1, -7.25);
	cr_assert_eq(c[2], -7.25f);
	cr_assert_eq(c[3], 0.0f, "the imaginary part must be zeroed");
	cr_assert_eq(c[0], 1.5f);
	cr_assert_eq(c[1], -2.0f);
}

Test(dtype, invalid_dtype_is_harmless)
{
	unsigned char buf[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };

	cr_assert_eq(npukb_load_as_double(NPUKB_DT_INVALID, buf, 0), 0.0);
	npukb_store_from_double(NPUKB_DT_INVALID, buf, 0, 5.0);
	npukb_store_from_double(NPUKB_DT_COUNT_, buf, 0, 5.0);
	for (int i = 0; i < 8; i++)
		cr_assert_eq(buf[i], i + 1);
}

/* The bulk converters (F16C for halves where the CPU has it) give the
 * one-value forms' bits: on a spread of 2^20 bit patterns over every
 * exponent, NaN payloads and denormals, and on every float exactly half-way
 * between two halves or two bfloat16s, where rounding to even decides. */
Test(dtype, bulk_narrowing_matches_one_value_forms)
{
	enum { N = 1 << 20 };
	float *src = malloc(N * sizeof(float));
	uint16_t *h = malloc(N * sizeof(uint16_t)), *b = malloc(N * sizeof(uint16_t));
	cr_assert(src && h && b);
	for (int pass = 0; pass < 2; pass++) {
		for (uint32_t i = 0; i < N; i++) {
			/* pass 0: a spread; pass 1: ties (half: 13 dropped bits
			 * 1000000000000; bfloat16: 16 dropped bits 0x8000). */
			uint32_t u = pass == 0 ? i * 4099u : ((i << 13) & 0xffffe000u) | 0x1000u;
			if (pass == 1 && (i & 1))
				u = ((i >> 1) << 16) | 0x8000u;
			memcpy(&src[i], &u, 4);
		}
		npukb_f32_to_f16_n(src, h, N);
		npukb_f32_to_bf16_n(src, b, N);
		for (uint32_t i = 0; i < N; i++) {
			uint32_t u;
			memcpy(&u, &src[i], 4);
			cr_assert_eq(h[i], npukb_f32_to_f16(src[i]), "half of 0x%08x: 0x%04x, one-value form 0x%04x",
				     u, h[i], npukb_f32_to_f16(src[i]));
			cr_assert_eq(b[i], npukb_f32_to_bf16(src[i]),
				     "bfloat16 of 0x%08x: 0x%04x, one-value form 0x%04x", u, b[i],
				     npukb_f32_to_bf16(src[i]));
		}
	}
	free(src);
	free(h);
	free(b);
}

/* double -> half rounds once, to nearest, ties to even, also on the fast
 * path through float: checked against the neighbouring halves for doubles
 * spread over the half range, and for doubles just off every tie (where a
 * first rounding to float would land on the tie). */
static void expect_nearest_half(double d)
{
	uint16_t h = npukb_f64_to_f16(d);
	double v = npukb_f16_to_f32(h);
	double below = npukb_f16_to_f32((uint16_t)(h - 1)), above = npukb_f16_to_f32((uint16_t)(h + 1));
	double err = fabs(d - v);

	if ((h & 0x7fff) == 0x7c00 || (h & 0x7fff) == 0)
		return; /* infinity and zero: no neighbour on one side */
	cr_assert_leq(err, fabs(d - below), "%a -> 0x%04x (%a), nearer %a", d, h, v, below);
	cr_assert_leq(err, fabs(d - above), "%a -> 0x%04x (%a), nearer %a", d, h, v, above);
	if (err == fabs(d - below) || err == fabs(d - above))
		cr_assert_eq(h & 1, 0, "tie %a -> odd 0x%04x", d, h);
}

Test(dtype, f64_to_f16_rounds_once)
{
	uint64_t x = 88172645463325252ull;
	for (int i = 0; i < 200000; i++) {
		double d;
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		/* |d| in [2^-16, 2^16): halves' normal range and a margin */
		d = ldexp(1.0 + (double)(x >> 12) * 0x1p-52, (int)(x % 32) - 16);
		expect_nearest_half((x & 1) ? -d : d);
	}
	for (uint32_t h = 0x0400; h < 0x7bff; h += 7) {
		double lo = npukb_f16_to_f32((uint16_t)h), hi = npukb_f16_to_f32((uint16_t)(h + 1));
		double tie = (lo + hi) / 2, q = (hi - lo) * 0x1p-30;
		expect_nearest_half(tie);
		expect_nearest_half(tie + q);
		expect_nearest_half(tie - q);
		cr_assert_eq(npukb_f64_to_f16(tie + q), (uint16_t)(h + 1), "just above the tie after 0x%04x", h);
		cr_assert_eq(npukb_f64_to_f16(tie - q), (uint16_t)h, "just below the tie after 0x%04x", h);
	}
}

/* The block loader gives the values of the one-element loader for every
 * half and bfloat16 pattern: the same bits, and NaN where it gives NaN
 * (widening a signalling NaN to double quiets it; the compare matches
 * any NaN with any NaN). */
Test(dtype, float_block_load_matches_element_load)
{
	static uint16_t all[65536];
	static float got[65536];
	float f32[3] = { 1.5f, -0.0f, INFINITY };
	int32_t i32[1] = { 3 };
	for (uint32_t h = 0; h < 65536; h++)
		all[h] = (uint16_t)h;
	for (int k = 0; k < 2; k++) {
		enum npukb_dtype dt = k ? NPUKB_DT_BFLOAT16 : NPUKB_DT_FLOAT16;
		cr_assert_eq(npukb_load_as_float_n(dt, all, 0, 65536, got), 0);
		for (uint32_t h = 0; h < 65536; h++) {
			float want = (float)npukb_load_as_double(dt, all, h);
			float one = dt == NPUKB_DT_FLOAT16 ? npukb_f16_to_f32((uint16_t)h)
							   : npukb_bf16_to_f32((uint16_t)h);
			if (isnan(want))
				cr_assert(isnan(got[h]), "%s 0x%04x", npukb_dtype_name(dt), h);
			else
				cr_assert_eq(memcmp(&want, &got[h], 4), 0, "%s 0x%04x",
					     npukb_dtype_name(dt), h);
			/* and the one-value widening's bits, NaN payloads too */
			cr_assert_eq(memcmp(&one, &got[h], 4), 0, "%s 0x%04x: 0x%08x, one-value 0x%08x",
				     npukb_dtype_name(dt), h, fbits(got[h]), fbits(one));
		}
	}
	/* an offset start, float32 */
	cr_assert_eq(npukb_load_as_float_n(NPUKB_DT_FLOAT32, f32, 1, 2, got), 0);
	cr_assert(got[0] == 0.0f && signbit(got[0]) && isinf(got[1]));
	cr_assert_eq(npukb_load_as_float_n(NPUKB_DT_INT32, i32, 0, 1, got), -1);
}

/* ---- block stores against the one-value forms ---------------------------- */

/* Round to the nearest half, ties to even, written independently of
 * dtype.c: |d| scaled by the quantum of its binade (a power of two, so
 * exact) and rounded by nearbyint in the default rounding mode. Finite
 * doubles only. */
static uint16_t exact_half(double d)
{
	uint16_t sign = signbit(d) ? 0x8000 : 0;
	double a = fabs(d), r;
	int e;

	if (a >= 65520.0) /* the tie above 65504 rounds to the even 2^16 */
		return sign | 0x7c00;
	if (a == 0)
		return sign;
	(void)frexp(a, &e); /* a in [2^(e-1), 2^e) */
	e = e - 1 < -14 ? -14 : e - 1;
	r = nearbyint(a / ldexp(1.0, e - 10));
	if (e == -14 && r < 1024)
		return sign | (uint16_t)r;
	return sign | (uint16_t)(((e + 15) << 10) + ((int)r - 1024));
}

/* A double likely to expose a fast path's mistakes: ties and near-ties of
 * halves (normal and subnormal) and of floats, both sides of the overflow
 * threshold, double and half subnormals, zeros, infinities, NaNs. */
static double awkward_double(uint64_t *s)
{
	uint64_t r = next_rand(s), bits;
	double d;
	switch (r % 10) {
	case 0: /* a half tie (13 dropped float bits 0x1000) nudged or not */
	case 1: {
		uint64_t exp = 1023 - 25 + (r >> 40) % 42; /* 2^-25 .. 2^16 */
		bits = (next_rand(s) & 0x800fffffffffffffu) | (exp << 52);
		/* the double's bits below the half's quantum: exactly a tie,
		 * or a tie plus or minus one unit of a low bit */
		bits = (bits & ~((UINT64_C(1) << 42) - 1)) | (UINT64_C(1) << 41);
		memcpy(&d, &bits, 8);
		if (r & 0x100)
			d = nextafter(d, (r & 0x200) ? INFINITY : -INFINITY);
		else if (r & 0x400)
			d += ldexp(d, -40 - (int)((r >> 12) % 12));
		return d;
	}
	case 2: /* subnormal halves: ties of the 2^-24 grid */
		d = ldexp((double)(next_rand(s) % 2048) + 0.5, -24);
		if (r & 0x100)
			d = nextafter(d, (r & 0x200) ? INFINITY : -INFINITY);
		return (r & 0x800) ? -d : d;
	case 3: /* around the overflow threshold 65520 */
		d = 65504.0 + (double)(next_rand(s) % 64) * 0.5;
		if (r & 0x100)
			d = nextafter(d, (r & 0x200) ? INFINITY : -INFINITY);
		return (r & 0x800) ? -d : d;
	case 4: { /* specials and double subnormals, huge values */
		static const double sp[] = { 0.0, -0.0, INFINITY, -INFINITY, NAN, -NAN,
					     0x1p-1074, -0x1p-1060, 0x1.8p-149, 0x1p-150, 3e38, 1e300,
					     -1e300, 0x1p-24, 0x1p-25, 0x1.fffp-15, 65504.0, 65519.99 };
		d = sp[(r >> 8) % (sizeof sp / sizeof sp[0])];
		if ((r >> 8) % (sizeof sp / sizeof sp[0]) == 4 && (r & 0x800)) {
			bits = 0x7ff0000000000000u | (next_rand(s) & 0x800fffffffffffffu) | 1;
			memcpy(&d, &bits, 8); /* a NaN with a random payload */
		}
		return d;
	}
	default: /* anything around the half range, random low bits */
		bits = (r & 0x800fffffffffffffu) | ((1023 - 30 + (r >> 58) % 48) << 52);
		memcpy(&d, &bits, 8);
		return d;
	}
}

Test(dtype, f64_to_f16_block_matches_exact, .timeout = 120)
{
	enum { N = 1 << 20 };
	double *src = malloc(N * sizeof(double));
	uint16_t *got = malloc((N + 1) * sizeof(uint16_t));
	uint64_t s = UINT64_C(0x2545f4914f6cdd1d);

	cr_assert(src && got);
	for (int round = 0; round < 4; round++) { /* 4 Mi doubles */
		for (size_t i = 0; i < N; i++)
			src[i] = awkward_double(&s);
		/* odd offsets and lengths: the vector loop's tail and a
		 * destination that is not 16-byte aligned */
		npukb_f64_to_f16_n(src + round, got + 1, N - 2 * (size_t)round);
		for (size_t i = 0; i < N - 2 * (size_t)round; i++) {
			double d = src[i + round];
			uint16_t one = npukb_f64_to_f16(d);
			cr_assert_eq(got[i + 1], one, "double %a: block 0x%04x, one-value 0x%04x", d,
				     got[i + 1], one);
			if (d == d)
				cr_assert_eq(one, exact_half(d), "double %a: 0x%04x, exact 0x%04x", d,
					     one, exact_half(d));
			else
				cr_assert_eq(one & 0x7e00, 0x7e00, "NaN %a -> 0x%04x not a quiet NaN", d,
					     one);
		}
	}
	free(src);
	free(got);
}

/* A double likely to expose a bfloat16 fast path's mistakes: exactly on
 * a bfloat16 tie (16 dropped float bits 0x8000) or a few units off it, so
 * that rounding to float lands on the tie; every exponent from double
 * subnormals to beyond float's range; zeros, infinities, NaNs. */
static double awkward_bf16_double(uint64_t *s)
{
	uint64_t r = next_rand(s), bits;
	double d;
	switch (r % 6) {
	case 0:
	case 1: {
		/* float exponents -149 .. 128 (overflow included), as doubles */
		uint64_t exp = 1023 - 149 + (r >> 40) % 278;
		bits = (next_rand(s) & 0x800fffffffffffffu) | (exp << 52);
		/* a bfloat16 quantum is 2^-7 of the binade: 45 double bits
		 * below it, the top one set, the rest clear */
		bits = (bits & ~((UINT64_C(1) << 45) - 1)) | (UINT64_C(1) << 44);
		memcpy(&d, &bits, 8);
		if (r & 0x100)
			d = nextafter(d, (r & 0x200) ? INFINITY : -INFINITY);
		else if (r & 0x400)
			d += ldexp(d, -30 - (int)((r >> 12) % 20));
		return d;
	}
	case 2: { /* specials, double and float subnormals, float overflow */
		static const double sp[] = { 0.0, -0.0, INFINITY, -INFINITY, NAN, -NAN, 0x1p-1074,
					     -0x1p-1060, 0x1p-149, 0x1.8p-149, 0x1p-150, 0x1.01p-134,
					     0x1.ff8p127, 0x1.ff7fffffffp127, 0x1p128, 1e300, -1e300 };
		const size_t k = (r >> 8) % (sizeof sp / sizeof sp[0]);
		d = sp[k];
		if (k == 4 && (r & 0x800)) {
			bits = 0x7ff0000000000000u | (next_rand(s) & 0x800fffffffffffffu) | 1;
			memcpy(&d, &bits, 8); /* a NaN with a random payload */
		}
		return d;
	}
	default: /* any double of float's range, random low bits */
		bits = (r & 0x800fffffffffffffu) | ((1023 - 160 + (r >> 56) % 300) << 52);
		memcpy(&d, &bits, 8);
		return d;
	}
}

/* double -> bfloat16 in blocks (AVX2 where the CPU has it) gives the
 * one-value form's bits on 4 Mi awkward doubles, from odd offsets and with
 * odd lengths; the store of a block gives the same bytes. */
Test(dtype, f64_to_bf16_block_matches_one_value_form, .timeout = 120)
{
	enum { N = 1 << 20 };
	double *src = malloc(N * sizeof(double));
	uint16_t *got = malloc((N + 1) * sizeof(uint16_t)), *st = malloc((N + 1) * sizeof(uint16_t));
	uint64_t s = UINT64_C(0x9e3779b97f4a7c15);
	size_t ties = 0;

	cr_assert(src && got && st);
	for (int round = 0; round < 4; round++) {
		const size_t n = N - 2 * (size_t)round;
		for (size_t i = 0; i < N; i++)
			src[i] = awkward_bf16_double(&s);
		npukb_f64_to_bf16_n(src + round, got + 1, n);
		npukb_store_from_double_n(NPUKB_DT_BFLOAT16, st, 1, src + round, n);
		for (size_t i = 0; i < n; i++) {
			const double d = src[i + round];
			const uint16_t one = npukb_f64_to_bf16(d);
			const float f = (float)d;
			cr_assert_eq(got[i + 1], one, "double %a: block 0x%04x, one-value 0x%04x", d,
				     got[i + 1], one);
			cr_assert_eq(st[i + 1], one, "double %a: stored 0x%04x, one-value 0x%04x", d,
				     st[i + 1], one);
			ties += (fbits(f) & 0xffff) == 0x8000 && (double)f != d;
		}
	}
	/* the inputs did reach the exact path's lanes */
	cr_assert_gt(ties, 10000);
	free(src);
	free(got);
	free(st);
}

/* npukb_store_from_double_n leaves the bytes of n one-value stores, for
 * every dtype, at an odd start index. */
Test(dtype, block_store_matches_one_value_stores, .timeout = 60)
{
	enum { N = 4099 };
	double *v = malloc(N * sizeof(double));
	unsigned char *a = malloc(8 * (N + 3)), *b = malloc(8 * (N + 3));
	uint64_t s = UINT64_C(0x5851f42d4c957f2d);

	cr_assert(v && a && b);
	for (size_t i = 0; i < N; i++) {
		v[i] = awkward_double(&s);
		if (i % 5 == 0) /* integer-ish values for the integer dtypes */
			v[i] = (double)(int64_t)(next_rand(&s) % 100000) - 50000.0 + (i % 3) * 0.5;
	}
	for (int dt = NPUKB_DT_INVALID + 1; dt < NPUKB_DT_COUNT_; dt++) {
		size_t size = npukb_dtype_size((enum npukb_dtype)dt);
		memset(a, 0x5a, 8 * (N + 3));
		memset(b, 0x5a, 8 * (N + 3));
		npukb_store_from_double_n((enum npukb_dtype)dt, a, 3, v, N);
		for (size_t i = 0; i < N; i++)
			npukb_store_from_double((enum npukb_dtype)dt, b, 3 + i, v[i]);
		for (size_t i = 0; i < (N + 3) * size; i++)
			cr_assert_eq(a[i], b[i], "%s: byte %zu differs (element %zu, value %a)",
				     npukb_dtype_name((enum npukb_dtype)dt), i, i / size - 3,
				     v[i / size >= 3 ? i / size - 3 : 0]);
	}
	free(v);
	free(a);
	free(b);
}

/* The block widening from odd starts and with every tail length (the
 * vector loop's remainder), half and bfloat16. */
Test(dtype, float_block_load_offsets_and_tails)
{
	uint16_t src[64];
	float got[64];
	uint64_t s = UINT64_C(0x853c49e6748fea9b);

	for (int k = 0; k < 2; k++) {
		enum npukb_dtype dt = k ? NPUKB_DT_BFLOAT16 : NPUKB_DT_FLOAT16;
		for (int rep = 0; rep < 200; rep++) {
			for (size_t i = 0; i < 64; i++)
				src[i] = (uint16_t)next_rand(&s);
			for (size_t off = 0; off < 9; off++) {
				size_t n = (size_t)(next_rand(&s) % (64 - off));
				cr_assert_eq(npukb_load_as_float_n(dt, src, off, n, got), 0);
				for (size_t i = 0; i < n; i++) {
					float one = k ? npukb_bf16_to_f32(src[off + i])
						      : npukb_f16_to_f32(src[off + i]);
					cr_assert_eq(fbits(got[i]), fbits(one), "%s 0x%04x at %zu+%zu",
						     npukb_dtype_name(dt), src[off + i], off, i);
				}
			}
		}
	}
}
