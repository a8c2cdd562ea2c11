/* test_ref_level2b.c - the references of Level 2's Mask, TensorMove and
 * Norm families (reference/mask.c, tensor_move.c, norm.c), checked on small
 * inputs computed by hand. */
#include <criterion/criterion.h>

#include "reference.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#define ERRLEN 1024

/* A float32 (or other dtype) tensor of the given shape over data. */
static struct npukb_ref_tensor tensor(const char *name, enum npukb_dtype dt, void *data, int rank,
				      const int64_t *dims)
{
	struct npukb_ref_tensor t;
	memset(&t, 0, sizeof(t));
	t.name = name;
	t.dtype = dt;
	t.shape.rank = rank;
	t.numel = 1;
	for (int i = 0; i < rank; i++) {
		t.shape.dims[i] = dims[i];
		t.numel *= (size_t)dims[i];
	}
	t.data = data;
	return t;
}

/* Runs reference `name` with the attributes kv (name, value pairs, NULL
 * terminated, at most 4). */
static int run(const char *name, const struct npukb_ref_tensor *in, size_t nin,
	       struct npukb_ref_tensor *out, size_t nout, const char *const *kv, char *err)
{
	const struct npukb_reference *r = npukb_reference_find(name);
	struct npukb_attr_value attrs[4];
	struct npukb_case c;
	struct npukb_task t;
	struct npukb_ref_call call;
	char cid[] = "t";

	cr_assert_not_null(r, "reference %s is not registered", name);
	cr_assert_eq(r->nin, nin, "reference %s takes %zu inputs", name, r->nin);
	cr_assert_eq(r->nout, nout, "reference %s makes %zu outputs", name, r->nout);
	memset(&c, 0, sizeof(c));
	memset(&t, 0, sizeof(t));
	c.id = cid;
	c.attrs = attrs;
	for (size_t i = 0; kv && kv[2 * i] && i < 4; i++) {
		attrs[i].name = (char *)kv[2 * i];
		attrs[i].value = (char *)kv[2 * i + 1];
		c.nattrs = i + 1;
	}
	call.task = &t;
	call.kcase = &c;
	call.in = in;
	call.nin = nin;
	call.out = out;
	call.nout = nout;
	err[0] = '\0';
	return r->fn(&call, err, ERRLEN);
}

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
	struct npukb_ref_tensor in = tensor("x", NPUKB_DT_FLOAT32, (void *)x, 3, dims);
	struct npukb_ref_tensor out = tensor("y", NPUKB_DT_FLOAT32, y, 3, dims);
	const char *d0[] = { "diagonal", "0", NULL }, *dm1[] = { "diagonal", "-1", NULL },
		   *d1[] = { "diagonal", "1", NULL };

	cr_assert_eq(run("tril", &in, 1, &out, 1, d0, err), 0, "%s", err);
	cr_expect_arr_eq(y, tril0, sizeof(y));
	cr_assert_eq(run("tril", &in, 1, &out, 1, dm1, err), 0, "%s", err);
	cr_expect_arr_eq(y, trilm1, sizeof(y));
	cr_assert_eq(run("triu", &in, 1, &out, 1, d1, err), 0, "%s", err);
	cr_expect_arr_eq(y, triu1, sizeof(y));
	/* A vector has no matrix; no diagonal is an error too. */
	in.shape.rank = 1;
	cr_expect_lt(run("tril", &in, 1, &out, 1, d0, err), 0);
	in.shape.rank = 3;
	cr_expect_lt(run("triu", &in, 1, &out, 1, NULL, err), 0);
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
	struct npukb_ref_tensor in[2] = { tensor("x", NPUKB_DT_FLOAT32, (void *)x, 2, dx),
					  tensor("gamma", NPUKB_DT_FLOAT32, (void *)gamma, 1, dg) };
	struct npukb_ref_tensor out[2] = { tensor("y", NPUKB_DT_FLOAT32, y, 2, dx),
					   tensor("rstd", NPUKB_DT_FLOAT32, rstd, 2, dr) };
	const char *eps[] = { "epsilon", "0.5", NULL };

	cr_assert_eq(run("rms_norm", in, 2, out, 2, eps, err), 0, "%s", err);
	expect_rms(y, rstd);
	/* gamma must divide x into rows; rstd holds one value per row */
	in[1].numel = 3;
	cr_expect_lt(run("rms_norm", in, 2, out, 2, eps, err), 0);
	in[1].numel = 2;
	out[1].numel = 1;
	cr_expect_lt(run("rms_norm", in, 2, out, 2, eps, err), 0);
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
	struct npukb_ref_tensor a_in[3] = { tensor("x1", NPUKB_DT_FLOAT32, (void *)x1, 2, dx),
					    tensor("x2", NPUKB_DT_FLOAT32, (void *)x2, 2, dx),
					    tensor("gamma", NPUKB_DT_FLOAT32, (void *)gamma, 1, dg) };
	struct npukb_ref_tensor a_out[3] = { tensor("y", NPUKB_DT_FLOAT32, y, 2, dx),
					     tensor("rstd", NPUKB_DT_FLOAT32, rstd, 2, dr),
					     tensor("x", NPUKB_DT_FLOAT32, s, 2, dx) };
	/* in place: inputs gamma, x1, x2; outputs x1 (y), x2 (the sum), rstd */
	struct npukb_ref_tensor i_in[3] = { a_in[2], a_in[0], a_in[1] };
	struct npukb_ref_tensor i_out[3] = { a_out[0], a_out[2], a_out[1] };

	cr_assert_eq(run("add_rms_norm", a_in, 3, a_out, 3, eps, err), 0, "%s", err);
	expect_rms(y, rstd);
	cr_expect_arr_eq(s, sum, sizeof(s));
	memset(y, 0, sizeof(y));
	memset(s, 0, sizeof(s));
	memset(rstd, 0, sizeof(rstd));
	cr_assert_eq(run("inplace_add_rms_norm", i_in, 3, i_out, 3, eps, err), 0, "%s", err);
	expect_rms(y, rstd);
	cr_expect_arr_eq(s, sum, sizeof(s));
}
