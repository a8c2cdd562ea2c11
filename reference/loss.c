/* loss.c - Level 2 losses and their gradients, in double from the
 * definitions, rounded once to the output dtype. reduction is CANN's
 * integer attribute: 0 none, 1 mean, 2 sum. */
#include "ref_util.h"

enum { RED_NONE = 0, RED_MEAN = 1, RED_SUM = 2 };

static int reduction_of(const struct npukb_ref_call *c, long long *red, char *err, size_t errlen)
{
	int rc = ref_attr_int(c, "reduction", red, err, errlen);
	if (!rc && (*red < RED_NONE || *red > RED_SUM)) {
		snprintf(err, errlen, "reduction %lld is not 0 (none), 1 (mean) or 2 (sum)", *red);
		rc = -EINVAL;
	}
	return rc;
}

/* MseLoss: (predict - label)^2 element-wise, or its sum or mean. */
int npukb_ref_mse_loss(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	const struct npukb_ref_tensor *p = &c->in[0], *l = &c->in[1];
	struct npukb_ref_tensor *y = &c->out[0];
	size_t n = p->numel, i;
	long long red;
	double sum = 0.0;
	int rc = reduction_of(c, &red, err, errlen);
	if (rc)
		return rc;
	if (l->numel != n || y->numel != (red == RED_NONE ? n : 1)) {
		snprintf(err, errlen, "predict %zu, label %zu, y %zu elements do not fit reduction %lld",
			 n, l->numel, y->numel, red);
		return -EINVAL;
	}
	for (i = 0; i < n; i++) {
		double d = npukb_load_as_double(p->dtype, p->data, i) -
			   npukb_load_as_double(l->dtype, l->data, i);
		if (red == RED_NONE)
			npukb_store_from_double(y->dtype, y->data, i, d * d);
		else
			sum += d * d;
	}
	if (red != RED_NONE)
		npukb_store_from_double(y->dtype, y->data, 0, red == RED_MEAN ? sum / (double)n : sum);
	return 0;
}

/* MseLossGradV2: dx = cof (predict - label) dout, cof = 2 / n for mean and
 * 2 otherwise (dout has predict's shape). */
int npukb_ref_mse_loss_grad(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	size_t n = c->out[0].numel, i;
	long long red;
	double cof;
	int rc = reduction_of(c, &red, err, errlen);
	if (!rc)
		rc = ref_same_numel(c, 3, err, errlen);
	if (rc)
		return rc;
	cof = red == RED_MEAN ? 2.0 / (double)n : 2.0;
	for (i = 0; i < n; i++) {
		double dout = npukb_load_as_double(c->in[0].dtype, c->in[0].data, i);
		double p = npukb_load_as_double(c->in[1].dtype, c->in[1].data, i);
		double l = npukb_load_as_double(c->in[2].dtype, c->in[2].data, i);
		npukb_store_from_double(c->out[0].dtype, c->out[0].data, i, cof * (p - l) * dout);
	}
	return 0;
}
