/* test_ref_loss_activation.c - the references of Level 2's Loss family,
 * its fused matmul-softmax gradient and its quantised activations
 * (reference/loss.c, activation.c), checked on small inputs computed by
 * hand; backward ops against the derivative of their forward op. */
#include <criterion/criterion.h>

#include "reference.h"
#include "ref_call.h"
#include "data_threads.h"

#include <npukb/dtype.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- Loss ----------------------------------------------------------------- */

/* CrossEntropyLossGrad by hand: row 0 has p = (1/4, 3/4) and target 1
 * (weight 1/2), row 1 target 0 = ignore_index (zeros). Sum with grad 2:
 * a = 2 * 1/2 = 1, x_grad = (1/4, -1/4); mean: W = 1/2, a = 2; none with
 * grad (3, 7): a = 3/2. */
Test(ref_loss, cross_entropy_loss_grad_by_hand)
{
	const float lp[4] = { logf(0.25f), logf(0.75f), logf(0.5f), logf(0.5f) };
	static const int64_t target[2] = { 1, 0 };
	static const float weight[2] = { 2, 0.5f }, g1[1] = { 2 }, g2[2] = { 3, 7 };
	const int64_t dx[2] = { 2, 2 }, d1[1] = { 1 }, d2[1] = { 2 };
	float out[4];
	char err[ERRLEN];
	const char *sum[] = { "reduction", "2", "ignore_index", "0", "label_smoothing", "0", NULL },
		   *mean[] = { "reduction", "1", "ignore_index", "0", "label_smoothing", "0", NULL },
		   *none[] = { "reduction", "0", "ignore_index", "0", "label_smoothing", "0", NULL };
	struct npukb_ref_tensor in[4] = { ref_tensor("grad_loss", NPUKB_DT_FLOAT32, (void *)g1, 1, d1),
					  ref_tensor("log_prob", NPUKB_DT_FLOAT32, (void *)lp, 2, dx),
					  ref_tensor("target", NPUKB_DT_INT64, (void *)target, 1, d2),
					  ref_tensor("weight", NPUKB_DT_FLOAT32, (void *)weight, 1, d2) };
	struct npukb_ref_tensor o = ref_tensor("x_grad", NPUKB_DT_FLOAT32, out, 2, dx);

	cr_assert_eq(ref_run("cross_entropy_loss_grad", in, 4, &o, 1, sum, err), 0, "%s", err);
	cr_expect_float_eq(out[0], 0.25f, 1e-7);
	cr_expect_float_eq(out[1], -0.25f, 1e-7);
	cr_expect_eq(out[2], 0.0f);
	cr_expect_eq(out[3], 0.0f);
	cr_assert_eq(ref_run("cross_entropy_loss_grad", in, 4, &o, 1, mean, err), 0, "%s", err);
	cr_expect_float_eq(out[0], 0.5f, 1e-7);
	cr_expect_float_eq(out[1], -0.5f, 1e-7);
	in[0] = ref_tensor("grad_loss", NPUKB_DT_FLOAT32, (void *)g2, 1, d2);
	cr_assert_eq(ref_run("cross_entropy_loss_grad", in, 4, &o, 1, none, err), 0, "%s", err);
	cr_expect_float_eq(out[0], 0.375f, 1e-7);
	cr_expect_float_eq(out[1], -0.375f, 1e-7);
	cr_expect_eq(out[3], 0.0f);
	/* a target outside [0, C) that is not ignore_index is an error */
	{
		static const int64_t bad[2] = { 1, 2 };
		in[2] = ref_tensor("target", NPUKB_DT_INT64, (void *)bad, 1, d2);
		cr_expect_lt(ref_run("cross_entropy_loss_grad", in, 4, &o, 1, none, err), 0);
	}
}

/* The loss of one row of logits z with class weights w, target t and label
 * smoothing ls (CrossEntropyLoss's definition, in double). */
static double ce_row_loss(const double *z, const double *w, int c, int t, double ls)
{
	double m = z[0], s = 0.0, loss = 0.0;
	for (int k = 1; k < c; k++)
		m = z[k] > m ? z[k] : m;
	for (int k = 0; k < c; k++)
		s += exp(z[k] - m);
	for (int k = 0; k < c; k++) {
		double lp = z[k] - m - log(s);
		loss -= (k == t ? (1.0 - ls) * w[k] : 0.0) * lp + ls / c * w[k] * lp;
	}
	return loss;
}

/* With label smoothing and weights: the gradient matches central finite
 * differences of the loss (h = 1e-5), scaled by grad_loss; and by hand, no
 * weights, p = (1/4, 3/4), target 0, ls 1/2: a = 1/2, b = 1/4, S = 2,
 * x_grad = (-1/2, 1/2). */
Test(ref_loss, cross_entropy_loss_grad_is_the_derivative)
{
	const double z[3] = { 0.3, -1.2, 0.8 }, w[3] = { 0.7, 1.3, 0.4 }, h = 1e-5;
	const float wf[3] = { 0.7f, 1.3f, 0.4f }, g[1] = { -1.5f };
	const int64_t target[1] = { 2 }, dx[2] = { 1, 3 }, d1[1] = { 1 }, d3[1] = { 3 }, none0[1] = { 0 };
	float lp[3], out[3];
	char err[ERRLEN];
	double m = 0.8, s = 0.0;
	const char *attrs[] = { "reduction", "0", "ignore_index", "-100", "label_smoothing", "0.2", NULL },
		   *half[] = { "reduction", "2", "ignore_index", "-100", "label_smoothing", "0.5", NULL };
	for (int k = 0; k < 3; k++)
		s += exp(z[k] - m);
	for (int k = 0; k < 3; k++)
		lp[k] = (float)(z[k] - m - log(s));
	{
		struct npukb_ref_tensor in[4] = { ref_tensor("grad_loss", NPUKB_DT_FLOAT32, (void *)g, 1, d1),
						  ref_tensor("log_prob", NPUKB_DT_FLOAT32, lp, 2, dx),
						  ref_tensor("target", NPUKB_DT_INT64, (void *)target, 1, d1),
						  ref_tensor("weight", NPUKB_DT_FLOAT32, (void *)wf, 1, d3) };
		struct npukb_ref_tensor o = ref_tensor("x_grad", NPUKB_DT_FLOAT32, out, 2, dx);
		cr_assert_eq(ref_run("cross_entropy_loss_grad", in, 4, &o, 1, attrs, err), 0, "%s", err);
	}
	for (int k = 0; k < 3; k++) {
		double zp[3] = { z[0], z[1], z[2] }, zm[3] = { z[0], z[1], z[2] }, fd;
		zp[k] += h;
		zm[k] -= h;
		fd = -1.5 * (ce_row_loss(zp, w, 3, 2, 0.2) - ce_row_loss(zm, w, 3, 2, 0.2)) / (2 * h);
		cr_expect(fabs(out[k] - fd) < 1e-5, "x_grad[%d] = %g, finite difference %g", k, out[k], fd);
	}
	{
		const float lp2[2] = { logf(0.25f), logf(0.75f) }, one[1] = { 1 };
		const int64_t t0[1] = { 0 }, d12[2] = { 1, 2 };
		struct npukb_ref_tensor in[4] = { ref_tensor("grad_loss", NPUKB_DT_FLOAT32, (void *)one, 1, d1),
						  ref_tensor("log_prob", NPUKB_DT_FLOAT32, (void *)lp2, 2, d12),
						  ref_tensor("target", NPUKB_DT_INT64, (void *)t0, 1, d1),
						  ref_tensor("weight", NPUKB_DT_FLOAT32, NULL, 1, none0) };
		struct npukb_ref_tensor o = ref_tensor("x_grad", NPUKB_DT_FLOAT32, out, 2, d12);
		cr_assert_eq(ref_run("cross_entropy_loss_grad", in, 4, &o, 1, half, err), 0, "%s", err);
		cr_expect_float_eq(out[0], -0.5f, 1e-7);
		cr_expect_float_eq(out[1], 0.5f, 1e-7);
	}
}

/* CrossEntropyLoss by hand: row 0 logits (0, ln 3), lse ln 4, log_prob
 * (ln 1/4, ln 3/4), target 1 (weight 1/2); row 1 logits (0, 0), lse ln 2,
 * target 0 = ignore_index. none: L = (ln(4/3) / 2, 0); sum: ln(4/3) / 2;
 * mean: W = 1/2, ln(4/3); zloss (scale 1/2) = (ln^2 4 + ln^2 2) / 4. */
Test(ref_loss, cross_entropy_loss_by_hand)
{
	const float x[4] = { 0, logf(3.0f), 0, 0 };
	static const int64_t target[2] = { 1, 0 };
	static const float weight[2] = { 2, 0.5f };
	const int64_t dx[2] = { 2, 2 }, d1[1] = { 1 }, d2[1] = { 2 };
	float loss[2], lp[4], zl[1], lse[2];
	char err[ERRLEN];
	const double l43 = log(4.0 / 3.0);
	const char *none[] = { "reduction", "0", "ignore_index", "0", "label_smoothing", "0",
			       "lse_square_scale_for_zloss", "0.5", "return_zloss", "true", NULL };
	const char *sum[] = { "reduction", "2", "ignore_index", "0", "label_smoothing", "0",
			      "lse_square_scale_for_zloss", "0.5", "return_zloss", "false", NULL };
	const char *mean[] = { "reduction", "1", "ignore_index", "0", "label_smoothing", "0",
			       "lse_square_scale_for_zloss", "0.5", "return_zloss", "false", NULL };
	struct npukb_ref_tensor in[3] = { ref_tensor("input", NPUKB_DT_FLOAT32, (void *)x, 2, dx),
					  ref_tensor("target", NPUKB_DT_INT64, (void *)target, 1, d2),
					  ref_tensor("weight", NPUKB_DT_FLOAT32, (void *)weight, 1, d2) };
	struct npukb_ref_tensor out[4] = { ref_tensor("loss", NPUKB_DT_FLOAT32, loss, 1, d2),
					   ref_tensor("log_prob", NPUKB_DT_FLOAT32, lp, 2, dx),
					   ref_tensor("zloss", NPUKB_DT_FLOAT32, zl, 1, d1),
					   ref_tensor("lse_for_zloss", NPUKB_DT_FLOAT32, lse, 1, d2) };

	cr_assert_eq(ref_run("cross_entropy_loss", in, 3, out, 4, none, err), 0, "%s", err);
	cr_expect_float_eq(loss[0], (float)(l43 / 2), 1e-6);
	cr_expect_eq(loss[1], 0.0f);
	cr_expect_float_eq(lp[0], (float)log(0.25), 1e-6);
	cr_expect_float_eq(lp[1], (float)log(0.75), 1e-6);
	cr_expect_float_eq(lp[2], (float)-log(2.0), 1e-6);
	cr_expect_float_eq(lse[0], (float)log(4.0), 1e-6);
	cr_expect_float_eq(lse[1], (float)log(2.0), 1e-6);
	cr_expect_float_eq(zl[0], (float)((log(4.0) * log(4.0) + log(2.0) * log(2.0)) / 4), 1e-6);
	out[0] = ref_tensor("loss", NPUKB_DT_FLOAT32, loss, 1, d1);
	cr_assert_eq(ref_run("cross_entropy_loss", in, 3, out, 4, sum, err), 0, "%s", err);
	cr_expect_float_eq(loss[0], (float)(l43 / 2), 1e-6);
	cr_expect_eq(zl[0], 0.0f);
	cr_assert_eq(ref_run("cross_entropy_loss", in, 3, out, 4, mean, err), 0, "%s", err);
	cr_expect_float_eq(loss[0], (float)l43, 1e-6);
}

/* Label smoothing 1/2, no weights, one row (0, ln 3), target 0:
 * L = 1/2 ln 4 + 1/4 (ln 4 + ln(4/3)); and the gradient reference is the
 * derivative of this one: central differences of the forward loss (sum,
 * weights, smoothing 0.2) against cross_entropy_loss_grad. */
Test(ref_loss, cross_entropy_loss_smoothing_and_its_gradient)
{
	float x[3] = { 0, logf(3.0f), 0 }, loss[1], lp[3], zl[1], lse[1], lpin[3], dx[3];
	static const int64_t t0[1] = { 0 }, t2[1] = { 2 };
	static const float w3[3] = { 0.7f, 1.3f, 0.4f }, one[1] = { 1 };
	const int64_t d1[1] = { 1 }, d12[2] = { 1, 2 }, d13[2] = { 1, 3 }, d3[1] = { 3 }, none0[1] = { 0 };
	char err[ERRLEN];
	const char *half[] = { "reduction", "2", "ignore_index", "-100", "label_smoothing", "0.5",
			       "lse_square_scale_for_zloss", "0", "return_zloss", "false", NULL };
	const char *fwd[] = { "reduction", "2", "ignore_index", "-100", "label_smoothing", "0.2",
			      "lse_square_scale_for_zloss", "0", "return_zloss", "false", NULL };
	const char *bwd[] = { "reduction", "2", "ignore_index", "-100", "label_smoothing", "0.2", NULL };
	struct npukb_ref_tensor in[3] = { ref_tensor("input", NPUKB_DT_FLOAT32, x, 2, d12),
					  ref_tensor("target", NPUKB_DT_INT64, (void *)t0, 1, d1),
					  ref_tensor("weight", NPUKB_DT_FLOAT32, NULL, 1, none0) };
	struct npukb_ref_tensor out[4] = { ref_tensor("loss", NPUKB_DT_FLOAT32, loss, 1, d1),
					   ref_tensor("log_prob", NPUKB_DT_FLOAT32, lp, 2, d12),
					   ref_tensor("zloss", NPUKB_DT_FLOAT32, zl, 1, d1),
					   ref_tensor("lse_for_zloss", NPUKB_DT_FLOAT32, lse, 1, d1) };

	cr_assert_eq(ref_run("cross_entropy_loss", in, 3, out, 4, half, err), 0, "%s", err);
	cr_expect_float_eq(loss[0], (float)(0.5 * log(4.0) + 0.25 * (log(4.0) + log(4.0 / 3.0))), 1e-6);

	/* three classes, weights, target 2 */
	x[0] = 0.3f;
	x[1] = -1.2f;
	x[2] = 0.8f;
	in[0] = ref_tensor("input", NPUKB_DT_FLOAT32, x, 2, d13);
	in[1] = ref_tensor("target", NPUKB_DT_INT64, (void *)t2, 1, d1);
	in[2] = ref_tensor("weight", NPUKB_DT_FLOAT32, (void *)w3, 1, d3);
	out[1] = ref_tensor("log_prob", NPUKB_DT_FLOAT32, lpin, 2, d13);
	cr_assert_eq(ref_run("cross_entropy_loss", in, 3, out, 4, fwd, err), 0, "%s", err);
	{
		struct npukb_ref_tensor gin[4] = { ref_tensor("grad_loss", NPUKB_DT_FLOAT32, (void *)one, 1, d1),
						   ref_tensor("log_prob", NPUKB_DT_FLOAT32, lpin, 2, d13),
						   ref_tensor("target", NPUKB_DT_INT64, (void *)t2, 1, d1),
						   ref_tensor("weight", NPUKB_DT_FLOAT32, (void *)w3, 1, d3) };
		struct npukb_ref_tensor g = ref_tensor("x_grad", NPUKB_DT_FLOAT32, dx, 2, d13);
		cr_assert_eq(ref_run("cross_entropy_loss_grad", gin, 4, &g, 1, bwd, err), 0, "%s", err);
	}
	for (int k = 0; k < 3; k++) {
		const float h = 1.0f / 256, keep = x[k];
		float lplus, lminus;
		x[k] = keep + h;
		cr_assert_eq(ref_run("cross_entropy_loss", in, 3, out, 4, fwd, err), 0, "%s", err);
		lplus = loss[0];
		x[k] = keep - h;
		cr_assert_eq(ref_run("cross_entropy_loss", in, 3, out, 4, fwd, err), 0, "%s", err);
		lminus = loss[0];
		x[k] = keep;
		cr_expect(fabs((lplus - lminus) / (2 * h) - dx[k]) < 2e-4,
			  "class %d: finite difference %g, gradient %g", k, (lplus - lminus) / (2 * h), dx[k]);
	}
}

/* ---- Activation ------------------------------------------------------------ */

/* InplaceFusedMatmulSoftmaxGrad by hand: g = (1, 2), v = I: d = (1, 2); s =
 * (1/4, 3/4): r = 7/4, out = (-3/16, 3/16). Then the softmax backward: with
 * s = softmax(z) and L(z) = sum_n d_n softmax(z)_n, out = dL/dz (central
 * differences, three classes). */
Test(ref_activation, fused_matmul_softmax_grad_is_the_softmax_backward)
{
	static const float g[2] = { 1, 2 }, v[4] = { 1, 0, 0, 1 }, s[2] = { 0.25f, 0.75f };
	static const float want[2] = { -0.1875f, 0.1875f };
	static const float g3[2] = { 0.5f, -1 }, v3[6] = { 1, 2, -1, 0.5f, 0.25f, -2 };
	const int64_t d12[2] = { 1, 2 }, d22[2] = { 2, 2 }, d13[2] = { 1, 3 }, d32[2] = { 3, 2 };
	const double z[3] = { 0.2, -0.5, 1.0 }, h = 1e-5;
	float out[3], s3[3];
	double dd[3], e[3], sum = 0.0;
	char err[ERRLEN];
	struct npukb_ref_tensor in[3] = { ref_tensor("grad_output", NPUKB_DT_FLOAT32, (void *)g, 2, d12),
					  ref_tensor("values", NPUKB_DT_FLOAT32, (void *)v, 2, d22),
					  ref_tensor("softmax_output", NPUKB_DT_FLOAT32, (void *)s, 2, d12) };
	struct npukb_ref_tensor o = ref_tensor("softmax_output", NPUKB_DT_FLOAT32, out, 2, d12);

	cr_assert_eq(ref_run("fused_matmul_softmax_grad", in, 3, &o, 1, NULL, err), 0, "%s", err);
	cr_expect_arr_eq(out, want, sizeof(want));

	for (int n = 0; n < 3; n++) {
		dd[n] = g3[0] * v3[2 * n] + g3[1] * v3[2 * n + 1];
		e[n] = exp(z[n]);
		sum += e[n];
	}
	for (int n = 0; n < 3; n++)
		s3[n] = (float)(e[n] / sum);
	in[0] = ref_tensor("grad_output", NPUKB_DT_FLOAT32, (void *)g3, 2, d12);
	in[1] = ref_tensor("values", NPUKB_DT_FLOAT32, (void *)v3, 2, d32);
	in[2] = ref_tensor("softmax_output", NPUKB_DT_FLOAT32, s3, 2, d13);
	o = ref_tensor("softmax_output", NPUKB_DT_FLOAT32, out, 2, d13);
	cr_assert_eq(ref_run("fused_matmul_softmax_grad", in, 3, &o, 1, NULL, err), 0, "%s", err);
	for (int k = 0; k < 3; k++) {
		double lp = 0.0, lm = 0.0, sp = 0.0, sm = 0.0;
		for (int n = 0; n < 3; n++) {
			sp += exp(z[n] + (n == k ? h : 0));
			sm += exp(z[n] - (n == k ? h : 0));
		}
		for (int n = 0; n < 3; n++) {
			lp += dd[n] * exp(z[n] + (n == k ? h : 0)) / sp;
			lm += dd[n] * exp(z[n] - (n == k ? h : 0)) / sm;
		}
		cr_expect(fabs(out[k] - (lp - lm) / (2 * h)) < 1e-5, "class %d: %g, finite difference %g", k,
			  out[k], (lp - lm) / (2 * h));
	}
	/* values must have grad_output's K columns */
	in[1] = ref_tensor("values", NPUKB_DT_FLOAT32, (void *)v3, 2, d22);
	cr_expect_lt(ref_run("fused_matmul_softmax_grad", in, 3, &o, 1, NULL, err), 0);
}

/* ---- Activation (quantised) ------------------------------------------------- */

/* gelu_quant with float32 x of shape [rows, d] and the given scale/offset. */
static int gelu_quant(const float *x, int64_t rows, int64_t d, float scale, float offset,
		      const char *tanh_form, const char *dynamic, int8_t *y, float *os, int64_t nos,
		      char *err)
{
	const int64_t dims[2] = { rows, d }, one[1] = { 1 }, osd[1] = { nos };
	float sc[1] = { scale }, off[1] = { offset };
	struct npukb_ref_tensor in[3] = {
		ref_tensor("x", NPUKB_DT_FLOAT32, (void *)x, 2, dims),
		ref_tensor("input_scale", NPUKB_DT_FLOAT32, sc, 1, one),
		ref_tensor("input_offset", NPUKB_DT_FLOAT32, off, 1, one),
	};
	struct npukb_ref_tensor out[2] = {
		ref_tensor("y", NPUKB_DT_INT8, y, 2, dims),
		ref_tensor("out_scale", NPUKB_DT_FLOAT32, os, 1, osd),
	};
	const char *kv[] = { "tanh", tanh_form, "dynamic", dynamic, NULL };
	return ref_run("gelu_quant", in, 3, out, 2, kv, err);
}

Test(ref_activation, gelu_quant_static_rounds_ties_to_even_and_clamps)
{
	/* tanh form, scale 2, offset 1: gelu(3) = 2.99636 -> 6.993 -> 7;
	 * gelu(-3) = -0.00364 -> 0.993 -> 1; 300 -> 601 -> 127. */
	static const float x1[4] = { 0.0f, 3.0f, -3.0f, 300.0f };
	static const int8_t want1[4] = { 1, 7, 1, 127 };
	/* scale 0.5, offset 0: gelu(x) = x exactly for x >= 41, so 20.5 and
	 * 21.5 are ties (to even: 20 and 22, not 21 and 22); -300 -> -0 -> 0;
	 * -600 * 0.5 would clamp but gelu(-600) is -0. */
	static const float x2[4] = { 41.0f, 43.0f, -300.0f, 45.0f };
	static const int8_t want2[4] = { 20, 22, 0, 22 };
	int8_t y[4];
	float os[1];
	char err[ERRLEN];
	cr_assert_eq(gelu_quant(x1, 2, 2, 2.0f, 1.0f, "true", "false", y, os, 1, err), 0, "%s", err);
	cr_expect_arr_eq(y, want1, sizeof(want1));
	cr_expect_float_eq(os[0], 0.5f, 1e-7f);
	cr_assert_eq(gelu_quant(x2, 1, 4, 0.5f, 0.0f, "true", "false", y, os, 1, err), 0, "%s", err);
	cr_expect_arr_eq(y, want2, sizeof(want2));
	cr_expect_float_eq(os[0], 2.0f, 1e-7f);
	/* a clamp below: gelu(-0.17) ~ -0.0740, * 2000 = -148 -> -128 */
	{
		static const float x3[1] = { -0.17f };
		cr_assert_eq(gelu_quant(x3, 1, 1, 2000.0f, 0.0f, "false", "false", y, os, 1, err), 0);
		cr_expect_eq(y[0], -128);
	}
}

Test(ref_activation, gelu_quant_erf_and_tanh_forms_differ)
{
	/* gelu(1) = 0.841345 (erf), 0.841192 (tanh); scale 119.46224 puts
	 * 100.5 between them: erf 100.509 -> 101, tanh 100.491 -> 100. */
	static const float x[1] = { 1.0f };
	int8_t y[1];
	float os[1];
	char err[ERRLEN];
	cr_assert_eq(gelu_quant(x, 1, 1, 119.46224f, 0.0f, "false", "false", y, os, 1, err), 0);
	cr_expect_eq(y[0], 101);
	cr_assert_eq(gelu_quant(x, 1, 1, 119.46224f, 0.0f, "true", "false", y, os, 1, err), 0);
	cr_expect_eq(y[0], 100);
}

Test(ref_activation, gelu_quant_dynamic_per_row)
{
	/* Row 0, erf form, scale 1: gelu = 0.841345, 1.954500, -0.004050, 0;
	 * out_scale = (1.9545 + 1e-6) / 127 = 0.0153897696; codes 54.67 -> 55,
	 * 126.99994 -> 127, -0.26 -> 0, 0. Row 1 (scale 1 too): 10 at the
	 * maximum, -10 * tiny: codes 127 and 0; gelu(5) = 4.9999986, code
	 * 63.49998 -> 63 (the + 1e-6 keeps it under the midpoint). */
	static const float x[8] = { 1.0f, 2.0f, -3.0f, 0.0f, 10.0f, -10.0f, 0.0f, 5.0f };
	static const int8_t want[8] = { 55, 127, 0, 0, 127, 0, 0, 63 };
	int8_t y[8];
	float os[2];
	char err[ERRLEN];
	cr_assert_eq(gelu_quant(x, 2, 4, 1.0f, 7.0f, "false", "true", y, os, 2, err), 0, "%s", err);
	cr_expect_arr_eq(y, want, sizeof(want));
	cr_expect_float_eq(os[0], 0.0153897696f, 1e-9f);
	cr_expect_float_eq(os[1], (float)((10.0 + 1e-6) / 127), 1e-9f);
	/* tanh form, scale 2: row maximum |gelu(0.5) * 2| = 0.691428 */
	{
		static const float x2[4] = { 0.5f, -1.0f, 0.25f, -2.0f };
		static const int8_t want2[4] = { 127, -58, 55, -17 };
		cr_assert_eq(gelu_quant(x2, 1, 4, 2.0f, 0.0f, "true", "true", y, os, 1, err), 0, "%s", err);
		cr_expect_arr_eq(y, want2, sizeof(want2));
		cr_expect_float_eq(os[0], 0.005444323f, 1e-9f);
	}
	/* out_scale must have one element per row */
	cr_expect_neq(gelu_quant(x, 2, 4, 1.0f, 0.0f, "false", "true", y, os, 1, err), 0);
}

/* gelu_quant element by element, as the formula reads (the per-element
 * loop the reference had): codes into y, out_scale into os. */
static double gq_gelu_ref(double v, int tanh_form)
{
	if (tanh_form) {
		const double u = 1.5957691216057308 * (v + 0.044715 * v * v * v);
		return v * (u >= 0 ? 1.0 / (1.0 + exp(-u)) : exp(u) / (1.0 + exp(u)));
	}
	return 0.5 * v * erfc(-v * M_SQRT1_2);
}

static double gq_code(double v)
{
	const double q = nearbyint(v);
	return q < -128.0 ? -128.0 : q > 127.0 ? 127.0 : q;
}

static void gq_each(enum npukb_dtype dt, const void *x, size_t rows, size_t d, double scale,
		    double offset, int tanh_form, int dynamic, int8_t *y, float *os)
{
	for (size_t r = 0; r < (dynamic ? rows : 1); r++) {
		const size_t base = dynamic ? r * d : 0, n = dynamic ? d : rows * d;
		double amax = 0.0, inv;
		for (size_t j = 0; j < n; j++) {
			const double g = gq_gelu_ref(npukb_load_as_double(dt, x, base + j), tanh_form) * scale;
			if (dynamic)
				amax = fabs(g) > amax ? fabs(g) : amax;
			else
				npukb_store_from_double(NPUKB_DT_INT8, y, base + j, gq_code(g + offset));
		}
		if (!dynamic) {
			npukb_store_from_double(NPUKB_DT_FLOAT32, os, 0, 1.0 / scale);
			break;
		}
		inv = 127.0 / (amax + 1e-6);
		npukb_store_from_double(NPUKB_DT_FLOAT32, os, r, 1.0 / inv);
		for (size_t j = 0; j < n; j++)
			npukb_store_from_double(
				NPUKB_DT_INT8, y, base + j,
				gq_code(gq_gelu_ref(npukb_load_as_double(dt, x, base + j), tanh_form) * scale * inv));
	}
}

/* The reference's parts (rows or element ranges on 1 or 4 threads, gelu
 * kept between the maximum and the codes, a table for 16-bit inputs) give
 * the bytes of the element-by-element formula: float16 and bfloat16 (every
 * bit pattern, tabulated) and float32 x, both forms, both modes. */
Test(ref_activation, gelu_quant_parts_match_each_element)
{
	const size_t rows = 4 * 256, d = 1024, n = rows * d;
	const enum npukb_dtype dts[3] = { NPUKB_DT_FLOAT16, NPUKB_DT_BFLOAT16, NPUKB_DT_FLOAT32 };
	void *x = malloc(n * 4);
	int8_t *y = malloc(n), *want = malloc(n);
	float *os = malloc(rows * sizeof *os), *os_want = malloc(rows * sizeof *os);
	char err[ERRLEN];
	const int64_t dims[2] = { (int64_t)rows, (int64_t)d }, one[1] = { 1 };
	cr_assert(x && y && want && os && os_want);
	for (int t = 0; t < 3; t++) {
		const enum npukb_dtype dt = dts[t];
		for (size_t i = 0; i < n; i++) {
			if (dt == NPUKB_DT_FLOAT32)
				((float *)x)[i] = (float)((double)(i * 2654435761u % 100003) / 12500.0 - 4.0);
			else /* odd: every 65,536 run holds every pattern, NaNs and infinities too */
				((uint16_t *)x)[i] = (uint16_t)(i * 40503u);
		}
		for (int form = 0; form < 2; form++)
			for (int dyn = 0; dyn < 2; dyn++)
				for (int threads = 1; threads <= 4; threads += 3) {
					float sc[1] = { dyn ? 1.5f : 37.0f }, off[1] = { dyn ? 0.0f : -3.0f };
					const int64_t osd[1] = { dyn ? (int64_t)rows : 1 };
					struct npukb_ref_tensor in[3] = {
						ref_tensor("x", dt, x, 2, dims),
						ref_tensor("input_scale", NPUKB_DT_FLOAT32, sc, 1, one),
						ref_tensor("input_offset", NPUKB_DT_FLOAT32, off, 1, one),
					};
					struct npukb_ref_tensor out[2] = {
						ref_tensor("y", NPUKB_DT_INT8, y, 2, dims),
						ref_tensor("out_scale", NPUKB_DT_FLOAT32, os, 1, osd),
					};
					const char *kv[] = { "tanh", form ? "true" : "false", "dynamic",
							     dyn ? "true" : "false", NULL };
					memset(y, 0x55, n);
					npukb_set_data_threads((unsigned)threads);
					cr_assert_eq(ref_run("gelu_quant", in, 3, out, 2, kv, err), 0, "%s", err);
					npukb_set_data_threads(0);
					gq_each(dt, x, rows, d, sc[0], off[0], form, dyn, want, os_want);
					cr_expect_eq(memcmp(y, want, n), 0,
						     "dtype %d, tanh %d, dynamic %d, %d threads: codes differ",
						     (int)dt, form, dyn, threads);
					cr_expect_eq(memcmp(os, os_want, (dyn ? rows : 1) * sizeof *os), 0,
						     "dtype %d, tanh %d, dynamic %d, %d threads: out_scale differs",
						     (int)dt, form, dyn, threads);
				}
	}
	free(x);
	free(y);
	free(want);
	free(os);
	free(os_want);
}

/* dequant_swiglu_quant's seven inputs; a NULL data pointer leaves the
 * input out (no elements). */
struct dsq_in {
	const void *x, *ws, *as, *bias, *qs, *qo, *gi;
	enum npukb_dtype xdt;
	int64_t rows, w, groups;
};

static int dequant_swiglu_quant(const struct dsq_in *d, const char *left, const char *dynamic,
				int8_t *y, float *scale, char *err)
{
	const int64_t xd[2] = { d->rows, d->w }, wsd[2] = { d->groups, d->w },
		      asd[2] = { d->rows, 1 }, qd[2] = { d->groups, d->w / 2 }, gd[1] = { d->groups },
		      yd[2] = { d->rows, d->w / 2 }, sd[1] = { d->rows }, none[1] = { 0 };
	struct npukb_ref_tensor in[7] = {
		ref_tensor("x", d->xdt, (void *)d->x, 2, xd),
		ref_tensor("weight_scale", NPUKB_DT_FLOAT32, (void *)d->ws, d->ws ? 2 : 1,
			   d->ws ? wsd : none),
		ref_tensor("activate_scale", NPUKB_DT_FLOAT32, (void *)d->as, d->as ? 2 : 1,
			   d->as ? asd : none),
		ref_tensor("bias", d->xdt, (void *)d->bias, 1, d->bias ? &xd[1] : none),
		ref_tensor("quant_scale", NPUKB_DT_FLOAT32, (void *)d->qs, 2, qd),
		ref_tensor("quant_offset", NPUKB_DT_FLOAT32, (void *)d->qo, d->qo ? 2 : 1,
			   d->qo ? qd : none),
		ref_tensor("group_index", NPUKB_DT_INT32, (void *)d->gi, 1, d->gi ? gd : none),
	};
	struct npukb_ref_tensor out[2] = { ref_tensor("y", NPUKB_DT_INT8, y, 2, yd),
					   ref_tensor("scale", NPUKB_DT_FLOAT32, scale, 1, sd) };
	const char *kv[] = { "activate_left", left, "dynamic", dynamic, NULL };
	return ref_run("dequant_swiglu_quant", in, 7, out, 2, kv, err);
}

/* int32 x [3, 4] (h 2) in groups of 1, 0 and 2 rows (group 1 empty: its
 * weight_scale of 9s must not be used), static, silu of the second half b
 * (silu(40) is 40 in double, silu(-40) ~ -1.7e-16):
 *   row 0, group 0: v = (x + bias) * 1 = (2, 1, 40, -40): s = (80, ~0);
 *     / (1, 1) + (0.5, 0): 80.5 -> 80 (tie to even), ~0 -> 0
 *   row 1, group 2: v = (4, -4, 20, 20) * (0.5, 0.5, 2, 2) * 1 =
 *     (2, -2, 40, 40): s = (80, -80); / (2, 4) + (1.5, -0.5): 41.5 -> 42,
 *     -20.5 -> -20
 *   row 2, group 2: v = (100, 0, 80, 10) * (0.5, 0.5, 2, 2) * 0.5 =
 *     (25, 0, 80, 10): s = (2000, 0); 1001.5 -> 127 (clamped), -0.5 -> 0
 * and scale is 1 per row. */
Test(ref_activation, dequant_swiglu_quant_static_groups)
{
	static const int32_t x[12] = { 1, 2, 40, -40, 3, -3, 20, 20, 99, 1, 80, 10 },
			     bias[4] = { 1, -1, 0, 0 }, gi[3] = { 1, 0, 2 }, short_gi[3] = { 1, 0, 1 };
	static const float ws[12] = { 1, 1, 1, 1, 9, 9, 9, 9, 0.5f, 0.5f, 2, 2 },
			   as[3] = { 1, 1, 0.5f }, qs[6] = { 1, 1, 9, 9, 2, 4 },
			   qo[6] = { 0.5f, 0, 9, 9, 1.5f, -0.5f }, ones[3] = { 1, 1, 1 };
	static const int8_t want[6] = { 80, 0, 42, -20, 127, 0 };
	struct dsq_in d = { x, ws, as, bias, qs, qo, gi, NPUKB_DT_INT32, 3, 4, 3 };
	int8_t y[6];
	float scale[3];
	char err[ERRLEN];

	cr_assert_eq(dequant_swiglu_quant(&d, "false", "false", y, scale, err), 0, "%s", err);
	cr_expect_arr_eq(y, want, sizeof(want));
	cr_expect_arr_eq(scale, ones, sizeof(ones));
	/* group_index must cover the rows exactly */
	d.gi = short_gi;
	cr_expect_lt(dequant_swiglu_quant(&d, "false", "false", y, scale, err), 0);
}

/* float32 x [2, 4], one group, dynamic, silu of the first half a:
 *   row 0: a = (40, -40), b = (1, 2): s = (40, ~0), m = s * (0.5, 1) =
 *     (20, ~0): scale 20 / 127, codes 127, 0
 *   row 1: a = (40, 40), b = (-1, 0.5): s = m / (0.5, 1) = (-40, 20),
 *     m = (-20, 20): codes -127, 127
 * and the same x with silu of b instead gives row 0 s = (40 silu(1),
 * -40 silu(2)), |m| largest in the second: code -127. */
Test(ref_activation, dequant_swiglu_quant_dynamic_rows)
{
	static const float x[8] = { 40, -40, 1, 2, 40, 40, -1, 0.5f }, qs[2] = { 0.5f, 1 };
	static const int8_t want[4] = { 127, 0, -127, 127 };
	struct dsq_in d = { x, NULL, NULL, NULL, qs, NULL, NULL, NPUKB_DT_FLOAT32, 2, 4, 1 };
	int8_t y[4];
	float scale[2];
	char err[ERRLEN];

	cr_assert_eq(dequant_swiglu_quant(&d, "true", "true", y, scale, err), 0, "%s", err);
	cr_expect_arr_eq(y, want, sizeof(want));
	cr_expect_float_eq(scale[0], (float)(20.0 / 127), 1e-9f);
	cr_expect_float_eq(scale[1], (float)(20.0 / 127), 1e-9f);
	cr_assert_eq(dequant_swiglu_quant(&d, "false", "true", y, scale, err), 0, "%s", err);
	cr_expect_eq(y[1], -127);
	cr_expect_float_eq(scale[0], (float)(80.0 / (1.0 + exp(-2.0)) / 127), 1e-7f);
}

/* Softmax over the last axis, row by row, against the definition: the rows
 * of x = (0, ln 3) and (ln 2, ln 2) give (1/4, 3/4) and (1/2, 1/2). Then
 * 2^22 rows of 3 (enough to be cut across threads): every row's value is
 * its own (row r holds (r mod 7, 0, -1)), whatever part it fell in. */
Test(ref_activation, softmax_last_row_by_row, .timeout = 60)
{
	const float x[4] = { 0.0f, (float)log(3.0), (float)log(2.0), (float)log(2.0) };
	const int64_t d22[2] = { 2, 2 }, dbig[2] = { 1 << 22, 3 };
	const size_t rows = (size_t)1 << 22;
	float out[4];
	char err[ERRLEN];
	struct npukb_ref_tensor in = ref_tensor("x", NPUKB_DT_FLOAT32, (void *)x, 2, d22);
	struct npukb_ref_tensor o = ref_tensor("x", NPUKB_DT_FLOAT32, out, 2, d22);

	cr_assert_eq(ref_run("softmax_last", &in, 1, &o, 1, NULL, err), 0, "%s", err);
	cr_expect_float_eq(out[0], 0.25f, 1e-6f);
	cr_expect_float_eq(out[1], 0.75f, 1e-6f);
	cr_expect_float_eq(out[2], 0.5f, 1e-6f);
	cr_expect_float_eq(out[3], 0.5f, 1e-6f);

	float *bx = malloc(rows * 3 * sizeof *bx), *bo = malloc(rows * 3 * sizeof *bo);
	cr_assert(bx && bo);
	for (size_t r = 0; r < rows; r++) {
		bx[3 * r] = (float)(r % 7);
		bx[3 * r + 1] = 0.0f;
		bx[3 * r + 2] = -1.0f;
	}
	in = ref_tensor("x", NPUKB_DT_FLOAT32, bx, 2, dbig);
	o = ref_tensor("x", NPUKB_DT_FLOAT32, bo, 2, dbig);
	cr_assert_eq(ref_run("softmax_last", &in, 1, &o, 1, NULL, err), 0, "%s", err);
	for (size_t r = 0; r < rows; r++) {
		double a = exp((double)(r % 7)), s = a + 1.0 + exp(-1.0);
		if (bo[3 * r] != (float)(a / s) || bo[3 * r + 1] != (float)(1.0 / s) ||
		    bo[3 * r + 2] != (float)(exp(-1.0) / s))
			cr_assert_fail("row %zu: %g %g %g", r, bo[3 * r], bo[3 * r + 1], bo[3 * r + 2]);
	}
	free(bx);
	free(bo);
}

/* Softmax rows longer than a block of 1024 (stored a block per call) give
 * the definition's bits element by element: max, the sum of exp(x - max)
 * in order, each exp divided by it and rounded once; float32, float16 and
 * bfloat16, random values. */
Test(ref_activation, softmax_last_long_rows_match_each_element)
{
	enum { ROWS = 4, LEN = 2 * 1024 + 501, N = ROWS * LEN };
	const int64_t dims[2] = { ROWS, LEN };
	const enum npukb_dtype dts[3] = { NPUKB_DT_FLOAT32, NPUKB_DT_FLOAT16, NPUKB_DT_BFLOAT16 };
	static unsigned char x[4 * N], y[4 * N], want[4 * N];
	uint64_t s = UINT64_C(0x2545f4914f6cdd1d);
	char err[ERRLEN];

	for (int d = 0; d < 3; d++) {
		const enum npukb_dtype dt = dts[d];
		for (size_t i = 0; i < N; i++) {
			s ^= s << 13;
			s ^= s >> 7;
			s ^= s << 17;
			npukb_store_from_double(dt, x, i, (double)(s >> 11) * 0x1p-53 * 16.0 - 8.0);
		}
		struct npukb_ref_tensor in = ref_tensor("x", dt, x, 2, dims), o = ref_tensor("x", dt, y, 2, dims);
		cr_assert_eq(ref_run("softmax_last", &in, 1, &o, 1, NULL, err), 0, "%s", err);
		for (size_t r = 0; r < ROWS; r++) {
			double m = -INFINITY, sum = 0.0;
			for (size_t k = 0; k < LEN; k++) {
				const double v = npukb_load_as_double(dt, x, r * LEN + k);
				m = v > m ? v : m;
			}
			for (size_t k = 0; k < LEN; k++)
				sum += exp(npukb_load_as_double(dt, x, r * LEN + k) - m);
			for (size_t k = 0; k < LEN; k++)
				npukb_store_from_double(dt, want, r * LEN + k,
							exp(npukb_load_as_double(dt, x, r * LEN + k) - m) / sum);
		}
		cr_expect_eq(memcmp(y, want, N * npukb_dtype_size(dt)), 0, "%s", npukb_dtype_name(dt));
	}
}
