/* activation.c - Level 2 activations and their gradients, element-wise in
 * double from the operators' definitions, rounded once to the output dtype.
 * Gradients are the analytic derivatives of the forward functions. */
#include "ref_util.h"

#include <math.h>

/* sqrt(8 / pi): the tanh-approximation GELU's 2 * sqrt(2 / pi). */
#define GELU_K 1.5957691216057308
#define GELU_C 0.044715
#define FAST_GELU_A 1.702

static double sigmoid(double u)
{
	return u >= 0 ? 1.0 / (1.0 + exp(-u)) : exp(u) / (1.0 + exp(u));
}

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

static double in_at(const struct npukb_ref_call *c, size_t k, size_t i)
{
	return npukb_load_as_double(c->in[k].dtype, c->in[k].data, i);
}

static void out_at(const struct npukb_ref_call *c, size_t i, double v)
{
	npukb_store_from_double(c->out[0].dtype, c->out[0].data, i, v);
}

/* y = x * sigmoid(scale * x) */
int npukb_ref_swish(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	double s;
	size_t i;
	int rc = ref_same_numel(c, 1, err, errlen);
	if (!rc)
		rc = attr_double(c, "scale", &s, err, errlen);
	if (rc)
		return rc;
	for (i = 0; i < c->out[0].numel; i++) {
		double x = in_at(c, 0, i);
		out_at(c, i, x * sigmoid(s * x));
	}
	return 0;
}

/* FastGelu: x * sigmoid(1.702 x), which is upstream's
 * x / (1 + exp(-1.702|x|)) * exp(0.851 (x - |x|)) rearranged. */
int npukb_ref_fast_gelu(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	size_t i;
	int rc = ref_same_numel(c, 1, err, errlen);
	if (rc)
		return rc;
	for (i = 0; i < c->out[0].numel; i++) {
		double x = in_at(c, 0, i);
		out_at(c, i, x * sigmoid(FAST_GELU_A * x));
	}
	return 0;
}

/* z = dy * d/dx [x sigmoid(a x)] = dy * (s + a x s (1 - s)), s = sigmoid(a x) */
int npukb_ref_fast_gelu_grad(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	size_t i;
	int rc = ref_same_numel(c, 2, err, errlen);
	if (rc)
		return rc;
	for (i = 0; i < c->out[0].numel; i++) {
		double dy = in_at(c, 0, i), x = in_at(c, 1, i);
		double s = sigmoid(FAST_GELU_A * x);
		out_at(c, i, dy * (s + FAST_GELU_A * x * s * (1.0 - s)));
	}
	return 0;
}

/* The exact GELU: x * Phi(x) = x * erfc(-x / sqrt 2) / 2. */
int npukb_ref_gelu(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	size_t i;
	int rc = ref_same_numel(c, 1, err, errlen);
	if (rc)
		return rc;
	for (i = 0; i < c->out[0].numel; i++) {
		double x = in_at(c, 0, i);
		out_at(c, i, 0.5 * x * erfc(-x * M_SQRT1_2));
	}
	return 0;
}

/* z = dy * d/dx [x sigmoid(u)], u = k (x + c x^3): the derivative of the
 * tanh-approximation GELU, s + x u' s (1 - s) with u' = k (1 + 3 c x^2). */
int npukb_ref_gelu_grad(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	size_t i;
	int rc = ref_same_numel(c, 2, err, errlen);
	if (rc)
		return rc;
	for (i = 0; i < c->out[0].numel; i++) {
		double dy = in_at(c, 0, i), x = in_at(c, 1, i);
		double s = sigmoid(GELU_K * (x + GELU_C * x * x * x));
		double du = GELU_K * (1.0 + 3.0 * GELU_C * x * x);
		out_at(c, i, dy * (s + x * du * s * (1.0 - s)));
	}
	return 0;
}
