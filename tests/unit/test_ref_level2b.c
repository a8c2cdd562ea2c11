/* test_ref_level2b.c - the references of Level 2's Mask, TensorMove and
 * Norm families (reference/mask.c, tensor_move.c, norm.c), checked on small
 * inputs computed by hand. The Loss and Activation families are in
 * test_ref_loss_activation.c. */
#include <criterion/criterion.h>

#include "reference.h"
#include "ref_call.h"

#include <npukb/dtype.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- Mask ----------------------------------------------------------------- */

Test(ref_mask, tril_and_triu_keep_their_triangle_per_matrix)
{
	/* Two 2 x 3 matrices. */
	static const float x[12] = { 1, 2, 3, 4, 5, 6, -1, -2, -3, -4, -5, -6 };
	static const float tril0[12] = { 1, 0, 0, 4, 5, 0, -1, 0, 0, -4, -5, 0 };
	static const float trilm1[12] = { 0, 0, 0, 4, 0, 0, 0, 0, 0, -4, 0, 0 };
	static const float triu1[12] = { 0, 2, 3, 0, 0, 6, 0, -2, -3, 0, 0, -6 };
	const int64_t dims[3] = { 2, 2, 3 };
	float y[12];
	char err[ERRLEN];
	struct npukb_ref_tensor in = ref_tensor("x", NPUKB_DT_FLOAT32, (void *)x, 3, dims);
	struct npukb_ref_tensor out = ref_tensor("y", NPUKB_DT_FLOAT32, y, 3, dims);
	const char *d0[] = { "diagonal", "0", NULL }, *dm1[] = { "diagonal", "-1", NULL },
		   *d1[] = { "diagonal", "1", NULL };

	cr_assert_eq(ref_run("tril", &in, 1, &out, 1, d0, err), 0, "%s", err);
	cr_expect_arr_eq(y, tril0, sizeof(y));
	cr_assert_eq(ref_run("tril", &in, 1, &out, 1, dm1, err), 0, "%s", err);
	cr_expect_arr_eq(y, trilm1, sizeof(y));
	cr_assert_eq(ref_run("triu", &in, 1, &out, 1, d1, err), 0, "%s", err);
	cr_expect_arr_eq(y, triu1, sizeof(y));
	/* A vector has no matrix; no diagonal is an error too. */
	in.shape.rank = 1;
	cr_expect_lt(ref_run("tril", &in, 1, &out, 1, d0, err), 0);
	in.shape.rank = 3;
	cr_expect_lt(ref_run("triu", &in, 1, &out, 1, NULL, err), 0);
}

/* ---- Norm ----------------------------------------------------------------- */

/* Rows (3, 4) and (0, 0) with gamma (1, 2), epsilon 0.5: mean of squares
 * 12.5 and 0, rstd 1/sqrt(13) and 1/sqrt(0.5). */
#define RMS_X { 3, 4, 0, 0 }
#define RMS_GAMMA { 1, 2 }

static void expect_rms(const float *y, const float *rstd)
{
	const double r0 = 1.0 / sqrt(13.0);
	cr_expect_float_eq(rstd[0], (float)r0, 1e-7);
	cr_expect_float_eq(rstd[1], (float)(1.0 / sqrt(0.5)), 1e-7);
	cr_expect_float_eq(y[0], (float)(3 * r0), 1e-7);
	cr_expect_float_eq(y[1], (float)(8 * r0), 1e-7);
	cr_expect_eq(y[2], 0.0f);
	cr_expect_eq(y[3], 0.0f);
}

Test(ref_norm, rms_norm_rows)
{
	static const float x[4] = RMS_X, gamma[2] = RMS_GAMMA;
	const int64_t dx[2] = { 2, 2 }, dg[1] = { 2 }, dr[2] = { 2, 1 };
	float y[4], rstd[2];
	char err[ERRLEN];
	struct npukb_ref_tensor in[2] = { ref_tensor("x", NPUKB_DT_FLOAT32, (void *)x, 2, dx),
					  ref_tensor("gamma", NPUKB_DT_FLOAT32, (void *)gamma, 1, dg) };
	struct npukb_ref_tensor out[2] = { ref_tensor("y", NPUKB_DT_FLOAT32, y, 2, dx),
					   ref_tensor("rstd", NPUKB_DT_FLOAT32, rstd, 2, dr) };
	const char *eps[] = { "epsilon", "0.5", NULL };

	cr_assert_eq(ref_run("rms_norm", in, 2, out, 2, eps, err), 0, "%s", err);
	expect_rms(y, rstd);
	/* gamma must divide x into rows; rstd holds one value per row */
	in[1].numel = 3;
	cr_expect_lt(ref_run("rms_norm", in, 2, out, 2, eps, err), 0);
	in[1].numel = 2;
	out[1].numel = 1;
	cr_expect_lt(ref_run("rms_norm", in, 2, out, 2, eps, err), 0);
}

Test(ref_norm, add_rms_norm_and_in_place_form)
{
	static const float x1[4] = { 1, 1, -2, 0.5f }, x2[4] = { 2, 3, 2, -0.5f },
			   gamma[2] = RMS_GAMMA;
	const int64_t dx[2] = { 2, 2 }, dg[1] = { 2 }, dr[2] = { 2, 1 };
	static const float sum[4] = RMS_X;
	float y[4], rstd[2], s[4];
	char err[ERRLEN];
	const char *eps[] = { "epsilon", "0.5", NULL };
	struct npukb_ref_tensor a_in[3] = { ref_tensor("x1", NPUKB_DT_FLOAT32, (void *)x1, 2, dx),
					    ref_tensor("x2", NPUKB_DT_FLOAT32, (void *)x2, 2, dx),
					    ref_tensor("gamma", NPUKB_DT_FLOAT32, (void *)gamma, 1, dg) };
	struct npukb_ref_tensor a_out[3] = { ref_tensor("y", NPUKB_DT_FLOAT32, y, 2, dx),
					     ref_tensor("rstd", NPUKB_DT_FLOAT32, rstd, 2, dr),
					     ref_tensor("x", NPUKB_DT_FLOAT32, s, 2, dx) };
	/* in place: inputs gamma, x1, x2; outputs x1 (y), x2 (the sum), rstd */
	struct npukb_ref_tensor i_in[3] = { a_in[2], a_in[0], a_in[1] };
	struct npukb_ref_tensor i_out[3] = { a_out[0], a_out[2], a_out[1] };

	cr_assert_eq(ref_run("add_rms_norm", a_in, 3, a_out, 3, eps, err), 0, "%s", err);
	expect_rms(y, rstd);
	cr_expect_arr_eq(s, sum, sizeof(s));
	memset(y, 0, sizeof(y));
	memset(s, 0, sizeof(s));
	memset(rstd, 0, sizeof(rstd));
	cr_assert_eq(ref_run("inplace_add_rms_norm", i_in, 3, i_out, 3, eps, err), 0, "%s", err);
	expect_rms(y, rstd);
	cr_expect_arr_eq(s, sum, sizeof(s));
}

Test(ref_norm, add_rms_norm_quant_codes_per_column)
{
	/* Rows of x = x1 + x2: [1, -1, 1, -1] (rms 1) and [2, 2, -2, -2] (rms
	 * 2), epsilon 0, so y = x / rms * gamma = [2, -0.5, 1, 3] and
	 * [2, 0.5, -1, 3]. y / scales + zeros: [9, -4.5, 131, 6] and
	 * [9, 3.5, -125, 6]: ties to even (-4, 4) and the clamp (127). */
	static const float x1[8] = { 0.5f, -1.5f, 2, 0, 1, 1, -1, -1 };
	static const float x2[8] = { 0.5f, 0.5f, -1, -1, 1, 1, -1, -1 };
	static const float gamma[4] = { 2, 0.5f, 1, -3 };
	static const float scales[4] = { 0.25f, 0.125f, 0.0078125f, 0.5f };
	static const float zeros[4] = { 1, -0.5f, 3, 0 };
	static const int8_t want_div[8] = { 9, -4, 127, 6, 9, 4, -125, 6 };
	/* y * scales + zeros, row 0: [1.5, -0.5625, 3.0078125, 1.5] */
	static const int8_t want_mul[4] = { 2, -1, 3, 2 };
	static const float sum[8] = { 1, -1, 1, -1, 2, 2, -2, -2 };
	const int64_t dx[2] = { 2, 4 }, dg[1] = { 4 };
	int8_t y[8];
	float s[8];
	char err[ERRLEN];
	const char *div[] = { "epsilon", "0", "div_mode", "true", NULL };
	const char *mul[] = { "epsilon", "0", "div_mode", "false", NULL };
	struct npukb_ref_tensor in[5] = { ref_tensor("x1", NPUKB_DT_FLOAT32, (void *)x1, 2, dx),
					  ref_tensor("x2", NPUKB_DT_FLOAT32, (void *)x2, 2, dx),
					  ref_tensor("gamma", NPUKB_DT_FLOAT32, (void *)gamma, 1, dg),
					  ref_tensor("scales1", NPUKB_DT_FLOAT32, (void *)scales, 1, dg),
					  ref_tensor("zero_points1", NPUKB_DT_FLOAT32, (void *)zeros, 1, dg) };
	struct npukb_ref_tensor out[2] = { ref_tensor("y1", NPUKB_DT_INT8, y, 2, dx),
					   ref_tensor("x", NPUKB_DT_FLOAT32, s, 2, dx) };

	cr_assert_eq(ref_run("add_rms_norm_quant", in, 5, out, 2, div, err), 0, "%s", err);
	cr_expect_arr_eq(y, want_div, sizeof(want_div));
	cr_expect_arr_eq(s, sum, sizeof(s));
	cr_assert_eq(ref_run("add_rms_norm_quant", in, 5, out, 2, mul, err), 0, "%s", err);
	cr_expect_arr_eq(y, want_mul, sizeof(want_mul));
	/* scales must cover gamma's elements */
	in[3].numel = 3;
	cr_expect_neq(ref_run("add_rms_norm_quant", in, 5, out, 2, div, err), 0);
}

/* Four entries at (1, 0), (0, 2), (1, 0), (0, 0) (flat 3, 2, 3, 0 over the
 * size (2, 3)) coalesce to (0, 0), (0, 2), (1, 0) in that order, the two
 * (1, 0) entries' values adding up; int32 values add exactly (2^24 + 1
 * twice is 2^25 + 2, which a float sum would round); a unique_len of the
 * wrong size is refused. */
Test(ref_tensor_move, coalesce_sparse_sorts_and_sums)
{
	static const int64_t idx[8] = { 1, 0, 0, 2, 1, 0, 0, 0 }, ul[3] = { 0, 2, 3 },
			     inv[4] = { 2, 1, 2, 0 };
	static const float val[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	static const int32_t ival[8] = { 16777217, 1, 0, 0, 16777217, 1, 0, 0 };
	static const int64_t want_idx[6] = { 0, 0, 0, 2, 1, 0 };
	static const float want_val[6] = { 7, 8, 3, 4, 6, 8 };
	static const int32_t want_ival[6] = { 0, 0, 0, 0, 33554434, 2 };
	const int64_t d42[2] = { 4, 2 }, d3[1] = { 3 }, d4[1] = { 4 }, d32[2] = { 3, 2 },
		      d2[1] = { 2 };
	int64_t nidx[6];
	float nval[6];
	int32_t nival[6];
	char err[ERRLEN];
	struct npukb_ref_tensor in[4] = { ref_tensor("indices", NPUKB_DT_INT64, (void *)idx, 2, d42),
					  ref_tensor("unique_len", NPUKB_DT_INT64, (void *)ul, 1, d3),
					  ref_tensor("unique_indices", NPUKB_DT_INT64, (void *)inv, 1, d4),
					  ref_tensor("values", NPUKB_DT_FLOAT32, (void *)val, 2, d42) };
	struct npukb_ref_tensor out[2] = { ref_tensor("new_indices", NPUKB_DT_INT64, nidx, 2, d32),
					   ref_tensor("new_value", NPUKB_DT_FLOAT32, nval, 2, d32) };

	cr_assert_eq(ref_run("coalesce_sparse", in, 4, out, 2, NULL, err), 0, "%s", err);
	cr_expect_arr_eq(nidx, want_idx, sizeof(want_idx));
	cr_expect_arr_eq(nval, want_val, sizeof(want_val));
	in[3] = ref_tensor("values", NPUKB_DT_INT32, (void *)ival, 2, d42);
	out[1] = ref_tensor("new_value", NPUKB_DT_INT32, nival, 2, d32);
	cr_assert_eq(ref_run("coalesce_sparse", in, 4, out, 2, NULL, err), 0, "%s", err);
	cr_expect_arr_eq(nival, want_ival, sizeof(want_ival));
	in[1] = ref_tensor("unique_len", NPUKB_DT_INT64, (void *)ul, 1, d2);
	cr_expect_lt(ref_run("coalesce_sparse", in, 4, out, 2, NULL, err), 0);
}

/* ---- TensorMove ----------------------------------------------------------- */

Test(ref_tensor_move, reverse_sequence_along_either_order_of_dims)
{
	/* x[2][3]: seq_dim 1, batch_dim 0, lengths (3, 2). */
	static const int32_t x[6] = { 1, 2, 3, 4, 5, 6 };
	static const int32_t want[6] = { 3, 2, 1, 5, 4, 6 };
	/* the same x with seq_dim 0, batch_dim 1: lengths (2, 1, 2) per column */
	static const int32_t want_t[6] = { 4, 2, 6, 1, 5, 3 };
	const int64_t dx[2] = { 2, 3 }, d2[1] = { 2 }, d3[1] = { 3 };
	int64_t len[3] = { 3, 2, 0 }, len_t[3] = { 2, 1, 2 };
	int32_t y[6];
	char err[ERRLEN];
	struct npukb_ref_tensor in[2] = { ref_tensor("x", NPUKB_DT_INT32, (void *)x, 2, dx),
					  ref_tensor("seq_lengths", NPUKB_DT_INT64, len, 1, d2) };
	struct npukb_ref_tensor out = ref_tensor("y", NPUKB_DT_INT32, y, 2, dx);
	const char *a[] = { "seq_dim", "1", "batch_dim", "0", NULL };
	const char *b[] = { "seq_dim", "0", "batch_dim", "1", NULL };

	cr_assert_eq(ref_run("reverse_sequence", in, 2, &out, 1, a, err), 0, "%s", err);
	cr_expect_arr_eq(y, want, sizeof(y));
	in[1] = ref_tensor("seq_lengths", NPUKB_DT_INT64, len_t, 1, d3);
	cr_assert_eq(ref_run("reverse_sequence", in, 2, &out, 1, b, err), 0, "%s", err);
	cr_expect_arr_eq(y, want_t, sizeof(y));
	/* a length beyond the sequence is refused */
	len_t[1] = 3;
	cr_expect_lt(ref_run("reverse_sequence", in, 2, &out, 1, b, err), 0);
}

Test(ref_tensor_move, expand_broadcasts_from_the_last_dimension)
{
	static const int64_t x[3] = { 7, -8, 9 };
	static const int64_t want[6] = { 7, -8, 9, 7, -8, 9 };
	static const int64_t col[2] = { 5, 6 };
	static const int64_t want_col[6] = { 5, 5, 5, 6, 6, 6 };
	const int64_t dx[1] = { 3 }, dy[2] = { 2, 3 }, dc[2] = { 2, 1 }, bad[2] = { 3, 2 };
	int64_t y[6];
	char err[ERRLEN];
	struct npukb_ref_tensor in = ref_tensor("x", NPUKB_DT_INT64, (void *)x, 1, dx);
	struct npukb_ref_tensor out = ref_tensor("y", NPUKB_DT_INT64, y, 2, dy);

	cr_assert_eq(ref_run("expand", &in, 1, &out, 1, NULL, err), 0, "%s", err);
	cr_expect_arr_eq(y, want, sizeof(y));
	in = ref_tensor("x", NPUKB_DT_INT64, (void *)col, 2, dc);
	cr_assert_eq(ref_run("expand", &in, 1, &out, 1, NULL, err), 0, "%s", err);
	cr_expect_arr_eq(y, want_col, sizeof(y));
	in = ref_tensor("x", NPUKB_DT_INT64, (void *)x, 1, dx);
	out = ref_tensor("y", NPUKB_DT_INT64, y, 2, bad);
	cr_expect_lt(ref_run("expand", &in, 1, &out, 1, NULL, err), 0);
}

Test(ref_tensor_move, feeds_repeat_interleaves_then_zero_pads)
{
	static const float x[6] = { 1, 2, 3, 4, 5, 6 };
	static const float want[10] = { 1, 2, 1, 2, 5, 6, 0, 0, 0, 0 };
	int32_t times[3] = { 2, 0, 1 };
	const int64_t dx[2] = { 3, 2 }, dt[1] = { 3 }, dy[2] = { 5, 2 };
	float y[10];
	char err[ERRLEN];
	struct npukb_ref_tensor in[2] = { ref_tensor("feeds", NPUKB_DT_FLOAT32, (void *)x, 2, dx),
					  ref_tensor("feeds_repeat_times", NPUKB_DT_INT32, times, 1, dt) };
	struct npukb_ref_tensor out = ref_tensor("y", NPUKB_DT_FLOAT32, y, 2, dy);

	memset(y, 0x7f, sizeof(y));
	cr_assert_eq(ref_run("feeds_repeat", in, 2, &out, 1, NULL, err), 0, "%s", err);
	cr_expect_arr_eq(y, want, sizeof(y));
	/* more rows than y holds */
	times[1] = 3;
	cr_expect_lt(ref_run("feeds_repeat", in, 2, &out, 1, NULL, err), 0);
}

/* One row s = (1, 3): mean 2, variance 1, rstd 1 with epsilon 0; gamma
 * (2, 3), beta (0.5, -0.5): y = (-1.5, 2.5). */
Test(ref_norm, layer_norms_of_one_row)
{
	static const float gamma[2] = { 2, 3 }, beta[2] = { 0.5f, -0.5f };
	static const float x1[2] = { 0, 1 }, x2[2] = { 1, 2 }, dx[2] = { 0.5f, 1.5f }, zero[2] = { 0, 0 };
	static const float bias_row[2] = { -1, 1 }, want_y[2] = { -1.5f, 2.5f }, want_s[2] = { 1, 3 };
	const int64_t d2[1] = { 2 }, d1[1] = { 1 }, none[1] = { 0 };
	float y[2], mean[1], rstd[1], s[2];
	char err[ERRLEN];
	const char *eps[] = { "epsilon", "0", NULL }, *deep[] = { "alpha", "2", "epsilon", "0", NULL };
	struct npukb_ref_tensor t_gamma = ref_tensor("gamma", NPUKB_DT_FLOAT32, (void *)gamma, 1, d2),
				t_beta = ref_tensor("beta", NPUKB_DT_FLOAT32, (void *)beta, 1, d2),
				t_mean = ref_tensor("mean", NPUKB_DT_FLOAT32, mean, 1, d1),
				t_rstd = ref_tensor("rstd", NPUKB_DT_FLOAT32, rstd, 1, d1),
				t_y = ref_tensor("y", NPUKB_DT_FLOAT32, y, 1, d2),
				t_s = ref_tensor("x", NPUKB_DT_FLOAT32, s, 1, d2);
	struct npukb_ref_tensor no_bias = ref_tensor("bias", NPUKB_DT_FLOAT32, NULL, 1, none);
	struct npukb_ref_tensor deep_in[4] = { ref_tensor("x", NPUKB_DT_FLOAT32, (void *)dx, 1, d2),
					       ref_tensor("gx", NPUKB_DT_FLOAT32, (void *)zero, 1, d2),
					       t_beta, t_gamma };
	struct npukb_ref_tensor deep_out[3] = { t_mean, t_rstd, t_y };
	struct npukb_ref_tensor add_in[5] = { ref_tensor("x1", NPUKB_DT_FLOAT32, (void *)x1, 1, d2),
					      ref_tensor("x2", NPUKB_DT_FLOAT32, (void *)x2, 1, d2),
					      t_gamma, t_beta, no_bias };
	struct npukb_ref_tensor add_out[4] = { t_y, t_mean, t_rstd, t_s };

	cr_assert_eq(ref_run("deep_norm", deep_in, 4, deep_out, 3, deep, err), 0, "%s", err);
	cr_expect_arr_eq(y, want_y, sizeof(y));
	cr_expect_eq(mean[0], 2.0f);
	cr_expect_eq(rstd[0], 1.0f);

	memset(y, 0, sizeof(y));
	cr_assert_eq(ref_run("add_layer_norm", add_in, 5, add_out, 4, eps, err), 0, "%s", err);
	cr_expect_arr_eq(y, want_y, sizeof(y));
	cr_expect_arr_eq(s, want_s, sizeof(s));
	/* a one-row bias: s = (0, 4), mean 2, variance 4, rstd 1/2 */
	add_in[4] = ref_tensor("bias", NPUKB_DT_FLOAT32, (void *)bias_row, 1, d2);
	cr_assert_eq(ref_run("add_layer_norm", add_in, 5, add_out, 4, eps, err), 0, "%s", err);
	cr_expect_eq(rstd[0], 0.5f);
	cr_expect_eq(y[0], -1.5f);
	cr_expect_eq(s[1], 4.0f);

	/* in place: inputs gamma, beta, bias, x1, x2; outputs x1, x2, mean, rstd */
	{
		struct npukb_ref_tensor in[5] = { t_gamma, t_beta, no_bias, add_in[0], add_in[1] };
		struct npukb_ref_tensor out[4] = { t_y, t_s, t_mean, t_rstd };
		memset(y, 0, sizeof(y));
		cr_assert_eq(ref_run("inplace_add_layer_norm", in, 5, out, 4, eps, err), 0, "%s", err);
		cr_expect_arr_eq(y, want_y, sizeof(y));
		cr_expect_arr_eq(s, want_s, sizeof(s));
	}
}

/* LayerNormV4 without gamma: rows (1, 3) and (2, 2) of x, beta (1, -1);
 * mean 2 and 2, variances 1 and 0 (epsilon 0.25: rstd 1/sqrt(1.25), 2). */
Test(ref_norm, layer_norm_v4_without_gamma)
{
	static const float x[4] = { 1, 3, 2, 2 }, beta[2] = { 1, -1 };
	static const int64_t nshape[1] = { 2 };
	const int64_t dx[2] = { 2, 2 }, dm[2] = { 2, 1 }, d1[1] = { 1 }, d2[1] = { 2 }, none[1] = { 0 };
	float y[4], mean[2], rstd[2];
	char err[ERRLEN];
	const char *eps[] = { "epsilon", "0.25", NULL };
	const double r0 = 1.0 / sqrt(1.25);
	struct npukb_ref_tensor in[4] = { ref_tensor("x", NPUKB_DT_FLOAT32, (void *)x, 2, dx),
					  ref_tensor("normalized_shape", NPUKB_DT_INT64, (void *)nshape, 1, d1),
					  ref_tensor("gamma", NPUKB_DT_FLOAT32, NULL, 1, none),
					  ref_tensor("beta", NPUKB_DT_FLOAT32, (void *)beta, 1, d2) };
	struct npukb_ref_tensor out[3] = { ref_tensor("y", NPUKB_DT_FLOAT32, y, 2, dx),
					   ref_tensor("mean", NPUKB_DT_FLOAT32, mean, 2, dm),
					   ref_tensor("rstd", NPUKB_DT_FLOAT32, rstd, 2, dm) };

	cr_assert_eq(ref_run("layer_norm_v4", in, 4, out, 3, eps, err), 0, "%s", err);
	cr_expect_eq(mean[0], 2.0f);
	cr_expect_eq(mean[1], 2.0f);
	cr_expect_eq(rstd[0], (float)r0);
	cr_expect_eq(rstd[1], 2.0f);
	cr_expect_eq(y[0], (float)(1 - r0));
	cr_expect_eq(y[1], (float)(r0 - 1));
	cr_expect_eq(y[2], 1.0f);
	cr_expect_eq(y[3], -1.0f);
}

/* PreLayerNorm: s = x + y in rows (2, 4) and (3, 0), gamma (2, -1), beta
 * (0.5, 1). Epsilon 0: means 3 and 1.5, variances 1 and 2.25, both rows
 * normalise to (-1, 1) and (1, -1). Epsilon 3 on row 0: rstd 1/2. */
Test(ref_norm, pre_layer_norm_of_the_sum)
{
	static const float x[4] = { 1, 2, 0, 0 }, yv[4] = { 1, 2, 3, 0 };
	static const float gamma[2] = { 2, -1 }, beta[2] = { 0.5f, 1 };
	static const float want0[4] = { -1.5f, 0, 2.5f, 2 }, want3[2] = { -0.5f, 0.5f };
	const int64_t dx[2] = { 2, 2 }, d2[1] = { 2 }, dodd[1] = { 3 };
	float out[4];
	char err[ERRLEN];
	const char *eps0[] = { "epsilon", "0", NULL }, *eps3[] = { "epsilon", "3", NULL };
	struct npukb_ref_tensor in[4] = { ref_tensor("x", NPUKB_DT_FLOAT32, (void *)x, 2, dx),
					  ref_tensor("y", NPUKB_DT_FLOAT32, (void *)yv, 2, dx),
					  ref_tensor("gamma", NPUKB_DT_FLOAT32, (void *)gamma, 1, d2),
					  ref_tensor("beta", NPUKB_DT_FLOAT32, (void *)beta, 1, d2) };
	struct npukb_ref_tensor o = ref_tensor("res_out", NPUKB_DT_FLOAT32, out, 2, dx);

	cr_assert_eq(ref_run("pre_layer_norm", in, 4, &o, 1, eps0, err), 0, "%s", err);
	cr_expect_arr_eq(out, want0, sizeof(out));
	cr_assert_eq(ref_run("pre_layer_norm", in, 4, &o, 1, eps3, err), 0, "%s", err);
	cr_expect_arr_eq(out, want3, sizeof(want3));
	/* gamma must divide x into rows */
	in[2] = ref_tensor("gamma", NPUKB_DT_FLOAT32, (void *)gamma, 1, dodd);
	cr_expect_lt(ref_run("pre_layer_norm", in, 4, &o, 1, eps0, err), 0);
}

/* AddRmsNormCast: y both in float32 and in float16 (rounded once each). */
Test(ref_norm, add_rms_norm_cast_writes_y_twice)
{
	uint16_t x1[2], x2[2], gamma[2], y2[2], s[2];
	float y1[2], rstd[1];
	const int64_t d2[1] = { 2 }, d1[1] = { 1 };
	char err[ERRLEN];
	const char *eps[] = { "epsilon", "0", NULL };
	/* s = (3, 4): rstd = 1 / sqrt(12.5); gamma (1, 1/3) */
	const double r = 1.0 / sqrt(12.5);
	x1[0] = npukb_f64_to_f16(1); x1[1] = npukb_f64_to_f16(1);
	x2[0] = npukb_f64_to_f16(2); x2[1] = npukb_f64_to_f16(3);
	gamma[0] = npukb_f64_to_f16(1); gamma[1] = npukb_f64_to_f16(1.0 / 3);
	{
		const double g1 = npukb_load_as_double(NPUKB_DT_FLOAT16, gamma, 1);
		struct npukb_ref_tensor in[3] = { ref_tensor("x1", NPUKB_DT_FLOAT16, x1, 1, d2),
						  ref_tensor("x2", NPUKB_DT_FLOAT16, x2, 1, d2),
						  ref_tensor("gamma", NPUKB_DT_FLOAT16, gamma, 1, d2) };
		struct npukb_ref_tensor out[4] = { ref_tensor("y1", NPUKB_DT_FLOAT32, y1, 1, d2),
						   ref_tensor("y2", NPUKB_DT_FLOAT16, y2, 1, d2),
						   ref_tensor("rstd", NPUKB_DT_FLOAT32, rstd, 1, d1),
						   ref_tensor("x", NPUKB_DT_FLOAT16, s, 1, d2) };
		cr_assert_eq(ref_run("add_rms_norm_cast", in, 3, out, 4, eps, err), 0, "%s", err);
		cr_expect_eq(y1[1], (float)(4 * r * g1));
		cr_expect_eq(y2[1], npukb_f64_to_f16(4 * r * g1));
		cr_expect_eq(y1[0], (float)(3 * r));
		cr_expect_eq(s[1], npukb_f64_to_f16(4));
		cr_expect_eq(rstd[0], (float)r);
	}
}

/* Rows x (1, 2) and (0, 4), dy (1, 1) and (2, -1), rstd 0.5 and 1, gamma
 * (1, 1): s = 3 and -4; dx = (0.5 - 0.1875 x) and (2, -1 + 8); dgamma =
 * (0.5 + 0, 1 - 4). */
Test(ref_norm, rms_norm_grad_by_hand)
{
	static const float x[4] = { 1, 2, 0, 4 }, dy[4] = { 1, 1, 2, -1 }, rstd[2] = { 0.5f, 1 },
			   gamma[2] = { 1, 1 };
	static const float want_dx[4] = { 0.3125f, 0.125f, 2, 7 }, want_dg[2] = { 0.5f, -3 };
	const int64_t dx2[2] = { 2, 2 }, dr[2] = { 2, 1 }, dg[1] = { 2 };
	float dx[4], dgamma[2];
	char err[ERRLEN];
	struct npukb_ref_tensor in[4] = { ref_tensor("dy", NPUKB_DT_FLOAT32, (void *)dy, 2, dx2),
					  ref_tensor("x", NPUKB_DT_FLOAT32, (void *)x, 2, dx2),
					  ref_tensor("rstd", NPUKB_DT_FLOAT32, (void *)rstd, 2, dr),
					  ref_tensor("gamma", NPUKB_DT_FLOAT32, (void *)gamma, 1, dg) };
	struct npukb_ref_tensor out[2] = { ref_tensor("dx", NPUKB_DT_FLOAT32, dx, 2, dx2),
					   ref_tensor("dgamma", NPUKB_DT_FLOAT32, dgamma, 1, dg) };

	cr_assert_eq(ref_run("rms_norm_grad", in, 4, out, 2, NULL, err), 0, "%s", err);
	cr_expect_arr_eq(dx, want_dx, sizeof(dx));
	cr_expect_arr_eq(dgamma, want_dg, sizeof(dgamma));
}

/* One row: x = x1 (1, 2) + x2 (0, 1) = (1, 3), mean
 * given as 1 (not x's 2: the sum(xh) term counts), rstd 1, dy (1, 1),
 * gamma (1, 1): xh = (0, 2), v = -1, m = -2 + 2 = 0, d_x = (1, -1) plus
 * dsum (0.5, 0.5); d_gamma = (0, 2), d_beta = (1, 1). */
Test(ref_norm, add_layer_norm_grad_by_hand)
{
	static const float dy[2] = { 1, 1 }, x1[2] = { 1, 2 }, x2[2] = { 0, 1 }, rstd[1] = { 1 },
			   mean[1] = { 1 }, gamma[2] = { 1, 1 }, dsum[2] = { 0.5f, 0.5f };
	static const float want_dx[2] = { 1.5f, -0.5f }, want_dg[2] = { 0, 2 }, want_db[2] = { 1, 1 };
	const int64_t d2[1] = { 2 }, d1[1] = { 1 };
	float dx[2], dg[2], db[2];
	char err[ERRLEN];
	struct npukb_ref_tensor in[7] = { ref_tensor("dy", NPUKB_DT_FLOAT32, (void *)dy, 1, d2),
					  ref_tensor("x1", NPUKB_DT_FLOAT32, (void *)x1, 1, d2),
					  ref_tensor("x2", NPUKB_DT_FLOAT32, (void *)x2, 1, d2),
					  ref_tensor("rstd", NPUKB_DT_FLOAT32, (void *)rstd, 1, d1),
					  ref_tensor("mean", NPUKB_DT_FLOAT32, (void *)mean, 1, d1),
					  ref_tensor("gamma", NPUKB_DT_FLOAT32, (void *)gamma, 1, d2),
					  ref_tensor("dsum", NPUKB_DT_FLOAT32, (void *)dsum, 1, d2) };
	struct npukb_ref_tensor out[3] = { ref_tensor("dx", NPUKB_DT_FLOAT32, dx, 1, d2),
					   ref_tensor("dgamma", NPUKB_DT_FLOAT32, dg, 1, d2),
					   ref_tensor("dbeta", NPUKB_DT_FLOAT32, db, 1, d2) };

	cr_assert_eq(ref_run("add_layer_norm_grad", in, 7, out, 3, NULL, err), 0, "%s", err);
	cr_expect_arr_eq(dx, want_dx, sizeof(dx));
	cr_expect_arr_eq(dg, want_dg, sizeof(dg));
	cr_expect_arr_eq(db, want_db, sizeof(db));
}

/* One row: s = alpha x + gx = 0.5 (1, 2) + (0, 1) = (0.5, 2), mean given
 * as 0.25 (not s's: with LayerNorm's sum(xh) term d_mean would be 0, not
 * -2), rstd 1, dy (1, 1), gamma (1, 1): xh = (0.25, 1.75), d_var = -1,
 * d_mean = -2, dgx = 1 - xh - 1 = (-0.25, -1.75), dx = alpha dgx;
 * dbeta = (1, 1), dgamma = xh. */
Test(ref_norm, deep_norm_grad_by_hand)
{
	static const float dy[2] = { 1, 1 }, x[2] = { 1, 2 }, gx[2] = { 0, 1 }, gamma[2] = { 1, 1 },
			   mean[1] = { 0.25f }, rstd[1] = { 1 };
	static const float want_dx[2] = { -0.125f, -0.875f }, want_dgx[2] = { -0.25f, -1.75f },
			   want_db[2] = { 1, 1 }, want_dg[2] = { 0.25f, 1.75f };
	const int64_t d2[1] = { 2 }, d1[1] = { 1 };
	float dx[2], dgx[2], db[2], dg[2];
	char err[ERRLEN];
	const char *kv[] = { "alpha", "0.5", NULL };
	struct npukb_ref_tensor in[6] = { ref_tensor("dy", NPUKB_DT_FLOAT32, (void *)dy, 1, d2),
					  ref_tensor("x", NPUKB_DT_FLOAT32, (void *)x, 1, d2),
					  ref_tensor("gx", NPUKB_DT_FLOAT32, (void *)gx, 1, d2),
					  ref_tensor("gamma", NPUKB_DT_FLOAT32, (void *)gamma, 1, d2),
					  ref_tensor("mean", NPUKB_DT_FLOAT32, (void *)mean, 1, d1),
					  ref_tensor("rstd", NPUKB_DT_FLOAT32, (void *)rstd, 1, d1) };
	struct npukb_ref_tensor out[4] = { ref_tensor("dx", NPUKB_DT_FLOAT32, dx, 1, d2),
					   ref_tensor("dgx", NPUKB_DT_FLOAT32, dgx, 1, d2),
					   ref_tensor("dbeta", NPUKB_DT_FLOAT32, db, 1, d2),
					   ref_tensor("dgamma", NPUKB_DT_FLOAT32, dg, 1, d2) };

	cr_assert_eq(ref_run("deep_norm_grad", in, 6, out, 4, kv, err), 0, "%s", err);
	cr_expect_arr_eq(dx, want_dx, sizeof(dx));
	cr_expect_arr_eq(dgx, want_dgx, sizeof(dgx));
	cr_expect_arr_eq(db, want_db, sizeof(db));
	cr_expect_arr_eq(dg, want_dg, sizeof(dg));
}

/* Two rows of three against the same formula written out per element: the
 * rows are told apart (mean, rstd and dgamma's and dbeta's sums over rows),
 * gamma's column order counts, and a length mismatch is refused. */
Test(ref_norm, deep_norm_grad_rows)
{
	static const float dy[6] = { 1, -2, 0.5f, 2, 1, -1 }, x[6] = { 1, 0, -1, 2, 1, 0 },
			   gx[6] = { 0.5f, 1, 0, -1, 0, 2 }, gamma[3] = { 1, -1, 0.5f },
			   mean[2] = { 0.5f, -0.25f }, rstd[2] = { 2, 0.5f };
	const double alpha = 0.25;
	const int64_t d23[2] = { 2, 3 }, d3[1] = { 3 }, d21[2] = { 2, 1 }, d4[1] = { 4 };
	float dx[6], dgx[6], db[3], dg[3];
	double wdb[3] = { 0 }, wdg[3] = { 0 };
	char err[ERRLEN];
	const char *kv[] = { "alpha", "0.25", NULL };
	struct npukb_ref_tensor in[6] = { ref_tensor("dy", NPUKB_DT_FLOAT32, (void *)dy, 2, d23),
					  ref_tensor("x", NPUKB_DT_FLOAT32, (void *)x, 2, d23),
					  ref_tensor("gx", NPUKB_DT_FLOAT32, (void *)gx, 2, d23),
					  ref_tensor("gamma", NPUKB_DT_FLOAT32, (void *)gamma, 1, d3),
					  ref_tensor("mean", NPUKB_DT_FLOAT32, (void *)mean, 2, d21),
					  ref_tensor("rstd", NPUKB_DT_FLOAT32, (void *)rstd, 2, d21) };
	struct npukb_ref_tensor out[4] = { ref_tensor("dx", NPUKB_DT_FLOAT32, dx, 2, d23),
					   ref_tensor("dgx", NPUKB_DT_FLOAT32, dgx, 2, d23),
					   ref_tensor("dbeta", NPUKB_DT_FLOAT32, db, 1, d3),
					   ref_tensor("dgamma", NPUKB_DT_FLOAT32, dg, 1, d3) };

	cr_assert_eq(ref_run("deep_norm_grad", in, 6, out, 4, kv, err), 0, "%s", err);
	for (int r = 0; r < 2; r++) {
		double xh[3], t[3], sa = 0, sb = 0;
		for (int j = 0; j < 3; j++) {
			xh[j] = alpha * x[r * 3 + j] + gx[r * 3 + j] - mean[r];
			t[j] = dy[r * 3 + j] * gamma[j];
			sa += t[j] * xh[j];
			sb += t[j];
		}
		double dvar = -0.5 * sa * rstd[r] * rstd[r] * rstd[r], dmean = -sb * rstd[r];
		for (int j = 0; j < 3; j++) {
			double g = t[j] * rstd[r] + 2.0 / 3 * dvar * xh[j] + dmean / 3;
			cr_expect_float_eq(dgx[r * 3 + j], (float)g, 1e-6, "dgx[%d][%d]", r, j);
			cr_expect_float_eq(dx[r * 3 + j], (float)(alpha * g), 1e-6, "dx[%d][%d]", r, j);
			wdb[j] += dy[r * 3 + j];
			wdg[j] += dy[r * 3 + j] * xh[j] * rstd[r];
		}
	}
	for (int j = 0; j < 3; j++) {
		cr_expect_float_eq(db[j], (float)wdb[j], 1e-6, "dbeta[%d]", j);
		cr_expect_float_eq(dg[j], (float)wdg[j], 1e-6, "dgamma[%d]", j);
	}
	in[3] = ref_tensor("gamma", NPUKB_DT_FLOAT32, (void *)dy, 1, d4);
	cr_expect_lt(ref_run("deep_norm_grad", in, 6, out, 4, kv, err), 0);
}

/* x [1, 4, 2] (N 1, C 4, HW 2) in 2 groups, epsilon 0: group 0 is x (1, 3,
 * 1, 3), mean 2, variance 1, rstd 1; group 1 is (0, 4, 0, 4), mean 2,
 * variance 4, rstd 1/2: normalised both are (-1, 1, -1, 1). gamma (1, 2,
 * -1, 0.5), beta (0, 1, 0, 0) per channel give z = (-1, 1, -1, 3, 1, -1,
 * -0.5, 0.5); with swish, y = z / (1 + exp(-scale * z)). */
Test(ref_norm, group_norm_swish_by_hand)
{
	static const float x[8] = { 1, 3, 1, 3, 0, 4, 0, 4 }, gamma[4] = { 1, 2, -1, 0.5f },
			   beta[4] = { 0, 1, 0, 0 };
	static const float want_z[8] = { -1, 1, -1, 3, 1, -1, -0.5f, 0.5f },
			   want_mean[2] = { 2, 2 }, want_rstd[2] = { 1, 0.5f };
	const int64_t dx[3] = { 1, 4, 2 }, dc[1] = { 4 }, dm[2] = { 1, 2 };
	float y[8], mean[2], rstd[2];
	char err[ERRLEN];
	const char *plain[] = { "num_groups", "2", "eps", "0", "activate_swish", "false",
				"swish_scale", "1", NULL };
	const char *swish[] = { "num_groups", "2", "eps", "0", "activate_swish", "true",
				"swish_scale", "2", NULL };
	struct npukb_ref_tensor in[3] = { ref_tensor("x", NPUKB_DT_FLOAT32, (void *)x, 3, dx),
					  ref_tensor("gamma", NPUKB_DT_FLOAT32, (void *)gamma, 1, dc),
					  ref_tensor("beta", NPUKB_DT_FLOAT32, (void *)beta, 1, dc) };
	struct npukb_ref_tensor out[3] = { ref_tensor("y", NPUKB_DT_FLOAT32, y, 3, dx),
					   ref_tensor("mean", NPUKB_DT_FLOAT32, mean, 2, dm),
					   ref_tensor("rstd", NPUKB_DT_FLOAT32, rstd, 2, dm) };

	cr_assert_eq(ref_run("group_norm_swish", in, 3, out, 3, plain, err), 0, "%s", err);
	cr_expect_arr_eq(y, want_z, sizeof(y));
	cr_expect_arr_eq(mean, want_mean, sizeof(mean));
	cr_expect_arr_eq(rstd, want_rstd, sizeof(rstd));

	cr_assert_eq(ref_run("group_norm_swish", in, 3, out, 3, swish, err), 0, "%s", err);
	for (int i = 0; i < 8; i++) {
		const float want = (float)(want_z[i] / (1.0 + exp(-2.0 * want_z[i])));
		cr_expect_eq(y[i], want, "y[%d] = %.9g, want %.9g", i, y[i], want);
	}
	/* channels not a multiple of the groups */
	swish[1] = "3";
	cr_expect_neq(ref_run("group_norm_swish", in, 3, out, 3, swish, err), 0);
}

/* GroupNormSwishGrad. First x [1, 4] in one group, mean 0, rstd 1 (xn =
 * x = (1, -1, 2, -2)), gamma (1, 2, 0.5, -1) and beta = -xn * gamma: z = 0
 * everywhere, sig = 1/2 and g = dy / 2 = (1, 2, -1, 3) whatever the scale;
 * dbeta = g, dgamma = g * xn = (1, -2, -2, -6); g * gamma = (1, 4, -0.5,
 * -3): c1 = 1.5 / 4, c2 = sum(g * gamma * xn) / 4 = 2 / 4; dx = g * gamma -
 * xn * c2 - c1 = (0.125, 4.125, -1.875, -2.375). Then one element, z = 1,
 * scale 2: dbeta = dy * d(z sig(2 z))/dz, checked against a central
 * difference of z sig(2 z), and dx = -dbeta (L = 1: c1 = c2 = g). */
Test(ref_norm, group_norm_swish_grad_by_hand)
{
	static const float x[4] = { 1, -1, 2, -2 }, dy[4] = { 2, 4, -2, 6 }, zero[1] = { 0 },
			   one[1] = { 1 }, gamma[4] = { 1, 2, 0.5f, -1 }, beta[4] = { -1, 2, -1, -2 };
	static const float want_dx[4] = { 0.125f, 4.125f, -1.875f, -2.375f },
			   want_dg[4] = { 1, -2, -2, -6 }, want_db[4] = { 1, 2, -1, 3 };
	const int64_t d4[2] = { 1, 4 }, d11[2] = { 1, 1 }, c4[1] = { 4 }, c1[1] = { 1 };
	float dx[4], dg[4], db[4];
	char err[ERRLEN];
	const char *kv[] = { "num_groups", "1", "swish_scale", "2", NULL };
	struct npukb_ref_tensor in[6] = { ref_tensor("dy", NPUKB_DT_FLOAT32, (void *)dy, 2, d4),
					  ref_tensor("mean", NPUKB_DT_FLOAT32, (void *)zero, 2, d11),
					  ref_tensor("rstd", NPUKB_DT_FLOAT32, (void *)one, 2, d11),
					  ref_tensor("x", NPUKB_DT_FLOAT32, (void *)x, 2, d4),
					  ref_tensor("gamma", NPUKB_DT_FLOAT32, (void *)gamma, 1, c4),
					  ref_tensor("beta", NPUKB_DT_FLOAT32, (void *)beta, 1, c4) };
	struct npukb_ref_tensor out[3] = { ref_tensor("dx", NPUKB_DT_FLOAT32, dx, 2, d4),
					   ref_tensor("dgamma", NPUKB_DT_FLOAT32, dg, 1, c4),
					   ref_tensor("dbeta", NPUKB_DT_FLOAT32, db, 1, c4) };

	cr_assert_eq(ref_run("group_norm_swish_grad", in, 6, out, 3, kv, err), 0, "%s", err);
	cr_expect_arr_eq(dx, want_dx, sizeof(dx));
	cr_expect_arr_eq(dg, want_dg, sizeof(dg));
	cr_expect_arr_eq(db, want_db, sizeof(db));

	/* one element: x 1, dy 1, gamma 1, beta 0: z = 1 */
	in[0] = ref_tensor("dy", NPUKB_DT_FLOAT32, (void *)one, 2, d11);
	in[3] = ref_tensor("x", NPUKB_DT_FLOAT32, (void *)one, 2, d11);
	in[4] = ref_tensor("gamma", NPUKB_DT_FLOAT32, (void *)one, 1, c1);
	in[5] = ref_tensor("beta", NPUKB_DT_FLOAT32, (void *)zero, 1, c1);
	out[0] = ref_tensor("dx", NPUKB_DT_FLOAT32, dx, 2, d11);
	out[1] = ref_tensor("dgamma", NPUKB_DT_FLOAT32, dg, 1, c1);
	out[2] = ref_tensor("dbeta", NPUKB_DT_FLOAT32, db, 1, c1);
	cr_assert_eq(ref_run("group_norm_swish_grad", in, 6, out, 3, kv, err), 0, "%s", err);
	{
		const double h = 1e-5, f1 = (1 + h) / (1 + exp(-2 * (1 + h))),
			     f0 = (1 - h) / (1 + exp(-2 * (1 - h)));
		const double fd = (f1 - f0) / (2 * h);
		cr_expect(fabs(db[0] - fd) < 1e-6, "dbeta %.9g, central difference %.9g", db[0], fd);
		cr_expect_eq(dg[0], db[0]); /* xn = 1 */
		cr_expect_eq(dx[0], -db[0]);
	}
}

/* BatchNormV3 on x [2, 1, 2] (one channel: 1, 3, 1, 3). Training, epsilon
 * 0: mean 2, biased variance 1, rstd 1; weight 2, bias 1: y = (x - 2) * 2 +
 * 1 = (-1, 3, -1, 3); momentum 0.25 moves running (0, 3) to (0.5, 2.5).
 * Not training, epsilon 1: the running (0, 3) normalise, rstd 1/2, y = x +
 * 1, and stay. Without weight and bias (training): y = x - 2. */
Test(ref_norm, batch_norm_v3_by_hand)
{
	static const float x[4] = { 1, 3, 1, 3 }, w[1] = { 2 }, b[1] = { 1 };
	static const float want_train[4] = { -1, 3, -1, 3 }, want_eval[4] = { 2, 4, 2, 4 },
			   want_plain[4] = { -1, 1, -1, 1 };
	const int64_t dx[3] = { 2, 1, 2 }, d1[1] = { 1 }, none[1] = { 0 };
	float rm[1] = { 0 }, rv[1] = { 3 }, y[4], sm[1], sr[1];
	char err[ERRLEN];
	const char *train[] = { "epsilon", "0", "momentum", "0.25", "training", "true", NULL };
	const char *eval[] = { "epsilon", "1", "momentum", "0.25", "training", "false", NULL };
	struct npukb_ref_tensor in[5] = { ref_tensor("x", NPUKB_DT_FLOAT32, (void *)x, 3, dx),
					  ref_tensor("weight", NPUKB_DT_FLOAT32, (void *)w, 1, d1),
					  ref_tensor("bias", NPUKB_DT_FLOAT32, (void *)b, 1, d1),
					  ref_tensor("running_mean", NPUKB_DT_FLOAT32, rm, 1, d1),
					  ref_tensor("running_var", NPUKB_DT_FLOAT32, rv, 1, d1) };
	struct npukb_ref_tensor out[5] = { ref_tensor("running_mean", NPUKB_DT_FLOAT32, rm, 1, d1),
					   ref_tensor("running_var", NPUKB_DT_FLOAT32, rv, 1, d1),
					   ref_tensor("y", NPUKB_DT_FLOAT32, y, 3, dx),
					   ref_tensor("save_mean", NPUKB_DT_FLOAT32, sm, 1, d1),
					   ref_tensor("save_rstd", NPUKB_DT_FLOAT32, sr, 1, d1) };

	cr_assert_eq(ref_run("batch_norm_v3", in, 5, out, 5, eval, err), 0, "%s", err);
	cr_expect_arr_eq(y, want_eval, sizeof(y));
	cr_expect_eq(sm[0], 0.0f);
	cr_expect_eq(sr[0], 0.5f);
	cr_expect_eq(rm[0], 0.0f);
	cr_expect_eq(rv[0], 3.0f);

	cr_assert_eq(ref_run("batch_norm_v3", in, 5, out, 5, train, err), 0, "%s", err);
	cr_expect_arr_eq(y, want_train, sizeof(y));
	cr_expect_eq(sm[0], 2.0f);
	cr_expect_eq(sr[0], 1.0f);
	cr_expect_eq(rm[0], 0.5f);
	cr_expect_eq(rv[0], 2.5f);

	in[1] = ref_tensor("weight", NPUKB_DT_FLOAT32, NULL, 1, none);
	in[2] = ref_tensor("bias", NPUKB_DT_FLOAT32, NULL, 1, none);
	cr_assert_eq(ref_run("batch_norm_v3", in, 5, out, 5, train, err), 0, "%s", err);
	cr_expect_arr_eq(y, want_plain, sizeof(y));
}

/* var[4][3], axes (0, 1), begin (1, 0), strides (2, 1), input_value[2][2]:
 * rows 1 and 3, columns 0 and 1 take the values. */
Test(ref_tensor_move, strided_slice_assign_in_place)
{
	static const float val[4] = { -1, -2, -3, -4 };
	static const int64_t begin[2] = { 1, 0 }, end[2] = { 4, 2 }, strides[2] = { 2, 1 },
			     axes[2] = { 0, 1 };
	static const float var0[12] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 };
	static const float want[12] = { 0, 1, 2, -1, -2, 5, 6, 7, 8, -3, -4, 11 };
	const int64_t dv[2] = { 4, 3 }, du[2] = { 2, 2 }, d2[1] = { 2 };
	float var[12];
	char err[ERRLEN];
	struct npukb_ref_tensor in[6] = { ref_tensor("input_value", NPUKB_DT_FLOAT32, (void *)val, 2, du),
					  ref_tensor("begin", NPUKB_DT_INT64, (void *)begin, 1, d2),
					  ref_tensor("end", NPUKB_DT_INT64, (void *)end, 1, d2),
					  ref_tensor("strides", NPUKB_DT_INT64, (void *)strides, 1, d2),
					  ref_tensor("axes", NPUKB_DT_INT64, (void *)axes, 1, d2),
					  ref_tensor("var", NPUKB_DT_FLOAT32, (void *)var0, 2, dv) };
	struct npukb_ref_tensor out = ref_tensor("var", NPUKB_DT_FLOAT32, var, 2, dv);

	memcpy(var, var0, sizeof(var));
	cr_assert_eq(ref_run("strided_slice_assign", in, 6, &out, 1, NULL, err), 0, "%s", err);
	cr_expect_arr_eq(var, want, sizeof(var));
	/* a slice leaving var is refused */
	in[5].shape.dims[0] = 3;
	out.shape.dims[0] = 3;
	cr_expect_lt(ref_run("strided_slice_assign", in, 6, &out, 1, NULL, err), 0);
}

/* The LayerNorm family's rows (s, gamma and beta widened a row at a time,
 * y stored a row at a time) against the formula element by element in
 * double, rounded once: rows longer than a block of 1024 with a tail, in
 * float32, float16 and bfloat16; AddLayerNorm with a bias of every
 * element and the sum written, DeepNorm with alpha 0.7, PreLayerNorm. */
static void layer_expect(const char *what, enum npukb_dtype dt, size_t rows, size_t d,
			 const void *x1, const void *x2, const void *bias, const void *gamma,
			 const void *beta, double alpha, double eps, const void *y, const void *mean,
			 const void *rstd, const void *sum)
{
	const size_t sz = npukb_dtype_size(dt);
	unsigned char *want = malloc(d * sz), one[8];
	double *s = malloc(d * sizeof *s);
	size_t bad = 0;

	cr_assert(want && s);
	for (size_t r = 0; r < rows; r++) {
		double m = 0, v = 0, inv;
		for (size_t j = 0; j < d; j++) {
			const size_t i = r * d + j;
			s[j] = alpha * npukb_load_as_double(dt, x1, i);
			if (x2)
				s[j] += npukb_load_as_double(dt, x2, i);
			if (bias)
				s[j] += npukb_load_as_double(dt, bias, i);
			m += s[j];
		}
		m /= (double)d;
		for (size_t j = 0; j < d; j++)
			v += (s[j] - m) * (s[j] - m);
		inv = 1.0 / sqrt(v / (double)d + eps);
		if (mean) {
			npukb_store_from_double(dt, one, 0, m);
			bad += memcmp(one, (const unsigned char *)mean + r * sz, sz) != 0;
			npukb_store_from_double(dt, one, 0, inv);
			bad += memcmp(one, (const unsigned char *)rstd + r * sz, sz) != 0;
		}
		for (size_t j = 0; j < d; j++) {
			double yv = (s[j] - m) * inv;
			if (gamma)
				yv *= npukb_load_as_double(dt, gamma, j);
			if (beta)
				yv += npukb_load_as_double(dt, beta, j);
			npukb_store_from_double(dt, want, j, yv);
		}
		bad += memcmp(want, (const unsigned char *)y + r * d * sz, d * sz) != 0;
		if (sum) {
			for (size_t j = 0; j < d; j++)
				npukb_store_from_double(dt, want, j, s[j]);
			bad += memcmp(want, (const unsigned char *)sum + r * d * sz, d * sz) != 0;
		}
	}
	cr_expect_eq(bad, 0, "%s, %s: %zu rows differ", what, npukb_dtype_name(dt), bad);
	free(want);
	free(s);
}

Test(ref_norm, layer_norm_rows_match_each_element)
{
	enum { ROWS = 3, D = 2 * 1024 + 333, N = ROWS * D };
	const int64_t dx[2] = { ROWS, D }, dd[1] = { D }, dr[2] = { ROWS, 1 }, none[1] = { 0 };
	const enum npukb_dtype dts[3] = { NPUKB_DT_FLOAT32, NPUKB_DT_FLOAT16, NPUKB_DT_BFLOAT16 };
	const char *eps[] = { "epsilon", "1e-5", NULL }, *deep[] = { "alpha", "0.7", "epsilon", "1e-5", NULL };
	static float src[5][N];
	static unsigned char x1[4 * N], x2[4 * N], bias[4 * N], gamma[4 * D], beta[4 * D];
	static unsigned char y[4 * N], s[4 * N], mean[4 * ROWS], rstd[4 * ROWS];
	uint64_t st = UINT64_C(0x9e3779b97f4a7c15);
	char err[ERRLEN];

	for (int k = 0; k < 5; k++)
		for (size_t i = 0; i < N; i++) {
			st ^= st << 13;
			st ^= st >> 7;
			st ^= st << 17;
			src[k][i] = (float)((double)(st >> 11) * 0x1p-53 * 8.0 - 3.0 + (k == 0 ? (double)(i % 7) : 0));
		}
	for (int di = 0; di < 3; di++) {
		const enum npukb_dtype dt = dts[di];
		unsigned char *dst[5] = { x1, x2, bias, gamma, beta };
		for (int k = 0; k < 5; k++)
			for (size_t i = 0; i < (k < 3 ? (size_t)N : (size_t)D); i++)
				npukb_store_from_double(dt, dst[k], i, src[k][i]);
		struct npukb_ref_tensor t_x1 = ref_tensor("x1", dt, x1, 2, dx), t_x2 = ref_tensor("x2", dt, x2, 2, dx),
					t_bias = ref_tensor("bias", dt, bias, 2, dx),
					t_gamma = ref_tensor("gamma", dt, gamma, 1, dd),
					t_beta = ref_tensor("beta", dt, beta, 1, dd),
					t_y = ref_tensor("y", dt, y, 2, dx), t_s = ref_tensor("x", dt, s, 2, dx),
					t_mean = ref_tensor("mean", dt, mean, 2, dr),
					t_rstd = ref_tensor("rstd", dt, rstd, 2, dr);
		{
			struct npukb_ref_tensor in[5] = { t_x1, t_x2, t_gamma, t_beta, t_bias };
			struct npukb_ref_tensor out[4] = { t_y, t_mean, t_rstd, t_s };
			cr_assert_eq(ref_run("add_layer_norm", in, 5, out, 4, eps, err), 0, "%s", err);
			layer_expect("add_layer_norm", dt, ROWS, D, x1, x2, bias, gamma, beta, 1.0, 1e-5, y,
				     mean, rstd, s);
		}
		{
			struct npukb_ref_tensor in[4] = { t_x1, t_x2, t_beta, t_gamma };
			struct npukb_ref_tensor out[3] = { t_mean, t_rstd, t_y };
			cr_assert_eq(ref_run("deep_norm", in, 4, out, 3, deep, err), 0, "%s", err);
			layer_expect("deep_norm", dt, ROWS, D, x1, x2, NULL, gamma, beta, 0.7, 1e-5, y, mean,
				     rstd, NULL);
		}
		{
			struct npukb_ref_tensor in[4] = { t_x1, t_x2, t_gamma, t_beta };
			cr_assert_eq(ref_run("pre_layer_norm", in, 4, &t_y, 1, eps, err), 0, "%s", err);
			layer_expect("pre_layer_norm", dt, ROWS, D, x1, x2, NULL, gamma, beta, 1.0, 1e-5, y,
				     NULL, NULL, NULL);
		}
		{
			struct npukb_ref_tensor in[4] = { t_x1, ref_tensor("normalized_shape", NPUKB_DT_INT64, (void *)&dx[1], 1, (const int64_t[]){ 1 }),
							  ref_tensor("gamma", dt, NULL, 1, none), t_beta };
			struct npukb_ref_tensor out[3] = { t_y, t_mean, t_rstd };
			cr_assert_eq(ref_run("layer_norm_v4", in, 4, out, 3, eps, err), 0, "%s", err);
			layer_expect("layer_norm_v4", dt, ROWS, D, x1, NULL, NULL, NULL, beta, 1.0, 1e-5, y,
				     mean, rstd, NULL);
		}
	}
}
