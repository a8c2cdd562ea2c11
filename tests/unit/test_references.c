/* test_references.c - the golden implementations (reference/), checked on
 * small hand-computed inputs with their edge cases (NaN, infinities, signed
 * zeros, integer wrap-around, ties, 1-based BLAS indices), and a smoke run
 * of every Level 1 manifest: inputs generated and the reference computed
 * for every case of moderate size. */
#include <criterion/criterion.h>

#include <npukb/case_data.h>
#include "data_threads.h"
#include "manifest.h"
#include "reference.h"
#include "ref_call.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- building calls (ref_call.h) ---------------------------------------- */

/* Runs reference `name` on in/out, with attributes n and incx when n is given. */
static int run_ref(const char *name, const struct npukb_ref_tensor *in, size_t nin,
		   struct npukb_ref_tensor *out, const char *n, const char *incx, char *err)
{
	const char *kv[] = { "n", n, "incx", incx ? incx : "1", NULL };
	return ref_run(name, in, nin, out, 1, n ? kv : NULL, err);
}

/* Runs reference `name` with one attribute name=value (or none). */
static int run_ref_attr(const char *name, const struct npukb_ref_tensor *in, size_t nin,
			struct npukb_ref_tensor *out, const char *attr, const char *value, char *err)
{
	const char *kv[] = { attr, value, NULL };
	return ref_run(name, in, nin, out, 1, attr ? kv : NULL, err);
}

static void f16_fill(uint16_t *dst, const double *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		dst[i] = npukb_f64_to_f16(v[i]);
}

/* ---- registry ------------------------------------------------------------ */

Test(references, registry)
{
	static const char *const names[] = {
		"add", "equal", "less", "less_equal", "is_finite", "is_inf", "abs", "neg",
		"sqrt", "rsqrt", "sin", "cos", "tanh", "spence", "cast",
		"strideslice_neg_concat", "addcdiv", "addcmul", "lerp", "clip_by_value",
		"muls", "complex_mul", "sasum", "snrm2", "iamax", "iamin", "ccopy",
		"arange", "eye", "fill", "sscal", "non_finite_check", "gather_v3",
		"scatter_list", "matmul",
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct npukb_reference *r = npukb_reference_find(names[i]);
		cr_assert_not_null(r, "%s", names[i]);
		cr_expect_str_eq(r->name, names[i]);
		cr_expect_eq(r->nout, 1);
	}
	cr_expect_eq(npukb_reference_find("addcdiv")->nin, 4);
	cr_expect_eq(npukb_reference_find("clip_by_value")->nin, 3);
	cr_expect_null(npukb_reference_find("nosuch"));
}

/* ---- comparisons --------------------------------------------------------- */

Test(references, equal_nan_and_signed_zero)
{
	float x[] = { 1.0f, NAN, 0.0f, 2.0f }, y[] = { 1.0f, NAN, -0.0f, 3.0f };
	uint8_t z[4];
	struct npukb_ref_tensor in[2] = { ref_tensor1("x1", NPUKB_DT_FLOAT32, 4, x),
					  ref_tensor1("x2", NPUKB_DT_FLOAT32, 4, y) };
	struct npukb_ref_tensor out = ref_tensor1("y", NPUKB_DT_BOOL, 4, z);
	char err[ERRLEN];
	cr_assert_eq(run_ref("equal", in, 2, &out, NULL, NULL, err), 0, "%s", err);
	cr_expect_eq(z[0], 1);
	cr_expect_eq(z[1], 0, "NaN == NaN is false");
	cr_expect_eq(z[2], 1, "+0 == -0");
	cr_expect_eq(z[3], 0);
}

Test(references, less_int64_beyond_double_precision)
{
	/* 2^60 and 2^60 + 1 are the same double: the comparison must be exact. */
	int64_t x[] = { (INT64_C(1) << 60), -5, 7 }, y[] = { (INT64_C(1) << 60) + 1, -5, 6 };
	uint8_t lt[3], le[3];
	struct npukb_ref_tensor in[2] = { ref_tensor1("x1", NPUKB_DT_INT64, 3, x),
					  ref_tensor1("x2", NPUKB_DT_INT64, 3, y) };
	struct npukb_ref_tensor o1 = ref_tensor1("y", NPUKB_DT_BOOL, 3, lt), o2 = ref_tensor1("y", NPUKB_DT_BOOL, 3, le);
	char err[ERRLEN];
	cr_assert_eq(run_ref("less", in, 2, &o1, NULL, NULL, err), 0, "%s", err);
	cr_assert_eq(run_ref("less_equal", in, 2, &o2, NULL, NULL, err), 0, "%s", err);
	cr_expect_eq(lt[0], 1);
	cr_expect_eq(lt[1], 0, "tie: < is false");
	cr_expect_eq(le[1], 1, "tie: <= is true");
	cr_expect_eq(lt[2], 0);
	cr_expect_eq(le[2], 0);
}

Test(references, compare_rejects_mismatched_sizes)
{
	float x[2] = { 0 }, y[3] = { 0 };
	uint8_t z[2];
	struct npukb_ref_tensor in[2] = { ref_tensor1("x1", NPUKB_DT_FLOAT32, 2, x),
					  ref_tensor1("x2", NPUKB_DT_FLOAT32, 3, y) };
	struct npukb_ref_tensor out = ref_tensor1("y", NPUKB_DT_BOOL, 2, z);
	char err[ERRLEN];
	cr_expect_eq(run_ref("less", in, 2, &out, NULL, NULL, err), -EINVAL);
	cr_expect(strstr(err, "x2 has 3 elements") != NULL, "%s", err);
}

/* ---- unary --------------------------------------------------------------- */

Test(references, is_finite_and_is_inf)
{
	float x[] = { 1.5f, INFINITY, -INFINITY, NAN, -0.0f, 1e-40f };
	float fin[6], inf[6];
	struct npukb_ref_tensor in = ref_tensor1("x", NPUKB_DT_FLOAT32, 6, x);
	struct npukb_ref_tensor o1 = ref_tensor1("y", NPUKB_DT_FLOAT32, 6, fin), o2 = ref_tensor1("y", NPUKB_DT_FLOAT32, 6, inf);
	const float want_fin[] = { 1, 0, 0, 0, 1, 1 }, want_inf[] = { 0, 1, 1, 0, 0, 0 };
	char err[ERRLEN];
	cr_assert_eq(run_ref("is_finite", &in, 1, &o1, NULL, NULL, err), 0, "%s", err);
	cr_assert_eq(run_ref("is_inf", &in, 1, &o2, NULL, NULL, err), 0, "%s", err);
	for (int i = 0; i < 6; i++) {
		cr_expect_eq(fin[i], want_fin[i], "isfinite element %d", i);
		cr_expect_eq(inf[i], want_inf[i], "isinf element %d", i);
	}
}

Test(references, is_inf_float16_output)
{
	double v[] = { 65504.0, INFINITY, 70000.0 }; /* 70000 rounds to fp16 inf */
	uint16_t x[3], y[3];
	struct npukb_ref_tensor in = ref_tensor1("x", NPUKB_DT_FLOAT16, 3, x);
	struct npukb_ref_tensor out = ref_tensor1("y", NPUKB_DT_FLOAT16, 3, y);
	char err[ERRLEN];
	f16_fill(x, v, 3);
	cr_assert_eq(run_ref("is_inf", &in, 1, &out, NULL, NULL, err), 0, "%s", err);
	cr_expect_eq(y[0], 0x0000);
	cr_expect_eq(y[1], 0x3C00); /* 1.0 */
	cr_expect_eq(y[2], 0x3C00);
}

Test(references, abs_wraps_and_complex_modulus)
{
	int32_t xi[] = { INT32_MIN, -7, 7 }, yi[3];
	int8_t xb[] = { -128, -1 }, yb[2];
	int64_t xl[] = { -(INT64_C(1) << 60) - 1 }, yl[1];
	float xc[] = { 3.0f, -4.0f, -0.0f, 0.0f }, yc[2];
	float xf[] = { -0.0f, -2.5f }, yf[2];
	struct npukb_ref_tensor in, out;
	char err[ERRLEN];

	in = ref_tensor1("x", NPUKB_DT_INT32, 3, xi);
	out = ref_tensor1("y", NPUKB_DT_INT32, 3, yi);
	cr_assert_eq(run_ref("abs", &in, 1, &out, NULL, NULL, err), 0, "%s", err);
	cr_expect_eq(yi[0], INT32_MIN, "|INT32_MIN| wraps");
	cr_expect_eq(yi[1], 7);
	cr_expect_eq(yi[2], 7);
	in = ref_tensor1("x", NPUKB_DT_INT8, 2, xb);
	out = ref_tensor1("y", NPUKB_DT_INT8, 2, yb);
	cr_assert_eq(run_ref("abs", &in, 1, &out, NULL, NULL, err), 0, "%s", err);
	cr_expect_eq(yb[0], -128);
	cr_expect_eq(yb[1], 1);
	in = ref_tensor1("x", NPUKB_DT_INT64, 1, xl);
	out = ref_tensor1("y", NPUKB_DT_INT64, 1, yl);
	cr_assert_eq(run_ref("abs", &in, 1, &out, NULL, NULL, err), 0, "%s", err);
	cr_expect_eq(yl[0], (INT64_C(1) << 60) + 1, "int64 exact beyond 2^53");
	in = ref_tensor1("x", NPUKB_DT_COMPLEX64, 2, xc);
	out = ref_tensor1("y", NPUKB_DT_FLOAT32, 2, yc);
	cr_assert_eq(run_ref("abs", &in, 1, &out, NULL, NULL, err), 0, "%s", err);
	cr_expect_eq(yc[0], 5.0f);
	cr_expect_eq(yc[1], 0.0f);
	in = ref_tensor1("x", NPUKB_DT_FLOAT32, 2, xf);
	out = ref_tensor1("y", NPUKB_DT_FLOAT32, 2, yf);
	cr_assert_eq(run_ref("abs", &in, 1, &out, NULL, NULL, err), 0, "%s", err);
	cr_expect(yf[0] == 0.0f && !signbit(yf[0]), "|-0| is +0");
	cr_expect_eq(yf[1], 2.5f);
}

Test(references, neg_wraps_and_flips_zero)
{
	int8_t xb[] = { -128, 127, 0 }, yb[3];
	float xf[] = { 0.0f, NAN, -INFINITY, 1.5f }, yf[4];
	struct npukb_ref_tensor in, out;
	char err[ERRLEN];

	in = ref_tensor1("x", NPUKB_DT_INT8, 3, xb);
	out = ref_tensor1("y", NPUKB_DT_INT8, 3, yb);
	cr_assert_eq(run_ref("neg", &in, 1, &out, NULL, NULL, err), 0, "%s", err);
	cr_expect_eq(yb[0], -128, "-(-128) wraps in int8");
	cr_expect_eq(yb[1], -127);
	cr_expect_eq(yb[2], 0);
	in = ref_tensor1("x", NPUKB_DT_FLOAT32, 4, xf);
	out = ref_tensor1("y", NPUKB_DT_FLOAT32, 4, yf);
	cr_assert_eq(run_ref("neg", &in, 1, &out, NULL, NULL, err), 0, "%s", err);
	cr_expect(yf[0] == 0.0f && signbit(yf[0]), "-(+0) is -0");
	cr_expect(isnan(yf[1]));
	cr_expect_eq(yf[2], INFINITY);
	cr_expect_eq(yf[3], -1.5f);
}

Test(references, cast_rules)
{
	float x[] = { -2.7f, 300.5f, 0.1f, 0.0f, NAN, 65520.0f };
	int32_t i32[6];
	int8_t i8[6];
	uint8_t b[6];
	uint16_t h[6];
	struct npukb_ref_tensor in = ref_tensor1("x", NPUKB_DT_FLOAT32, 6, x), out;
	char err[ERRLEN];

	out = ref_tensor1("y", NPUKB_DT_INT32, 6, i32);
	cr_assert_eq(run_ref("cast", &in, 1, &out, NULL, NULL, err), 0, "%s", err);
	cr_expect_eq(i32[0], -2, "float to int truncates toward zero");
	cr_expect_eq(i32[1], 300);
	out = ref_tensor1("y", NPUKB_DT_INT8, 6, i8);
	cr_assert_eq(run_ref("cast", &in, 1, &out, NULL, NULL, err), 0, "%s", err);
	cr_expect_eq(i8[1], 44, "300 wraps to 44 in int8");
	out = ref_tensor1("y", NPUKB_DT_BOOL, 6, b);
	cr_assert_eq(run_ref("cast", &in, 1, &out, NULL, NULL, err), 0, "%s", err);
	cr_expect_eq(b[2], 1);
	cr_expect_eq(b[3], 0);
	cr_expect_eq(b[4], 1, "bool(NaN) is true");
	out = ref_tensor1("y", NPUKB_DT_FLOAT16, 6, h);
	cr_assert_eq(run_ref("cast", &in, 1, &out, NULL, NULL, err), 0, "%s", err);
	cr_expect_eq(h[5], 0x7C00, "65520 rounds to fp16 infinity");
	cr_expect_eq(h[0], npukb_f64_to_f16(-2.7f));
}

Test(references, cast_bool_and_int8_to_float)
{
	uint8_t xb[] = { 0, 1 };
	int8_t xi[] = { -128, 5 };
	float y[2];
	struct npukb_ref_tensor in = ref_tensor1("x", NPUKB_DT_BOOL, 2, xb), out = ref_tensor1("y", NPUKB_DT_FLOAT32, 2, y);
	char err[ERRLEN];
	cr_assert_eq(run_ref("cast", &in, 1, &out, NULL, NULL, err), 0, "%s", err);
	cr_expect_eq(y[0], 0.0f);
	cr_expect_eq(y[1], 1.0f);
	in = ref_tensor1("x", NPUKB_DT_INT8, 2, xi);
	cr_assert_eq(run_ref("cast", &in, 1, &out, NULL, NULL, err), 0, "%s", err);
	cr_expect_eq(y[0], -128.0f);
	cr_expect_eq(y[1], 5.0f);
}

Test(references, sqrt_rsqrt_domains)
{
	float x[] = { 4.0f, 0.0f, -1.0f, INFINITY }, s[4], r[4];
	struct npukb_ref_tensor in = ref_tensor1("x", NPUKB_DT_FLOAT32, 4, x);
	struct npukb_ref_tensor o1 = ref_tensor1("y", NPUKB_DT_FLOAT32, 4, s), o2 = ref_tensor1("y", NPUKB_DT_FLOAT32, 4, r);
	char err[ERRLEN];
	cr_assert_eq(run_ref("sqrt", &in, 1, &o1, NULL, NULL, err), 0, "%s", err);
	cr_assert_eq(run_ref("rsqrt", &in, 1, &o2, NULL, NULL, err), 0, "%s", err);
	cr_expect_eq(s[0], 2.0f);
	cr_expect_eq(s[1], 0.0f);
	cr_expect(isnan(s[2]));
	cr_expect_eq(s[3], INFINITY);
	cr_expect_eq(r[0], 0.5f);
	cr_expect_eq(r[1], INFINITY, "1/sqrt(0) is inf");
	cr_expect(isnan(r[2]));
	cr_expect_eq(r[3], 0.0f);
}

Test(references, trigonometric_and_tanh)
{
	double v[] = { 0.0, 3.14159265358979, -1.0, 20.0 };
	uint16_t x[4], sn[4], cs[4], th[4];
	struct npukb_ref_tensor in = ref_tensor1("x", NPUKB_DT_FLOAT16, 4, x);
	struct npukb_ref_tensor o1 = ref_tensor1("y", NPUKB_DT_FLOAT16, 4, sn), o2 = ref_tensor1("y", NPUKB_DT_FLOAT16, 4, cs),
				o3 = ref_tensor1("y", NPUKB_DT_FLOAT16, 4, th);
	char err[ERRLEN];
	double xs;
	f16_fill(x, v, 4);
	xs = npukb_f16_to_f32(x[1]); /* pi as fp16: 3.140625 */
	cr_assert_eq(run_ref("sin", &in, 1, &o1, NULL, NULL, err), 0, "%s", err);
	cr_assert_eq(run_ref("cos", &in, 1, &o2, NULL, NULL, err), 0, "%s", err);
	cr_assert_eq(run_ref("tanh", &in, 1, &o3, NULL, NULL, err), 0, "%s", err);
	cr_expect_eq(sn[0], 0x0000);
	cr_expect_eq(cs[0], 0x3C00);
	/* sin of the fp16 input, not of pi: the reference sees what the kernel sees. */
	cr_expect_eq(sn[1], npukb_f64_to_f16(sin(xs)));
	cr_expect_eq(cs[2], npukb_f64_to_f16(0.5403023058681398));
	cr_expect_eq(th[2], npukb_f64_to_f16(-0.7615941559557649));
	cr_expect_eq(th[3], 0x3C00, "tanh(20) rounds to 1");
}

Test(references, spence_values)
{
	/* Li2(1 - x): closed forms at 1, 0, 2, 0.5, and a 30-digit evaluation
	 * of the dilogarithm for the others (every branch of the reduction). */
	float x[] = { 1.0f, 0.0f, 2.0f, 0.5f, 1.5f, 3.0f, 10.0f, 0.25f, -1.0f, NAN };
	const double want[] = { 0.0, 1.6449340668482264, -0.8224670334241132,
				0.58224052646501245, -0.4484142069236462, -1.4367463668836808,
				-3.9506637782441576, 0.9784693929303061 };
	float y[10];
	struct npukb_ref_tensor in = ref_tensor1("x", NPUKB_DT_FLOAT32, 10, x), out = ref_tensor1("y", NPUKB_DT_FLOAT32, 10, y);
	char err[ERRLEN];
	cr_assert_eq(run_ref("spence", &in, 1, &out, NULL, NULL, err), 0, "%s", err);
	for (int i = 0; i < 8; i++)
		cr_expect_eq(y[i], (float)want[i], "spence(%g) = %.9g, want %.9g", x[i], y[i], want[i]);
	cr_expect(isnan(y[8]), "spence(-1) is not real");
	cr_expect(isnan(y[9]));
}

Test(references, strideslice_neg_concat_last_dim)
{
	float x[] = { 1, 2, 3, 4, 5, 6, 7, 8 }, y[8];
	const float want[] = { 1, 2, -3, -4, 5, 6, -7, -8 };
	struct npukb_ref_tensor in = ref_tensor1("input", NPUKB_DT_FLOAT32, 8, x), out = ref_tensor1("output", NPUKB_DT_FLOAT32, 8, y);
	char err[ERRLEN];
	in.shape.rank = out.shape.rank = 2;
	in.shape.dims[0] = out.shape.dims[0] = 2;
	in.shape.dims[1] = out.shape.dims[1] = 4;
	cr_assert_eq(run_ref("strideslice_neg_concat", &in, 1, &out, NULL, NULL, err), 0, "%s", err);
	for (int i = 0; i < 8; i++)
		cr_expect_eq(y[i], want[i], "element %d", i);
}

/* Element-wise references of one tensor, cut across threads on large
 * tensors, write the bytes of one thread. */
Test(references, unary_threads_give_the_one_thread_bytes)
{
	const size_t rows = 3u << 10, w = 1024, n = rows * w;
	static const char *const names[] = { "sqrt", "strideslice_neg_concat" };
	float *x = malloc(n * sizeof(float));
	uint16_t *y1 = malloc(n * 2), *y4 = malloc(n * 2);
	char err[ERRLEN];
	struct npukb_ref_tensor in, out;
	cr_assert(x && y1 && y4);
	for (size_t i = 0; i < n; i++)
		x[i] = (float)((double)(i % 1231) * 0.37 + 0.01);
	for (size_t k = 0; k < 2; k++) {
		in = ref_tensor1("x", NPUKB_DT_FLOAT32, n, x);
		in.shape.rank = 2;
		in.shape.dims[0] = (int64_t)rows;
		in.shape.dims[1] = (int64_t)w;
		out = ref_tensor1("y", NPUKB_DT_FLOAT16, n, y1);
		npukb_set_data_threads(1);
		cr_assert_eq(run_ref_attr(names[k], &in, 1, &out, NULL, NULL, err), 0, "%s", err);
		out.data = y4;
		npukb_set_data_threads(4);
		cr_assert_eq(run_ref_attr(names[k], &in, 1, &out, NULL, NULL, err), 0, "%s", err);
		npukb_set_data_threads(0);
		cr_assert_eq(memcmp(y1, y4, n * 2), 0, "%s", names[k]);
	}
	/* the last reference run: the second half of each row negated */
	cr_assert_eq(y1[3], npukb_f64_to_f16((double)x[3]));
	cr_assert_eq(y1[w - 1], npukb_f64_to_f16(-(double)x[w - 1]));
	free(x);
	free(y1);
	free(y4);
}

/* ---- several operands ---------------------------------------------------- */

Test(references, addcdiv_and_addcmul)
{
	float in_[] = { 1, 1 }, x1[] = { 3, 1 }, x2[] = { 2, 0 }, v[] = { 0.5f }, y[2];
	float m2[] = { 4, 4 }, vm[] = { 2 };
	struct npukb_ref_tensor in[4] = { ref_tensor1("input_data", NPUKB_DT_FLOAT32, 2, in_),
					  ref_tensor1("x1", NPUKB_DT_FLOAT32, 2, x1),
					  ref_tensor1("x2", NPUKB_DT_FLOAT32, 2, x2),
					  ref_tensor1("value", NPUKB_DT_FLOAT32, 1, v) };
	struct npukb_ref_tensor out = ref_tensor1("y", NPUKB_DT_FLOAT32, 2, y);
	char err[ERRLEN];
	cr_assert_eq(run_ref("addcdiv", in, 4, &out, NULL, NULL, err), 0, "%s", err);
	cr_expect_eq(y[0], 1.75f, "1 + 0.5 * 3 / 2");
	cr_expect_eq(y[1], INFINITY, "division by zero");
	in[2] = ref_tensor1("x2", NPUKB_DT_FLOAT32, 2, m2);
	in[3] = ref_tensor1("value", NPUKB_DT_FLOAT32, 1, vm);
	cr_assert_eq(run_ref("addcmul", in, 4, &out, NULL, NULL, err), 0, "%s", err);
	cr_expect_eq(y[0], 25.0f, "1 + 2 * 3 * 4");
	cr_expect_eq(y[1], 9.0f);
}

/* bfloat16: the exact result 2.13281261... rounds up to 2.140625, but in
 * float32 (the framework's opmath, and what a kernel computes) it is the
 * midpoint 2.1328125, which rounds to even: 2.125. The reference follows
 * the framework; float32 outputs stay computed in double. */
Test(references, addcmul_bfloat16_rounds_like_float32_opmath)
{
	uint16_t a[] = { 0x4008 }, x1[] = { 0x3e18 }, x2[] = { 0x3df1 }, v[] = { 0x3ee5 }, y[1];
	struct npukb_ref_tensor in[4] = { ref_tensor1("input_data", NPUKB_DT_BFLOAT16, 1, a),
					  ref_tensor1("x1", NPUKB_DT_BFLOAT16, 1, x1),
					  ref_tensor1("x2", NPUKB_DT_BFLOAT16, 1, x2),
					  ref_tensor1("value", NPUKB_DT_BFLOAT16, 1, v) };
	struct npukb_ref_tensor out = ref_tensor1("y", NPUKB_DT_BFLOAT16, 1, y);
	char err[ERRLEN];

	cr_assert_eq(run_ref("addcmul", in, 4, &out, NULL, NULL, err), 0, "%s", err);
	cr_expect_eq(npukb_load_as_double(NPUKB_DT_BFLOAT16, y, 0), 2.125);
}

Test(references, lerp_inside_and_outside)
{
	float s[] = { 1, 1, -2 }, e[] = { 3, 3, 2 }, w[] = { 0.5f, 1.25f, -0.25f }, y[3];
	struct npukb_ref_tensor in[3] = { ref_tensor1("start", NPUKB_DT_FLOAT32, 3, s),
					  ref_tensor1("end", NPUKB_DT_FLOAT32, 3, e),
					  ref_tensor1("weight", NPUKB_DT_FLOAT32, 3, w) };
	struct npukb_ref_tensor out = ref_tensor1("y", NPUKB_DT_FLOAT32, 3, y);
	char err[ERRLEN];
	cr_assert_eq(run_ref("lerp", in, 3, &out, NULL, NULL, err), 0, "%s", err);
	cr_expect_eq(y[0], 2.0f);
	cr_expect_eq(y[1], 3.5f);
	cr_expect_eq(y[2], -3.0f);
}

Test(references, clip_by_value_nan_and_crossed_bounds)
{
	float x[] = { -5, 0, 5, NAN }, lo[] = { -1 }, hi[] = { 2 }, y[4];
	float lo2[] = { 3 }, hi2[] = { 1 };
	int32_t xi[] = { -9, 9 }, loi[] = { -3 }, hii[] = { 4 }, yi[2];
	struct npukb_ref_tensor in[3] = { ref_tensor1("x", NPUKB_DT_FLOAT32, 4, x),
					  ref_tensor1("clip_value_min", NPUKB_DT_FLOAT32, 1, lo),
					  ref_tensor1("clip_value_max", NPUKB_DT_FLOAT32, 1, hi) };
	struct npukb_ref_tensor out = ref_tensor1("y", NPUKB_DT_FLOAT32, 4, y);
	char err[ERRLEN];
	cr_assert_eq(run_ref("clip_by_value", in, 3, &out, NULL, NULL, err), 0, "%s", err);
	cr_expect_eq(y[0], -1.0f);
	cr_expect_eq(y[1], 0.0f);
	cr_expect_eq(y[2], 2.0f);
	cr_expect(isnan(y[3]), "NaN passes through");
	in[1] = ref_tensor1("clip_value_min", NPUKB_DT_FLOAT32, 1, lo2);
	in[2] = ref_tensor1("clip_value_max", NPUKB_DT_FLOAT32, 1, hi2);
	cr_assert_eq(run_ref("clip_by_value", in, 3, &out, NULL, NULL, err), 0, "%s", err);
	cr_expect_eq(y[0], 1.0f, "min > max: everything is max");
	cr_expect_eq(y[2], 1.0f);
	in[0] = ref_tensor1("x", NPUKB_DT_INT32, 2, xi);
	in[1] = ref_tensor1("clip_value_min", NPUKB_DT_INT32, 1, loi);
	in[2] = ref_tensor1("clip_value_max", NPUKB_DT_INT32, 1, hii);
	out = ref_tensor1("y", NPUKB_DT_INT32, 2, yi);
	cr_assert_eq(run_ref("clip_by_value", in, 3, &out, NULL, NULL, err), 0, "%s", err);
	cr_expect_eq(yi[0], -3);
	cr_expect_eq(yi[1], 4);
}

Test(references, muls_integer_complex_and_overflow)
{
	int32_t xi[] = { 7, -7 }, yi[2];
	float v15[] = { 1.5f }, v2[] = { 2.0f };
	float xc[] = { 1, 2, -3, 0.5f }, yc[4];
	double hv[] = { 60000.0 };
	uint16_t xh[1], yh[1];
	struct npukb_ref_tensor in[2] = { ref_tensor1("x", NPUKB_DT_INT32, 2, xi), ref_tensor1("value", NPUKB_DT_FLOAT32, 1, v15) };
	struct npukb_ref_tensor out = ref_tensor1("y", NPUKB_DT_INT32, 2, yi);
	char err[ERRLEN];
	cr_assert_eq(run_ref("muls", in, 2, &out, NULL, NULL, err), 0, "%s", err);
	cr_expect_eq(yi[0], 10, "10.5 truncates to 10");
	cr_expect_eq(yi[1], -10);
	in[0] = ref_tensor1("x", NPUKB_DT_COMPLEX64, 2, xc);
	in[1] = ref_tensor1("value", NPUKB_DT_FLOAT32, 1, v2);
	out = ref_tensor1("y", NPUKB_DT_COMPLEX64, 2, yc);
	cr_assert_eq(run_ref("muls", in, 2, &out, NULL, NULL, err), 0, "%s", err);
	cr_expect(yc[0] == 2 && yc[1] == 4 && yc[2] == -6 && yc[3] == 1, "both parts scaled");
	f16_fill(xh, hv, 1);
	in[0] = ref_tensor1("x", NPUKB_DT_FLOAT16, 1, xh);
	out = ref_tensor1("y", NPUKB_DT_FLOAT16, 1, yh);
	cr_assert_eq(run_ref("muls", in, 2, &out, NULL, NULL, err), 0, "%s", err);
	cr_expect_eq(yh[0], 0x7C00, "60000 * 2 overflows fp16 to inf");
}

Test(references, complex_mul)
{
	float x[] = { 1, 2, 0, 1 }, y[] = { 3, 4, 0, 1 }, z[4];
	struct npukb_ref_tensor in[2] = { ref_tensor1("matx", NPUKB_DT_COMPLEX64, 2, x),
					  ref_tensor1("maty", NPUKB_DT_COMPLEX64, 2, y) };
	struct npukb_ref_tensor out = ref_tensor1("result", NPUKB_DT_COMPLEX64, 2, z);
	char err[ERRLEN];
	cr_assert_eq(run_ref("complex_mul", in, 2, &out, NULL, NULL, err), 0, "%s", err);
	cr_expect(z[0] == -5 && z[1] == 10, "(1+2i)(3+4i) = -5+10i, got %g%+gi", z[0], z[1]);
	cr_expect(z[2] == -1 && z[3] == 0, "i * i = -1");
}

/* ---- BLAS ------------------------------------------------------------------ */

Test(references, sasum_snrm2_strided)
{
	float x[] = { -1, 2, -3, 4 }, y[1];
	uint16_t xh[2], yh[1];
	double hv[] = { -1.5, 2.25 };
	struct npukb_ref_tensor in = ref_tensor1("x", NPUKB_DT_FLOAT32, 4, x), out = ref_tensor1("y", NPUKB_DT_FLOAT32, 1, y);
	char err[ERRLEN];
	cr_assert_eq(run_ref("sasum", &in, 1, &out, "4", "1", err), 0, "%s", err);
	cr_expect_eq(y[0], 10.0f);
	cr_assert_eq(run_ref("sasum", &in, 1, &out, "2", "2", err), 0, "%s", err);
	cr_expect_eq(y[0], 4.0f, "|-1| + |-3|");
	cr_assert_eq(run_ref("snrm2", &in, 1, &out, "2", "1", err), 0, "%s", err);
	cr_expect_eq(y[0], sqrtf(5.0f));
	x[0] = 3;
	x[2] = 4;
	cr_assert_eq(run_ref("snrm2", &in, 1, &out, "2", "2", err), 0, "%s", err);
	cr_expect_eq(y[0], 5.0f);
	f16_fill(xh, hv, 2);
	in = ref_tensor1("x", NPUKB_DT_FLOAT16, 2, xh);
	out = ref_tensor1("y", NPUKB_DT_FLOAT16, 1, yh);
	cr_assert_eq(run_ref("sasum", &in, 1, &out, "2", "1", err), 0, "%s", err);
	cr_expect_eq(yh[0], npukb_f64_to_f16(3.75));
	/* n * incx past the end is the manifest's mistake, not a crash */
	cr_expect_eq(run_ref("sasum", &in, 1, &out, "2", "2", err), -EINVAL);
	cr_expect(strstr(err, "reach past") != NULL, "%s", err);
}

Test(references, iamax_iamin_ties_nan_and_one_based)
{
	float x[] = { 1, -5, 5, 2 }, xn[] = { 1, NAN, 9 }, xm[] = { 3, -1, 1, 2 };
	int32_t y[1];
	struct npukb_ref_tensor in = ref_tensor1("x", NPUKB_DT_FLOAT32, 4, x), out = ref_tensor1("y", NPUKB_DT_INT32, 1, y);
	char err[ERRLEN];
	cr_assert_eq(run_ref("iamax", &in, 1, &out, "4", "1", err), 0, "%s", err);
	cr_expect_eq(y[0], 2, "|-5| ties |5|: first wins, 1-based");
	cr_assert_eq(run_ref("iamax", &in, 1, &out, "2", "2", err), 0, "%s", err);
	cr_expect_eq(y[0], 2, "strided: x[0]=1, x[2]=5 -> position 2");
	in = ref_tensor1("x", NPUKB_DT_FLOAT32, 3, xn);
	cr_assert_eq(run_ref("iamax", &in, 1, &out, "3", "1", err), 0, "%s", err);
	cr_expect_eq(y[0], 2, "NaN is the maximum");
	cr_assert_eq(run_ref("iamin", &in, 1, &out, "3", "1", err), 0, "%s", err);
	cr_expect_eq(y[0], 2, "NaN is the minimum too");
	in = ref_tensor1("x", NPUKB_DT_FLOAT32, 4, xm);
	cr_assert_eq(run_ref("iamin", &in, 1, &out, "4", "1", err), 0, "%s", err);
	cr_expect_eq(y[0], 2, "|-1| ties |1|: first wins");
	cr_assert_eq(run_ref("iamin", &in, 1, &out, "0", "1", err), 0, "%s", err);
	cr_expect_eq(y[0], 0, "n = 0 gives 0");
}

Test(references, icamax_icamin_use_l1_magnitude)
{
	/* |re| + |im|: 2, 2.5, 2.5, 1; the modulus would rank element 3 first. */
	float x[] = { 1, 1, -2, 0.5f, 0.25f, -2.25f, 0.5f, 0.5f };
	int32_t y[1];
	struct npukb_ref_tensor in = ref_tensor1("x", NPUKB_DT_COMPLEX64, 4, x), out = ref_tensor1("y", NPUKB_DT_INT32, 1, y);
	char err[ERRLEN];
	cr_assert_eq(run_ref("iamax", &in, 1, &out, "4", "1", err), 0, "%s", err);
	cr_expect_eq(y[0], 2);
	cr_assert_eq(run_ref("iamin", &in, 1, &out, "4", "1", err), 0, "%s", err);
	cr_expect_eq(y[0], 4);
}

Test(references, ccopy_copies_bits)
{
	float x[] = { 1, 2, NAN, -0.0f, 5, 6 }, y[4];
	struct npukb_ref_tensor in = ref_tensor1("x", NPUKB_DT_COMPLEX64, 3, x), out = ref_tensor1("y", NPUKB_DT_COMPLEX64, 2, y);
	char err[ERRLEN];
	cr_assert_eq(run_ref("ccopy", &in, 1, &out, "2", "1", err), 0, "%s", err);
	cr_expect(y[0] == 1 && y[1] == 2 && isnan(y[2]) && signbit(y[3]));
	cr_assert_eq(run_ref("ccopy", &in, 1, &out, "2", "2", err), 0, "%s", err);
	cr_expect(y[0] == 1 && y[2] == 5 && y[3] == 6);
	cr_expect_eq(run_ref("ccopy", &in, 1, &out, "3", "1", err), -EINVAL, "y has 2, n is 3");
}

/* ---- creation -------------------------------------------------------------- */

Test(references, arange_values_and_length_check)
{
	float s[] = { 2.0f }, e[] = { 9.0f }, st[] = { 0.5f }, y[14];
	int32_t si[] = { 1 }, ei[] = { 5 }, sti[] = { 1 }, yi[4];
	struct npukb_ref_tensor in[3] = { ref_tensor1("start", NPUKB_DT_FLOAT32, 1, s),
					  ref_tensor1("end", NPUKB_DT_FLOAT32, 1, e),
					  ref_tensor1("step", NPUKB_DT_FLOAT32, 1, st) };
	struct npukb_ref_tensor out = ref_tensor1("out", NPUKB_DT_FLOAT32, 14, y);
	char err[ERRLEN];
	cr_assert_eq(run_ref("arange", in, 3, &out, NULL, NULL, err), 0, "%s", err);
	cr_expect_eq(y[0], 2.0f);
	cr_expect_eq(y[13], 8.5f);
	out.numel = 13;
	cr_expect_eq(run_ref("arange", in, 3, &out, NULL, NULL, err), -EINVAL);
	cr_expect(strstr(err, "has 14 elements") != NULL, "%s", err);
	in[0] = ref_tensor1("start", NPUKB_DT_INT32, 1, si);
	in[1] = ref_tensor1("end", NPUKB_DT_INT32, 1, ei);
	in[2] = ref_tensor1("step", NPUKB_DT_INT32, 1, sti);
	out = ref_tensor1("out", NPUKB_DT_INT32, 4, yi);
	cr_assert_eq(run_ref("arange", in, 3, &out, NULL, NULL, err), 0, "%s", err);
	cr_expect(yi[0] == 1 && yi[1] == 2 && yi[2] == 3 && yi[3] == 4);
}

Test(references, eye_batched_rectangular)
{
	float x[12] = { 0 }, y[12];
	const float want[12] = { 1, 0, 0, 0, 1, 0, 1, 0, 0, 0, 1, 0 };
	struct npukb_ref_tensor in = ref_tensor1("y", NPUKB_DT_FLOAT32, 12, x), out = ref_tensor1("y_ref", NPUKB_DT_FLOAT32, 12, y);
	char err[ERRLEN];
	out.shape.rank = 3;
	out.shape.dims[0] = 2;
	out.shape.dims[1] = 2;
	out.shape.dims[2] = 3;
	cr_assert_eq(run_ref("eye", &in, 1, &out, NULL, NULL, err), 0, "%s", err);
	for (int i = 0; i < 12; i++)
		cr_expect_eq(y[i], want[i], "element %d", i);
}

static void shape2(struct npukb_ref_tensor *t, int64_t r, int64_t c)
{
	t->shape.rank = 2;
	t->shape.dims[0] = r;
	t->shape.dims[1] = c;
}

/* 2x3 by 3x2 summed in double, rounded once to float16; a 2x2 batch of
 * one shared B; non-multiplying shapes are rejected. */
Test(references, matmul_rounds_once_and_shares_b)
{
	const double av[6] = { 1, 2, 3, 4, 5, 6 }, bv[6] = { 1, 0.5, 0, 1, 2, -1 };
	uint16_t a[6], b[6], y[4];
	char err[ERRLEN];
	f16_fill(a, av, 6);
	f16_fill(b, bv, 6);
	struct npukb_ref_tensor in[2] = { ref_tensor1("a", NPUKB_DT_FLOAT16, 6, a), ref_tensor1("b", NPUKB_DT_FLOAT16, 6, b) };
	struct npukb_ref_tensor out = ref_tensor1("y", NPUKB_DT_FLOAT16, 4, y);
	shape2(&in[0], 2, 3);
	shape2(&in[1], 3, 2);
	shape2(&out, 2, 2);
	cr_assert_eq(run_ref("matmul", in, 2, &out, NULL, NULL, err), 0, "%s", err);
	cr_expect_eq(y[0], npukb_f64_to_f16(7));
	cr_expect_eq(y[1], npukb_f64_to_f16(-0.5));
	cr_expect_eq(y[2], npukb_f64_to_f16(16));
	cr_expect_eq(y[3], npukb_f64_to_f16(1));
	/* a batch of two [1, 3] rows against the same B */
	in[0].shape.rank = 3;
	in[0].shape.dims[0] = 2;
	in[0].shape.dims[1] = 1;
	in[0].shape.dims[2] = 3;
	cr_assert_eq(run_ref("matmul", in, 2, &out, NULL, NULL, err), 0, "%s", err);
	cr_expect_eq(y[2], npukb_f64_to_f16(16));
	shape2(&in[1], 2, 3);
	cr_expect_neq(run_ref("matmul", in, 2, &out, NULL, NULL, err), 0);
}

Test(references, fill_exact_int64_and_bool)
{
	int64_t v[] = { (INT64_C(1) << 60) + 3 }, y[3], d3[] = { 3 }, d2[] = { 2 };
	float fv[] = { 0.0f };
	uint8_t b[2];
	struct npukb_ref_tensor in[2] = { ref_tensor1("dims", NPUKB_DT_INT64, 1, d3), ref_tensor1("value", NPUKB_DT_INT64, 1, v) };
	struct npukb_ref_tensor out = ref_tensor1("y", NPUKB_DT_INT64, 3, y);
	char err[ERRLEN];
	cr_assert_eq(run_ref("fill", in, 2, &out, NULL, NULL, err), 0, "%s", err);
	cr_expect(y[0] == v[0] && y[2] == v[0], "int64 value kept exactly");
	in[0] = ref_tensor1("dims", NPUKB_DT_INT64, 1, d2);
	in[1] = ref_tensor1("value", NPUKB_DT_FLOAT32, 1, fv);
	out = ref_tensor1("y", NPUKB_DT_BOOL, 2, b);
	b[0] = b[1] = 7;
	cr_assert_eq(run_ref("fill", in, 2, &out, NULL, NULL, err), 0, "%s", err);
	cr_expect(b[0] == 0 && b[1] == 0);
}

/* ---- in place, tensor lists, index operators ---------------------------------- */

Test(references, sscal_rounds_once_and_overflows_to_inf)
{
	float x[] = { 1.5f, -2.0f, 3e38f, 1.0f / 3.0f }, y[4];
	struct npukb_ref_tensor in = ref_tensor1("x", NPUKB_DT_FLOAT32, 4, x), out = ref_tensor1("x", NPUKB_DT_FLOAT32, 4, y);
	char err[ERRLEN];
	cr_assert_eq(run_ref_attr("sscal", &in, 1, &out, "alpha", "2.5", err), 0, "%s", err);
	cr_expect_eq(y[0], 3.75f);
	cr_expect_eq(y[1], -5.0f);
	cr_expect(isinf(y[2]) && y[2] > 0, "3e38 * 2.5 overflows float32: %g", y[2]);
	cr_expect_eq(y[3], (float)((double)x[3] * 2.5));
	cr_expect_neq(run_ref_attr("sscal", &in, 1, &out, "alpha", "two", err), 0);
	cr_expect_neq(run_ref_attr("sscal", &in, 1, &out, NULL, NULL, err), 0);
}

/* A list of two float32 tensors [2] and [3] stored at elements 0 and 128
 * (512-byte aligned), the padding in between holding a NaN. */
Test(references, non_finite_check_reads_members_not_padding)
{
	static float buf[131];
	struct npukb_shape members[2] = { { 1, { 2 } }, { 1, { 3 } } };
	size_t offsets[2] = { 0, 128 };
	float flag;
	struct npukb_ref_tensor in = ref_tensor1("tensor_list", NPUKB_DT_FLOAT32, 131, buf);
	struct npukb_ref_tensor out = ref_tensor1("found_flag", NPUKB_DT_FLOAT32, 1, &flag);
	char err[ERRLEN];

	for (size_t i = 0; i < 131; i++)
		buf[i] = (float)i - 60.0f;
	buf[50] = NAN;
	in.nmembers = 2;
	in.members = members;
	in.member_offsets = offsets;
	cr_assert_eq(run_ref_attr("non_finite_check", &in, 1, &out, NULL, NULL, err), 0, "%s", err);
	cr_expect_eq(flag, 0.0f, "the padding is not part of the list");
	buf[130] = -INFINITY;
	cr_assert_eq(run_ref_attr("non_finite_check", &in, 1, &out, NULL, NULL, err), 0, "%s", err);
	cr_expect_eq(flag, 1.0f, "-inf in the last element of the second tensor");
	buf[130] = 0.0f;
	buf[1] = NAN;
	cr_assert_eq(run_ref_attr("non_finite_check", &in, 1, &out, NULL, NULL, err), 0, "%s", err);
	cr_expect_eq(flag, 1.0f, "NaN in the first tensor");
}

Test(references, gather_v3_selects_along_either_axis)
{
	double xv[] = { 1, 2, 3, 4, 5, 6 };
	uint16_t x[6], y[4];
	int64_t idx[] = { 2, 0 }, axis[] = { 1 };
	struct npukb_ref_tensor in[3] = { ref_tensor1("x", NPUKB_DT_FLOAT16, 6, x),
					  ref_tensor1("indices", NPUKB_DT_INT64, 2, idx),
					  ref_tensor1("axis", NPUKB_DT_INT64, 1, axis) };
	struct npukb_ref_tensor out = ref_tensor1("y", NPUKB_DT_FLOAT16, 4, y);
	char err[ERRLEN];

	f16_fill(x, xv, 6);
	in[0].shape.rank = 2;
	in[0].shape.dims[0] = 2;
	in[0].shape.dims[1] = 3;
	cr_assert_eq(run_ref_attr("gather_v3", in, 3, &out, NULL, NULL, err), 0, "%s", err);
	cr_expect(y[0] == x[2] && y[1] == x[0] && y[2] == x[5] && y[3] == x[3],
		  "axis 1: rows keep their order, columns 2 and 0 are picked");
	/* axis -2 is axis 0: rows 1 and 0 (indices must then be < 2) */
	axis[0] = -2;
	idx[0] = 1;
	out = ref_tensor1("y", NPUKB_DT_FLOAT16, 4, y);
	out.numel = 6;
	{
		uint16_t y6[6];
		out.data = y6;
		cr_assert_eq(run_ref_attr("gather_v3", in, 3, &out, NULL, NULL, err), 0, "%s", err);
		cr_expect(y6[0] == x[3] && y6[2] == x[5] && y6[3] == x[0] && y6[5] == x[2]);
		idx[1] = 2; /* past the 2 rows */
		cr_expect_neq(run_ref_attr("gather_v3", in, 3, &out, NULL, NULL, err), 0);
		cr_expect_not_null(strstr(err, "indices[1] = 2"), "%s", err);
	}
}

/* var: two float16 tensors [2, 4] at elements 0 and 256; updates [2, 2, 4];
 * indice (1, 2), (0, 1); mask 1, 0; axis -1. */
Test(references, scatter_list_copies_a_block_where_mask_is_set)
{
	static uint16_t var[264], exp[264], upd[16];
	struct npukb_shape members[2] = { { 2, { 2, 4 } }, { 2, { 2, 4 } } };
	size_t offsets[2] = { 0, 256 };
	int64_t ind[] = { 1, 2, 0, 1 };
	uint8_t mask[] = { 1, 0 };
	struct npukb_ref_tensor in[4] = { ref_tensor1("indice", NPUKB_DT_INT64, 4, ind),
					  ref_tensor1("updates", NPUKB_DT_FLOAT16, 16, upd),
					  ref_tensor1("mask", NPUKB_DT_BOOL, 2, mask),
					  ref_tensor1("var", NPUKB_DT_FLOAT16, 264, var) };
	struct npukb_ref_tensor out = ref_tensor1("var", NPUKB_DT_FLOAT16, 264, exp);
	char err[ERRLEN];

	for (size_t i = 0; i < 264; i++)
		var[i] = npukb_f64_to_f16((double)i);
	for (size_t i = 0; i < 16; i++)
		upd[i] = npukb_f64_to_f16(1000.0 + (double)i);
	memcpy(exp, var, sizeof(var));
	in[1].shape.rank = 3;
	in[1].shape.dims[0] = 2;
	in[1].shape.dims[1] = 2;
	in[1].shape.dims[2] = 4;
	in[3].nmembers = out.nmembers = 2;
	in[3].members = out.members = members;
	in[3].member_offsets = out.member_offsets = offsets;
	cr_assert_eq(run_ref_attr("scatter_list", in, 4, &out, "axis", "-1", err), 0, "%s", err);
	/* row 0 of tensor 0: [0, u0, u1, 3]; row 1: [4, u4, u5, 7] */
	cr_expect(exp[0] == var[0] && exp[1] == upd[0] && exp[2] == upd[1] && exp[3] == var[3]);
	cr_expect(exp[4] == var[4] && exp[5] == upd[4] && exp[6] == upd[5] && exp[7] == var[7]);
	cr_expect(memcmp(exp + 8, var + 8, sizeof(var) - 16) == 0, "mask 0: tensor 1 untouched");
	/* along axis -2 (rows): rows 1..2 do not fit two rows */
	memcpy(exp, var, sizeof(var));
	cr_expect_neq(run_ref_attr("scatter_list", in, 4, &out, "axis", "-2", err), 0);
	cr_expect_not_null(strstr(err, "does not fit"), "%s", err);
}

/* ---- every Level 1 manifest -------------------------------------------------- */

/* Elements (all tensors of a case) above which a case is left out here, to
 * keep `make check` quick; build with -DSMOKE_MAX_ELEMENTS=SIZE_MAX to run
 * every case (about two minutes, 3 GiB peak for the largest). */
#ifndef SMOKE_MAX_ELEMENTS
#define SMOKE_MAX_ELEMENTS (1u << 21)
#endif

static void src_path(char *buf, size_t len, const char *rel)
{
	const char *root = getenv("NPUKB_SRCDIR");
	if (!root || !*root)
		root = ".";
	cr_assert_lt((size_t)snprintf(buf, len, "%s/%s", root, rel), len);
}

static void rm_files(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char p[PATH_MAX];
	if (!d)
		return;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.' &&
		    snprintf(p, sizeof(p), "%s/%s", dir, e->d_name) < (int)sizeof(p))
			unlink(p);
	closedir(d);
}

static size_t case_elements(const struct npukb_task *t, const struct npukb_case *c)
{
	size_t total = 0;
	for (size_t i = 0; i < t->ntensors; i++) {
		struct npukb_shape s;
		char err[256];
		if (npukb_case_tensor_shape(t, c, t->tensors[i].name, &s, err, sizeof(err)) == 0)
			total += npukb_shape_numel(&s);
	}
	return total;
}

/* Loads one manifest and prepares each moderate case: inputs generated,
 * reference computed, every expected element written (poison gone). */
static void smoke_task(const char *rel, size_t *ncases)
{
	char path[PATH_MAX], schema[PATH_MAX], err[8192], workdir[] = "/tmp/npukb-refs-XXXXXX";
	struct npukb_task *t = NULL;
	src_path(path, sizeof(path), rel);
	src_path(schema, sizeof(schema), "levels/schema/task.rng");
	cr_assert_eq(npukb_manifest_load(path, schema, &t, err, sizeof(err)), 0, "%s", err);
	cr_assert_not_null(npukb_reference_find(t->reference), "%s: reference %s", rel, t->reference);
	cr_assert_not_null(mkdtemp(workdir));
	for (size_t k = 0; k < t->ncases; k++) {
		const struct npukb_case *c = &t->cases[k];
		struct npukb_case_data d;
		if (case_elements(t, c) > SMOKE_MAX_ELEMENTS)
			continue;
		cr_assert_eq(npukb_case_data_prepare(t, c, 1, workdir, &d, err, sizeof(err)), 0,
			     "%s case %s: %s", rel, c->id, err);
		for (size_t i = 0; i < d.ntensors; i++) {
			const struct npukb_case_tensor *ct = &d.tensors[i];
			/* one-byte integers can legitimately equal the 0xA5 marker */
			if (!ct->is_output || ct->dtype == NPUKB_DT_INT8 || ct->dtype == NPUKB_DT_UINT8)
				continue;
			for (size_t j = 0; j < ct->numel; j++)
				cr_assert(!npukb_is_poison(ct->dtype, ct->expected, j),
					  "%s case %s: %s[%zu] not written by the reference", rel,
					  c->id, ct->name, j);
		}
		npukb_case_data_free(&d);
		rm_files(workdir);
		(*ncases)++;
	}
	rmdir(workdir);
	npukb_task_free(t);
}

Test(references, every_level1_manifest_prepares, .timeout = 600)
{
	char root[PATH_MAX];
	size_t ntasks = 0, ncases = 0;
	DIR *cats;
	struct dirent *ce;
	src_path(root, sizeof(root), "levels/level1");
	cats = opendir(root);
	cr_assert_not_null(cats, "%s", root);
	while ((ce = readdir(cats))) {
		char cdir[PATH_MAX];
		DIR *tasks;
		struct dirent *te;
		if (ce->d_name[0] == '.')
			continue;
		if (snprintf(cdir, sizeof(cdir), "%s/%s", root, ce->d_name) >= (int)sizeof(cdir))
			continue;
		tasks = opendir(cdir);
		if (!tasks)
			continue;
		while ((te = readdir(tasks))) {
			char rel[PATH_MAX], full[PATH_MAX];
			if (te->d_name[0] == '.')
				continue;
			if (snprintf(rel, sizeof(rel), "levels/level1/%s/%s/task.xml", ce->d_name,
				     te->d_name) >= (int)sizeof(rel))
				continue;
			src_path(full, sizeof(full), rel);
			if (access(full, R_OK) != 0)
				continue;
			smoke_task(rel, &ncases);
			ntasks++;
		}
		closedir(tasks);
	}
	closedir(cats);
	cr_expect_eq(ntasks, 37, "found %zu Level 1 manifests", ntasks);
	cr_expect_geq(ncases, 150, "prepared %zu cases", ncases);
}
