/* test_ref_gemm.c - Level 3's GEMM core (reference/gemm.c) against a naive
 * triple loop on odd shapes, on one part and on several threads, plain and
 * transposed; and the products built on it (reference/gemm_ops.c) on small
 * cases computed by hand. */
#include <criterion/criterion.h>

#include "data_threads.h"
#include "gemm.h"
#include "reference.h"
#include "ref_call.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct sink {
	double *c;
	size_t calls;
};

static void keep_row(void *ctx, size_t i, double *row, size_t n)
{
	struct sink *s = ctx;
	memcpy(s->c + i * n, row, n * sizeof *row);
	__atomic_add_fetch(&s->calls, 1, __ATOMIC_RELAXED);
}

/* Signed values whose products and sums round in double (so a wrong
 * order or a lost term shows). */
static void fill(float *x, size_t n, unsigned seed)
{
	size_t i;
	srand(seed);
	for (i = 0; i < n; i++)
		x[i] = (float)(rand() - RAND_MAX / 2) / (float)RAND_MAX * 3.1f;
}

/* The core on m x k times k x n, A stored row-major or (a_trans) as its
 * transpose, with parts parts; each element must equal the naive in-order
 * sum bit for bit, and every row must be handed out once. */
static void check_shape(size_t m, size_t k, size_t n, int a_trans, unsigned parts)
{
	float *a = malloc(m * k * sizeof *a), *b = malloc(k * n * sizeof *b);
	double *got = calloc(m * n, sizeof *got);
	int64_t ad[2] = { (int64_t)(a_trans ? k : m), (int64_t)(a_trans ? m : k) };
	int64_t bd[2] = { (int64_t)k, (int64_t)n };
	struct npukb_ref_tensor at = ref_tensor("a", NPUKB_DT_FLOAT32, a, 2, ad);
	struct npukb_ref_tensor bt = ref_tensor("b", NPUKB_DT_FLOAT32, b, 2, bd);
	struct ref_gemm_operand ao = { &at, 0, a_trans ? 1 : k, a_trans ? m : 1 },
				bo = { &bt, 0, n, 1 };
	struct sink s = { got, 0 };
	size_t i, j, p, wrong = 0;

	cr_assert(a && b && got);
	fill(a, m * k, 1);
	fill(b, k * n, 2);
	cr_assert_eq(ref_gemm(&ao, &bo, m, n, k, parts, keep_row, &s), 0);
	cr_expect_eq(s.calls, m, "%zu rows handed out for %zu", s.calls, m);
	for (i = 0; i < m; i++)
		for (j = 0; j < n; j++) {
			double sum = 0.0;
			for (p = 0; p < k; p++)
				sum += (double)a[a_trans ? p * m + i : i * k + p] * (double)b[p * n + j];
			if (sum != got[i * n + j] && wrong++ < 3)
				cr_expect_eq(got[i * n + j], sum, "%zux%zux%zu trans %d parts %u: [%zu][%zu]",
					     m, k, n, a_trans, parts, i, j);
		}
	cr_expect_eq(wrong, 0, "%zu of %zu elements differ", wrong, m * n);
	free(a);
	free(b);
	free(got);
}

/* Double operands with full 53-bit mantissas, whose products round: the
 * core's tiles (in whatever lane width this CPU gives them) must round
 * each product before its add, as the naive loop does; a fused
 * multiply-add would differ. */
static void check_shape_f64(size_t m, size_t k, size_t n)
{
	double *a = malloc(m * k * sizeof *a), *b = malloc(k * n * sizeof *b);
	double *got = calloc(m * n, sizeof *got);
	int64_t ad[2] = { (int64_t)m, (int64_t)k }, bd[2] = { (int64_t)k, (int64_t)n };
	struct npukb_ref_tensor at = ref_tensor("a", NPUKB_DT_FLOAT64, a, 2, ad);
	struct npukb_ref_tensor bt = ref_tensor("b", NPUKB_DT_FLOAT64, b, 2, bd);
	struct ref_gemm_operand ao = { &at, 0, k, 1 }, bo = { &bt, 0, n, 1 };
	struct sink s = { got, 0 };
	size_t i, j, p, wrong = 0;

	cr_assert(a && b && got);
	srand(5);
	for (i = 0; i < m * k; i++)
		a[i] = (rand() - RAND_MAX / 2) / (double)RAND_MAX * (1 + 0x1p-40 * rand());
	for (i = 0; i < k * n; i++)
		b[i] = (rand() - RAND_MAX / 2) / (double)RAND_MAX * (1 + 0x1p-41 * rand());
	cr_assert_eq(ref_gemm(&ao, &bo, m, n, k, 1, keep_row, &s), 0);
	for (i = 0; i < m; i++)
		for (j = 0; j < n; j++) {
			double sum = 0.0;
			for (p = 0; p < k; p++) {
				volatile double prod = a[i * k + p] * b[p * n + j];
				sum = sum + prod;
			}
			wrong += memcmp(&sum, &got[i * n + j], sizeof sum) != 0;
		}
	cr_expect_eq(wrong, 0, "%zux%zux%zu double: %zu of %zu elements differ", m, k, n, wrong, m * n);
	free(a);
	free(b);
	free(got);
}

Test(ref_gemm, core_rounds_each_double_product_before_its_add)
{
	check_shape_f64(8, 200, 16);
	check_shape_f64(33, 129, 257);
}

/* Shapes on and around the core's tiles (32 rows, 128 of k, 256 columns). */
static const size_t shapes[][3] = {
	{ 1, 1, 1 }, { 3, 5, 7 }, { 33, 129, 257 }, { 70, 300, 19 }, { 65, 2, 513 }, { 5, 0, 9 },
};

Test(ref_gemm, core_equals_the_naive_loop_on_one_part)
{
	size_t i;
	for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		check_shape(shapes[i][0], shapes[i][1], shapes[i][2], 0, 1);
		check_shape(shapes[i][0], shapes[i][1], shapes[i][2], 1, 1);
	}
}

Test(ref_gemm, core_equals_the_naive_loop_on_threads)
{
	size_t i;
	npukb_set_data_threads(4);
	for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		check_shape(shapes[i][0], shapes[i][1], shapes[i][2], 0, 4);
		check_shape(shapes[i][0], shapes[i][1], shapes[i][2], 1, 3);
	}
	/* Large enough that parts = 0 chooses several. */
	check_shape(200, 300, 150, 0, 0);
	npukb_set_data_threads(0);
}

/* ---- the products, by hand ------------------------------------------------ */

static const float A23[6] = { 1, -2, 3, 0.5f, 4, -1 };     /* [2, 3] */
static const float B32[6] = { 2, 1, -1, 0, 0.25f, -3 };    /* [3, 2] */
/* A B = [[1*2 + -2*-1 + 3*0.25, 1*1 + 0 + 3*-3], [0.5*2 + 4*-1 - 0.25, 0.5 + 0 + 3]] */
static const float AB[4] = { 4.75f, -8, -3.25f, 3.5f };

Test(ref_gemm, matmul_add_bias_and_gemm)
{
	const int64_t ad[2] = { 2, 3 }, bd[2] = { 3, 2 }, cd[2] = { 2, 2 };
	const float c[4] = { 1, 2, 3, 4 }, bias[2] = { 10, -10 }, alpha = -2, beta = 0.5f;
	float y[4];
	char err[ERRLEN];
	struct npukb_ref_tensor in[5] = {
		ref_tensor("a", NPUKB_DT_FLOAT32, (void *)A23, 2, ad),
		ref_tensor("b", NPUKB_DT_FLOAT32, (void *)B32, 2, bd),
		ref_tensor("c", NPUKB_DT_FLOAT32, (void *)c, 2, cd),
		ref_tensor1("alpha", NPUKB_DT_FLOAT32, 1, (void *)&alpha),
		ref_tensor1("beta", NPUKB_DT_FLOAT32, 1, (void *)&beta),
	};
	struct npukb_ref_tensor out = ref_tensor("y", NPUKB_DT_FLOAT32, y, 2, cd);
	size_t i;

	cr_assert_eq(ref_run("matmul_add", in, 3, &out, 1, NULL, err), 0, "%s", err);
	for (i = 0; i < 4; i++)
		cr_expect_eq(y[i], AB[i] + c[i]);
	in[2] = ref_tensor1("bias", NPUKB_DT_FLOAT32, 2, (void *)bias);
	cr_assert_eq(ref_run("matmul_bias", in, 3, &out, 1, NULL, err), 0, "%s", err);
	for (i = 0; i < 4; i++)
		cr_expect_eq(y[i], AB[i] + bias[i % 2]);
	in[2] = ref_tensor("c", NPUKB_DT_FLOAT32, (void *)c, 2, cd);
	cr_assert_eq(ref_run("gemm", in, 5, &out, 1, NULL, err), 0, "%s", err);
	for (i = 0; i < 4; i++)
		cr_expect_eq(y[i], alpha * AB[i] + beta * c[i]);
	/* A bias of the wrong length is refused. */
	in[2] = ref_tensor1("bias", NPUKB_DT_FLOAT32, 1, (void *)bias);
	cr_expect_lt(ref_run("matmul_bias", in, 3, &out, 1, NULL, err), 0);
}

Test(ref_gemm, gemv_is_alpha_ax_plus_beta_y)
{
	const int64_t ad[2] = { 2, 3 };
	const float x[3] = { 1, 2, -1 }, yin[2] = { 4, -8 }, alpha = 0.5f, beta = -1;
	float y[2];
	char err[ERRLEN];
	struct npukb_ref_tensor in[5] = {
		ref_tensor("a", NPUKB_DT_FLOAT32, (void *)A23, 2, ad),
		ref_tensor1("x", NPUKB_DT_FLOAT32, 3, (void *)x),
		ref_tensor1("y", NPUKB_DT_FLOAT32, 2, (void *)yin),
		ref_tensor1("alpha", NPUKB_DT_FLOAT32, 1, (void *)&alpha),
		ref_tensor1("beta", NPUKB_DT_FLOAT32, 1, (void *)&beta),
	};
	struct npukb_ref_tensor out = ref_tensor1("out", NPUKB_DT_FLOAT32, 2, y);

	/* A x = [1 - 4 - 3, 0.5 + 8 + 1] = [-6, 9.5] */
	cr_assert_eq(ref_run("gemv", in, 5, &out, 1, NULL, err), 0, "%s", err);
	cr_expect_eq(y[0], 0.5f * -6 - 4);
	cr_expect_eq(y[1], 0.5f * 9.5f + 8);
}

Test(ref_gemm, quant_matmul_scales_columns_and_rows)
{
	const int8_t a[6] = { 127, -128, 3, 1, 0, -1 }, b[6] = { 2, -1, -128, 5, 1, 1 };
	const float scale[2] = { 0.5f, -2 }, pts[2] = { 1, 0.25f };
	const int64_t ad[2] = { 2, 3 }, bd[2] = { 3, 2 }, od[2] = { 2, 2 };
	/* int32 A B: [[254 + 16384 + 3, -127 - 640 + 3], [2 - 1, -1 - 1]] */
	const float want[4] = { 16641 * 0.5f, -764 * -2.0f, 1 * 0.5f * 0.25f, -2 * -2.0f * 0.25f };
	float y[4];
	char err[ERRLEN];
	struct npukb_ref_tensor in[4] = {
		ref_tensor("a", NPUKB_DT_INT8, (void *)a, 2, ad),
		ref_tensor("b", NPUKB_DT_INT8, (void *)b, 2, bd),
		ref_tensor1("scale", NPUKB_DT_FLOAT32, 2, (void *)scale),
		ref_tensor1("per_token_scale", NPUKB_DT_FLOAT32, 2, (void *)pts),
	};
	struct npukb_ref_tensor out = ref_tensor("y", NPUKB_DT_FLOAT32, y, 2, od);

	cr_assert_eq(ref_run("quant_matmul", in, 4, &out, 1, NULL, err), 0, "%s", err);
	cr_expect_arr_eq(y, want, sizeof(want));
}

/* Three rows in groups ending at 0, 2, 3: group 0 empty, rows 0-1 use
 * B[1], row 2 uses B[2]. */
Test(ref_gemm, slice_m_groups_rows_by_their_ends)
{
	const float a[6] = { 1, 2, 3, 4, 5, 6 };                    /* [3, 2] */
	const float b[12] = { 9, 9, 9, 9, 1, 0, 0, 1, 0, 1, 1, 0 }; /* [3, 2, 2]: junk, I, swap */
	const int64_t ends[3] = { 0, 2, 3 }, bad_ends[3] = { 2, 1, 3 };
	const int64_t ad[2] = { 3, 2 }, bd[3] = { 3, 2, 2 }, od[2] = { 3, 2 };
	const float want[6] = { 1, 2, 3, 4, 6, 5 };
	float y[6];
	char err[ERRLEN];
	struct npukb_ref_tensor in[3] = {
		ref_tensor("a", NPUKB_DT_FLOAT32, (void *)a, 2, ad),
		ref_tensor("b", NPUKB_DT_FLOAT32, (void *)b, 3, bd),
		ref_tensor1("group_list", NPUKB_DT_INT64, 3, (void *)ends),
	};
	struct npukb_ref_tensor out = ref_tensor("y", NPUKB_DT_FLOAT32, y, 2, od);

	cr_assert_eq(ref_run("grouped_matmul_slice_m", in, 3, &out, 1, NULL, err), 0, "%s", err);
	cr_expect_arr_eq(y, want, sizeof(want));
	in[2] = ref_tensor1("group_list", NPUKB_DT_INT64, 3, (void *)bad_ends);
	cr_expect_lt(ref_run("grouped_matmul_slice_m", in, 3, &out, 1, NULL, err), 0);
	cr_expect(strstr(err, "group_list[1]") != NULL, "%s", err);
}

/* K = 3 cut at 1, 1, 2 (group 1 empty, the last k row left out); A is
 * K-major [3, 2]; dequantised with scale [3, 2] and per_token_scale [3, 2]. */
Test(ref_gemm, slice_k_groups_the_reduction_and_zeroes_empty_groups)
{
	const int8_t a[6] = { 1, 2, 3, -4, 100, 100 }; /* rows of k: (1, 2), (3, -4), unused */
	const int8_t b[6] = { 5, -6, 7, 8, 100, 100 };
	const int64_t ends[3] = { 1, 1, 2 };
	const float scale[6] = { 1, 1, 1, 1, 2, 0.5f }, pts[6] = { 1, 1, 1, 1, -1, 1 };
	const int64_t ad[2] = { 3, 2 }, sd[2] = { 3, 2 }, od[3] = { 3, 2, 2 };
	/* g0: a row 0 outer b row 0: [[5, -6], [10, -12]]; g1: 0;
	 * g2: [[21, 24], [-28, -32]] times scale (2, 0.5) and rows (-1, 1) */
	const float want[12] = { 5, -6, 10, -12, 0, 0, 0, 0, -42, -12, -56, -16 };
	float y[12];
	char err[ERRLEN];
	struct npukb_ref_tensor in[5] = {
		ref_tensor("a", NPUKB_DT_INT8, (void *)a, 2, ad),
		ref_tensor("b", NPUKB_DT_INT8, (void *)b, 2, ad),
		ref_tensor("scale", NPUKB_DT_FLOAT32, (void *)scale, 2, sd),
		ref_tensor("per_token_scale", NPUKB_DT_FLOAT32, (void *)pts, 2, sd),
		ref_tensor1("group_list", NPUKB_DT_INT64, 3, (void *)ends),
	};
	struct npukb_ref_tensor out = ref_tensor("y", NPUKB_DT_FLOAT32, y, 3, od);

	memset(y, 0x7f, sizeof(y)); /* poison: an empty group must be written */
	cr_assert_eq(ref_run("grouped_matmul_slice_k_dequant", in, 5, &out, 1, NULL, err), 0, "%s",
		     err);
	cr_expect_arr_eq(y, want, sizeof(want));
}

Test(ref_gemm, group_gemm_walks_groups_of_their_own_sizes)
{
	/* group 0: 1x2 times 2x1, group 1: 2x1 times 1x2 */
	const float a[4] = { 1, 2, 3, -1 }, b[4] = { 4, 5, 2, 0.5f }, c[5] = { 1, 1, 1, 1, 1 };
	const float alpha[2] = { 2, -1 }, beta[2] = { 0, 3 };
	const float want[5] = { 2 * 14.0f, -6 + 3, -1.5f + 3, 2 + 3, 0.5f + 3 };
	float y[5];
	char err[ERRLEN];
	const int64_t ms[2] = { 1, 2 }, ks[2] = { 2, 1 }, ns[2] = { 1, 2 }, short_k[1] = { 2 };
	struct npukb_ref_tensor in[8] = {
		ref_tensor1("a", NPUKB_DT_FLOAT32, 4, (void *)a),
		ref_tensor1("b", NPUKB_DT_FLOAT32, 4, (void *)b),
		ref_tensor1("c", NPUKB_DT_FLOAT32, 5, (void *)c),
		ref_tensor1("alpha", NPUKB_DT_FLOAT32, 2, (void *)alpha),
		ref_tensor1("beta", NPUKB_DT_FLOAT32, 2, (void *)beta),
		ref_tensor1("m_list", NPUKB_DT_INT64, 2, (void *)ms),
		ref_tensor1("k_list", NPUKB_DT_INT64, 2, (void *)ks),
		ref_tensor1("n_list", NPUKB_DT_INT64, 2, (void *)ns),
	};
	struct npukb_ref_tensor out = ref_tensor1("y", NPUKB_DT_FLOAT32, 5, y);

	cr_assert_eq(ref_run("group_gemm", in, 8, &out, 1, NULL, err), 0, "%s", err);
	cr_expect_arr_eq(y, want, sizeof(want));
	in[6] = ref_tensor1("k_list", NPUKB_DT_INT64, 1, (void *)short_k);
	cr_expect_lt(ref_run("group_gemm", in, 8, &out, 1, NULL, err), 0);
}

/* ---- attention ------------------------------------------------------------ */

#include <math.h>

/* B = 1, S = 2, H = 2, two heads of d = 1: each head's column attends on
 * its own; with q = (1, 2), k = (0.5, -1), v = (3, -1) for head 0 and
 * scale 2: row 0's scores (1, -2), row 1's (2, -4). */
Test(ref_attention, flash_attention_splits_heads_and_softmaxes_rows)
{
	const float q[4] = { 1, 9, 2, 9 }, k[4] = { 0.5f, 0, -1, 0 }, v[4] = { 3, 5, -1, 7 };
	const int64_t dims[3] = { 1, 2, 2 };
	float y[4];
	char err[ERRLEN];
	struct npukb_ref_tensor in[3] = {
		ref_tensor("query", NPUKB_DT_FLOAT32, (void *)q, 3, dims),
		ref_tensor("key", NPUKB_DT_FLOAT32, (void *)k, 3, dims),
		ref_tensor("value", NPUKB_DT_FLOAT32, (void *)v, 3, dims),
	};
	struct npukb_ref_tensor out = ref_tensor("attention_out", NPUKB_DT_FLOAT32, y, 3, dims);
	const char *kv[] = { "head_num", "2", "scale_value", "2", NULL };
	const char *odd[] = { "head_num", "3", "scale_value", "2", NULL };
	double p0 = 1 / (1 + exp(-3.0)), p1 = 1 / (1 + exp(-6.0));

	cr_assert_eq(ref_run("flash_attention_bsh", in, 3, &out, 1, kv, err), 0, "%s", err);
	cr_expect_float_eq(y[0], (float)(p0 * 3 + (1 - p0) * -1), 1e-6);
	cr_expect_float_eq(y[2], (float)(p1 * 3 + (1 - p1) * -1), 1e-6);
	/* head 1: all keys 0, so the weights are equal: the mean of v's column */
	cr_expect_float_eq(y[1], 6.0f, 1e-6);
	cr_expect_float_eq(y[3], 6.0f, 1e-6);
	cr_expect_lt(ref_run("flash_attention_bsh", in, 3, &out, 1, odd, err), 0);
}

/* Two batches of S = 300 (a full block of 256 query rows, then a ragged
 * one), two heads of d = 5, half precision: every output equals, bit for
 * bit, the documented computation done naively (scores summed over the
 * head's columns in order, softmax with max, exp and sum in key order,
 * P V summed over keys in order), so a key or value read from a wrong
 * place or converted differently shows. */
Test(ref_attention, flash_attention_equals_the_naive_computation)
{
	enum { B = 2, S = 300, HEADS = 2, D = 5, H = HEADS * D, N = B * S * H };
	const int64_t dims[3] = { B, S, H };
	uint16_t *q = malloc(N * 2), *k = malloc(N * 2), *v = malloc(N * 2), *y = malloc(N * 2),
		 *want = malloc(N * 2);
	double *sc = malloc(S * sizeof *sc);
	const double scale = 0.37;
	char err[ERRLEN];
	size_t i, b, h, r, t, c;

	cr_assert(q && k && v && y && want && sc);
	srand(11);
	for (i = 0; i < N; i++) {
		npukb_store_from_double(NPUKB_DT_FLOAT16, q, i, (rand() - RAND_MAX / 2) / (double)RAND_MAX * 4);
		npukb_store_from_double(NPUKB_DT_FLOAT16, k, i, (rand() - RAND_MAX / 2) / (double)RAND_MAX * 4);
		npukb_store_from_double(NPUKB_DT_FLOAT16, v, i, (rand() - RAND_MAX / 2) / (double)RAND_MAX * 3);
	}
	for (b = 0; b < B; b++)
		for (h = 0; h < HEADS; h++)
			for (r = 0; r < S; r++) {
				const size_t row = b * S * H + r * H + h * D;
				double mx = -INFINITY, sum = 0.0;
				for (t = 0; t < S; t++) {
					const size_t key = b * S * H + t * H + h * D;
					double s = 0.0;
					for (c = 0; c < D; c++)
						s += npukb_load_as_double(NPUKB_DT_FLOAT16, q, row + c) *
						     npukb_load_as_double(NPUKB_DT_FLOAT16, k, key + c);
					sc[t] = s * scale;
					mx = sc[t] > mx ? sc[t] : mx;
				}
				for (t = 0; t < S; t++) {
					sc[t] = exp(sc[t] - mx);
					sum += sc[t];
				}
				for (t = 0; t < S; t++)
					sc[t] = sc[t] / sum;
				for (c = 0; c < D; c++) {
					double o = 0.0;
					for (t = 0; t < S; t++)
						o += sc[t] * npukb_load_as_double(NPUKB_DT_FLOAT16, v, b * S * H + t * H + h * D + c);
					npukb_store_from_double(NPUKB_DT_FLOAT16, want, row + c, o);
				}
			}
	{
		struct npukb_ref_tensor in[3] = {
			ref_tensor("query", NPUKB_DT_FLOAT16, q, 3, dims),
			ref_tensor("key", NPUKB_DT_FLOAT16, k, 3, dims),
			ref_tensor("value", NPUKB_DT_FLOAT16, v, 3, dims),
		};
		struct npukb_ref_tensor out = ref_tensor("attention_out", NPUKB_DT_FLOAT16, y, 3, dims);
		const char *kv[] = { "head_num", "2", "scale_value", "0.37", NULL };
		size_t bad = 0;

		cr_assert_eq(ref_run("flash_attention_bsh", in, 3, &out, 1, kv, err), 0, "%s", err);
		for (i = 0; i < N; i++)
			bad += y[i] != want[i];
		cr_expect_eq(bad, 0, "%zu of %d outputs differ from the naive computation", bad, N);
	}
	free(q);
	free(k);
	free(v);
	free(y);
	free(want);
	free(sc);
}

/* One token, two heads sharing one kv head, dnope = drope = 1, three cached
 * tokens over blocks of 2 found through block_tables (1, 0): tokens 0 and
 * 1 are block 1's rows, token 2 block 0's row 0. */
Test(ref_attention, mla_reads_the_paged_cache_through_the_block_table)
{
	const float qn[2] = { 1, 0 }, qr[2] = { 1, 0 };
	/* caches [blocks 2, block_size 2, kv_heads 1, 1] */
	const float kn[4] = { 2, 99, -1, 1 }, kr[4] = { 0, 99, 1, 1 };
	const int32_t bt[2] = { 1, 0 };
	const int64_t qd[3] = { 1, 2, 1 }, kd[4] = { 2, 2, 1, 1 }, bd[2] = { 1, 2 };
	float y[2];
	char err[ERRLEN];
	struct npukb_ref_tensor in[5] = {
		ref_tensor("query_nope", NPUKB_DT_FLOAT32, (void *)qn, 3, qd),
		ref_tensor("query_rope", NPUKB_DT_FLOAT32, (void *)qr, 3, qd),
		ref_tensor("kv_nope_cache", NPUKB_DT_FLOAT32, (void *)kn, 4, kd),
		ref_tensor("kv_rope_cache", NPUKB_DT_FLOAT32, (void *)kr, 4, kd),
		ref_tensor("block_tables", NPUKB_DT_INT32, (void *)bt, 2, bd),
	};
	struct npukb_ref_tensor out = ref_tensor("out", NPUKB_DT_FLOAT32, y, 3, qd);
	const char *kv[] = { "q_seqlen", "1", "kv_seqlen", "3", NULL };
	/* head 0: keys (-1, 1), (1, 1), (2, 0): q.k = 0, 2, 2, scaled by
	 * 1/sqrt(2); values -1, 1, 2. head 1: q = 0, equal weights. */
	double e0 = 1, e1 = exp(2 / sqrt(2.0)), sum = e0 + 2 * e1;

	cr_assert_eq(ref_run("mla", in, 5, &out, 1, kv, err), 0, "%s", err);
	cr_expect_float_eq(y[0], (float)((-1 * e0 + 1 * e1 + 2 * e1) / sum), 1e-6);
	cr_expect_float_eq(y[1], (float)((-1 + 1 + 2) / 3.0), 1e-6);
}

/* ---- TopK ------------------------------------------------------------------ */

/* x [2, 4, 2] along dim 1, k = 2: the two largest (or smallest) of each
 * line of four, in order, with their positions. */
Test(ref_topk, largest_and_smallest_along_a_middle_dim)
{
	const float x[16] = { 1, -1, 5, 0, -2, 3, 4, 2, /* b0: lines (1 5 -2 4), (-1 0 3 2) */
			      0, 7, 9, -3, 8, 6, -1, 1 };  /* b1: (0 9 8 -1), (7 -3 6 1) */
	const int64_t xd[3] = { 2, 4, 2 }, od[3] = { 2, 2, 2 };
	const float top[8] = { 5, 3, 4, 2, 9, 7, 8, 6 };
	const int64_t top_at[8] = { 1, 2, 3, 3, 1, 0, 2, 2 };
	const float low[8] = { -2, -1, 1, 0, -1, -3, 0, 1 };
	const int64_t low_at[8] = { 2, 0, 0, 1, 3, 1, 0, 3 };
	float v[8];
	int64_t at[8];
	char err[ERRLEN];
	struct npukb_ref_tensor in = ref_tensor("x", NPUKB_DT_FLOAT32, (void *)x, 3, xd);
	struct npukb_ref_tensor out[2] = { ref_tensor("values", NPUKB_DT_FLOAT32, v, 3, od),
					   ref_tensor("indices", NPUKB_DT_INT64, at, 3, od) };
	const char *big[] = { "k", "2", "dim", "1", "largest", "true", "sorted", "true", NULL };
	const char *small[] = { "k", "2", "dim", "-2", "largest", "false", "sorted", "true", NULL };
	const char *unsorted[] = { "k", "2", "dim", "1", "largest", "true", "sorted", "false", NULL };

	cr_assert_eq(ref_run("topk", &in, 1, out, 2, big, err), 0, "%s", err);
	cr_expect_arr_eq(v, top, sizeof(top));
	cr_expect_arr_eq(at, top_at, sizeof(top_at));
	cr_assert_eq(ref_run("topk", &in, 1, out, 2, small, err), 0, "%s", err);
	cr_expect_arr_eq(v, low, sizeof(low));
	cr_expect_arr_eq(at, low_at, sizeof(low_at));
	cr_expect_lt(ref_run("topk", &in, 1, out, 2, unsorted, err), 0);
}
