/* test_compare.c - the tolerance rules of plugins/correctness/compare.c.
 *
 * Edges are built from values the dtype holds exactly (tolerances are
 * dyadic fractions, or overridden with powers of two), so "exactly at the
 * tolerance" really is exact and "one ulp beyond" is one step of the
 * output dtype. float16/bfloat16 values are written as bit patterns so the
 * tests do not depend on the conversion code they would otherwise share. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "../../plugins/correctness/compare.h"
#include "data_threads.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Parameter rows hold their strings inline: Criterion runs each test in a
 * fresh worker process, where pointers into the parent's image are not
 * valid, while the rows themselves are rebuilt from this file's data. */

/* ---- helpers -------------------------------------------------------------- */

static void put_f32(void *buf, size_t i, double v)
{
	float f = (float)v;
	cr_assert(isnan(v) || (double)f == v, "test value %.17g is not a float32", v);
	memcpy((char *)buf + 4 * i, &f, 4);
}

static void put_f64(void *buf, size_t i, double v)
{
	memcpy((char *)buf + 8 * i, &v, 8);
}

static void put_u16(void *buf, size_t i, uint16_t bits)
{
	memcpy((char *)buf + 2 * i, &bits, 2);
}

/* Step a value of dtype dt `ulps` representable values towards +inf. */
static double step_up(enum npukb_dtype dt, double v, int ulps)
{
	int k;
	for (k = 0; k < ulps; k++)
		v = dt == NPUKB_DT_FLOAT32 ? (double)nextafterf((float)v, INFINITY)
					   : nextafter(v, INFINITY);
	return v;
}

static int cmp1(const char *rule, double atol, double rtol, enum npukb_dtype dt,
		const void *actual, const void *expected, size_t n, int kge,
		struct npukb_compare_stats *st)
{
	char err[256];
	int rc = npukb_compare_tensors(rule, atol, rtol, dt, actual, expected, n, kge, st,
				       err, sizeof(err));
	cr_assert(rc >= 0, "compare failed: %s", err);
	return rc;
}

/* ---- tolerance edges on float32 / float64 values --------------------------- */

struct edge_row {
	char label[48];
	char rule[16];
	enum npukb_dtype dt;       /* FLOAT32 or FLOAT64 */
	double atol, rtol;         /* overrides, < 0 for the rule's defaults */
	int kge;                   /* gemm: K >= 2048 */
	double expected, actual;
	int ulps;                  /* actual moves this many ulps up first */
	int want_fail;
};

#define R1 (1.0 / 2048 + 1.0 / 16384) /* rel-max1 float32 tolerance */

ParameterizedTestParameters(edges, float_rules)
{
	static struct edge_row rows[] = {
		/* default: |d| == atol passes even though rel > rtol; one ulp more fails */
		{ "default atol edge", "default", NPUKB_DT_FLOAT32, 1.0 / 1024, -1, 0,
		  0.5, 0.5 + 1.0 / 1024, 0, 0 },
		{ "default atol edge+1ulp", "default", NPUKB_DT_FLOAT32, 1.0 / 1024, -1, 0,
		  0.5, 0.5 + 1.0 / 1024, 1, 1 },
		/* default thresholds as such: reference 0 makes rel huge, abs decides */
		{ "default 1e-3 edge", "default", NPUKB_DT_FLOAT64, -1, -1, 0,
		  0.0, 1e-3, 0, 0 },
		{ "default 1e-3 edge+1ulp", "default", NPUKB_DT_FLOAT64, -1, -1, 0,
		  0.0, 1e-3, 1, 1 },
		/* both must be exceeded */
		{ "default abs only", "default", NPUKB_DT_FLOAT32, -1, -1, 0,
		  1000.0, 1000.5, 0, 0 },
		{ "default rel only", "default", NPUKB_DT_FLOAT64, -1, -1, 0,
		  1e-5, 5e-4, 0, 0 },
		{ "default both", "default", NPUKB_DT_FLOAT32, -1, -1, 0,
		  1.0, 1.5, 0, 1 },
		{ "default rel just under", "default", NPUKB_DT_FLOAT64, 1e-6, -1, 0,
		  2.0, 2.0 + 1.999e-3, 0, 0 },
		{ "default rel just over", "default", NPUKB_DT_FLOAT64, 1e-6, -1, 0,
		  2.0, 2.0 + 2.001e-3, 0, 1 },
		{ "default equal", "default", NPUKB_DT_FLOAT32, -1, -1, 0,
		  -3.25, -3.25, 0, 0 },
		/* rel-max1, float32: tol 1/2048+1/16384, scaled by max(1,|ref|) */
		{ "rel-max1 |ref|=1 edge", "rel-max1", NPUKB_DT_FLOAT32, -1, -1, 0,
		  1.0, 1.0 + R1, 0, 0 },
		{ "rel-max1 |ref|=1 edge+1ulp", "rel-max1", NPUKB_DT_FLOAT32, -1, -1, 0,
		  1.0, 1.0 + R1, 1, 1 },
		{ "rel-max1 |ref|=4 edge", "rel-max1", NPUKB_DT_FLOAT32, -1, -1, 0,
		  4.0, 4.0 + 4 * R1, 0, 0 },
		{ "rel-max1 |ref|=4 edge+1ulp", "rel-max1", NPUKB_DT_FLOAT32, -1, -1, 0,
		  4.0, 4.0 + 4 * R1, 1, 1 },
		{ "rel-max1 |ref|<1 uses 1", "rel-max1", NPUKB_DT_FLOAT32, -1, -1, 0,
		  0.25, 0.25 + R1, 0, 0 },
		{ "rel-max1 |ref|<1 +1ulp", "rel-max1", NPUKB_DT_FLOAT32, -1, -1, 0,
		  0.25, 0.25 + R1, 1, 1 },
		{ "rel-max1 negative edge", "rel-max1", NPUKB_DT_FLOAT32, -1, -1, 0,
		  -2.0, -2.0 - 2 * R1, 0, 0 },
		{ "rel-max1 float64 uses float32 tol", "rel-max1", NPUKB_DT_FLOAT64, -1, -1, 0,
		  1.0, 1.0 + R1, 0, 0 },
		{ "rel-max1 float64 +1ulp", "rel-max1", NPUKB_DT_FLOAT64, -1, -1, 0,
		  1.0, 1.0 + R1, 1, 1 },
		{ "rel-max1 rtol override", "rel-max1", NPUKB_DT_FLOAT32, -1, 0.5, 0,
		  1.0, 1.5, 0, 0 },
		{ "rel-max1 rtol override+1ulp", "rel-max1", NPUKB_DT_FLOAT32, -1, 0.5, 0,
		  1.0, 1.5, 1, 1 },
		/* gemm, float32: 1/2048, or 1/512 when K >= 2048 */
		{ "gemm f32 edge", "gemm", NPUKB_DT_FLOAT32, -1, -1, 0,
		  1.0, 1.0 + 1.0 / 2048, 0, 0 },
		{ "gemm f32 edge+1ulp", "gemm", NPUKB_DT_FLOAT32, -1, -1, 0,
		  1.0, 1.0 + 1.0 / 2048, 1, 1 },
		{ "gemm f32 K>=2048 edge", "gemm", NPUKB_DT_FLOAT32, -1, -1, 1,
		  1.0, 1.0 + 1.0 / 512, 0, 0 },
		{ "gemm f32 K>=2048 edge+1ulp", "gemm", NPUKB_DT_FLOAT32, -1, -1, 1,
		  1.0, 1.0 + 1.0 / 512, 1, 1 },
		{ "gemm f32 K<2048 rejects the K>=2048 error", "gemm", NPUKB_DT_FLOAT32, -1, -1, 0,
		  1.0, 1.0 + 1.0 / 512, 0, 1 },
		{ "gemm f32 scaled |ref|=8", "gemm", NPUKB_DT_FLOAT32, -1, -1, 0,
		  8.0, 8.0 + 8.0 / 2048, 0, 0 },
		{ "gemm f32 scaled |ref|=8 +1ulp", "gemm", NPUKB_DT_FLOAT32, -1, -1, 0,
		  8.0, 8.0 + 8.0 / 2048, 1, 1 },
		/* ratio's element test is the default one */
		{ "ratio single element within", "ratio", NPUKB_DT_FLOAT32, -1, -1, 0,
		  1000.0, 1000.5, 0, 0 },
	};
	return cr_make_param_array(struct edge_row, rows, sizeof(rows) / sizeof(rows[0]));
}

ParameterizedTest(struct edge_row *row, edges, float_rules)
{
	unsigned char a[8], e[8];
	struct npukb_compare_stats st;
	double actual = step_up(row->dt, row->actual, row->ulps);
	int rc;
	if (row->dt == NPUKB_DT_FLOAT32) {
		put_f32(a, 0, actual);
		put_f32(e, 0, row->expected);
	} else {
		put_f64(a, 0, actual);
		put_f64(e, 0, row->expected);
	}
	rc = cmp1(row->rule, row->atol, row->rtol, row->dt, a, e, 1, row->kge, &st);
	cr_expect_eq(rc, row->want_fail, "%s: expected %s, got %s", row->label,
		     row->want_fail ? "fail" : "pass", rc ? "fail" : "pass");
	cr_expect_eq(st.bad, (size_t)row->want_fail, "%s: bad count", row->label);
	cr_expect_eq(st.checked, 1u);
	cr_expect_eq(st.nan_inf_bad, 0u);
}

/* ---- float16 / bfloat16 edges, as bit patterns ----------------------------- */

struct half_row {
	char label[48];
	char rule[16];
	enum npukb_dtype dt; /* FLOAT16 or BFLOAT16 */
	int kge;
	uint16_t expected, actual;
	int want_fail;
};

ParameterizedTestParameters(edges, half_rules)
{
	static struct half_row rows[] = {
		/* float16 rel-max1: tol 1/512 = 2 ulps at 1.0, 2 ulps at 2.0 (tol*2) */
		{ "f16 rel-max1 1.0 +2ulp", "rel-max1", NPUKB_DT_FLOAT16, 0, 0x3C00, 0x3C02, 0 },
		{ "f16 rel-max1 1.0 +3ulp", "rel-max1", NPUKB_DT_FLOAT16, 0, 0x3C00, 0x3C03, 1 },
		{ "f16 rel-max1 1.0 -2ulp", "rel-max1", NPUKB_DT_FLOAT16, 0, 0x3C00, 0x3BFC, 0 },
		{ "f16 rel-max1 2.0 +2ulp", "rel-max1", NPUKB_DT_FLOAT16, 0, 0x4000, 0x4002, 0 },
		{ "f16 rel-max1 2.0 +3ulp", "rel-max1", NPUKB_DT_FLOAT16, 0, 0x4000, 0x4003, 1 },
		{ "f16 rel-max1 0 vs 1/512", "rel-max1", NPUKB_DT_FLOAT16, 0, 0x0000, 0x1800, 0 },
		{ "f16 rel-max1 0 vs 1/512+", "rel-max1", NPUKB_DT_FLOAT16, 0, 0x0000, 0x1801, 1 },
		{ "f16 rel-max1 -0 vs +0", "rel-max1", NPUKB_DT_FLOAT16, 0, 0x8000, 0x0000, 0 },
		/* float16 gemm: 1/256 (4 ulps at 1.0), 1/128 when K >= 2048 */
		{ "f16 gemm +4ulp", "gemm", NPUKB_DT_FLOAT16, 0, 0x3C00, 0x3C04, 0 },
		{ "f16 gemm +5ulp", "gemm", NPUKB_DT_FLOAT16, 0, 0x3C00, 0x3C05, 1 },
		{ "f16 gemm K>=2048 +8ulp", "gemm", NPUKB_DT_FLOAT16, 1, 0x3C00, 0x3C08, 0 },
		{ "f16 gemm K>=2048 +9ulp", "gemm", NPUKB_DT_FLOAT16, 1, 0x3C00, 0x3C09, 1 },
		/* float16 default: atol 1e-3 is one ulp at 1.0 (9.77e-4): passes */
		{ "f16 default +1ulp", "default", NPUKB_DT_FLOAT16, 0, 0x3C00, 0x3C01, 0 },
		{ "f16 default +2ulp", "default", NPUKB_DT_FLOAT16, 0, 0x3C00, 0x3C02, 1 },
		/* bfloat16 rel-max1: tol 1/256+1/16384 = 65/16384, which bf16 holds */
		{ "bf16 rel-max1 0 vs 65/16384", "rel-max1", NPUKB_DT_BFLOAT16, 0, 0x0000, 0x3B82, 0 },
		{ "bf16 rel-max1 0 vs next", "rel-max1", NPUKB_DT_BFLOAT16, 0, 0x0000, 0x3B83, 1 },
		/* at 1.0 a bf16 ulp (1/128) is already beyond tol */
		{ "bf16 rel-max1 1.0 +1ulp", "rel-max1", NPUKB_DT_BFLOAT16, 0, 0x3F80, 0x3F81, 1 },
		{ "bf16 rel-max1 1.0 equal", "rel-max1", NPUKB_DT_BFLOAT16, 0, 0x3F80, 0x3F80, 0 },
		/* bfloat16 rel-max1-ulp: one ulp passes at the top of a binade
		 * too (1.0 + 1/128; 1.9921875 vs 2.0), two do not */
		{ "bf16 rel-max1-ulp 1.0 +1ulp", "rel-max1-ulp", NPUKB_DT_BFLOAT16, 0, 0x3F80, 0x3F81, 0 },
		{ "bf16 rel-max1-ulp 1.0 +2ulp", "rel-max1-ulp", NPUKB_DT_BFLOAT16, 0, 0x3F80, 0x3F82, 1 },
		{ "bf16 rel-max1-ulp 1.0 -1ulp", "rel-max1-ulp", NPUKB_DT_BFLOAT16, 0, 0x3F80, 0x3F7F, 0 },
		{ "bf16 rel-max1-ulp 1.99 +1ulp", "rel-max1-ulp", NPUKB_DT_BFLOAT16, 0, 0x3FFF, 0x4000, 0 },
		{ "bf16 rel-max1-ulp 1.99 +2ulp", "rel-max1-ulp", NPUKB_DT_BFLOAT16, 0, 0x3FFF, 0x4001, 1 },
		{ "bf16 rel-max1-ulp 0 vs 65/16384", "rel-max1-ulp", NPUKB_DT_BFLOAT16, 0, 0x0000, 0x3B82, 0 },
		{ "bf16 rel-max1-ulp 0 vs next", "rel-max1-ulp", NPUKB_DT_BFLOAT16, 0, 0x0000, 0x3B83, 1 },
		/* float16: tol (2 ulps at 1.0) already covers an ulp: as rel-max1 */
		{ "f16 rel-max1-ulp 1.0 +2ulp", "rel-max1-ulp", NPUKB_DT_FLOAT16, 0, 0x3C00, 0x3C02, 0 },
		{ "f16 rel-max1-ulp 1.0 +3ulp", "rel-max1-ulp", NPUKB_DT_FLOAT16, 0, 0x3C00, 0x3C03, 1 },
		/* bfloat16 gemm: 1/128 = 1 ulp at 1.0; 1/64 when K >= 2048 */
		{ "bf16 gemm +1ulp", "gemm", NPUKB_DT_BFLOAT16, 0, 0x3F80, 0x3F81, 0 },
		{ "bf16 gemm +2ulp", "gemm", NPUKB_DT_BFLOAT16, 0, 0x3F80, 0x3F82, 1 },
		{ "bf16 gemm K>=2048 +2ulp", "gemm", NPUKB_DT_BFLOAT16, 1, 0x3F80, 0x3F82, 0 },
		{ "bf16 gemm K>=2048 +3ulp", "gemm", NPUKB_DT_BFLOAT16, 1, 0x3F80, 0x3F83, 1 },
		/* rel-max1-ulp: rel-max1, and one ulp of the dtype at |ref| passes */
		{ "bf16 rel-max1-ulp 1.0 +1ulp", "rel-max1-ulp", NPUKB_DT_BFLOAT16, 0, 0x3F80, 0x3F81, 0 },
		{ "bf16 rel-max1-ulp 1.0 +2ulp", "rel-max1-ulp", NPUKB_DT_BFLOAT16, 0, 0x3F80, 0x3F82, 1 },
		{ "bf16 rel-max1-ulp -1.9 -1ulp", "rel-max1-ulp", NPUKB_DT_BFLOAT16, 0, 0xBFF3, 0xBFF4, 0 },
		{ "bf16 rel-max1-ulp -1.9 -2ulp", "rel-max1-ulp", NPUKB_DT_BFLOAT16, 0, 0xBFF3, 0xBFF5, 1 },
		{ "bf16 rel-max1-ulp 0 vs 65/16384", "rel-max1-ulp", NPUKB_DT_BFLOAT16, 0, 0x0000, 0x3B82, 0 },
		{ "bf16 rel-max1-ulp 0 vs next", "rel-max1-ulp", NPUKB_DT_BFLOAT16, 0, 0x0000, 0x3B83, 1 },
		{ "f16 rel-max1-ulp 1.0 +2ulp", "rel-max1-ulp", NPUKB_DT_FLOAT16, 0, 0x3C00, 0x3C02, 0 },
		{ "f16 rel-max1-ulp 1.0 +3ulp", "rel-max1-ulp", NPUKB_DT_FLOAT16, 0, 0x3C00, 0x3C03, 1 },
		{ "bf16 rel-max1 1.8828125 -1ulp", "rel-max1", NPUKB_DT_BFLOAT16, 0, 0x3FF1, 0x3FF0, 1 },
		{ "bf16 rel-max1-ulp 1.8828125 -1ulp", "rel-max1-ulp", NPUKB_DT_BFLOAT16, 0, 0x3FF1, 0x3FF0, 0 },
		{ "bf16 rel-max1-ulp 1.8828125 -2ulp", "rel-max1-ulp", NPUKB_DT_BFLOAT16, 0, 0x3FF1, 0x3FEF, 1 },
		{ "f16 rel-max1-ulp 1.0 vs nan", "rel-max1-ulp", NPUKB_DT_FLOAT16, 0, 0x3C00, 0x7E00, 1 },
		/* NaN payloads do not matter; infinities must match in sign */
		{ "f16 nan vs nan (other payload)", "default", NPUKB_DT_FLOAT16, 0, 0x7E00, 0x7E01, 0 },
		{ "f16 inf vs inf", "default", NPUKB_DT_FLOAT16, 0, 0x7C00, 0x7C00, 0 },
		{ "f16 inf vs -inf", "default", NPUKB_DT_FLOAT16, 0, 0x7C00, 0xFC00, 1 },
		{ "f16 1.0 vs nan", "rel-max1", NPUKB_DT_FLOAT16, 0, 0x3C00, 0x7E00, 1 },
		{ "bf16 1.0 vs inf", "gemm", NPUKB_DT_BFLOAT16, 0, 0x3F80, 0x7F80, 1 },
	};
	return cr_make_param_array(struct half_row, rows, sizeof(rows) / sizeof(rows[0]));
}

ParameterizedTest(struct half_row *row, edges, half_rules)
{
	unsigned char a[2], e[2];
	struct npukb_compare_stats st;
	int rc;
	put_u16(a, 0, row->actual);
	put_u16(e, 0, row->expected);
	rc = cmp1(row->rule, -1, -1, row->dt, a, e, 1, row->kge, &st);
	cr_expect_eq(rc, row->want_fail, "%s: expected %s, got %s", row->label,
		     row->want_fail ? "fail" : "pass", rc ? "fail" : "pass");
}

/* ---- NaN / Inf, the same under every rule ------------------------------------ */

struct special_row {
	char label[48];
	double expected, actual;
	int want_fail;
	int nan_inf;  /* expected nan_inf_bad */
	int special;  /* expected special_bad */
};

ParameterizedTestParameters(nonfinite, every_rule)
{
	static struct special_row rows[] = {
		{ "nan vs nan", NAN, NAN, 0, 0, 0 },
		{ "nan vs -nan", NAN, -NAN, 0, 0, 0 },
		{ "nan vs number", NAN, 1.0, 1, 0, 1 },
		{ "nan vs inf", NAN, INFINITY, 1, 0, 1 },
		{ "number vs nan", 1.0, NAN, 1, 1, 0 },
		{ "zero vs nan", 0.0, NAN, 1, 1, 0 },
		{ "number vs inf", 1.0, INFINITY, 1, 1, 0 },
		{ "number vs -inf", -1.0, -INFINITY, 1, 1, 0 },
		{ "inf vs inf", INFINITY, INFINITY, 0, 0, 0 },
		{ "-inf vs -inf", -INFINITY, -INFINITY, 0, 0, 0 },
		{ "inf vs -inf", INFINITY, -INFINITY, 1, 0, 1 },
		{ "inf vs huge", INFINITY, 3.0e38, 1, 0, 1 },
		{ "inf vs nan", INFINITY, NAN, 1, 0, 1 },
	};
	return cr_make_param_array(struct special_row, rows, sizeof(rows) / sizeof(rows[0]));
}

ParameterizedTest(struct special_row *row, nonfinite, every_rule)
{
	static const char *const rules[] = { "default", "rel-max1", "gemm", "ratio" };
	size_t r;
	for (r = 0; r < 4; r++) {
		/* 2000 elements so that ratio's budget (2) would hide one
		 * ordinary bad element; a non-finite one must still fail. */
		enum { N = 2000 };
		float *a = calloc(N, sizeof(float)), *e = calloc(N, sizeof(float));
		struct npukb_compare_stats st;
		int rc;
		cr_assert(a && e);
		a[1234] = (float)row->actual;
		e[1234] = (float)row->expected;
		rc = cmp1(rules[r], -1, -1, NPUKB_DT_FLOAT32, a, e, N, 0, &st);
		cr_expect_eq(rc, row->want_fail, "%s under %s", row->label, rules[r]);
		cr_expect_eq(st.bad, (size_t)row->want_fail, "%s under %s: bad", row->label,
			     rules[r]);
		cr_expect_eq(st.nan_inf_bad, (size_t)row->nan_inf, "%s under %s: nan_inf_bad",
			     row->label, rules[r]);
		cr_expect_eq(st.special_bad, (size_t)row->special, "%s under %s: special_bad",
			     row->label, rules[r]);
		if (row->want_fail) {
			cr_expect(st.has_bad);
			cr_expect_eq(st.first_bad, 1234u);
			if (row->nan_inf)
				cr_expect_eq(st.first_nan_inf, 1234u);
			cr_expect_eq(st.samples[0].nonfinite, row->nan_inf);
		}
		/* non-finite pairs never pollute the error maxima */
		cr_expect(isfinite(st.max_abs) && st.max_abs == 0.0, "%s: max_abs %g",
			  row->label, st.max_abs);
		free(a);
		free(e);
	}
}

/* ---- exact dtypes ------------------------------------------------------------- */

Test(exact, bool_equal_passes)
{
	uint8_t e[] = { 0, 1, 1, 0 }, a[] = { 0, 1, 1, 0 };
	struct npukb_compare_stats st;
	cr_expect_eq(cmp1("default", -1, -1, NPUKB_DT_BOOL, a, e, 4, 0, &st), 0);
	cr_expect(st.exact);
}

Test(exact, bool_flip_fails_with_index)
{
	uint8_t e[] = { 0, 1, 1, 0 }, a[] = { 0, 1, 0, 0 };
	struct npukb_compare_stats st;
	cr_expect_eq(cmp1("default", -1, -1, NPUKB_DT_BOOL, a, e, 4, 0, &st), 1);
	cr_expect_eq(st.bad, 1u);
	cr_expect_eq(st.first_bad, 2u);
	cr_expect_eq(st.samples[0].expected, 1.0);
	cr_expect_eq(st.samples[0].actual, 0.0);
}

Test(exact, bool_true_must_be_one)
{
	uint8_t e[] = { 1 }, a[] = { 2 };
	struct npukb_compare_stats st;
	cr_expect_eq(cmp1("default", -1, -1, NPUKB_DT_BOOL, a, e, 1, 0, &st), 1);
}

Test(exact, int32_off_by_one_fails_despite_tiny_relative_error)
{
	int32_t e[] = { 100000000, 7 }, a[] = { 100000001, 7 };
	struct npukb_compare_stats st;
	cr_expect_eq(cmp1("default", -1, -1, NPUKB_DT_INT32, a, e, 2, 0, &st), 1);
	cr_expect_eq(st.first_bad, 0u);
	cr_expect_eq(st.max_abs, 1.0);
}

Test(exact, int64_beyond_double_precision)
{
	/* 2^53+1 and 2^53 are the same double; exact compare must see them differ */
	int64_t e[] = { (INT64_C(1) << 53) + 1 }, a[] = { INT64_C(1) << 53 };
	struct npukb_compare_stats st;
	cr_expect_eq(cmp1("rel-max1", -1, -1, NPUKB_DT_INT64, a, e, 1, 0, &st), 1);
}

Test(exact, int8_sign_and_uint8)
{
	int8_t e8[] = { -1, -128 }, a8[] = { -1, -128 };
	uint8_t eu[] = { 255, 0 }, au[] = { 254, 0 };
	int16_t e16[] = { -300 }, a16[] = { -300 };
	struct npukb_compare_stats st;
	cr_expect_eq(cmp1("default", -1, -1, NPUKB_DT_INT8, a8, e8, 2, 0, &st), 0);
	cr_expect_eq(cmp1("default", -1, -1, NPUKB_DT_UINT8, au, eu, 2, 0, &st), 1);
	cr_expect_eq(st.samples[0].expected, 255.0);
	cr_expect_eq(st.samples[0].actual, 254.0);
	cr_expect_eq(cmp1("gemm", -1, -1, NPUKB_DT_INT16, a16, e16, 1, 0, &st), 0);
}

Test(exact, integers_get_no_ratio_budget)
{
	enum { N = 10000 };
	int32_t *a = calloc(N, 4), *e = calloc(N, 4);
	struct npukb_compare_stats st;
	cr_assert(a && e);
	a[5] = 1;
	cr_expect_eq(cmp1("ratio", -1, -1, NPUKB_DT_INT32, a, e, N, 0, &st), 1);
	cr_expect_eq(st.allowed_bad, 0u);
	free(a);
	free(e);
}

/* ---- quant-int8: one int8 code off on at most 0.1% of the elements ---------- */

struct quant_row {
	size_t n, none_off; /* elements, codes one off */
	int two_off;        /* one further code two off */
	int want_fail;
};

ParameterizedTestParameters(quant, budget)
{
	static struct quant_row rows[] = {
		{ 1000, 0, 0, 0 }, { 1000, 1, 0, 0 }, { 1000, 2, 0, 1 },
		{ 10000, 10, 0, 0 }, { 10000, 11, 0, 1 },
		{ 999, 1, 0, 1 },           /* 0.1% of 999 is < 1 element */
		{ 10000, 0, 1, 1 },         /* two off fails at once */
		{ 10000, 5, 1, 1 },
	};
	return cr_make_param_array(struct quant_row, rows, sizeof(rows) / sizeof(rows[0]));
}

ParameterizedTest(struct quant_row *row, quant, budget)
{
	int8_t *a = malloc(row->n), *e = malloc(row->n);
	struct npukb_compare_stats st;
	size_t i, step = row->n / (row->none_off + 2);
	cr_assert(a && e);
	for (i = 0; i < row->n; i++)
		a[i] = e[i] = (int8_t)((int)(i % 256) - 128);
	/* one off in both directions, saturated ends included */
	for (i = 0; i < row->none_off; i++) {
		size_t k = (i + 1) * step;
		if (i % 2 && e[k] < 127)
			a[k] = (int8_t)(e[k] + 1);
		else
			a[k] = (int8_t)(e[k] > -128 ? e[k] - 1 : e[k] + 1);
	}
	if (row->two_off)
		a[row->n - 1] = (int8_t)(e[row->n - 1] > 0 ? e[row->n - 1] - 2 : e[row->n - 1] + 2);
	cr_expect_eq(cmp1("quant-int8", -1, -1, NPUKB_DT_INT8, a, e, row->n, 0, &st),
		     row->want_fail, "n=%zu one-off=%zu two-off=%d", row->n, row->none_off,
		     row->two_off);
	cr_expect_eq(st.off_by_one, row->none_off);
	cr_expect_eq(st.bad, row->none_off + (size_t)row->two_off);
	cr_expect_eq(st.allowed_bad, row->n / 1000);
	/* the same codes under any other rule are exact */
	cr_expect_eq(cmp1("rel-max1-ulp", -1, -1, NPUKB_DT_INT8, a, e, row->n, 0, &st),
		     row->none_off + (size_t)row->two_off > 0);
	free(a);
	free(e);
}

Test(quant, other_integers_stay_exact)
{
	enum { N = 10000 };
	int32_t *a = calloc(N, 4), *e = calloc(N, 4);
	struct npukb_compare_stats st;
	cr_assert(a && e);
	a[5] = 1;
	cr_expect_eq(cmp1("quant-int8", -1, -1, NPUKB_DT_INT32, a, e, N, 0, &st), 1);
	cr_expect_eq(st.off_by_one, 0u);
	free(a);
	free(e);
}

Test(quant, float_outputs_as_rel_max1_ulp)
{
	float e[] = { 1.0f, 1.0f }, a[] = { 1.0f + 1.0f / 2048, 1.0f + 1.0f / 1024 };
	uint16_t he[] = { 0x3F80 }, ha[] = { 0x3F81 }, hb[] = { 0x3F82 };
	struct npukb_compare_stats st;
	cr_expect_eq(cmp1("quant-int8", -1, -1, NPUKB_DT_FLOAT32, a, e, 1, 0, &st), 0);
	cr_expect_eq(cmp1("quant-int8", -1, -1, NPUKB_DT_FLOAT32, a + 1, e + 1, 1, 0, &st), 1);
	cr_expect_eq(cmp1("quant-int8", -1, -1, NPUKB_DT_BFLOAT16, ha, he, 1, 0, &st), 0);
	cr_expect_eq(cmp1("quant-int8", -1, -1, NPUKB_DT_BFLOAT16, hb, he, 1, 0, &st), 1);
}

/* ---- the ratio rule's 0.1% budget ------------------------------------------- */

struct ratio_row {
	size_t n, nbad;
	int want_fail;
};

ParameterizedTestParameters(ratio, budget)
{
	static struct ratio_row rows[] = {
		{ 1000, 0, 0 }, { 1000, 1, 0 }, { 1000, 2, 1 },
		{ 10000, 10, 0 }, { 10000, 11, 1 },
		{ 999, 0, 0 }, { 999, 1, 1 },         /* 0.1% of 999 is < 1 element */
		{ 3145728, 3145, 0 }, { 3145728, 3146, 1 },
	};
	return cr_make_param_array(struct ratio_row, rows, sizeof(rows) / sizeof(rows[0]));
}

ParameterizedTest(struct ratio_row *row, ratio, budget, .timeout = 30)
{
	float *a = malloc(row->n * sizeof(float)), *e = malloc(row->n * sizeof(float));
	struct npukb_compare_stats st;
	size_t i;
	cr_assert(a && e);
	for (i = 0; i < row->n; i++)
		a[i] = e[i] = 1.0f;
	/* spread the bad elements out; each is off by 1 (abs and rel 1) */
	for (i = 0; i < row->nbad; i++)
		a[i * (row->n / (row->nbad + 1))] = 2.0f;
	cr_expect_eq(cmp1("ratio", -1, -1, NPUKB_DT_FLOAT32, a, e, row->n, 0, &st),
		     row->want_fail, "n=%zu bad=%zu", row->n, row->nbad);
	cr_expect_eq(st.bad, row->nbad);
	cr_expect_eq(st.allowed_bad, row->n / 1000);
	/* the same data under default fails as soon as one element is bad */
	cr_expect_eq(cmp1("default", -1, -1, NPUKB_DT_FLOAT32, a, e, row->n, 0, &st),
		     row->nbad > 0);
	free(a);
	free(e);
}

Test(ratio, small_errors_do_not_count)
{
	enum { N = 1000 };
	float a[N], e[N];
	struct npukb_compare_stats st;
	size_t i;
	for (i = 0; i < N; i++) {
		e[i] = 1000.0f;
		a[i] = 1000.5f; /* abs 0.5 > 1e-3 but rel 5e-4 < 1e-3 */
	}
	cr_expect_eq(cmp1("ratio", -1, -1, NPUKB_DT_FLOAT32, a, e, N, 0, &st), 0);
	cr_expect_eq(st.bad, 0u);
}

/* ---- statistics and samples --------------------------------------------------- */

Test(stats, first_bad_count_and_maxima)
{
	enum { N = 100 };
	float a[N], e[N];
	struct npukb_compare_stats st;
	size_t i;
	for (i = 0; i < N; i++)
		a[i] = e[i] = (float)i;
	a[17] = 17.5f;   /* abs 0.5 */
	a[40] = 44.0f;   /* abs 4, the largest */
	a[99] = 98.0f;   /* abs 1 */
	e[3] = 0.0f;
	a[3] = 0.0005f;  /* within atol: not bad, but the largest relative error */
	cr_expect_eq(cmp1("default", -1, -1, NPUKB_DT_FLOAT32, a, e, N, 0, &st), 1);
	cr_expect_eq(st.checked, 100u);
	cr_expect_eq(st.bad, 3u);
	cr_expect(st.has_bad);
	cr_expect_eq(st.first_bad, 17u);
	cr_expect_eq(st.nsamples, 3u);
	cr_expect_eq(st.samples[0].index, 17u);
	cr_expect_eq(st.samples[0].expected, 17.0);
	cr_expect_eq(st.samples[0].actual, 17.5);
	cr_expect_eq(st.samples[0].abs_err, 0.5);
	cr_expect_eq(st.samples[1].index, 40u);
	cr_expect_eq(st.samples[2].index, 99u);
	cr_expect_eq(st.max_abs, 4.0);
	cr_expect_eq(st.max_abs_index, 40u);
	cr_expect_eq(st.max_rel_index, 3u);
	cr_expect_float_eq(st.max_rel, (double)0.0005f / 1e-7, 1e-6);
	cr_expect_str_eq(st.rule_name, "default");
	cr_expect_eq(st.atol, 1e-3);
	cr_expect_eq(st.rtol, 1e-3);
}

Test(stats, at_most_ten_samples_in_index_order)
{
	enum { N = 1000 };
	float a[N], e[N];
	struct npukb_compare_stats st;
	size_t i;
	for (i = 0; i < N; i++) {
		e[i] = 0.0f;
		a[i] = (i % 7 == 0) ? 1.0f : 0.0f;
	}
	cr_expect_eq(cmp1("rel-max1", -1, -1, NPUKB_DT_FLOAT32, a, e, N, 0, &st), 1);
	cr_expect_eq(st.bad, 143u); /* 0, 7, ..., 994 */
	cr_expect_eq(st.nsamples, NPUKB_COMPARE_MAX_SAMPLES);
	for (i = 0; i < NPUKB_COMPARE_MAX_SAMPLES; i++)
		cr_expect_eq(st.samples[i].index, 7 * i);
}

Test(stats, passing_tensor_reports_no_bad)
{
	float a[] = { 1.0f, 2.0f }, e[] = { 1.0f, 2.0f };
	struct npukb_compare_stats st;
	cr_expect_eq(cmp1("gemm", -1, -1, NPUKB_DT_FLOAT32, a, e, 2, 0, &st), 0);
	cr_expect_not(st.has_bad);
	cr_expect_eq(st.nsamples, 0u);
	cr_expect_eq(st.max_abs, 0.0);
}

Test(stats, empty_tensor_passes)
{
	struct npukb_compare_stats st;
	cr_expect_eq(cmp1("default", -1, -1, NPUKB_DT_FLOAT32, NULL, NULL, 0, 0, &st), 0);
	cr_expect_eq(st.checked, 0u);
}

/* ---- complex64 ------------------------------------------------------------------ */

Test(complex, both_parts_are_compared)
{
	float e[] = { 1.0f, 2.0f, 3.0f, 4.0f }, a[] = { 1.0f, 2.0f, 3.0f, 4.5f };
	struct npukb_compare_stats st;
	cr_expect_eq(cmp1("default", -1, -1, NPUKB_DT_COMPLEX64, a, e, 2, 0, &st), 1);
	cr_expect_eq(st.bad, 1u);
	cr_expect_eq(st.first_bad, 1u);
	cr_expect_eq(st.samples[0].expected, 3.0);
	cr_expect_eq(st.samples[0].expected_im, 4.0);
	cr_expect_eq(st.samples[0].actual_im, 4.5);
	cr_expect_eq(st.samples[0].abs_err, 0.5);
	a[3] = 4.0f;
	cr_expect_eq(cmp1("default", -1, -1, NPUKB_DT_COMPLEX64, a, e, 2, 0, &st), 0);
}

Test(complex, nan_in_imaginary_part)
{
	float e[] = { 1.0f, 2.0f }, a[] = { 1.0f, NAN };
	struct npukb_compare_stats st;
	cr_expect_eq(cmp1("rel-max1", -1, -1, NPUKB_DT_COMPLEX64, a, e, 1, 0, &st), 1);
	cr_expect_eq(st.nan_inf_bad, 1u);
}

/* ---- errors ----------------------------------------------------------------------- */

Test(errors, unknown_rule)
{
	float a[] = { 1.0f }, e[] = { 1.0f };
	struct npukb_compare_stats st;
	char err[128];
	int rc = npukb_compare_tensors("relmax", -1, -1, NPUKB_DT_FLOAT32, a, e, 1, 0, &st,
				       err, sizeof(err));
	cr_expect_eq(rc, -EINVAL);
	cr_expect(strstr(err, "'relmax'") != NULL, "err: %s", err);
}

Test(errors, null_and_empty_rule_mean_default)
{
	float a[] = { 1.0f }, e[] = { 1.5f };
	struct npukb_compare_stats st;
	cr_expect_eq(cmp1(NULL, -1, -1, NPUKB_DT_FLOAT32, a, e, 1, 0, &st), 1);
	cr_expect_str_eq(st.rule_name, "default");
	cr_expect_eq(cmp1("", -1, -1, NPUKB_DT_FLOAT32, a, e, 1, 0, &st), 1);
	cr_expect_eq(st.rule, NPUKB_RULE_DEFAULT);
}

Test(errors, invalid_dtype_and_missing_buffer)
{
	float a[] = { 1.0f };
	struct npukb_compare_stats st;
	char err[128];
	cr_expect_eq(npukb_compare_tensors("default", -1, -1, NPUKB_DT_INVALID, a, a, 1, 0,
					   &st, err, sizeof(err)), -EINVAL);
	cr_expect_eq(npukb_compare_tensors("default", -1, -1, NPUKB_DT_FLOAT32, a, NULL, 1, 0,
					   &st, err, sizeof(err)), -EINVAL);
	cr_expect(strstr(err, "expected") != NULL, "err: %s", err);
}

/* ---- formatting -------------------------------------------------------------------- */

Test(format, tolerance_words)
{
	float a[] = { 1.0f }, e[] = { 1.0f };
	uint16_t h[] = { 0x3C00 };
	int32_t i32[] = { 1 };
	struct npukb_compare_stats st;
	char buf[64];
	cmp1("default", -1, -1, NPUKB_DT_FLOAT32, a, e, 1, 0, &st);
	cr_expect_str_eq(npukb_compare_describe_tolerance(&st, buf, sizeof(buf)),
			 "atol=0.001 rtol=0.001");
	cmp1("ratio", 0.5, 0.25, NPUKB_DT_FLOAT32, a, e, 1, 0, &st);
	cr_expect_str_eq(npukb_compare_describe_tolerance(&st, buf, sizeof(buf)),
			 "atol=0.5 rtol=0.25");
	cmp1("rel-max1", -1, -1, NPUKB_DT_FLOAT16, h, h, 1, 0, &st);
	cr_expect_str_eq(npukb_compare_describe_tolerance(&st, buf, sizeof(buf)),
			 "tol=0.001953125*max(1,|ref|)");
	cmp1("rel-max1-ulp", -1, -1, NPUKB_DT_FLOAT16, h, h, 1, 0, &st);
	cr_expect_str_eq(npukb_compare_describe_tolerance(&st, buf, sizeof(buf)),
			 "tol=0.001953125*max(1,|ref|) or one ulp");
	cmp1("default", -1, -1, NPUKB_DT_INT32, i32, i32, 1, 0, &st);
	cr_expect_str_eq(npukb_compare_describe_tolerance(&st, buf, sizeof(buf)), "exact");
	{
		int8_t q[2000] = { 0 };
		cmp1("quant-int8", -1, -1, NPUKB_DT_INT8, q, q, 2000, 0, &st);
		cr_expect_str_eq(npukb_compare_describe_tolerance(&st, buf, sizeof(buf)),
				 "int8 codes one off on at most 2 elements");
		cmp1("quant-int8", -1, -1, NPUKB_DT_INT32, i32, i32, 1, 0, &st);
		cr_expect_str_eq(npukb_compare_describe_tolerance(&st, buf, sizeof(buf)), "exact");
	}
}

struct fmt_row {
	enum npukb_dtype dt;
	double v;
	char want[32];
};

ParameterizedTestParameters(format, values)
{
	static struct fmt_row rows[] = {
		{ NPUKB_DT_FLOAT32, 1.5, "1.5" },
		{ NPUKB_DT_FLOAT32, 2.0, "2" },
		{ NPUKB_DT_FLOAT32, 10.0, "10" },
		{ NPUKB_DT_FLOAT16, 2048.0, "2048" },
		{ NPUKB_DT_FLOAT32, 123456.0, "123456" },
		{ NPUKB_DT_FLOAT32, 1e20, "1e+20" },
		{ NPUKB_DT_FLOAT32, (double)1.0e-6f, "1e-06" },
		{ NPUKB_DT_FLOAT32, -0.0, "-0" },
		{ NPUKB_DT_FLOAT32, (double)0.1f, "0.1" },
		{ NPUKB_DT_FLOAT32, (double)(1.0f + 0x1p-23f), "1.0000001" },
		{ NPUKB_DT_FLOAT64, 0.1, "0.1" },
		{ NPUKB_DT_FLOAT64, 1.0 / 3, "0.3333333333333333" },
		{ NPUKB_DT_FLOAT16, 1.0 + 1.0 / 1024, "1.001" },
		{ NPUKB_DT_BFLOAT16, 1.0 + 1.0 / 128, "1.01" },
		{ NPUKB_DT_FLOAT32, NAN, "nan" },
		{ NPUKB_DT_FLOAT32, -INFINITY, "-inf" },
		{ NPUKB_DT_INT32, -7.0, "-7" },
		{ NPUKB_DT_BOOL, 1.0, "1" },
	};
	return cr_make_param_array(struct fmt_row, rows, sizeof(rows) / sizeof(rows[0]));
}

ParameterizedTest(struct fmt_row *row, format, values)
{
	char buf[64];
	cr_expect_str_eq(npukb_compare_format_value(row->dt, row->v, buf, sizeof(buf)),
			 row->want);
}

Test(stats, first_nan_inf_beyond_the_samples)
{
	enum { N = 100 };
	float a[N], e[N];
	struct npukb_compare_stats st;
	size_t i;
	for (i = 0; i < N; i++) {
		e[i] = 1.0f;
		a[i] = i < 20 ? 3.0f : 1.0f; /* 20 ordinary bad elements first */
	}
	a[50] = INFINITY;
	cr_expect_eq(cmp1("default", -1, -1, NPUKB_DT_FLOAT32, a, e, N, 0, &st), 1);
	cr_expect_eq(st.bad, 21u);
	cr_expect_eq(st.nan_inf_bad, 1u);
	cr_expect_eq(st.first_bad, 0u);
	cr_expect_eq(st.first_nan_inf, 50u);
	cr_expect_eq(st.max_abs, 2.0);
}

Test(format, magnitudes)
{
	char buf[32];
	cr_expect_str_eq(npukb_compare_format_g(0.5, 4, buf, sizeof(buf)), "0.5");
	cr_expect_str_eq(npukb_compare_format_g(1.25e-5, 4, buf, sizeof(buf)), "1.25e-05");
	cr_expect_str_eq(npukb_compare_format_g(INFINITY, 4, buf, sizeof(buf)), "inf");
}

Test(format, decimal_point_ignores_locale)
{
	char buf[64];
	if (!setlocale(LC_NUMERIC, "de_DE.UTF-8") && !setlocale(LC_NUMERIC, "fr_FR.UTF-8"))
		cr_skip_test("no locale with a decimal comma installed");
	cr_expect_str_eq(npukb_compare_format_value(NPUKB_DT_FLOAT32, 1.5, buf, sizeof(buf)),
			 "1.5");
	cr_expect_str_eq(npukb_compare_format_g(0.25, 4, buf, sizeof(buf)), "0.25");
	setlocale(LC_NUMERIC, "C");
}

/* A tensor large enough to be compared across threads gives the stats of
 * one thread, bit for bit: counts, firsts, maxima at their first index,
 * samples in index order (issue 16). Errors sit in every part, ties of the
 * maximum in two parts, a NaN in a late part. */
static void compare_with_threads(unsigned threads, const float *act, const float *exp_,
				 size_t n, const char *rule, struct npukb_compare_stats *st)
{
	char err[256];
	npukb_set_data_threads(threads);
	cr_assert_geq(npukb_compare_tensors(rule, -1, -1, NPUKB_DT_FLOAT32, act, exp_, n, 0, st,
					    err, sizeof(err)),
		      0, "%s", err);
	npukb_set_data_threads(0);
}

Test(stats, threads_give_the_one_thread_result)
{
	const size_t n = 5u << 20;
	float *exp_ = malloc(n * sizeof(float)), *act = malloc(n * sizeof(float));
	static const char *const rules[] = { "default", "rel-max1", "ratio" };
	size_t i, r;
	cr_assert(exp_ && act);
	for (i = 0; i < n; i++)
		exp_[i] = act[i] = (float)((double)(i % 1000) / 7.0 - 60.0);
	for (i = 3; i < n; i += n / 23)
		act[i] += 0.5f; /* bad in every part */
	act[n / 3] += 4.0f;      /* the maximum, tied ... */
	act[2 * n / 3] += 4.0f;  /* ... later: the first index must win */
	act[n - 5] = NAN;
	for (r = 0; r < sizeof(rules) / sizeof(rules[0]); r++) {
		struct npukb_compare_stats one, many;
		compare_with_threads(1, act, exp_, n, rules[r], &one);
		compare_with_threads(4, act, exp_, n, rules[r], &many);
		cr_assert_gt(one.bad, 20, "%s", rules[r]);
		cr_assert_eq(one.max_abs_index, n / 3, "%s", rules[r]);
		cr_assert_eq(one.nan_inf_bad, 1);
		cr_assert_eq(memcmp(&one, &many, sizeof(one)), 0,
			     "%s: bad %zu/%zu first %zu/%zu max_abs %g@%zu / %g@%zu", rules[r], one.bad,
			     many.bad, one.first_bad, many.first_bad, one.max_abs, one.max_abs_index,
			     many.max_abs, many.max_abs_index);
	}
	free(exp_);
	free(act);
}

/* Bad elements counted by position: bin b holds indices [b*n/64, (b+1)*n/64). */
Test(stats, bad_elements_by_position)
{
	enum { N = 640 };
	float exp_[N], act[N];
	static const size_t bad[] = { 0, 9, 10, 300, 301, 302, 303, 304, 305, 306, 307, 308, 309, 639 };
	struct npukb_compare_stats st;
	char err[256];
	size_t i, sum = 0;
	for (i = 0; i < N; i++)
		exp_[i] = act[i] = (float)i;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		act[bad[i]] += 1.0f;
	cr_assert_eq(npukb_compare_tensors("default", -1, -1, NPUKB_DT_FLOAT32, act, exp_, N, 0,
					   &st, err, sizeof(err)),
		     1, "%s", err);
	cr_assert_eq(st.bad, 14);
	cr_assert_eq(st.bad_bins[0], 2);  /* 0 and 9 */
	cr_assert_eq(st.bad_bins[1], 1);  /* 10 */
	cr_assert_eq(st.bad_bins[30], 10); /* 300 .. 309 */
	cr_assert_eq(st.bad_bins[63], 1); /* 639 */
	for (i = 0; i < NPUKB_COMPARE_BINS; i++)
		sum += st.bad_bins[i];
	cr_assert_eq(sum, st.bad, "the bins hold %zu of %zu bad elements", sum, st.bad);
}

/* Across threads: the last index of every bin lands in that bin. */
Test(stats, bins_across_threads)
{
	const size_t n = 5u << 20, per = n / NPUKB_COMPARE_BINS;
	float *exp_ = calloc(n, sizeof(float)), *act = calloc(n, sizeof(float));
	struct npukb_compare_stats st;
	size_t b;
	cr_assert(exp_ && act);
	for (b = 1; b <= NPUKB_COMPARE_BINS; b++)
		act[b * per - 1] = 1.0f;
	act[17 * per] = act[17 * per + 1] = 1.0f;
	compare_with_threads(4, act, exp_, n, "default", &st);
	for (b = 0; b < NPUKB_COMPARE_BINS; b++)
		cr_assert_eq(st.bad_bins[b], b == 17 ? 3u : 1u, "bin %zu: %zu", b, st.bad_bins[b]);
	free(exp_);
	free(act);
}
