/* norm.c - normalisations over the trailing dimensions: RMSNorm and its
 * fused residual-add forms. Every row (the trailing elements gamma covers)
 * is reduced in double and each output rounded once. */
#include "ref_util.h"

#include <math.h>

/* Float attribute of the case; -EINVAL with a message when absent. */
static int attr_double(const struct npukb_ref_call *c, const char *name, double *out, char *err,
		       size_t errlen)
{
	const char *v = npukb_case_attr(c->kcase, name);
	char *end;
	if (!v) {
		snprintf(err, errlen, "case gives no attribute %s", name);
		return -EINVAL;
	}
	*out = strtod(v, &end);
	if (end == v || *end) {
		snprintf(err, errlen, "attribute %s = '%s' is not a number", name, v);
		return -EINVAL;
	}
	return 0;
}

/* The row length: gamma's elements, which must divide x's. */
static int row_length(const struct npukb_ref_tensor *x, const struct npukb_ref_tensor *gamma,
		      size_t *d, char *err, size_t errlen)
{
	if (gamma->numel == 0 || x->numel % gamma->numel != 0) {
		snprintf(err, errlen, "%s has %zu elements, not a multiple of %s's %zu", x->name,
			 x->numel, gamma->name, gamma->numel);
		return -EINVAL;
	}
	*d = gamma->numel;
	return 0;
}

/* y = s * rstd * gamma, rstd = 1 / sqrt(mean(s^2) + eps) per row, where s =
 * x1 (+ x2 when given); sum (when given) receives s rounded to its dtype. */
static int rms_rows(const struct npukb_ref_call *c, const struct npukb_ref_tensor *x1,
		    const struct npukb_ref_tensor *x2, const struct npukb_ref_tensor *gamma,
		    struct npukb_ref_tensor *y, struct npukb_ref_tensor *rstd,
		    struct npukb_ref_tensor *sum, char *err, size_t errlen)
{
	size_t d, rows, r, j;
	double eps;
	int rc = attr_double(c, "epsilon", &eps, err, errlen);
	if (rc == 0)
		rc = row_length(x1, gamma, &d, err, errlen);
	if (rc < 0)
		return rc;
	rows = x1->numel / d;
	if ((x2 && x2->numel != x1->numel) || y->numel != x1->numel || rstd->numel != rows ||
	    (sum && sum->numel != x1->numel)) {
		snprintf(err, errlen, "%s needs %zu elements and %s one per row (%zu)", y->name,
			 x1->numel, rstd->name, rows);
		return -EINVAL;
	}
	for (r = 0; r < rows; r++) {
		double ss = 0.0, inv;
		for (j = 0; j < d; j++) {
			double s = npukb_load_as_double(x1->dtype, x1->data, r * d + j);
			if (x2)
				s += npukb_load_as_double(x2->dtype, x2->data, r * d + j);
			ss += s * s;
		}
		inv = 1.0 / sqrt(ss / (double)d + eps);
		npukb_store_from_double(rstd->dtype, rstd->data, r, inv);
		for (j = 0; j < d; j++) {
			size_t i = r * d + j;
			double s = npukb_load_as_double(x1->dtype, x1->data, i);
			if (x2)
				s += npukb_load_as_double(x2->dtype, x2->data, i);
			npukb_store_from_double(y->dtype, y->data, i,
						s * inv * npukb_load_as_double(gamma->dtype, gamma->data, j));
			if (sum)
				npukb_store_from_double(sum->dtype, sum->data, i, s);
		}
	}
	return 0;
}

/* in: x, gamma; out: y, rstd. */
int npukb_ref_rms_norm(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	return rms_rows(c, &c->in[0], NULL, &c->in[1], &c->out[0], &c->out[1], NULL, err, errlen);
}

/* in: x1, x2, gamma; out: y, rstd, x = x1 + x2. */
int npukb_ref_add_rms_norm(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	return rms_rows(c, &c->in[0], &c->in[1], &c->in[2], &c->out[0], &c->out[1], &c->out[2], err,
			errlen);
}

/* in: gamma, x1, x2; out: x1 (becomes y), x2 (becomes x1 + x2), rstd. */
int npukb_ref_inplace_add_rms_norm(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	return rms_rows(c, &c->in[1], &c->in[2], &c->in[0], &c->out[0], &c->out[2], &c->out[1], err,
			errlen);
}
