/* gemm_ops.c - Level 3's matrix products on the GEMM core (gemm.h). Each
 * output element is the exact product sum (in double; int8 products are
 * exact integers), then the epilogue's scaling and additions in double, and
 * one rounding to the output dtype.
 *
 *   matmul_add  out = A B + C
 *   matmul_bias out = A B + bias (bias[n] added to every row)
 *   gemm        out = alpha A B + beta C (alpha, beta: one-element inputs)
 *   gemv        y' = alpha A x + beta y
 *   quant_matmul out[i][j] = (A B)[i][j] * scale[j] * per_token_scale[i]
 *   grouped_matmul_slice_m[_dequant]: rows of A cut into groups by their
 *     end offsets; group g's rows times B[g] (and, dequantised, scale[g][j]
 *     and per_token_scale[i]). Rows no group holds are 0.
 *   grouped_matmul_slice_k[_dequant]: the reduction dimension cut into
 *     groups; A is given K-major ([k, m]); out[g] = A_g^T B_g, an empty
 *     group's block 0 (dequantised: times scale[g][j] and
 *     per_token_scale[g][i]).
 *   group_gemm   groups of their own sizes (the int64 inputs m_list,
 *     k_list, n_list), flat A, B and C one group after another; out_g = alpha[g]
 *     A_g B_g + beta[g] C_g. */
#include "gemm.h"
#include "ref_util.h"

/* What is done to a row of sums before it is stored. */
struct epilogue {
	struct npukb_ref_tensor *out;
	size_t out_off;                       /* element of row 0, column 0 */
	double alpha;
	const struct npukb_ref_tensor *add;   /* + beta * add[add_off + i*n + j] */
	size_t add_off;
	double beta;
	const struct npukb_ref_tensor *bias;  /* + bias[j] */
	const struct npukb_ref_tensor *col;   /* * col[col_off + j] */
	size_t col_off;
	const struct npukb_ref_tensor *row;   /* * row[row_off + i] */
	size_t row_off;
};

static double at(const struct npukb_ref_tensor *t, size_t i)
{
	return npukb_load_as_double(t->dtype, t->data, i);
}

static void store_row(void *ctx, size_t i, double *s, size_t n)
{
	const struct epilogue *e = ctx;
	size_t j;
	for (j = 0; j < n; j++) {
		double v = e->alpha * s[j];
		if (e->bias)
			v += at(e->bias, j);
		if (e->add)
			v += e->beta * at(e->add, e->add_off + i * n + j);
		if (e->col)
			v *= at(e->col, e->col_off + j);
		if (e->row)
			v *= at(e->row, e->row_off + i);
		npukb_store_from_double(e->out->dtype, e->out->data, e->out_off + i * n + j, v);
	}
}

static struct epilogue plain(struct npukb_ref_tensor *out)
{
	struct epilogue e = { 0 };
	e.out = out;
	e.alpha = 1.0;
	e.beta = 1.0;
	return e;
}

static int bad_shapes(const struct npukb_ref_call *c, const char *what, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: the shapes of %s do not fit %s", c->task ? c->task->id : "",
		 c->in[0].name, what);
	return -EINVAL;
}

static int dims2(const struct npukb_ref_tensor *t, size_t *r, size_t *c)
{
	if (t->shape.rank != 2)
		return -1;
	*r = (size_t)t->shape.dims[0];
	*c = (size_t)t->shape.dims[1];
	return 0;
}

/* out (m x n at e's offset) = epilogue(A B), A and B row-major. */
static int product(const struct npukb_ref_tensor *a, size_t aoff, const struct npukb_ref_tensor *b,
		   size_t boff, size_t m, size_t k, size_t n, struct epilogue *e)
{
	struct ref_gemm_operand ao = { a, aoff, k, 1 }, bo = { b, boff, n, 1 };
	return ref_gemm(&ao, &bo, m, n, k, 0, store_row, e);
}

static int finish(int rc, char *err, size_t errlen)
{
	if (rc)
		snprintf(err, errlen, "out of memory");
	return rc;
}

/* A [m, k], B [k, n] and an output of m * n elements. */
static int mkn(const struct npukb_ref_call *c, size_t *m, size_t *k, size_t *n)
{
	size_t kb;
	if (dims2(&c->in[0], m, k) || dims2(&c->in[1], &kb, n) || kb != *k ||
	    c->out[0].numel != *m * *n)
		return -1;
	return 0;
}

int npukb_ref_matmul_add(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	size_t m, k, n;
	struct epilogue e = plain(&c->out[0]);
	if (mkn(c, &m, &k, &n) || c->in[2].numel != m * n)
		return bad_shapes(c, "A [m, k], B [k, n], C [m, n]", err, errlen);
	e.add = &c->in[2];
	return finish(product(&c->in[0], 0, &c->in[1], 0, m, k, n, &e), err, errlen);
}

int npukb_ref_matmul_bias(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	size_t m, k, n;
	struct epilogue e = plain(&c->out[0]);
	if (mkn(c, &m, &k, &n) || c->in[2].numel != n)
		return bad_shapes(c, "A [m, k], B [k, n], bias [n]", err, errlen);
	e.bias = &c->in[2];
	return finish(product(&c->in[0], 0, &c->in[1], 0, m, k, n, &e), err, errlen);
}

int npukb_ref_gemm(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	size_t m, k, n;
	struct epilogue e = plain(&c->out[0]);
	if (mkn(c, &m, &k, &n) || c->in[2].numel != m * n || c->in[3].numel != 1 ||
	    c->in[4].numel != 1)
		return bad_shapes(c, "A [m, k], B [k, n], C [m, n], alpha [1], beta [1]", err, errlen);
	e.add = &c->in[2];
	e.alpha = at(&c->in[3], 0);
	e.beta = at(&c->in[4], 0);
	return finish(product(&c->in[0], 0, &c->in[1], 0, m, k, n, &e), err, errlen);
}

int npukb_ref_gemv(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	size_t m, n;
	struct epilogue e = plain(&c->out[0]);
	if (dims2(&c->in[0], &m, &n) || c->in[1].numel != n || c->in[2].numel != m ||
	    c->in[3].numel != 1 || c->in[4].numel != 1 || c->out[0].numel != m)
		return bad_shapes(c, "A [m, n], x [n], y [m], alpha [1], beta [1]", err, errlen);
	e.add = &c->in[2];
	e.alpha = at(&c->in[3], 0);
	e.beta = at(&c->in[4], 0);
	/* x as an n x 1 matrix: each output row is one element. */
	return finish(product(&c->in[0], 0, &c->in[1], 0, m, n, 1, &e), err, errlen);
}

int npukb_ref_quant_matmul(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	size_t m, k, n;
	struct epilogue e = plain(&c->out[0]);
	if (mkn(c, &m, &k, &n) || c->in[2].numel != n || c->in[3].numel != m)
		return bad_shapes(c, "A [m, k], B [k, n], scale [n], per_token_scale [m]", err,
				  errlen);
	e.col = &c->in[2];
	e.row = &c->in[3];
	return finish(product(&c->in[0], 0, &c->in[1], 0, m, k, n, &e), err, errlen);
}

/* Group g's end offset, checked to be in [start, limit]. */
static int group_end(const struct npukb_ref_tensor *gl, size_t g, size_t start, size_t limit,
		     size_t *end, char *err, size_t errlen)
{
	int64_t v = ref_load_i64(gl, g);
	if (v < (int64_t)start || v > (int64_t)limit) {
		snprintf(err, errlen, "%s[%zu] = %lld is outside [%zu, %zu]", gl->name, g,
			 (long long)v, start, limit);
		return -EINVAL;
	}
	*end = (size_t)v;
	return 0;
}

static void zero(struct npukb_ref_tensor *t, size_t from, size_t count)
{
	size_t i;
	for (i = 0; i < count; i++)
		npukb_store_from_double(t->dtype, t->data, from + i, 0.0);
}

/* The dequantised forms' scales, inputs 2 (per column) and 3 (per row),
 * from the group's offsets into them. */
static void dequant_scales(struct epilogue *e, const struct npukb_ref_call *c, size_t col_off,
			   size_t row_off)
{
	e->col = &c->in[2];
	e->col_off = col_off;
	e->row = &c->in[3];
	e->row_off = row_off;
}

/* in: A [m, k], B [g, k, n], (scale [g, n], per_token_scale [m],) group_list [g]. */
static int slice_m(const struct npukb_ref_call *c, int dequant, char *err, size_t errlen)
{
	const struct npukb_ref_tensor *a = &c->in[0], *b = &c->in[1];
	const struct npukb_ref_tensor *gl = &c->in[dequant ? 4 : 2];
	size_t m, k, n, groups = gl->numel, g, start = 0, end;
	struct epilogue e = plain(&c->out[0]);
	int rc;

	if (dims2(a, &m, &k) || b->shape.rank != 3 || (size_t)b->shape.dims[0] != groups ||
	    (size_t)b->shape.dims[1] != k || c->out[0].numel != m * (size_t)b->shape.dims[2])
		return bad_shapes(c, "A [m, k], B [groups, k, n], out [m, n]", err, errlen);
	n = (size_t)b->shape.dims[2];
	if (dequant && (c->in[2].numel != groups * n || c->in[3].numel != m))
		return bad_shapes(c, "scale [groups, n], per_token_scale [m]", err, errlen);
	for (g = 0; g < groups; g++, start = end) {
		if ((rc = group_end(gl, g, start, m, &end, err, errlen)))
			return rc;
		e.out_off = start * n;
		if (dequant)
			dequant_scales(&e, c, g * n, start);
		if ((rc = product(a, start * k, b, g * k * n, end - start, k, n, &e)))
			return finish(rc, err, errlen);
	}
	zero(&c->out[0], start * n, (m - start) * n);
	return 0;
}

int npukb_ref_grouped_matmul_slice_m(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	return slice_m(c, 0, err, errlen);
}

int npukb_ref_grouped_matmul_slice_m_dequant(const struct npukb_ref_call *c, char *err,
					     size_t errlen)
{
	return slice_m(c, 1, err, errlen);
}

/* in: A [k, m] (K-major), B [k, n], (scale [g, n], per_token_scale [g, m],)
 * group_list [g]; out [g, m, n]. */
static int slice_k(const struct npukb_ref_call *c, int dequant, char *err, size_t errlen)
{
	const struct npukb_ref_tensor *a = &c->in[0], *b = &c->in[1];
	const struct npukb_ref_tensor *gl = &c->in[dequant ? 4 : 2];
	size_t m, k, kb, n, groups = gl->numel, g, start = 0, end;
	struct epilogue e = plain(&c->out[0]);
	int rc;

	if (dims2(a, &k, &m) || dims2(b, &kb, &n) || kb != k || c->out[0].numel != groups * m * n)
		return bad_shapes(c, "A [k, m], B [k, n], out [groups, m, n]", err, errlen);
	if (dequant && (c->in[2].numel != groups * n || c->in[3].numel != groups * m))
		return bad_shapes(c, "scale [groups, n], per_token_scale [groups, m]", err, errlen);
	for (g = 0; g < groups; g++, start = end) {
		/* A_g^T: element (i, p) of group g is A[start + p][i]. */
		struct ref_gemm_operand ao, bo = { b, start * n, n, 1 };
		if ((rc = group_end(gl, g, start, k, &end, err, errlen)))
			return rc;
		ao.t = a;
		ao.off = start * m;
		ao.rs = 1;
		ao.cs = m;
		e.out_off = g * m * n;
		if (dequant)
			dequant_scales(&e, c, g * n, g * m);
		/* An empty group sums nothing: its block is 0 as the epilogue makes it. */
		if ((rc = ref_gemm(&ao, &bo, m, n, end - start, 0, store_row, &e)))
			return finish(rc, err, errlen);
	}
	return 0;
}

int npukb_ref_grouped_matmul_slice_k(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	return slice_k(c, 0, err, errlen);
}

int npukb_ref_grouped_matmul_slice_k_dequant(const struct npukb_ref_call *c, char *err,
					     size_t errlen)
{
	return slice_k(c, 1, err, errlen);
}

/* Group g's size from the int64 (or int32) list tensor t. */
static size_t size_at(const struct npukb_ref_tensor *t, size_t g)
{
	int64_t v = ref_load_i64(t, g);
	return v < 0 ? 0 : (size_t)v;
}

int npukb_ref_group_gemm(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	const struct npukb_ref_tensor *ml = &c->in[5], *kl = &c->in[6], *nl = &c->in[7];
	size_t groups = ml->numel, g, oa = 0, ob = 0, oc = 0;
	struct epilogue e = plain(&c->out[0]);
	int rc;

	if (kl->numel != groups || nl->numel != groups)
		return bad_shapes(c, "m_list, k_list and n_list of one length", err, errlen);
	for (g = 0; g < groups; g++) {
		oa += size_at(ml, g) * size_at(kl, g);
		ob += size_at(kl, g) * size_at(nl, g);
		oc += size_at(ml, g) * size_at(nl, g);
	}
	if (c->in[0].numel != oa || c->in[1].numel != ob || c->in[2].numel != oc ||
	    c->in[3].numel != groups || c->in[4].numel != groups || c->out[0].numel != oc)
		return bad_shapes(c, "the groups of m_list, k_list and n_list", err, errlen);
	e.add = &c->in[2];
	for (g = oa = ob = oc = 0; g < groups; g++) {
		size_t m = size_at(ml, g), k = size_at(kl, g), n = size_at(nl, g);
		e.alpha = at(&c->in[3], g);
		e.beta = at(&c->in[4], g);
		e.out_off = e.add_off = oc;
		if ((rc = product(&c->in[0], oa, &c->in[1], ob, m, k, n, &e)))
			return finish(rc, err, errlen);
		oa += m * k;
		ob += k * n;
		oc += m * n;
	}
	return 0;
}
