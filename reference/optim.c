/* optim.c - optimizer steps (Level 2, Optim): every tensor is updated
 * element by element from the same positions of the others, in double,
 * each result rounded once to its dtype. Inputs arrive in manifest order:
 * the plain inputs (grad, step), then the in-place tensors as they were
 * before the kernel; outputs are the in-place tensors. */
#include "ref_util.h"

#include <math.h>

/* All of c's tensors but the one-element step have the output's size. */
static int same_sizes(const struct npukb_ref_call *c, size_t step_at, char *err, size_t errlen)
{
	for (size_t i = 0; i < c->nin; i++)
		if (i != step_at && c->in[i].numel != c->out[0].numel) {
			snprintf(err, errlen, "%s has %zu elements, %s has %zu", c->in[i].name,
				 c->in[i].numel, c->out[0].name, c->out[0].numel);
			return -EINVAL;
		}
	if (c->in[step_at].numel != 1) {
		snprintf(err, errlen, "%s must hold one value", c->in[step_at].name);
		return -EINVAL;
	}
	return 0;
}

#define LD(t, i) npukb_load_as_double((t)->dtype, (t)->data, (i))
#define ST(t, i, v) npukb_store_from_double((t)->dtype, (t)->data, (i), (v))

/* ApplyFusedEmaAdam: one Adam step followed by an exponential moving
 * average s of the weights. mode 0 adds weight_decay * var to the gradient
 * (L2), mode 1 to the update (AdamW); bias_correction divides m and v by
 * 1 - beta^step. Inputs: grad, step, var, m, v, s. */
int npukb_ref_apply_fused_ema_adam(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	const struct npukb_ref_tensor *g = &c->in[0], *step = &c->in[1], *var = &c->in[2],
				      *m = &c->in[3], *v = &c->in[4], *s = &c->in[5];
	double lr, ema, b1, b2, eps, wd, bc1 = 1.0, bc2 = 1.0, t;
	long long mode;
	int bias, rc;

	if ((rc = same_sizes(c, 1, err, errlen)) || (rc = ref_attr_double(c, "lr", &lr, err, errlen)) ||
	    (rc = ref_attr_double(c, "ema_decay", &ema, err, errlen)) ||
	    (rc = ref_attr_double(c, "beta1", &b1, err, errlen)) ||
	    (rc = ref_attr_double(c, "beta2", &b2, err, errlen)) ||
	    (rc = ref_attr_double(c, "eps", &eps, err, errlen)) ||
	    (rc = ref_attr_double(c, "weight_decay", &wd, err, errlen)) ||
	    (rc = ref_attr_int(c, "mode", &mode, err, errlen)) ||
	    (rc = ref_attr_bool(c, "bias_correction", &bias, err, errlen)))
		return rc;
	t = (double)ref_load_i64(step, 0);
	if (bias) {
		bc1 = 1.0 - pow(b1, t);
		bc2 = 1.0 - pow(b2, t);
	}
	for (size_t i = 0; i < c->out[0].numel; i++) {
		double gi = LD(g, i), w = LD(var, i), mi, vi, upd;
		if (mode == 0)
			gi += wd * w;
		mi = b1 * LD(m, i) + (1.0 - b1) * gi;
		vi = b2 * LD(v, i) + (1.0 - b2) * gi * gi;
		upd = (mi / bc1) / (sqrt(vi / bc2) + eps);
		if (mode == 1)
			upd += wd * w;
		w -= lr * upd;
		ST(&c->out[0], i, w);
		ST(&c->out[1], i, mi);
		ST(&c->out[2], i, vi);
		ST(&c->out[3], i, ema * LD(s, i) + (1.0 - ema) * w);
	}
	return 0;
}

/* ApplyAdamWV2: one AdamW step at step t = step + 1 (step counts the steps
 * already taken): var decays by 1 - lr*weight_decay, m and v are the moving
 * averages of the gradient (negated when maximize) and of its square, and
 * var -= lr/(1-beta1^t) * m / (sqrt(vmax/(1-beta2^t)) + eps), with vmax =
 * max(v, max_grad_norm) (stored back into max_grad_norm) when amsgrad, v
 * otherwise (max_grad_norm left as it was). Inputs: grad, step, var, m, v,
 * max_grad_norm. */
int npukb_ref_apply_adamw_v2(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	const struct npukb_ref_tensor *g = &c->in[0], *step = &c->in[1], *var = &c->in[2],
				      *m = &c->in[3], *v = &c->in[4], *mx = &c->in[5];
	double lr, b1, b2, wd, eps, t, bc1, bc2;
	int ams, maximize, rc;

	if ((rc = same_sizes(c, 1, err, errlen)) || (rc = ref_attr_double(c, "lr", &lr, err, errlen)) ||
	    (rc = ref_attr_double(c, "beta1", &b1, err, errlen)) ||
	    (rc = ref_attr_double(c, "beta2", &b2, err, errlen)) ||
	    (rc = ref_attr_double(c, "weight_decay", &wd, err, errlen)) ||
	    (rc = ref_attr_double(c, "eps", &eps, err, errlen)) ||
	    (rc = ref_attr_bool(c, "amsgrad", &ams, err, errlen)) ||
	    (rc = ref_attr_bool(c, "maximize", &maximize, err, errlen)))
		return rc;
	t = npukb_load_as_double(step->dtype, step->data, 0) + 1.0;
	bc1 = 1.0 - pow(b1, t);
	bc2 = 1.0 - pow(b2, t);
	/* a block of each tensor widened and stored per call, not
	 * npukb_load_as_double and npukb_store_from_double per element (most
	 * of the reference's time); the same expressions per element */
	double *blk = malloc(5 * REF_BLOCK * sizeof *blk);
	if (!blk) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	double *bg = blk, *bw = blk + REF_BLOCK, *bm = blk + 2 * REF_BLOCK, *bv = blk + 3 * REF_BLOCK,
	       *bx = blk + 4 * REF_BLOCK;
	const size_t total = c->out[0].numel;
	for (size_t i = 0; i < total; i += REF_BLOCK) {
		const size_t n = total - i < REF_BLOCK ? total - i : REF_BLOCK;
		ref_load_block(g, i, n, bg);
		ref_load_block(var, i, n, bw);
		ref_load_block(m, i, n, bm);
		ref_load_block(v, i, n, bv);
		ref_load_block(mx, i, n, bx);
		for (size_t k = 0; k < n; k++) {
			double gi = maximize ? -bg[k] : bg[k], w = bw[k] * (1.0 - lr * wd);
			double mi = bm[k] + (1.0 - b1) * (gi - bm[k]);
			double vi = b2 * bv[k] + (1.0 - b2) * gi * gi, vm = vi;
			if (ams)
				vm = bx[k] = fmax(vi, bx[k]);
			w -= lr / bc1 * mi / (sqrt(vm / bc2) + eps);
			bw[k] = w;
			bm[k] = mi;
			bv[k] = vi;
		}
		npukb_store_from_double_n(c->out[0].dtype, c->out[0].data, i, bw, n);
		npukb_store_from_double_n(c->out[1].dtype, c->out[1].data, i, bm, n);
		npukb_store_from_double_n(c->out[2].dtype, c->out[2].data, i, bv, n);
		npukb_store_from_double_n(c->out[3].dtype, c->out[3].data, i, bx, n);
	}
	free(blk);
	return 0;
}
