/* loss.c - Level 2 losses and their gradients, in double from the
 * definitions, rounded once to the output dtype. reduction is CANN's
 * integer attribute: 0 none, 1 mean, 2 sum. */
#include "ref_util.h"

#include <math.h>

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

/* The weight of class k: weight[k], or 1 when weight is left out. */
static double class_weight(const struct npukb_ref_tensor *w, int64_t k)
{
	return w->numel ? npukb_load_as_double(w->dtype, w->data, (size_t)k) : 1.0;
}

/* The attributes both cross-entropy references read. */
static int ce_attrs(const struct npukb_ref_call *c, long long *red, long long *ignore, double *ls,
		    char *err, size_t errlen)
{
	int rc = reduction_of(c, red, err, errlen);
	if (!rc)
		rc = ref_attr_int(c, "ignore_index", ignore, err, errlen);
	if (!rc)
		rc = ref_attr_double(c, "label_smoothing", ls, err, errlen);
	return rc;
}

/* Target n: ignore_index, or a class in [0, cls) (else -EINVAL). */
static int ce_target(const struct npukb_ref_tensor *t, size_t n, size_t cls, long long ignore,
		     int64_t *tn, char *err, size_t errlen)
{
	*tn = ref_load_i64(t, n);
	if (*tn != ignore && (*tn < 0 || (size_t)*tn >= cls)) {
		snprintf(err, errlen, "target[%zu] = %lld is not a class in [0, %zu)", n,
			 (long long)*tn, cls);
		return -EINVAL;
	}
	return 0;
}

/* CrossEntropyLoss over rows z of C logits, target t (int64; rows whose
 * target is ignore_index count for nothing: m = 0, else 1), class weights w
 * (1 when left out), label smoothing ls:
 *   lse = log(sum_c exp(z_c)),  lp = z - lse            (log_prob, lse_for_zloss)
 *   L_n = m_n [(1 - ls) w_t (-lp_t) + ls / C sum_c w_c (-lp_c)]
 *   loss = L (none), sum_n L_n (sum), sum_n L_n / W (mean, W = sum_n m_n w_t;
 *   0 when W is 0); zloss = lse_square_scale * mean_n lse_n^2 when
 *   return_zloss, else 0.
 * in: input (N x C), target (N), weight (C, optional); out: loss, log_prob,
 * zloss (1), lse_for_zloss (N). */
int npukb_ref_cross_entropy_loss(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	const struct npukb_ref_tensor *z = &c->in[0], *t = &c->in[1], *w = &c->in[2];
	struct npukb_ref_tensor *loss = &c->out[0], *lpo = &c->out[1], *zl = &c->out[2],
				*lse_out = &c->out[3];
	size_t rows = t->numel, cls, n, k;
	long long red, ignore;
	double ls, zscale, total = 0.0, wsum = 0.0, sq = 0.0;
	int want_z;
	int rc = ce_attrs(c, &red, &ignore, &ls, err, errlen);
	if (!rc)
		rc = ref_attr_double(c, "lse_square_scale_for_zloss", &zscale, err, errlen);
	if (!rc)
		rc = ref_attr_bool(c, "return_zloss", &want_z, err, errlen);
	if (rc)
		return rc;
	if (rows == 0 || z->numel % rows != 0 || lpo->numel != z->numel || zl->numel != 1 ||
	    lse_out->numel != rows || loss->numel != (red == RED_NONE ? rows : 1)) {
		snprintf(err, errlen, "input %zu, target %zu, loss %zu, log_prob %zu, zloss %zu, lse_for_zloss %zu elements do not fit reduction %lld",
			 z->numel, rows, loss->numel, lpo->numel, zl->numel, lse_out->numel, red);
		return -EINVAL;
	}
	cls = z->numel / rows;
	if (w->numel && w->numel != cls) {
		snprintf(err, errlen, "weight has %zu elements, not one per class (%zu)", w->numel, cls);
		return -EINVAL;
	}
	for (n = 0; n < rows; n++) {
		const size_t row = n * cls;
		double m = -INFINITY, s = 0.0, lse, ln = 0.0, smooth = 0.0;
		int64_t tn;
		rc = ce_target(t, n, cls, ignore, &tn, err, errlen);
		if (rc)
			return rc;
		for (k = 0; k < cls; k++) {
			double v = npukb_load_as_double(z->dtype, z->data, row + k);
			m = v > m ? v : m;
		}
		for (k = 0; k < cls; k++)
			s += exp(npukb_load_as_double(z->dtype, z->data, row + k) - m);
		lse = m + log(s);
		for (k = 0; k < cls; k++) {
			double lp = npukb_load_as_double(z->dtype, z->data, row + k) - lse;
			npukb_store_from_double(lpo->dtype, lpo->data, row + k, lp);
			smooth -= class_weight(w, (int64_t)k) * lp;
		}
		npukb_store_from_double(lse_out->dtype, lse_out->data, n, lse);
		sq += lse * lse;
		if (tn != ignore) {
			double wt = class_weight(w, tn);
			double lpt = npukb_load_as_double(z->dtype, z->data, row + (size_t)tn) - lse;
			ln = (1.0 - ls) * wt * -lpt + ls / (double)cls * smooth;
			wsum += wt;
		}
		if (red == RED_NONE)
			npukb_store_from_double(loss->dtype, loss->data, n, ln);
		total += ln;
	}
	if (red == RED_MEAN)
		total = wsum > 0.0 ? total / wsum : 0.0;
	if (red != RED_NONE)
		npukb_store_from_double(loss->dtype, loss->data, 0, total);
	npukb_store_from_double(zl->dtype, zl->data, 0, want_z ? zscale * sq / (double)rows : 0.0);
	return 0;
}

/* CrossEntropyLossGrad: the analytic gradient of the cross-entropy loss
 * with respect to the logits z, given lp = log_softmax(z) (p = exp(lp)).
 * Row n's loss, zero when target[n] == ignore_index (m_n = 0, else 1):
 *   L_n = m_n [(1 - ls) w_t (-lp_t) + ls / C sum_c w_c (-lp_c)],  t = target[n]
 * so, with S = sum_c w_c,
 *   dL_n/dz_k = m_n [(1 - ls) w_t (p_k - [k == t]) + ls / C (p_k S - w_k)],
 * scaled by grad_loss[n] (none), grad_loss (sum), or grad_loss / W (mean,
 * W = sum_n m_n w_t; 0 when W is 0). in: grad_loss, log_prob (N x C),
 * target (int64, N), weight (C, optional); out: x_grad (N x C). */
int npukb_ref_cross_entropy_loss_grad(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	const struct npukb_ref_tensor *g = &c->in[0], *lp = &c->in[1], *t = &c->in[2], *w = &c->in[3];
	struct npukb_ref_tensor *dx = &c->out[0];
	size_t rows = t->numel, cls, n, k;
	long long red, ignore;
	double ls, wsum = 0.0, s = 0.0;
	int rc = ce_attrs(c, &red, &ignore, &ls, err, errlen);
	if (rc)
		return rc;
	if (rows == 0 || lp->numel % rows != 0 || dx->numel != lp->numel ||
	    g->numel != (red == RED_NONE ? rows : 1)) {
		snprintf(err, errlen, "log_prob %zu, target %zu, grad_loss %zu, x_grad %zu elements do not fit reduction %lld",
			 lp->numel, rows, g->numel, dx->numel, red);
		return -EINVAL;
	}
	cls = lp->numel / rows;
	if (w->numel && w->numel != cls) {
		snprintf(err, errlen, "weight has %zu elements, not one per class (%zu)", w->numel, cls);
		return -EINVAL;
	}
	for (n = 0; n < rows; n++) {
		int64_t tn;
		rc = ce_target(t, n, cls, ignore, &tn, err, errlen);
		if (rc)
			return rc;
		if (tn != ignore)
			wsum += class_weight(w, tn);
	}
	for (k = 0; k < cls; k++)
		s += class_weight(w, (int64_t)k);
	for (n = 0; n < rows; n++) {
		int64_t tn = ref_load_i64(t, n);
		double scale = npukb_load_as_double(g->dtype, g->data, red == RED_NONE ? n : 0);
		double a, b;
		if (red == RED_MEAN)
			scale = wsum > 0.0 ? scale / wsum : 0.0;
		if (tn == ignore)
			scale = 0.0;
		a = tn == ignore ? 0.0 : scale * (1.0 - ls) * class_weight(w, tn);
		b = scale * ls / (double)cls;
		for (k = 0; k < cls; k++) {
			size_t i = n * cls + k;
			double p = exp(npukb_load_as_double(lp->dtype, lp->data, i));
			double v = a * (p - ((int64_t)k == tn ? 1.0 : 0.0)) +
				   b * (p * s - class_weight(w, (int64_t)k));
			npukb_store_from_double(dx->dtype, dx->data, i, v);
		}
	}
	return 0;
}
