/* reduce_fused.c - Level 2 "Reduce" fusions (element-wise chains ending in
 * reductions), in double from their definitions, rounded once to the
 * output dtype. */
#include "ref_util.h"

#include <math.h>

static double at(const struct npukb_ref_tensor *t, size_t i)
{
	return npukb_load_as_double(t->dtype, t->data, i);
}

static int need_numel(const struct npukb_ref_tensor *t, size_t n, char *err, size_t errlen)
{
	if (t->numel == n)
		return 0;
	snprintf(err, errlen, "%s has %zu elements, %zu expected", t->name, t->numel, n);
	return -EINVAL;
}

/* y = sigmoid(x s1) s2 + s3, s1..s3 one-element tensors. */
int npukb_ref_mul_sigmoid_mul_add(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	const struct npukb_ref_tensor *x = &c->in[0];
	size_t i;
	int rc = need_numel(&c->out[0], x->numel, err, errlen);
	for (i = 1; !rc && i < 4; i++)
		rc = need_numel(&c->in[i], 1, err, errlen);
	if (rc)
		return rc;
	for (i = 0; i < x->numel; i++) {
		double u = at(x, i) * at(&c->in[1], 0);
		npukb_store_from_double(c->out[0].dtype, c->out[0].data, i,
					at(&c->in[2], 0) / (1.0 + exp(-u)) + at(&c->in[3], 0));
	}
	return 0;
}

/* x0 [A, B, C], x1 [C], m0 [1], m1 [A, B], m2 [A, B, C]:
 * y[a, c] = sum over b of sigmoid((x0 + x1) m0) m1 m2. */
int npukb_ref_add_sigmoid_mul_reduce_sum(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	const struct npukb_ref_tensor *x0 = &c->in[0];
	size_t A, B, C, a, b, k;
	int rc;
	if (x0->shape.rank != 3) {
		snprintf(err, errlen, "%s has rank %d, 3 expected", x0->name, x0->shape.rank);
		return -EINVAL;
	}
	A = x0->shape.dims[0];
	B = x0->shape.dims[1];
	C = x0->shape.dims[2];
	rc = need_numel(&c->in[1], C, err, errlen);
	if (!rc)
		rc = need_numel(&c->in[2], 1, err, errlen);
	if (!rc)
		rc = need_numel(&c->in[3], A * B, err, errlen);
	if (!rc)
		rc = need_numel(&c->in[4], A * B * C, err, errlen);
	if (!rc)
		rc = need_numel(&c->out[0], A * C, err, errlen);
	if (rc)
		return rc;
	for (a = 0; a < A; a++)
		for (k = 0; k < C; k++) {
			double s = 0.0;
			for (b = 0; b < B; b++) {
				size_t i = (a * B + b) * C + k;
				double u = (at(x0, i) + at(&c->in[1], k)) * at(&c->in[2], 0);
				s += at(&c->in[3], a * B + b) * at(&c->in[4], i) / (1.0 + exp(-u));
			}
			npukb_store_from_double(c->out[0].dtype, c->out[0].data, a * C + k, s);
		}
	return 0;
}

/* Softmax over the last axis of v = sel ? x1 : x2. */
int npukb_ref_select_softmax(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	const struct npukb_ref_tensor *sel = &c->in[0], *x1 = &c->in[1], *x2 = &c->in[2];
	size_t n = sel->numel, len, r, j;
	int rc = need_numel(x1, n, err, errlen);
	if (!rc)
		rc = need_numel(x2, n, err, errlen);
	if (!rc)
		rc = need_numel(&c->out[0], n, err, errlen);
	if (rc)
		return rc;
	len = sel->shape.rank ? sel->shape.dims[sel->shape.rank - 1] : 1;
	for (r = 0; len && r < n / len; r++) {
		double m = -INFINITY, s = 0.0;
		for (j = 0; j < len; j++) {
			size_t i = r * len + j;
			double v = at(sel, i) != 0.0 ? at(x1, i) : at(x2, i);
			m = v > m ? v : m;
		}
		for (j = 0; j < len; j++) {
			size_t i = r * len + j;
			s += exp((at(sel, i) != 0.0 ? at(x1, i) : at(x2, i)) - m);
		}
		for (j = 0; j < len; j++) {
			size_t i = r * len + j;
			double v = at(sel, i) != 0.0 ? at(x1, i) : at(x2, i);
			npukb_store_from_double(c->out[0].dtype, c->out[0].data, i, exp(v - m) / s);
		}
	}
	return 0;
}

/* Per row of x = m0 * m1 * s (x [R, N], s one element): mean and variance
 * over N, y = beta + gamma (x - mean) / sqrt(var + eps), eps one element,
 * gamma and beta [N]. */
int npukb_ref_mul_mul_reduce_mean_twice(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	const struct npukb_ref_tensor *m0 = &c->in[0], *m1 = &c->in[1];
	size_t N, R, r, j;
	double sc, eps;
	int rc;
	if (m0->shape.rank != 2) {
		snprintf(err, errlen, "%s has rank %d, 2 expected", m0->name, m0->shape.rank);
		return -EINVAL;
	}
	R = m0->shape.dims[0];
	N = m0->shape.dims[1];
	rc = need_numel(m1, R * N, err, errlen);
	if (!rc)
		rc = need_numel(&c->in[2], 1, err, errlen);
	if (!rc)
		rc = need_numel(&c->in[3], 1, err, errlen);
	if (!rc)
		rc = need_numel(&c->in[4], N, err, errlen);
	if (!rc)
		rc = need_numel(&c->in[5], N, err, errlen);
	if (!rc)
		rc = need_numel(&c->out[0], R * N, err, errlen);
	if (rc)
		return rc;
	sc = at(&c->in[2], 0);
	eps = at(&c->in[3], 0);
	for (r = 0; r < R; r++) {
		double mean = 0.0, var = 0.0, k;
		for (j = 0; j < N; j++)
			mean += at(m0, r * N + j) * at(m1, r * N + j) * sc;
		mean /= (double)N;
		for (j = 0; j < N; j++) {
			double d = at(m0, r * N + j) * at(m1, r * N + j) * sc - mean;
			var += d * d;
		}
		var /= (double)N;
		k = 1.0 / sqrt(var + eps);
		for (j = 0; j < N; j++) {
			double x = at(m0, r * N + j) * at(m1, r * N + j) * sc;
			npukb_store_from_double(c->out[0].dtype, c->out[0].data, r * N + j,
						at(&c->in[5], j) + at(&c->in[4], j) * k * (x - mean));
		}
	}
	return 0;
}
