/* norm.c - normalisations over the trailing dimensions: RMSNorm and its
 * fused residual-add forms, LayerNorm's, GroupNorm (+ Swish) over groups
 * of channels. Every row (the trailing elements gamma covers)
 * is reduced in double and each output rounded once. */
#include "ref_util.h"

#include <math.h>

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

/* Per-column int8 quantisation of y: code(y / scales[j] + zeros[j]), or
 * code(y * scales[j] + zeros[j]) when !div; code rounds to nearest, ties to
 * even, and clamps to [-128, 127]. */
struct rms_quant {
	const struct npukb_ref_tensor *scales, *zeros;
	int div;
};

static double quant_code(const struct rms_quant *q, size_t j, double y)
{
	double s = npukb_load_as_double(q->scales->dtype, q->scales->data, j);
	double v = nearbyint((q->div ? y / s : y * s) +
			     npukb_load_as_double(q->zeros->dtype, q->zeros->data, j));
	return v < -128.0 ? -128.0 : v > 127.0 ? 127.0 : v;
}

/* y = s * rstd * gamma, rstd = 1 / sqrt(mean(s^2) + eps) per row, where s =
 * x1 (+ x2 when given); y_again (when given) receives y too, in its own
 * dtype; rstd (when given) receives rstd; sum (when given) receives s
 * rounded to its dtype; with q, y receives y's int8 codes instead. */
static int rms_rows(const struct npukb_ref_call *c, const struct npukb_ref_tensor *x1,
		    const struct npukb_ref_tensor *x2, const struct npukb_ref_tensor *gamma,
		    struct npukb_ref_tensor *y, struct npukb_ref_tensor *y_again,
		    struct npukb_ref_tensor *rstd, struct npukb_ref_tensor *sum,
		    const struct rms_quant *q, char *err, size_t errlen)
{
	size_t d = 0, rows, r, j;
	double eps;
	int rc = ref_attr_double(c, "epsilon", &eps, err, errlen);
	if (rc == 0)
		rc = row_length(x1, gamma, &d, err, errlen);
	if (rc < 0)
		return rc;
	rows = x1->numel / d;
	if ((x2 && x2->numel != x1->numel) || y->numel != x1->numel ||
	    (rstd && rstd->numel != rows) || (y_again && y_again->numel != x1->numel) ||
	    (sum && sum->numel != x1->numel) ||
	    (q && (q->scales->numel != d || q->zeros->numel != d))) {
		snprintf(err, errlen, "%s needs %zu elements, rstd one per row (%zu), scales and zero points %zu",
			 y->name, x1->numel, rows, d);
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
		if (rstd)
			npukb_store_from_double(rstd->dtype, rstd->data, r, inv);
		for (j = 0; j < d; j++) {
			size_t i = r * d + j;
			double s = npukb_load_as_double(x1->dtype, x1->data, i);
			if (x2)
				s += npukb_load_as_double(x2->dtype, x2->data, i);
			double v = s * inv * npukb_load_as_double(gamma->dtype, gamma->data, j);
			npukb_store_from_double(y->dtype, y->data, i, q ? quant_code(q, j, v) : v);
			if (y_again)
				npukb_store_from_double(y_again->dtype, y_again->data, i, v);
			if (sum)
				npukb_store_from_double(sum->dtype, sum->data, i, s);
		}
	}
	return 0;
}

/* in: x, gamma; out: y, rstd. */
int npukb_ref_rms_norm(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	return rms_rows(c, &c->in[0], NULL, &c->in[1], &c->out[0], NULL, &c->out[1], NULL, NULL,
			err, errlen);
}

/* in: x1, x2, gamma; out: y, rstd, x = x1 + x2. */
int npukb_ref_add_rms_norm(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	return rms_rows(c, &c->in[0], &c->in[1], &c->in[2], &c->out[0], NULL, &c->out[1], &c->out[2],
			NULL, err, errlen);
}

/* in: gamma, x1, x2; out: x1 (becomes y), x2 (becomes x1 + x2), rstd. */
int npukb_ref_inplace_add_rms_norm(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	return rms_rows(c, &c->in[1], &c->in[2], &c->in[0], &c->out[0], NULL, &c->out[2], &c->out[1],
			NULL, err, errlen);
}

/* in: x1, x2, gamma; out: y1 (float32), y2 (y in x1's dtype), rstd, x =
 * x1 + x2. */
int npukb_ref_add_rms_norm_cast(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	return rms_rows(c, &c->in[0], &c->in[1], &c->in[2], &c->out[0], &c->out[1], &c->out[2],
			&c->out[3], NULL, err, errlen);
}

/* in: x1, x2, gamma, scales1, zero_points1; out: y1 (int8 codes of y),
 * x = x1 + x2. */
int npukb_ref_add_rms_norm_quant(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	struct rms_quant q = { &c->in[3], &c->in[4], 1 };
	int rc = ref_attr_bool(c, "div_mode", &q.div, err, errlen);
	if (rc)
		return rc;
	return rms_rows(c, &c->in[0], &c->in[1], &c->in[2], &c->out[0], NULL, NULL, &c->out[1], &q,
			err, errlen);
}

/* The operands of one LayerNorm over rows: s = alpha * x1 (+ x2) (+ bias),
 * y = (s - mean) * rstd * gamma + beta; bias (optional) holds one row or
 * x1's elements; gamma and beta may be left out (no elements: 1 and 0);
 * sum (optional) receives s. */
struct layer_call {
	const struct npukb_ref_tensor *x1, *x2, *bias, *gamma, *beta;
	struct npukb_ref_tensor *y, *mean, *rstd, *sum;
	double alpha;
};

/* Elements [i, i+n) of t as doubles, REF_BLOCK at a time. */
static void layer_load(const struct npukb_ref_tensor *t, size_t i, size_t n, double *dst)
{
	for (size_t k = 0; k < n; k += REF_BLOCK)
		ref_load_block(t, i + k, n - k < REF_BLOCK ? n - k : REF_BLOCK, dst + k);
}

/* Row r's s (d elements) into s; tmp holds d doubles. Each element is
 * alpha * x1, plus x2, plus bias, added in that order. */
static void layer_s_row(const struct layer_call *l, size_t r, size_t d, double *s, double *tmp)
{
	size_t j;
	layer_load(l->x1, r * d, d, s);
	for (j = 0; j < d; j++)
		s[j] = l->alpha * s[j];
	if (l->x2) {
		layer_load(l->x2, r * d, d, tmp);
		for (j = 0; j < d; j++)
			s[j] += tmp[j];
	}
	if (l->bias && l->bias->numel) {
		layer_load(l->bias, l->bias->numel == l->x1->numel ? r * d : 0, d, tmp);
		for (j = 0; j < d; j++)
			s[j] += tmp[j];
	}
}

static int layer_rows(const struct npukb_ref_call *c, const struct layer_call *l, char *err,
		      size_t errlen)
{
	size_t d = 0, rows, r, j;
	double eps;
	int rc = ref_attr_double(c, "epsilon", &eps, err, errlen);
	if (rc < 0)
		return rc;
	/* The rows are mean's elements (gamma may be left out), or without
	 * mean and rstd gamma's row. */
	const struct npukb_ref_tensor *per_row = l->mean ? l->mean : l->gamma;
	if (per_row->numel == 0 || l->x1->numel % per_row->numel != 0) {
		snprintf(err, errlen, "%s has %zu elements, not a multiple of %s's %zu", l->x1->name,
			 l->x1->numel, per_row->name, per_row->numel);
		return -EINVAL;
	}
	rows = l->mean ? l->mean->numel : l->x1->numel / l->gamma->numel;
	d = l->x1->numel / rows;
	if ((l->x2 && l->x2->numel != l->x1->numel) || (l->gamma->numel && l->gamma->numel != d) ||
	    (l->beta->numel && l->beta->numel != d) ||
	    (l->bias && l->bias->numel && l->bias->numel != d && l->bias->numel != l->x1->numel) ||
	    l->y->numel != l->x1->numel || (l->mean && l->mean->numel != rows) ||
	    (l->rstd && l->rstd->numel != rows) ||
	    (l->sum && l->sum->numel != l->x1->numel)) {
		snprintf(err, errlen,
			 "%s and %s need %zu elements (beta %zu, bias one row or all), mean and rstd one per row (%zu)",
			 l->y->name, l->x1->name, l->x1->numel, d, rows);
		return -EINVAL;
	}
	/* a row's s, gamma and beta widened once (not per element and per
	 * pass, through npukb_load_as_double), and a row's y stored in one
	 * call: the same doubles in the same operations and order */
	double *srow = malloc(4 * d * sizeof *srow);
	if (!srow) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	double *g = srow + d, *b = srow + 2 * d, *yrow = srow + 3 * d;
	if (l->gamma->numel)
		layer_load(l->gamma, 0, d, g);
	if (l->beta->numel)
		layer_load(l->beta, 0, d, b);
	for (r = 0; r < rows; r++) {
		double mean = 0.0, var = 0.0, inv;
		layer_s_row(l, r, d, srow, yrow);
		for (j = 0; j < d; j++)
			mean += srow[j];
		mean /= (double)d;
		for (j = 0; j < d; j++) {
			double dev = srow[j] - mean;
			var += dev * dev;
		}
		inv = 1.0 / sqrt(var / (double)d + eps);
		if (l->mean)
			npukb_store_from_double(l->mean->dtype, l->mean->data, r, mean);
		if (l->rstd)
			npukb_store_from_double(l->rstd->dtype, l->rstd->data, r, inv);
		for (j = 0; j < d; j++) {
			double y = (srow[j] - mean) * inv;
			if (l->gamma->numel)
				y *= g[j];
			if (l->beta->numel)
				y += b[j];
			yrow[j] = y;
		}
		npukb_store_from_double_n(l->y->dtype, l->y->data, r * d, yrow, d);
		if (l->sum)
			npukb_store_from_double_n(l->sum->dtype, l->sum->data, r * d, srow, d);
	}
	free(srow);
	return 0;
}

/* in: x, gx, beta, gamma; out: mean, rstd, y; s = alpha * x + gx. */
int npukb_ref_deep_norm(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	struct layer_call l = { &c->in[0], &c->in[1], NULL, &c->in[3], &c->in[2],
				&c->out[2], &c->out[0], &c->out[1], NULL, 1.0 };
	int rc = ref_attr_double(c, "alpha", &l.alpha, err, errlen);
	return rc < 0 ? rc : layer_rows(c, &l, err, errlen);
}

/* in: x1, x2, gamma, beta, bias (optional); out: y, mean, rstd, x = s. */
int npukb_ref_add_layer_norm(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	struct layer_call l = { &c->in[0], &c->in[1], &c->in[4], &c->in[2], &c->in[3],
				&c->out[0], &c->out[1], &c->out[2], &c->out[3], 1.0 };
	return layer_rows(c, &l, err, errlen);
}

/* in: gamma, beta, bias (optional), x1, x2; out: x1 (becomes y), x2
 * (becomes s), mean, rstd. */
int npukb_ref_inplace_add_layer_norm(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	struct layer_call l = { &c->in[3], &c->in[4], &c->in[2], &c->in[0], &c->in[1],
				&c->out[0], &c->out[2], &c->out[3], &c->out[1], 1.0 };
	return layer_rows(c, &l, err, errlen);
}

/* in: x, normalized_shape (its dimensions, which mean's shape repeats),
 * gamma (optional), beta (optional); out: y, mean, rstd. */
int npukb_ref_layer_norm_v4(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	struct layer_call l = { &c->in[0], NULL, NULL, &c->in[2], &c->in[3],
				&c->out[0], &c->out[1], &c->out[2], NULL, 1.0 };
	return layer_rows(c, &l, err, errlen);
}

/* in: x, y, gamma, beta; out: res_out = LayerNorm(x + y) over gamma's row. */
int npukb_ref_pre_layer_norm(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	struct layer_call l = { &c->in[0], &c->in[1], NULL, &c->in[2], &c->in[3],
				&c->out[0], NULL, NULL, NULL, 1.0 };
	return layer_rows(c, &l, err, errlen);
}

/* The analytic gradient of y = x * rstd * gamma (rstd = 1 / sqrt(mean(x^2)
 * + eps), a function of x) for the incoming gradient dy, per row r:
 *   dx[r] = dy[r] * gamma * rstd[r] - x[r] * rstd[r]^3 * sum(dy[r] * gamma * x[r]) / d
 *   dgamma = sum over rows of dy[r] * x[r] * rstd[r]
 * in: dy, x, rstd (one per row), gamma; out: dx, dgamma. */
int npukb_ref_rms_norm_grad(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	const struct npukb_ref_tensor *dy = &c->in[0], *x = &c->in[1], *rstd = &c->in[2],
				      *gamma = &c->in[3];
	struct npukb_ref_tensor *dx = &c->out[0], *dgamma = &c->out[1];
	size_t d = 0, rows, r, j;
	double *acc;
	int rc = row_length(x, gamma, &d, err, errlen);

	if (rc < 0)
		return rc;
	rows = x->numel / d;
	if (dy->numel != x->numel || dx->numel != x->numel || rstd->numel != rows ||
	    dgamma->numel != d) {
		snprintf(err, errlen, "%s and %s need %zu elements, %s one per row (%zu), %s %zu",
			 dy->name, dx->name, x->numel, rstd->name, rows, dgamma->name, d);
		return -EINVAL;
	}
	acc = calloc(d, sizeof(*acc));
	if (!acc)
		return -ENOMEM;
	for (r = 0; r < rows; r++) {
		double rs = npukb_load_as_double(rstd->dtype, rstd->data, r), s = 0.0;
		for (j = 0; j < d; j++)
			s += npukb_load_as_double(dy->dtype, dy->data, r * d + j) *
			     npukb_load_as_double(gamma->dtype, gamma->data, j) *
			     npukb_load_as_double(x->dtype, x->data, r * d + j);
		for (j = 0; j < d; j++) {
			size_t i = r * d + j;
			double g = npukb_load_as_double(dy->dtype, dy->data, i);
			double xv = npukb_load_as_double(x->dtype, x->data, i);
			npukb_store_from_double(dx->dtype, dx->data, i,
						g * npukb_load_as_double(gamma->dtype, gamma->data, j) * rs -
							xv * rs * rs * rs * s / (double)d);
			acc[j] += g * xv * rs;
		}
	}
	for (j = 0; j < d; j++)
		npukb_store_from_double(dgamma->dtype, dgamma->data, j, acc[j]);
	free(acc);
	return 0;
}

/* The operands of one LayerNorm gradient over rows of d elements, with
 * mean and rstd given (one per row): s = alpha * x1 + x2, xh = s - mean,
 * t = dy * gamma; per row
 *   v = -1/2 * sum(t * xh) * rstd^3
 *   m = -sum(t) * rstd (- 2/d * v * sum(xh) when with_c)
 *   core = t * rstd + 2/d * v * xh + m / d
 * out1 = core (+ dsum, optional), out2 (optional) = alpha * core; and over
 * rows dgamma = sum(dy * xh * rstd), dbeta = sum(dy). Without with_c the
 * formula is DeepNormGrad's, which drops sum(xh) (zero when mean is s's). */
struct layer_grad {
	const struct npukb_ref_tensor *dy, *x1, *x2, *rstd, *mean, *gamma, *dsum;
	struct npukb_ref_tensor *out1, *out2, *dgamma, *dbeta;
	double alpha;
	int with_c;
};

static double layer_grad_xh(const struct layer_grad *l, size_t i, double mu)
{
	return l->alpha * npukb_load_as_double(l->x1->dtype, l->x1->data, i) +
	       npukb_load_as_double(l->x2->dtype, l->x2->data, i) - mu;
}

static int layer_grad_rows(const struct layer_grad *l, char *err, size_t errlen)
{
	size_t d = 0, rows, r, j, n;
	double *acc;
	int rc = row_length(l->x1, l->gamma, &d, err, errlen);

	if (rc < 0)
		return rc;
	n = l->x1->numel;
	rows = n / d;
	if (l->dy->numel != n || l->x2->numel != n || l->out1->numel != n ||
	    (l->out2 && l->out2->numel != n) || l->rstd->numel != rows || l->mean->numel != rows ||
	    l->dgamma->numel != d || l->dbeta->numel != d || (l->dsum && l->dsum->numel && l->dsum->numel != n)) {
		snprintf(err, errlen, "%s, %s, %s and %s need %zu elements, %s and %s one per row (%zu), %s and %s %zu",
			 l->dy->name, l->x1->name, l->x2->name, l->out1->name, n, l->rstd->name,
			 l->mean->name, rows, l->dgamma->name, l->dbeta->name, d);
		return -EINVAL;
	}
	/* Only dgamma's and dbeta's column sums are held: each row is read
	 * twice (its sums, then its outputs), so memory stays 2 d doubles
	 * whatever the rows. */
	acc = calloc(2 * d, sizeof(*acc));
	if (!acc)
		return -ENOMEM;
	for (r = 0; r < rows; r++) {
		double rs = npukb_load_as_double(l->rstd->dtype, l->rstd->data, r);
		double mu = npukb_load_as_double(l->mean->dtype, l->mean->data, r);
		double sa = 0.0, sb = 0.0, sc = 0.0, v, m;
		for (j = 0; j < d; j++) {
			size_t i = r * d + j;
			double xh = layer_grad_xh(l, i, mu);
			double t = npukb_load_as_double(l->dy->dtype, l->dy->data, i) *
				   npukb_load_as_double(l->gamma->dtype, l->gamma->data, j);
			sa += t * xh;
			sb += t;
			sc += xh;
		}
		v = -0.5 * sa * rs * rs * rs;
		m = -sb * rs - (l->with_c ? 2.0 / (double)d * v * sc : 0.0);
		for (j = 0; j < d; j++) {
			size_t i = r * d + j;
			double g = npukb_load_as_double(l->dy->dtype, l->dy->data, i);
			double xh = layer_grad_xh(l, i, mu);
			double core = g * npukb_load_as_double(l->gamma->dtype, l->gamma->data, j) * rs +
				      2.0 / (double)d * v * xh + m / (double)d;
			double out = core;
			if (l->dsum && l->dsum->numel)
				out += npukb_load_as_double(l->dsum->dtype, l->dsum->data, i);
			npukb_store_from_double(l->out1->dtype, l->out1->data, i, out);
			if (l->out2)
				npukb_store_from_double(l->out2->dtype, l->out2->data, i, l->alpha * core);
			acc[j] += g * xh * rs;
			acc[d + j] += g;
		}
	}
	for (j = 0; j < d; j++) {
		npukb_store_from_double(l->dgamma->dtype, l->dgamma->data, j, acc[j]);
		npukb_store_from_double(l->dbeta->dtype, l->dbeta->data, j, acc[d + j]);
	}
	free(acc);
	return 0;
}

/* LayerNorm's full gradient for x = x1 + x2, plus the optional dsum.
 * in: dy, x1, x2, rstd, mean, gamma, dsum (optional); out: d_x, d_gamma,
 * d_beta. */
int npukb_ref_add_layer_norm_grad(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	struct layer_grad l = { &c->in[0], &c->in[1], &c->in[2], &c->in[3], &c->in[4], &c->in[5],
				&c->in[6], &c->out[0], NULL, &c->out[1], &c->out[2], 1.0, 1 };
	return layer_grad_rows(&l, err, errlen);
}

/* DeepNorm's gradient for s = alpha * x + gx: out1 = dgx, out2 = dx =
 * alpha * dgx. in: dy, x, gx, gamma, mean, rstd; out: dx, dgx, dbeta,
 * dgamma. */
int npukb_ref_deep_norm_grad(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	struct layer_grad l = { &c->in[0], &c->in[1], &c->in[2], &c->in[5], &c->in[4], &c->in[3],
				NULL, &c->out[1], &c->out[0], &c->out[3], &c->out[2], 1.0, 0 };
	int rc = ref_attr_double(c, "alpha", &l.alpha, err, errlen);
	return rc < 0 ? rc : layer_grad_rows(&l, err, errlen);
}

/* The layout of a GroupNorm input x [N, C, trailing...]: N, C, the
 * trailing elements per channel (HW), the channels per group and the
 * groups (attribute num_groups). */
struct group_dims {
	size_t n, ch, hw, cg, groups;
};

static int group_layout(const struct npukb_ref_call *c, const struct npukb_ref_tensor *x,
			struct group_dims *gd, char *err, size_t errlen)
{
	long long groups;
	int rc = ref_attr_int(c, "num_groups", &groups, err, errlen);
	if (rc < 0)
		return rc;
	if (x->shape.rank < 2 || groups <= 0 || x->shape.dims[1] % groups != 0) {
		snprintf(err, errlen, "%s needs rank 2 or more and channels a multiple of num_groups %lld",
			 x->name, groups);
		return -EINVAL;
	}
	gd->n = (size_t)x->shape.dims[0];
	gd->ch = (size_t)x->shape.dims[1];
	gd->hw = gd->n * gd->ch == 0 ? 0 : x->numel / (gd->n * gd->ch);
	gd->cg = gd->ch / groups;
	gd->groups = groups;
	return 0;
}

/* GroupNorm then (optionally) Swish. in: x ([N, C, ...]), gamma, beta (C
 * each); out: y (x's shape), mean, rstd (N * num_groups each). Group g of
 * sample n holds channels g * C / G .. (g + 1) * C / G - 1 with every
 * trailing element of each: contiguous, C / G * HW elements. z = (x - mean)
 * * rstd * gamma[c] + beta[c]; y = z * sigmoid(swish_scale * z) when
 * activate_swish, else z. */
int npukb_ref_group_norm_swish(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	const struct npukb_ref_tensor *x = &c->in[0], *gamma = &c->in[1], *beta = &c->in[2];
	struct npukb_ref_tensor *y = &c->out[0], *mean = &c->out[1], *rstd = &c->out[2];
	double eps = 0.0, scale = 1.0;
	int swish = 0;
	struct group_dims gd;
	size_t len, r, j;
	int rc = group_layout(c, x, &gd, err, errlen);
	if (rc == 0)
		rc = ref_attr_double(c, "eps", &eps, err, errlen);
	if (rc == 0)
		rc = ref_attr_bool(c, "activate_swish", &swish, err, errlen);
	if (rc == 0)
		rc = ref_attr_double(c, "swish_scale", &scale, err, errlen);
	if (rc < 0)
		return rc;
	len = gd.cg * gd.hw;
	if (gamma->numel != gd.ch || beta->numel != gd.ch || y->numel != x->numel ||
	    mean->numel != gd.n * gd.groups || rstd->numel != mean->numel) {
		snprintf(err, errlen, "%s and %s need %zu elements, %s and %s %zu", gamma->name,
			 beta->name, gd.ch, mean->name, rstd->name, gd.n * gd.groups);
		return -EINVAL;
	}
	for (r = 0; r < mean->numel; r++) {
		const size_t base = r * len;
		double s = 0.0, ss = 0.0, mu, inv;
		for (j = 0; j < len; j++)
			s += npukb_load_as_double(x->dtype, x->data, base + j);
		mu = s / (double)len;
		for (j = 0; j < len; j++) {
			double v = npukb_load_as_double(x->dtype, x->data, base + j) - mu;
			ss += v * v;
		}
		inv = 1.0 / sqrt(ss / (double)len + eps);
		npukb_store_from_double(mean->dtype, mean->data, r, mu);
		npukb_store_from_double(rstd->dtype, rstd->data, r, inv);
		for (j = 0; j < len; j++) {
			const size_t k = (r % gd.groups) * gd.cg + j / gd.hw;
			double z = (npukb_load_as_double(x->dtype, x->data, base + j) - mu) * inv *
					   npukb_load_as_double(gamma->dtype, gamma->data, k) +
				   npukb_load_as_double(beta->dtype, beta->data, k);
			if (swish)
				z = z / (1.0 + exp(-scale * z));
			npukb_store_from_double(y->dtype, y->data, base + j, z);
		}
	}
	return 0;
}

/* The gradient of GroupNormSwish with the saved statistics. in: dy, mean,
 * rstd (N * G each), x, gamma, beta; out: dx, dgamma, dbeta. Per group r
 * (L = C / G * HW elements), xn = (x - mean[r]) * rstd[r], z = xn *
 * gamma[c] + beta[c], s = swish_scale, sig = 1 / (1 + exp(-s z)): g = dy *
 * d(z sig(s z))/dz = dy * sig * (1 + s z (1 - sig)); dbeta[c] = sum g,
 * dgamma[c] = sum g * xn over samples and the channel's elements; c1 =
 * sum(g * gamma) / L, c2 = sum(g * gamma * xn) / L over the group, dx =
 * rstd[r] * (g * gamma[c] - xn * c2 - c1). */
int npukb_ref_group_norm_swish_grad(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	const struct npukb_ref_tensor *dy = &c->in[0], *mean = &c->in[1], *rstd = &c->in[2];
	const struct npukb_ref_tensor *x = &c->in[3], *gamma = &c->in[4], *beta = &c->in[5];
	struct npukb_ref_tensor *dx = &c->out[0], *dgamma = &c->out[1], *dbeta = &c->out[2];
	double scale = 1.0, *acc;
	struct group_dims gd;
	size_t len, r, j;
	int rc = group_layout(c, x, &gd, err, errlen);
	if (rc == 0)
		rc = ref_attr_double(c, "swish_scale", &scale, err, errlen);
	if (rc < 0)
		return rc;
	len = gd.cg * gd.hw;
	if (dy->numel != x->numel || dx->numel != x->numel || gamma->numel != gd.ch ||
	    beta->numel != gd.ch || dgamma->numel != gd.ch || dbeta->numel != gd.ch ||
	    mean->numel != gd.n * gd.groups || rstd->numel != mean->numel) {
		snprintf(err, errlen, "%s, %s, %s and %s need %zu elements, %s and %s %zu", gamma->name,
			 beta->name, dgamma->name, dbeta->name, gd.ch, mean->name, rstd->name,
			 gd.n * gd.groups);
		return -EINVAL;
	}
	acc = calloc(2 * gd.ch + 1, sizeof(*acc));
	if (!acc) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (r = 0; r < mean->numel; r++) {
		const size_t base = r * len, c0 = (r % gd.groups) * gd.cg;
		const double mu = npukb_load_as_double(mean->dtype, mean->data, r);
		const double rs = npukb_load_as_double(rstd->dtype, rstd->data, r);
		double c1 = 0.0, c2 = 0.0;
		/* two passes: the group sums, then dx */
		for (int pass = 0; pass < 2; pass++) {
			for (j = 0; j < len; j++) {
				const size_t k = c0 + j / gd.hw;
				const double gm = npukb_load_as_double(gamma->dtype, gamma->data, k);
				const double xn = (npukb_load_as_double(x->dtype, x->data, base + j) - mu) * rs;
				const double z = xn * gm + npukb_load_as_double(beta->dtype, beta->data, k);
				const double sig = 1.0 / (1.0 + exp(-scale * z));
				const double g = npukb_load_as_double(dy->dtype, dy->data, base + j) * sig *
						 (1.0 + scale * z * (1.0 - sig));
				if (pass == 0) {
					acc[k] += g * xn;
					acc[gd.ch + k] += g;
					c1 += g * gm;
					c2 += g * gm * xn;
				} else {
					npukb_store_from_double(dx->dtype, dx->data, base + j,
								rs * (g * gm - xn * c2 - c1));
				}
			}
			c1 /= (double)len;
			c2 /= (double)len;
		}
	}
	for (j = 0; j < gd.ch; j++) {
		npukb_store_from_double(dgamma->dtype, dgamma->data, j, acc[j]);
		npukb_store_from_double(dbeta->dtype, dbeta->data, j, acc[gd.ch + j]);
	}
	free(acc);
	return 0;
}

/* BatchNorm over the channels (dimension 1) of x [N, C, trailing...]. in:
 * x, weight, bias (C each, optional: 1 and 0 when left out), running_mean,
 * running_var (C each, in place); out: running_mean, running_var (again),
 * y, save_mean, save_rstd (C each). Training: each channel's M = N
 * * HW elements give mean and the biased variance var, y = (x - mean) *
 * rstd * weight + bias with rstd = 1 / sqrt(var + epsilon), and the
 * running statistics move: r = (1 - momentum) * r + momentum * stat.
 * Otherwise the running statistics normalise, unchanged, and are what
 * save_mean and save_rstd report. */
int npukb_ref_batch_norm_v3(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	const struct npukb_ref_tensor *x = &c->in[0], *w = &c->in[1], *b = &c->in[2];
	const struct npukb_ref_tensor *rm = &c->in[3], *rv = &c->in[4];
	struct npukb_ref_tensor *rmo = &c->out[0], *rvo = &c->out[1], *y = &c->out[2];
	struct npukb_ref_tensor *sm = &c->out[3], *si = &c->out[4];
	double eps = 0.0, mom = 0.0;
	int training = 0;
	size_t n, ch, hw, k, i, j;
	int rc = ref_attr_double(c, "epsilon", &eps, err, errlen);
	if (rc == 0)
		rc = ref_attr_double(c, "momentum", &mom, err, errlen);
	if (rc == 0)
		rc = ref_attr_bool(c, "training", &training, err, errlen);
	if (rc < 0)
		return rc;
	if (x->shape.rank < 2 || x->numel == 0) {
		snprintf(err, errlen, "%s needs rank 2 or more and elements", x->name);
		return -EINVAL;
	}
	n = (size_t)x->shape.dims[0];
	ch = (size_t)x->shape.dims[1];
	hw = x->numel / (n * ch);
	if ((w->numel && w->numel != ch) || (b->numel && b->numel != ch) || rm->numel != ch ||
	    rv->numel != ch || sm->numel != ch || si->numel != ch || rmo->numel != ch ||
	    rvo->numel != ch || y->numel != x->numel) {
		snprintf(err, errlen, "the per-channel tensors need %zu elements, %s %zu", ch, y->name,
			 x->numel);
		return -EINVAL;
	}
	for (k = 0; k < ch; k++) {
		const double m = (double)(n * hw);
		const double rmean = npukb_load_as_double(rm->dtype, rm->data, k);
		const double rvar = npukb_load_as_double(rv->dtype, rv->data, k);
		const double wk = w->numel ? npukb_load_as_double(w->dtype, w->data, k) : 1.0;
		const double bk = b->numel ? npukb_load_as_double(b->dtype, b->data, k) : 0.0;
		double mu = rmean, var = rvar, inv;
		if (training) {
			double s = 0.0, ss = 0.0;
			for (i = 0; i < n; i++)
				for (j = 0; j < hw; j++)
					s += npukb_load_as_double(x->dtype, x->data, (i * ch + k) * hw + j);
			mu = s / m;
			for (i = 0; i < n; i++)
				for (j = 0; j < hw; j++) {
					double v = npukb_load_as_double(x->dtype, x->data,
									(i * ch + k) * hw + j) - mu;
					ss += v * v;
				}
			var = ss / m;
		}
		inv = 1.0 / sqrt(var + eps);
		for (i = 0; i < n; i++)
			for (j = 0; j < hw; j++) {
				const size_t at = (i * ch + k) * hw + j;
				npukb_store_from_double(y->dtype, y->data, at,
							(npukb_load_as_double(x->dtype, x->data, at) - mu) *
									inv * wk +
								bk);
			}
		npukb_store_from_double(sm->dtype, sm->data, k, mu);
		npukb_store_from_double(si->dtype, si->data, k, inv);
		npukb_store_from_double(rmo->dtype, rmo->data, k,
					training ? (1.0 - mom) * rmean + mom * mu : rmean);
		npukb_store_from_double(rvo->dtype, rvo->data, k,
					training ? (1.0 - mom) * rvar + mom * var : rvar);
	}
	return 0;
}
