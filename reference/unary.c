/* unary.c - element-wise operators of one tensor. Each computes the exact
 * mathematical value in double and rounds once to the output dtype;
 * integer results wrap (two's complement), NaN propagates. */
#include "ref_util.h"

#include <npukb/parallel.h>

#include <math.h>

typedef double (*unary_fn)(double);

/* Elements are computed on their own: large tensors are cut into
 * npukb/parallel.h parts, with the bytes one thread would write. */

struct unary_job {
	const struct npukb_ref_tensor *x;
	struct npukb_ref_tensor *y;
	unary_fn f;
	size_t w; /* strideslice: the last dimension */
};

static void unary_range(void *ctx, unsigned part, size_t begin, size_t end)
{
	const struct unary_job *j = ctx;
	double v[REF_BLOCK];
	size_t n;
	(void)part;
	for (size_t i = begin; i < end; i += n) {
		n = end - i < REF_BLOCK ? end - i : REF_BLOCK;
		ref_load_block(j->x, i, n, v);
		for (size_t k = 0; k < n; k++)
			npukb_store_from_double(j->y->dtype, j->y->data, i + k, j->f(v[k]));
	}
}

static int map_unary(const struct npukb_ref_call *c, unary_fn f, char *err, size_t errlen)
{
	struct unary_job j = { &c->in[0], &c->out[0], f, 0 };
	int rc = ref_same_numel(c, 1, err, errlen);
	if (rc)
		return rc;
	npukb_parallel_run(j.y->numel, npukb_parallel_parts(j.y->numel, NPUKB_PARALLEL_GRAIN),
			   unary_range, &j);
	return 0;
}

static double f_isfinite(double v) { return isfinite(v) ? 1.0 : 0.0; }
static double f_isinf(double v) { return isinf(v) ? 1.0 : 0.0; }
static double f_rsqrt(double v) { return 1.0 / sqrt(v); }

/* Li2(y) for |y| <= 1/2 by its power series (terms fall as 2^-k / k^2). */
static double li2_series(double y)
{
	double term = y, sum = 0.0;
	int k;
	for (k = 1; k < 200 && fabs(term) > 1e-300; k++) {
		sum += term / ((double)k * k);
		term *= y;
		if (fabs(term) / ((double)(k + 1) * (k + 1)) < 1e-18 * fabs(sum))
			break;
	}
	return sum;
}

/* The dilogarithm Li2(y) for real y <= 1, reduced to |y| <= 1/2 by the
 * reflection, Landen and inversion identities. */
static double li2(double y)
{
	const double pi2_6 = 1.6449340668482264; /* pi^2 / 6 */
	if (y == 1.0)
		return pi2_6;
	if (y > 0.5) /* reflection: Li2(y) + Li2(1-y) = pi^2/6 - ln(y) ln(1-y) */
		return pi2_6 - log(y) * log1p(-y) - li2_series(1.0 - y);
	if (y >= -0.5)
		return li2_series(y);
	if (y >= -1.0) /* Landen: y/(y-1) lands in [1/3, 1/2] */
		return -li2_series(y / (y - 1.0)) - 0.5 * log1p(-y) * log1p(-y);
	/* inversion for y < -1: 1/y is in (-1, 0) */
	return -pi2_6 - 0.5 * log(-y) * log(-y) - li2(1.0 / y);
}

/* Spence's function as SciPy defines it: the integral from 1 to x of
 * log(t)/(1-t) dt, which is Li2(1-x); not real for x < 0 (NaN). */
static double f_spence(double x)
{
	if (x != x || x < 0.0)
		return NAN;
	if (isinf(x))
		return -INFINITY;
	return li2(1.0 - x);
}

int npukb_ref_is_finite(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	return map_unary(c, f_isfinite, err, errlen);
}

int npukb_ref_is_inf(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	return map_unary(c, f_isinf, err, errlen);
}

int npukb_ref_sqrt(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	return map_unary(c, sqrt, err, errlen);
}

int npukb_ref_rsqrt(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	return map_unary(c, f_rsqrt, err, errlen);
}

int npukb_ref_sin(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	return map_unary(c, sin, err, errlen);
}

int npukb_ref_cos(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	return map_unary(c, cos, err, errlen);
}

int npukb_ref_tanh(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	return map_unary(c, tanh, err, errlen);
}

int npukb_ref_spence(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	return map_unary(c, f_spence, err, errlen);
}

/* |x|; integers exactly (|INT_MIN| wraps to INT_MIN, as PyTorch's does);
 * complex: the modulus, a float32 output. */
int npukb_ref_abs(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	const struct npukb_ref_tensor *x = &c->in[0];
	struct npukb_ref_tensor *y = &c->out[0];
	size_t i;
	int rc = ref_same_numel(c, 1, err, errlen);
	if (rc)
		return rc;
	for (i = 0; i < y->numel; i++) {
		if (x->dtype == NPUKB_DT_COMPLEX64) {
			double re, im;
			ref_c64_load(x, i, &re, &im);
			npukb_store_from_double(y->dtype, y->data, i, hypot(re, im));
		} else if (ref_is_int(x->dtype) && ref_is_int(y->dtype)) {
			int64_t v = ref_load_i64(x, i);
			ref_store_i64(y, i, v < 0 ? (int64_t)(0 - (uint64_t)v) : v);
		} else {
			npukb_store_from_double(y->dtype, y->data, i,
						fabs(npukb_load_as_double(x->dtype, x->data, i)));
		}
	}
	return 0;
}

/* -x; -INT_MIN wraps to INT_MIN; the sign of zero flips for floats. */
int npukb_ref_neg(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	const struct npukb_ref_tensor *x = &c->in[0];
	struct npukb_ref_tensor *y = &c->out[0];
	size_t i;
	int rc = ref_same_numel(c, 1, err, errlen);
	if (rc)
		return rc;
	for (i = 0; i < y->numel; i++) {
		if (x->dtype == NPUKB_DT_COMPLEX64) {
			double re, im;
			ref_c64_load(x, i, &re, &im);
			ref_c64_store(y, i, -re, -im);
		} else if (ref_is_int(x->dtype)) {
			ref_store_i64(y, i, (int64_t)(0 - (uint64_t)ref_load_i64(x, i)));
		} else {
			npukb_store_from_double(y->dtype, y->data, i,
						-npukb_load_as_double(x->dtype, x->data, i));
		}
	}
	return 0;
}

/* Conversion to the output dtype: floats round to nearest even, float to
 * integer truncates toward zero (then wraps), anything to bool is x != 0. */
int npukb_ref_cast(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	const struct npukb_ref_tensor *x = &c->in[0];
	struct npukb_ref_tensor *y = &c->out[0];
	size_t i;
	int rc = ref_same_numel(c, 1, err, errlen);
	if (rc)
		return rc;
	for (i = 0; i < y->numel; i++) {
		if (x->dtype == NPUKB_DT_INT64 && ref_is_int(y->dtype) && y->dtype != NPUKB_DT_BOOL)
			ref_store_i64(y, i, ref_load_i64(x, i));
		else
			npukb_store_from_double(y->dtype, y->data, i,
						npukb_load_as_double(x->dtype, x->data, i));
	}
	return 0;
}

/* The last dimension's second half (from W/2 on) negated, the rest copied. */
/* The second half of every row negated. */
static void strideslice_range(void *ctx, unsigned part, size_t begin, size_t end)
{
	const struct unary_job *j = ctx;
	double v[REF_BLOCK];
	size_t n;
	(void)part;
	for (size_t i = begin; i < end; i += n) {
		size_t col = i % j->w;
		n = end - i < REF_BLOCK ? end - i : REF_BLOCK;
		ref_load_block(j->x, i, n, v);
		for (size_t k = 0; k < n; k++) {
			if (col >= j->w / 2)
				v[k] = -v[k];
			if (++col == j->w)
				col = 0;
		}
		/* a block rounded and stored in one call */
		npukb_store_from_double_n(j->y->dtype, j->y->data, i, v, n);
	}
}

int npukb_ref_strideslice_neg_concat(const struct npukb_ref_call *c, char *err,
				     size_t errlen)
{
	const struct npukb_ref_tensor *x = &c->in[0];
	struct npukb_ref_tensor *y = &c->out[0];
	size_t w;
	int rc = ref_same_numel(c, 1, err, errlen);
	if (rc)
		return rc;
	if (x->shape.rank < 1) {
		snprintf(err, errlen, "%s must have at least one dimension", x->name);
		return -EINVAL;
	}
	w = (size_t)x->shape.dims[x->shape.rank - 1];
	if (w == 0)
		return 0;
	{
		struct unary_job j = { x, y, NULL, w };
		npukb_parallel_run(y->numel, npukb_parallel_parts(y->numel, NPUKB_PARALLEL_GRAIN),
				   strideslice_range, &j);
	}
	return 0;
}

/* found_flag = 1.0 when any element of any member of the list is +-inf or
 * NaN, else 0.0 (the padding between members is not part of the list). */
int npukb_ref_non_finite_check(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	const struct npukb_ref_tensor *x = &c->in[0];
	int found = 0;

	if (c->out[0].numel != 1) {
		snprintf(err, errlen, "%s must hold one element", c->out[0].name);
		return -EINVAL;
	}
	for (size_t m = 0; m < (x->nmembers ? x->nmembers : 1) && !found; m++) {
		size_t first = x->nmembers ? x->member_offsets[m] : 0;
		size_t n = x->nmembers ? npukb_shape_numel(&x->members[m]) : x->numel;
		for (size_t i = 0; i < n && !found; i++)
			found = !isfinite(npukb_load_as_double(x->dtype, x->data, first + i));
	}
	npukb_store_from_double(c->out[0].dtype, c->out[0].data, 0, found ? 1.0 : 0.0);
	return 0;
}
