/* test_ref_foreach.c - the Foreach family's reference (reference/foreach.c):
 * one table of scalar functions applied member by member over tensor
 * lists, checked on small hand-computed lists and, threaded, against one
 * thread. */
#include <criterion/criterion.h>

#include <npukb/dtype.h>
#include "data_threads.h"
#include "reference.h"
#include "ref_call.h"
#include "../trig_hard_floats.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- the Foreach family (reference/foreach.c) ------------------------------ */

/* A float32 list of two members, [2] and [1], the second at offset 8 (the
 * gap between them is no element of either). */
static const struct npukb_shape fe_members[2] = { { 1, { 2 } }, { 1, { 1 } } };
static const size_t fe_offsets[2] = { 0, 8 };

static struct npukb_ref_tensor mklist(const char *name, float *data)
{
	struct npukb_ref_tensor t = ref_tensor1(name, NPUKB_DT_FLOAT32, 9, data);
	t.nmembers = 2;
	t.members = fe_members;
	t.member_offsets = fe_offsets;
	return t;
}

Test(ref_foreach, rows_apply_member_by_member)
{
	float x1[9] = { 1, -2, 0, 0, 0, 0, 0, 0, 3 }, x2[9] = { 4, 8, 0, 0, 0, 0, 0, 0, -2 };
	float y[9], alpha[1] = { 0.5f }, scalars[2] = { 2, -4 };
	char err[ERRLEN];
	struct npukb_ref_tensor in[3], out;

	/* y = x1 + alpha * x2, one alpha */
	in[0] = mklist("x1", x1);
	in[1] = mklist("x2", x2);
	in[2] = ref_tensor1("alpha", NPUKB_DT_FLOAT32, 1, alpha);
	out = mklist("y", y);
	memset(y, 0, sizeof(y));
	cr_assert_eq(ref_run("foreach_add_list", in, 3, &out, 1, NULL, err), 0, "%s", err);
	cr_expect_eq(y[0], 3.0f);
	cr_expect_eq(y[1], 2.0f);
	cr_expect_eq(y[8], 2.0f);
	/* y = x / scalars[m]: member 0 by 2, member 1 by -4 */
	in[1] = ref_tensor1("scalars", NPUKB_DT_FLOAT32, 2, scalars);
	cr_assert_eq(ref_run("foreach_div_scalar_list", in, 2, &out, 1, NULL, err), 0, "%s", err);
	cr_expect_eq(y[0], 0.5f);
	cr_expect_eq(y[1], -1.0f);
	cr_expect_eq(y[8], -0.75f);
	/* one value per member is required */
	in[1] = ref_tensor1("scalars", NPUKB_DT_FLOAT32, 1, scalars);
	cr_expect_eq(ref_run("foreach_div_scalar_list", in, 2, &out, 1, NULL, err), -EINVAL);
	cr_expect_null(npukb_reference_find("foreach_nosuch"));
}

/* A member large enough to be computed across threads gives the bytes one
 * thread gives (issue 16): bf16 output, rounded once per element. */
Test(ref_foreach, threads_give_the_one_thread_bytes)
{
	const size_t n = 3u << 20;
	static struct npukb_shape big[1];
	static const size_t zero[1] = { 0 };
	float *x1 = malloc(n * sizeof(float)), *x2 = malloc(n * sizeof(float));
	uint16_t *y1 = malloc(n * 2), *y4 = malloc(n * 2);
	float alpha[1] = { -0.37f };
	char err[ERRLEN];
	struct npukb_ref_tensor in[3], out;

	cr_assert(x1 && x2 && y1 && y4);
	big[0].rank = 1;
	big[0].dims[0] = (int64_t)n;
	for (size_t i = 0; i < n; i++) {
		x1[i] = (float)((double)(i % 977) * 0.013 - 6.1);
		x2[i] = (float)((double)(i % 613) * -0.021 + 3.3);
	}
	in[0] = ref_tensor1("x1", NPUKB_DT_FLOAT32, n, x1);
	in[1] = ref_tensor1("x2", NPUKB_DT_FLOAT32, n, x2);
	in[0].nmembers = in[1].nmembers = 1;
	in[0].members = in[1].members = big;
	in[0].member_offsets = in[1].member_offsets = zero;
	in[2] = ref_tensor1("alpha", NPUKB_DT_FLOAT32, 1, alpha);
	out = ref_tensor1("y", NPUKB_DT_BFLOAT16, n, y1);
	out.nmembers = 1;
	out.members = big;
	out.member_offsets = zero;
	npukb_set_data_threads(1);
	cr_assert_eq(ref_run("foreach_add_list", in, 3, &out, 1, NULL, err), 0, "%s", err);
	out.data = y4;
	npukb_set_data_threads(4);
	cr_assert_eq(ref_run("foreach_add_list", in, 3, &out, 1, NULL, err), 0, "%s", err);
	npukb_set_data_threads(0);
	cr_assert_eq(memcmp(y1, y4, n * 2), 0);
	/* and the values are the sums x1 + alpha * x2 in bf16, every one of
	 * them (the reference reads its inputs a block at a time) */
	for (size_t i = 0; i < n; i++)
		if (y1[i] != npukb_f64_to_bf16((double)x1[i] + (double)alpha[0] * (double)x2[i]))
			cr_assert_fail("element %zu: 0x%04x", i, y1[i]);
	free(x1);
	free(x2);
	free(y1);
	free(y4);
}

/* A two-member list of dtype dt over data, members and offsets given. */
static struct npukb_ref_tensor mklist2(const char *name, enum npukb_dtype dt, size_t n, void *data,
				       const struct npukb_shape *members, const size_t *offs)
{
	struct npukb_ref_tensor t = ref_tensor1(name, dt, n, data);
	t.nmembers = 2;
	t.members = members;
	t.member_offsets = offs;
	return t;
}

/* One-list ops on float16/bfloat16 lists large enough to be tabulated
 * (every 16-bit input computed once) give what f gives element by
 * element: every bit pattern appears, NaNs and infinities included, in a
 * list whose second member has a different scalar (the table is remade). */
Test(ref_foreach, sixteen_bit_lists_by_table_match_each_element)
{
	const size_t per = 4 * 65536, n = 2 * per;
	static struct npukb_shape two[2];
	static size_t offs[2];
	uint16_t *x = malloc(n * 2), *y = malloc(n * 2);
	float scal[2] = { 1.5f, -0.25f };
	char err[ERRLEN];
	struct npukb_ref_tensor in[2], out;
	const enum npukb_dtype dts[2] = { NPUKB_DT_FLOAT16, NPUKB_DT_BFLOAT16 };

	cr_assert(x && y);
	for (int m = 0; m < 2; m++) {
		two[m].rank = 1;
		two[m].dims[0] = (int64_t)per;
		offs[m] = (size_t)m * per;
	}
	for (size_t i = 0; i < n; i++)
		x[i] = (uint16_t)(i * 40503u); /* odd: each 65,536 run holds every pattern */
	for (int d = 0; d < 2; d++) {
		const enum npukb_dtype dt = dts[d];
		in[0] = mklist2("x", dt, n, x, two, offs);
		out = mklist2("y", dt, n, y, two, offs);
		/* sin: no scalar */
		cr_assert_eq(ref_run("foreach_sin", in, 1, &out, 1, NULL, err), 0, "%s", err);
		size_t bad = 0;
		for (size_t i = 0; i < n; i++) {
			const double v = npukb_load_as_double(dt, x, i);
			uint16_t want;
			npukb_store_from_double_n(dt, &want, 0, (double[]){ sin(v) }, 1);
			bad += y[i] != want;
		}
		cr_expect_eq(bad, 0, "foreach_sin, dtype %d: %zu elements differ", (int)dt, bad);
		/* x + s[m]: one scalar per member */
		in[1] = ref_tensor1("scalars", NPUKB_DT_FLOAT32, 2, scal);
		cr_assert_eq(ref_run("foreach_add_scalar_list", in, 2, &out, 1, NULL, err), 0, "%s", err);
		bad = 0;
		for (size_t i = 0; i < n; i++) {
			const double v = npukb_load_as_double(dt, x, i) + (double)scal[i / per];
			uint16_t want;
			npukb_store_from_double_n(dt, &want, 0, &v, 1);
			bad += y[i] != want;
		}
		cr_expect_eq(bad, 0, "foreach_add_scalar_list, dtype %d: %zu elements differ", (int)dt, bad);
	}
	/* by hand: float16 0x3830 is 0.5234375, 1.61e-4 below pi/6, so its
	 * sine is 0.5 - 1.61e-4 * cos(pi/6) = 0.49986; below 0.5 float16
	 * steps by 2^-12 = 2.44e-4, and 0.49986 is nearer 0.49976 (0x37ff)
	 * than 0.5 */
	x[0] = 0x3830;
	in[0] = mklist2("x", NPUKB_DT_FLOAT16, n, x, two, offs);
	out = mklist2("y", NPUKB_DT_FLOAT16, n, y, two, offs);
	cr_assert_eq(ref_run("foreach_sin", in, 1, &out, 1, NULL, err), 0, "%s", err);
	cr_expect_eq(y[0], 0x37ff);
	free(x);
	free(y);
}

static const uint32_t trig_hard[] = { NPUKB_TRIG_HARD_FLOATS };

/* The float values a float_trig test runs: a stride through every bit
 * pattern, the floats around each multiple of pi/2 below 1024 (where the
 * reduction cancels the most), the hard ones, and specials; n of them. */
static float *trig_sample(size_t *n)
{
	static const float special[] = { 0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1023.9999f, 1024.0f,
					 -1024.0f, 0x1p-149f, -0x1p-126f, 0x1p-20f, 3.4028235e38f };
	const size_t nstride = ((size_t)1 << 32) / 1021 + 1, nnear = 1303 * 129;
	const size_t nhard = sizeof trig_hard / sizeof *trig_hard, nspecial = sizeof special / sizeof *special;
	float *x = malloc((nstride + nnear + nhard + nspecial) * sizeof *x);
	size_t k = 0;
	cr_assert(x);
	for (uint64_t u = 0; u < ((uint64_t)1 << 32); u += 1021) {
		uint32_t b = (uint32_t)u;
		memcpy(&x[k++], &b, 4);
	}
	for (int m = -651; m <= 651; m++) {
		const float c = (float)(m * 1.5707963267948966);
		uint32_t b;
		memcpy(&b, &c, 4);
		for (int d = -64; d <= 64; d++) {
			uint32_t e = b + (uint32_t)d;
			memcpy(&x[k++], &e, 4);
		}
	}
	for (size_t i = 0; i < nhard; i++)
		memcpy(&x[k++], &trig_hard[i], 4);
	for (size_t i = 0; i < nspecial; i++)
		x[k++] = special[i];
	*n = k;
	return x;
}

/* foreach_sin and foreach_cos on float32 lists (float_trig.h, not the
 * double per element) store the float the double per element rounds to,
 * bit for bit (NaN for NaN). */
Test(ref_foreach, float_sin_cos_lists_match_each_element)
{
	size_t n;
	float *x = trig_sample(&n), *y = malloc(n * sizeof *y);
	static struct npukb_shape two[2];
	static size_t offs[2];
	char err[ERRLEN];
	struct npukb_ref_tensor in, out;

	cr_assert(y);
	two[0].rank = two[1].rank = 1;
	two[0].dims[0] = (int64_t)(n / 2);
	two[1].dims[0] = (int64_t)(n - n / 2);
	offs[1] = n / 2;
	for (int f = 0; f < 2; f++) {
		size_t bad = 0;
		in = mklist2("x", NPUKB_DT_FLOAT32, n, x, two, offs);
		out = mklist2("y", NPUKB_DT_FLOAT32, n, y, two, offs);
		cr_assert_eq(ref_run(f ? "foreach_cos" : "foreach_sin", &in, 1, &out, 1, NULL, err), 0,
			     "%s", err);
		for (size_t i = 0; i < n; i++) {
			const double v = f ? cos((double)x[i]) : sin((double)x[i]);
			float want;
			npukb_store_from_double_n(NPUKB_DT_FLOAT32, &want, 0, &v, 1);
			if (memcmp(&want, &y[i], 4) != 0 && !(isnan(want) && isnan(y[i])) && bad++ < 5)
				cr_log_error("%s(%a): %a, not %a", f ? "cos" : "sin", (double)x[i], (double)y[i], (double)want);
		}
		cr_expect_eq(bad, 0, "%s: %zu of %zu elements differ", f ? "foreach_cos" : "foreach_sin",
			     bad, n);
	}
	/* by hand: the float nearest pi is 3.14159274, 8.74e-8 above pi, so
	 * its sine is -8.74228e-8 (-0x1.777a5cp-24) */
	x[0] = 3.14159274f;
	in = mklist2("x", NPUKB_DT_FLOAT32, n, x, two, offs);
	out = mklist2("y", NPUKB_DT_FLOAT32, n, y, two, offs);
	cr_assert_eq(ref_run("foreach_sin", &in, 1, &out, 1, NULL, err), 0, "%s", err);
	cr_expect_eq(y[0], -0x1.777a5cp-24f, "sin(3.14159274f) = %a", y[0]);
	free(x);
	free(y);
}

Test(ref_foreach, round_off_modes)
{
	float x[9] = { 2.5f, -2.5f, 0, 0, 0, 0, 0, 0, -1.25f }, y[9];
	int32_t mode[1];
	/* per mode: y for 2.5, -2.5, -1.25 */
	static const float want[8][3] = {
		{ 0, 0, 0 }, { 2, -2, -1 }, { 2, -3, -2 }, { 3, -2, -1 },
		{ 3, -3, -1 }, { 2, -2, -1 }, { 3, -3, -1 }, { 0.5f, -0.5f, -0.25f },
	};
	char err[ERRLEN];
	struct npukb_ref_tensor in[2], out = mklist("y", y);
	in[0] = mklist("x", x);
	in[1] = ref_tensor1("roundMode", NPUKB_DT_INT32, 1, mode);
	for (int m = 1; m <= 7; m++) {
		mode[0] = m;
		cr_assert_eq(ref_run("foreach_round_off_number", in, 2, &out, 1, NULL, err), 0,
			     "%s", err);
		cr_expect_eq(y[0], want[m][0], "mode %d: %g", m, y[0]);
		cr_expect_eq(y[1], want[m][1], "mode %d: %g", m, y[1]);
		cr_expect_eq(y[8], want[m][2], "mode %d: %g", m, y[8]);
	}
}

Test(ref_foreach, norm_per_member)
{
	float x[9] = { 3, -4, 0, 0, 0, 0, 0, 0, -7 }, y[9], p[1] = { 2 };
	char err[ERRLEN];
	struct npukb_ref_tensor in[2], out = mklist("y", y);
	static const struct npukb_shape ones[2] = { { 1, { 1 } }, { 1, { 1 } } };
	out.members = ones;
	in[0] = mklist("x", x);
	in[1] = ref_tensor1("scalar", NPUKB_DT_FLOAT32, 1, p);
	cr_assert_eq(ref_run("foreach_norm", in, 2, &out, 1, NULL, err), 0, "%s", err);
	cr_expect_eq(y[0], 5.0f);
	cr_expect_eq(y[8], 7.0f);
	p[0] = 1;
	cr_assert_eq(ref_run("foreach_norm", in, 2, &out, 1, NULL, err), 0, "%s", err);
	cr_expect_eq(y[0], 7.0f);
	p[0] = INFINITY;
	cr_assert_eq(ref_run("foreach_norm", in, 2, &out, 1, NULL, err), 0, "%s", err);
	cr_expect_eq(y[0], 4.0f);
}

/* ForeachNorm over float16/bfloat16 members large enough for its table of
 * terms gives what the sum of pow(|x|, p) element by element gives, for
 * several p: one member of finite values of modest size, one holding every
 * bit pattern (infinities and NaNs too); stored to the list's dtype and to
 * float32 (more of the double's bits). */
Test(ref_foreach, norm_of_sixteen_bit_lists_matches_each_element)
{
	const size_t per = 5 * 65536 + 7, n = 2 * per;
	static struct npukb_shape two[2], ones[2];
	static size_t offs[2], youts[2] = { 0, 1 };
	uint16_t *x = malloc(n * 2);
	const double ps[] = { 2.0, 3.0, 0.5, 1.0, -1.5, INFINITY, 0.0, NAN };
	const enum npukb_dtype dts[2] = { NPUKB_DT_FLOAT16, NPUKB_DT_BFLOAT16 };
	char err[ERRLEN];

	cr_assert(x);
	for (int m = 0; m < 2; m++) {
		two[m].rank = 1;
		two[m].dims[0] = (int64_t)per;
		ones[m].rank = 1;
		ones[m].dims[0] = 1;
		offs[m] = (size_t)m * per;
	}
	for (int d = 0; d < 2; d++) {
		const enum npukb_dtype dt = dts[d];
		uint64_t s = UINT64_C(0x2545f4914f6cdd1d);
		for (size_t i = 0; i < per; i++) {
			/* |x| in about [2^-6, 2^6): sign, exponent near the
			 * bias, random fraction bits */
			s ^= s << 13;
			s ^= s >> 7;
			s ^= s << 17;
			const uint16_t bias = dt == NPUKB_DT_FLOAT16 ? 15 << 10 : 127 << 7;
			const uint16_t step = dt == NPUKB_DT_FLOAT16 ? 1 << 10 : 1 << 7;
			const uint16_t frac = (uint16_t)(s & (step - 1u));
			x[i] = (uint16_t)((s >> 20 & 0x8000) | (bias - 6 * step + (s >> 32) % 12 * step) | frac);
		}
		for (size_t i = per; i < n; i++)
			x[i] = (uint16_t)(i * 40503u); /* every pattern */
		for (size_t k = 0; k < sizeof ps / sizeof ps[0]; k++) {
			float pf = (float)ps[k];
			for (int o = 0; o < 2; o++) {
				const enum npukb_dtype ydt = o ? NPUKB_DT_FLOAT32 : dt;
				unsigned char y[8], want[8];
				struct npukb_ref_tensor in[2], out;
				in[0] = mklist2("x", dt, n, x, two, offs);
				in[1] = ref_tensor1("scalar", NPUKB_DT_FLOAT32, 1, &pf);
				out = mklist2("y", ydt, 2, y, ones, youts);
				cr_assert_eq(ref_run("foreach_norm", in, 2, &out, 1, NULL, err), 0, "%s", err);
				for (int m = 0; m < 2; m++) {
					double acc = 0.0;
					for (size_t i = 0; i < per; i++) {
						const double a = fabs(npukb_load_as_double(dt, x, offs[m] + i));
						if (isinf(ps[k]))
							acc = a > acc || isnan(a) ? a : acc;
						else if (ps[k] == 0.0)
							acc += a != 0.0;
						else
							acc += pow(a, ps[k]);
					}
					if (!isinf(ps[k]) && ps[k] != 0.0)
						acc = pow(acc, 1.0 / ps[k]);
					npukb_store_from_double(ydt, want, (size_t)m, acc);
				}
				const size_t sz = npukb_dtype_size(ydt);
				cr_expect_eq(memcmp(y, want, 2 * sz), 0, "dtype %d, p %g, out dtype %d", (int)dt,
					     ps[k], (int)ydt);
			}
		}
	}
	free(x);
}

/* The arithmetic rows (computed a block at a time, not through the row's
 * function per element) give each element's formula in double, rounded
 * once: float32, float16 and bfloat16 lists of random bit patterns
 * (infinities, NaNs, subnormals among them), members longer than a block,
 * scalars per list and per member. */
static double arith_formula(const char *name, const double *x, double s)
{
	if (!strcmp(name, "foreach_add_list"))
		return x[0] + s * x[1];
	if (!strcmp(name, "foreach_sub_list"))
		return x[0] - s * x[1];
	if (!strcmp(name, "foreach_mul_list"))
		return x[0] * x[1];
	if (!strcmp(name, "foreach_div_list"))
		return x[0] / x[1];
	if (!strcmp(name, "foreach_add_scalar") || !strcmp(name, "foreach_add_scalar_list"))
		return x[0] + s;
	if (!strcmp(name, "foreach_sub_scalar") || !strcmp(name, "foreach_sub_scalar_list"))
		return x[0] - s;
	if (!strcmp(name, "foreach_mul_scalar") || !strcmp(name, "foreach_mul_scalar_list"))
		return x[0] * s;
	if (!strcmp(name, "foreach_div_scalar") || !strcmp(name, "foreach_div_scalar_list"))
		return x[0] / s;
	if (!strcmp(name, "foreach_addcdiv_scalar") || !strcmp(name, "foreach_addcdiv_list"))
		return x[0] + s * (x[1] / x[2]);
	if (!strcmp(name, "foreach_addcmul_scalar") || !strcmp(name, "foreach_addcmul_list"))
		return x[0] + s * x[1] * x[2];
	if (!strcmp(name, "foreach_lerp_scalar"))
		return x[0] + s * (x[1] - x[0]);
	cr_assert_fail("no formula for %s", name);
	return 0;
}

Test(ref_foreach, arithmetic_rows_match_each_element)
{
	static const struct {
		const char *name;
		int nlists, per_member; /* per_member: one scalar per member */
		int has_scalar;
	} rows[] = {
		{ "foreach_add_list", 2, 0, 1 },	{ "foreach_sub_list", 2, 0, 1 },
		{ "foreach_mul_list", 2, 0, 0 },	{ "foreach_div_list", 2, 0, 0 },
		{ "foreach_add_scalar", 1, 0, 1 },	{ "foreach_sub_scalar", 1, 0, 1 },
		{ "foreach_mul_scalar", 1, 0, 1 },	{ "foreach_div_scalar", 1, 0, 1 },
		{ "foreach_add_scalar_list", 1, 1, 1 }, { "foreach_sub_scalar_list", 1, 1, 1 },
		{ "foreach_mul_scalar_list", 1, 1, 1 }, { "foreach_div_scalar_list", 1, 1, 1 },
		{ "foreach_addcdiv_scalar", 3, 0, 1 },	{ "foreach_addcmul_scalar", 3, 0, 1 },
		{ "foreach_addcdiv_list", 3, 1, 1 },	{ "foreach_addcmul_list", 3, 1, 1 },
		{ "foreach_lerp_scalar", 2, 0, 1 },
	};
	const size_t per = 3 * 1024 + 77, n = 2 * per;
	static struct npukb_shape two[2];
	static size_t offs[2];
	const enum npukb_dtype dts[3] = { NPUKB_DT_FLOAT32, NPUKB_DT_FLOAT16, NPUKB_DT_BFLOAT16 };
	unsigned char *x[3], *y = malloc(4 * n), *want = malloc(4 * n);
	float scal[2] = { 1.25f, -3.0e-3f };
	uint64_t s = UINT64_C(0x853c49e6748fea9b);
	char err[ERRLEN];

	cr_assert(y && want);
	for (int m = 0; m < 2; m++) {
		two[m].rank = 1;
		two[m].dims[0] = (int64_t)per;
		offs[m] = (size_t)m * per;
	}
	for (int l = 0; l < 3; l++) {
		cr_assert((x[l] = malloc(4 * n)) != NULL);
		for (size_t i = 0; i < 4 * n; i++) {
			s ^= s << 13;
			s ^= s >> 7;
			s ^= s << 17;
			/* mostly moderate exponents, so that results are not all
			 * infinities or zeros; every 16th byte anything */
			x[l][i] = (uint8_t)(i % 16 == 15 ? s : (i % 2 ? (s & 0xbf) | 0x3c : s >> 8));
		}
	}
	for (int d = 0; d < 3; d++) {
		const enum npukb_dtype dt = dts[d];
		for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
			struct npukb_ref_tensor in[4], out;
			int nin = rows[r].nlists;
			for (int l = 0; l < rows[r].nlists; l++)
				in[l] = mklist2("x", dt, n, x[l], two, offs);
			if (rows[r].has_scalar)
				in[nin++] = ref_tensor1("scalar", NPUKB_DT_FLOAT32, rows[r].per_member ? 2 : 1, scal);
			out = mklist2("y", dt, n, y, two, offs);
			cr_assert_eq(ref_run(rows[r].name, in, (size_t)nin, &out, 1, NULL, err), 0, "%s: %s",
				     rows[r].name, err);
			for (size_t i = 0; i < n; i++) {
				double v[3];
				for (int l = 0; l < rows[r].nlists; l++)
					v[l] = npukb_load_as_double(dt, x[l], i);
				const double sc = rows[r].per_member ? scal[i / per] : scal[0];
				npukb_store_from_double(dt, want, i, arith_formula(rows[r].name, v, sc));
			}
			cr_expect_eq(memcmp(y, want, n * npukb_dtype_size(dt)), 0, "%s, dtype %s", rows[r].name,
				     npukb_dtype_name(dt));
		}
	}
	for (int l = 0; l < 3; l++)
		free(x[l]);
	free(y);
	free(want);
}
