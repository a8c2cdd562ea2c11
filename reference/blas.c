/* blas.c - BLAS level-1 style operations over n elements taken every incx
 * (case attributes n and incx). Sums are accumulated in double, element by
 * element; indices are 1-based as BLAS returns them, and on ties the first
 * index wins. A NaN counts as the extreme value (first NaN wins), as
 * PyTorch's argmax/argmin treat it. */
#include "ref_util.h"

#include <npukb/util.h>
#include <math.h>

static int strided(const struct npukb_ref_call *c, size_t *n, size_t *inc, char *err,
		   size_t errlen)
{
	long long ln, linc;
	int rc = ref_attr_int(c, "n", &ln, err, errlen);
	if (rc == 0)
		rc = ref_attr_int(c, "incx", &linc, err, errlen);
	if (rc)
		return rc;
	if (ln < 0 || linc < 1) {
		snprintf(err, errlen, "n = %lld and incx = %lld: need n >= 0, incx >= 1", ln, linc);
		return -EINVAL;
	}
	if (ln > 0 && (size_t)(ln - 1) * (size_t)linc >= c->in[0].numel) {
		snprintf(err, errlen, "n = %lld, incx = %lld reach past the %zu elements of %s",
			 ln, linc, c->in[0].numel, c->in[0].name);
		return -EINVAL;
	}
	if (c->out[0].numel < 1) {
		snprintf(err, errlen, "output %s is empty", c->out[0].name);
		return -EINVAL;
	}
	*n = (size_t)ln;
	*inc = (size_t)linc;
	return 0;
}

/* sum |x_i| */
int npukb_ref_sasum(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	size_t n, inc, i;
	double s = 0.0;
	int rc = strided(c, &n, &inc, err, errlen);
	if (rc)
		return rc;
	for (i = 0; i < n; i++)
		s += fabs(npukb_load_as_double(c->in[0].dtype, c->in[0].data, i * inc));
	npukb_store_from_double(c->out[0].dtype, c->out[0].data, 0, s);
	return 0;
}

/* sqrt(sum x_i^2); squares of float32 values are exact in double and the
 * sum cannot overflow a double for any float32 input of this size. */
int npukb_ref_snrm2(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	size_t n, inc, i;
	double s = 0.0;
	int rc = strided(c, &n, &inc, err, errlen);
	if (rc)
		return rc;
	for (i = 0; i < n; i++) {
		double v = npukb_load_as_double(c->in[0].dtype, c->in[0].data, i * inc);
		s += v * v;
	}
	npukb_store_from_double(c->out[0].dtype, c->out[0].data, 0, sqrt(s));
	return 0;
}

/* |x|, or |re| + |im| for complex (BLAS icamax/icamin's measure). */
static double magnitude(const struct npukb_ref_tensor *x, size_t i)
{
	if (x->dtype == NPUKB_DT_COMPLEX64) {
		double re, im;
		ref_c64_load(x, i, &re, &im);
		return fabs(re) + fabs(im);
	}
	return fabs(npukb_load_as_double(x->dtype, x->data, i));
}

/* 1-based position (in the strided sequence) of the first largest or
 * smallest magnitude; 0 when n = 0, as BLAS returns. */
static int extreme_index(const struct npukb_ref_call *c, int want_max, char *err,
			 size_t errlen)
{
	const struct npukb_ref_tensor *x = &c->in[0];
	size_t n, inc, i, best = 0;
	double bv = 0.0;
	int rc = strided(c, &n, &inc, err, errlen);
	if (rc)
		return rc;
	for (i = 0; i < n; i++) {
		double v = magnitude(x, i * inc);
		if (i == 0) {
			bv = v;
			continue;
		}
		if (bv != bv)
			break; /* a NaN already won */
		if (v != v || (want_max ? v > bv : v < bv)) {
			bv = v;
			best = i;
		}
	}
	npukb_store_from_double(c->out[0].dtype, c->out[0].data, 0, n ? (double)(best + 1) : 0.0);
	return 0;
}

int npukb_ref_iamax(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	return extreme_index(c, 1, err, errlen);
}

int npukb_ref_iamin(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	return extreme_index(c, 0, err, errlen);
}

/* y[i] = x[i * incx] for i < n (BLAS ccopy with incy = 1); elements are
 * copied bit for bit. The output has n elements. */
int npukb_ref_ccopy(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	const struct npukb_ref_tensor *x = &c->in[0];
	struct npukb_ref_tensor *y = &c->out[0];
	size_t n, inc, i, size = npukb_dtype_size(x->dtype);
	int rc = strided(c, &n, &inc, err, errlen);
	if (rc)
		return rc;
	if (y->dtype != x->dtype || y->numel != n) {
		snprintf(err, errlen, "ccopy: %s must be %zu elements of %s's dtype", y->name, n,
			 x->name);
		return -EINVAL;
	}
	for (i = 0; i < n; i++)
		memcpy((char *)y->data + i * size, (const char *)x->data + i * inc * size, size);
	return 0;
}

/* x <- alpha * x over the whole tensor, in place: one float32 product per
 * element (exact in double, then rounded once, as the hardware rounds). */
int npukb_ref_sscal(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	const char *v = npukb_case_attr(c->kcase, "alpha");
	char *end;
	double alpha;

	if (!v) {
		snprintf(err, errlen, "case gives no attribute alpha");
		return -EINVAL;
	}
	alpha = (float)npukb_strtod(v, &end);
	if (end == v || *end) {
		snprintf(err, errlen, "alpha '%s' is not a number", v);
		return -EINVAL;
	}
	for (size_t i = 0; i < c->out[0].numel; i++)
		npukb_store_from_double(c->out[0].dtype, c->out[0].data, i,
					npukb_load_as_double(c->in[0].dtype, c->in[0].data, i) * alpha);
	return 0;
}
