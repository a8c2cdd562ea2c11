/* activation.c - Level 2 activations and their gradients, element-wise in
 * double from the operators' definitions, rounded once to the output dtype.
 * Gradients are the analytic derivatives of the forward functions. */
#include "ref_util.h"

#include <npukb/util.h>
#include <math.h>

#include <npukb/parallel.h>

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
	*out = npukb_strtod(v, &end);
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

/* y = x * sigmoid(k x): Swish (k the scale) and FastGelu (k = 1.702). */
static int x_sigmoid(const struct npukb_ref_call *c, double k, char *err, size_t errlen)
{
	size_t i;
	int rc = ref_same_numel(c, 1, err, errlen);
	if (rc)
		return rc;
	for (i = 0; i < c->out[0].numel; i++) {
		double x = in_at(c, 0, i);
		out_at(c, i, x * sigmoid(k * x));
	}
	return 0;
}

int npukb_ref_swish(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	double s;
	int rc = attr_double(c, "scale", &s, err, errlen);
	return rc ? rc : x_sigmoid(c, s, err, errlen);
}

/* FastGelu: x * sigmoid(1.702 x), which is upstream's
 * x / (1 + exp(-1.702|x|)) * exp(0.851 (x - |x|)) rearranged. */
int npukb_ref_fast_gelu(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	return x_sigmoid(c, FAST_GELU_A, err, errlen);
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

/* MulSigmoid: x1 is [B, N], x2 holds N elements (shape [1, ...]) shared by
 * every row; t = sigmoid(t1 x1), y = (t < t2 ? t : 2 t) * x2 * t3. */
int npukb_ref_mul_sigmoid(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	size_t n = c->in[1].numel, i;
	double t1, t2, t3;
	int rc = attr_double(c, "t1", &t1, err, errlen);
	if (!rc)
		rc = attr_double(c, "t2", &t2, err, errlen);
	if (!rc)
		rc = attr_double(c, "t3", &t3, err, errlen);
	if (rc)
		return rc;
	if (n == 0 || c->in[0].numel != c->out[0].numel || c->in[0].numel % n) {
		snprintf(err, errlen, "x1 (%zu elements) is not rows of x2 (%zu) or not y's size (%zu)",
			 c->in[0].numel, n, c->out[0].numel);
		return -EINVAL;
	}
	for (i = 0; i < c->out[0].numel; i++) {
		double t = sigmoid(t1 * in_at(c, 0, i));
		out_at(c, i, (t < t2 ? t : 2.0 * t) * in_at(c, 1, i % n) * t3);
	}
	return 0;
}

/* x seen as [outer, 2, half * inner] around the attribute dim: the two
 * halves of each outer row are contiguous runs of len elements. */
static int glu_split(const struct npukb_ref_call *c, const struct npukb_shape *x, size_t *outer,
		     size_t *len, char *err, size_t errlen)
{
	long long d;
	size_t k;
	int rc = ref_attr_int(c, "dim", &d, err, errlen);
	if (rc)
		return rc;
	if (d < 0)
		d += x->rank;
	if (d < 0 || d >= x->rank || x->dims[d] % 2) {
		snprintf(err, errlen, "dim %lld does not split x (rank %d) in two halves", d,
			 x->rank);
		return -EINVAL;
	}
	*outer = 1;
	for (k = 0; k < (size_t)d; k++)
		*outer *= x->dims[k];
	*len = *outer ? npukb_shape_numel(x) / *outer / 2 : 0;
	return 0;
}

/* SwiGlu: y = silu(a) * b, (a, b) the two halves of x along dim. */
int npukb_ref_swiglu(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	size_t outer, len, o, j;
	int rc = glu_split(c, &c->in[0].shape, &outer, &len, err, errlen);
	if (rc)
		return rc;
	if (c->out[0].numel != outer * len) {
		snprintf(err, errlen, "y has %zu elements, half of x is %zu", c->out[0].numel,
			 outer * len);
		return -EINVAL;
	}
	for (o = 0; o < outer; o++)
		for (j = 0; j < len; j++) {
			double a = in_at(c, 0, o * 2 * len + j), b = in_at(c, 0, o * 2 * len + len + j);
			out_at(c, o * len + j, a * sigmoid(a) * b);
		}
	return 0;
}

/* SwiGluGrad: for y = silu(a) b, dx = (g b silu'(a), g silu(a)) along dim,
 * silu'(a) = s (1 + a (1 - s)), s = sigmoid(a). */
int npukb_ref_swiglu_grad(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	size_t outer, len, o, j;
	int rc = glu_split(c, &c->in[1].shape, &outer, &len, err, errlen);
	if (rc)
		return rc;
	if (c->in[0].numel != outer * len || c->out[0].numel != c->in[1].numel) {
		snprintf(err, errlen, "y_grad (%zu elements) is not half of x (%zu)", c->in[0].numel,
			 c->in[1].numel);
		return -EINVAL;
	}
	for (o = 0; o < outer; o++)
		for (j = 0; j < len; j++) {
			size_t ia = o * 2 * len + j, ib = ia + len;
			double g = in_at(c, 0, o * len + j), a = in_at(c, 1, ia), b = in_at(c, 1, ib);
			double s = sigmoid(a);
			out_at(c, ia, g * b * s * (1.0 + a * (1.0 - s)));
			out_at(c, ib, g * a * s);
		}
	return 0;
}

/* GeGluV2: gelu = a Phi(a) (exact GELU), y = gelu * b, (a, b) the halves of
 * x along dim; outputs y and gelu. */
int npukb_ref_geglu(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	size_t outer, len, o, j;
	int rc = glu_split(c, &c->in[0].shape, &outer, &len, err, errlen);
	if (rc)
		return rc;
	if (c->out[0].numel != outer * len || c->out[1].numel != outer * len) {
		snprintf(err, errlen, "y (%zu) and gelu (%zu) are not half of x (%zu)",
			 c->out[0].numel, c->out[1].numel, c->in[0].numel);
		return -EINVAL;
	}
	for (o = 0; o < outer; o++)
		for (j = 0; j < len; j++) {
			double a = in_at(c, 0, o * 2 * len + j), b = in_at(c, 0, o * 2 * len + len + j);
			double g = 0.5 * a * erfc(-a * M_SQRT1_2);
			out_at(c, o * len + j, g * b);
			npukb_store_from_double(c->out[1].dtype, c->out[1].data, o * len + j, g);
		}
	return 0;
}

/* GeGluGradV2: for y = gelu(a) b, dx = (dy b gelu'(a), dy gelu(a)) along
 * dim; approximate 0 is the exact GELU (gelu' = Phi + a phi), 1 the tanh
 * form x sigmoid(u) (gelu' = s + a u' s (1 - s)). */
int npukb_ref_geglu_grad(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	size_t outer, len, o, j;
	long long approx;
	int rc = glu_split(c, &c->in[1].shape, &outer, &len, err, errlen);
	if (!rc)
		rc = ref_attr_int(c, "approximate", &approx, err, errlen);
	if (rc)
		return rc;
	if (c->in[0].numel != outer * len || c->out[0].numel != c->in[1].numel) {
		snprintf(err, errlen, "dy (%zu elements) is not half of x (%zu)", c->in[0].numel,
			 c->in[1].numel);
		return -EINVAL;
	}
	for (o = 0; o < outer; o++)
		for (j = 0; j < len; j++) {
			size_t ia = o * 2 * len + j, ib = ia + len;
			double g = in_at(c, 0, o * len + j), a = in_at(c, 1, ia), b = in_at(c, 1, ib);
			double gelu, dgelu;
			if (approx) {
				double s = sigmoid(GELU_K * (a + GELU_C * a * a * a));
				double du = GELU_K * (1.0 + 3.0 * GELU_C * a * a);
				gelu = a * s;
				dgelu = s + a * du * s * (1.0 - s);
			} else {
				double phi_cdf = 0.5 * erfc(-a * M_SQRT1_2);
				gelu = a * phi_cdf;
				dgelu = phi_cdf + a * exp(-0.5 * a * a) * 0.3989422804014327;
			}
			out_at(c, ia, g * b * dgelu);
			out_at(c, ib, g * gelu);
		}
	return 0;
}

/* Softmax over the last axis, in place: in[0] is x before, out[0] after.
 * Rows are independent: cut across the data path's threads, each row
 * computed exactly as a serial loop would (max, then the sum of exp in
 * order, then each exp over the sum), so the result is the same on any
 * number of threads. */
struct softmax_job {
	const struct npukb_ref_call *c;
	size_t len;
};

static void softmax_rows(void *ctx, unsigned part, size_t r0, size_t r1)
{
	const struct softmax_job *j = ctx;
	const struct npukb_ref_tensor *x = &j->c->in[0];
	const size_t len = j->len;
	double *e = malloc(len * sizeof *e); /* the row's exp(v - m) */
	double blk[REF_BLOCK];
	size_t r, k, b, n;
	(void)part;

	for (r = r0; r < r1; r++) {
		double m = -INFINITY, s = 0.0;
		for (k = 0; k < len; k += n) {
			n = len - k < REF_BLOCK ? len - k : REF_BLOCK;
			ref_load_block(x, r * len + k, n, blk);
			for (b = 0; b < n; b++)
				m = blk[b] > m ? blk[b] : m;
		}
		for (k = 0; k < len; k += n) {
			n = len - k < REF_BLOCK ? len - k : REF_BLOCK;
			ref_load_block(x, r * len + k, n, blk);
			for (b = 0; b < n; b++) {
				double v = exp(blk[b] - m);
				if (e)
					e[k + b] = v;
				s += v;
			}
		}
		for (k = 0; k < len; k += n) {
			n = len - k < REF_BLOCK ? len - k : REF_BLOCK;
			if (!e) /* no scratch: the exps again, the same values */
				ref_load_block(x, r * len + k, n, blk);
			for (b = 0; b < n; b++)
				blk[b] = (e ? e[k + b] : exp(blk[b] - m)) / s;
			/* a block stored in one call, not a call per element */
			npukb_store_from_double_n(j->c->out[0].dtype, j->c->out[0].data, r * len + k,
						  blk, n);
		}
	}
	free(e);
}

int npukb_ref_softmax_last(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	const struct npukb_ref_tensor *x = &c->in[0];
	struct softmax_job j = { c, x->shape.rank ? (size_t)x->shape.dims[x->shape.rank - 1] : 1 };
	int rc = ref_same_numel(c, 1, err, errlen);
	if (rc || j.len == 0)
		return rc;
	const size_t rows = x->numel / j.len;
	const size_t min_rows = NPUKB_PARALLEL_GRAIN / j.len ? NPUKB_PARALLEL_GRAIN / j.len : 1;
	npukb_parallel_run(rows, npukb_parallel_parts(rows, min_rows), softmax_rows, &j);
	return 0;
}

/* An int8 code: v rounded to nearest, ties to even (torch.round, AscendC's
 * CAST_RINT), clamped to [-128, 127]. */
static double quant_code(double v)
{
	double q = nearbyint(v);
	return q < -128.0 ? -128.0 : q > 127.0 ? 127.0 : q;
}

static double gelu_form(double v, int tanh_form)
{
	return tanh_form ? v * sigmoid(GELU_K * (v + GELU_C * v * v * v))
			 : 0.5 * v * erfc(-v * M_SQRT1_2);
}

/* GeluQuant's work, cut by rows (dynamic) or by elements (static): each
 * row or element on its own, so the parts may run on any threads. */
struct gq_job {
	const struct npukb_ref_call *c;
	size_t d; /* a row's elements */
	double scale, offset;
	int tanh_form, dynamic;
	const double *table; /* gelu of every 16-bit x, or NULL */
};

/* gelu of x's elements [i, i + n), n <= REF_BLOCK: the doubles gelu_form
 * gives on npukb_load_as_double's values. */
static void gq_gelu(const struct gq_job *j, size_t i, size_t n, double *g)
{
	const struct npukb_ref_tensor *x = &j->c->in[0];
	size_t k;
	if (j->table) {
		const uint16_t *s = (const uint16_t *)x->data + i;
		for (k = 0; k < n; k++)
			g[k] = j->table[s[k]];
		return;
	}
	ref_load_block(x, i, n, g);
	for (k = 0; k < n; k++)
		g[k] = gelu_form(g[k], j->tanh_form);
}

static void gq_static(void *ctx, unsigned part, size_t begin, size_t end)
{
	const struct gq_job *j = ctx;
	double g[REF_BLOCK];
	(void)part;
	for (size_t i = begin; i < end; i += REF_BLOCK) {
		const size_t n = end - i < REF_BLOCK ? end - i : REF_BLOCK;
		gq_gelu(j, i, n, g);
		for (size_t k = 0; k < n; k++)
			g[k] = quant_code(g[k] * j->scale + j->offset);
		npukb_store_from_double_n(j->c->out[0].dtype, j->c->out[0].data, i, g, n);
	}
}

/* Rows [begin, end). m = g * scale is kept from the maximum's pass for the
 * codes (g * scale * inv is (g * scale) * inv): gelu once an element, not
 * twice; rows longer than the buffer compute it again. */
static void gq_dynamic(void *ctx, unsigned part, size_t begin, size_t end)
{
	const struct gq_job *j = ctx;
	const size_t d = j->d;
	double blk[REF_BLOCK], *m = d <= 65536 ? malloc(d * sizeof *m) : NULL;
	(void)part;
	for (size_t r = begin; r < end; r++) {
		const size_t base = r * d;
		double amax = 0.0, inv;
		size_t i, k, n;
		for (i = 0; i < d; i += n) {
			n = d - i < REF_BLOCK ? d - i : REF_BLOCK;
			gq_gelu(j, base + i, n, blk);
			for (k = 0; k < n; k++) {
				const double v = blk[k] * j->scale;
				amax = fabs(v) > amax ? fabs(v) : amax;
				if (m)
					m[i + k] = v;
			}
		}
		inv = 127.0 / (amax + 1e-6);
		npukb_store_from_double(j->c->out[1].dtype, j->c->out[1].data, r, 1.0 / inv);
		for (i = 0; i < d; i += n) {
			n = d - i < REF_BLOCK ? d - i : REF_BLOCK;
			if (m) {
				for (k = 0; k < n; k++)
					blk[k] = quant_code(m[i + k] * inv);
			} else {
				gq_gelu(j, base + i, n, blk);
				for (k = 0; k < n; k++)
					blk[k] = quant_code(blk[k] * j->scale * inv);
			}
			npukb_store_from_double_n(j->c->out[0].dtype, j->c->out[0].data, base + i, blk, n);
		}
	}
	free(m);
}

/* GeluQuant: g = gelu(x) (the tanh form when tanh, else the exact erf
 * form). Static: y = code(g * scale + offset), out_scale[0] = 1 / scale.
 * Dynamic, per row r of the last dimension: m = g * scale,
 * out_scale[r] = (max|m[r]| + 1e-6) / 127, y = code(m / out_scale[r]).
 * A float16/bfloat16 x of many elements takes gelu from a table of its
 * 65,536 inputs (the same doubles): gelu's exp or erfc per element was
 * most of the reference's time. */
int npukb_ref_gelu_quant(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	const struct npukb_ref_tensor *x = &c->in[0];
	struct gq_job j = { c, x->shape.rank ? (size_t)x->shape.dims[x->shape.rank - 1] : 1,
			    0.0, 0.0, 0, 0, NULL };
	double *table = NULL;
	size_t rows;
	int rc = ref_same_numel(c, 1, err, errlen);
	if (!rc)
		rc = ref_attr_bool(c, "tanh", &j.tanh_form, err, errlen);
	if (!rc)
		rc = ref_attr_bool(c, "dynamic", &j.dynamic, err, errlen);
	if (rc)
		return rc;
	if (c->in[1].numel != 1 || c->in[2].numel != 1 || j.d == 0) {
		snprintf(err, errlen, "input_scale and input_offset must have one element");
		return -EINVAL;
	}
	rows = x->numel / j.d;
	if (c->out[1].numel != (j.dynamic ? rows : 1)) {
		snprintf(err, errlen, "out_scale has %zu elements, expected %zu", c->out[1].numel,
			 j.dynamic ? rows : (size_t)1);
		return -EINVAL;
	}
	j.scale = in_at(c, 1, 0);
	j.offset = in_at(c, 2, 0);
	if ((x->dtype == NPUKB_DT_FLOAT16 || x->dtype == NPUKB_DT_BFLOAT16) && x->numel >= ((size_t)1 << 18) &&
	    (table = malloc(65536 * sizeof *table)) != NULL) {
		for (uint32_t u = 0; u < 65536; u++) {
			const uint16_t bits = (uint16_t)u;
			table[u] = gelu_form(npukb_load_as_double(x->dtype, &bits, 0), j.tanh_form);
		}
		j.table = table;
	}
	if (j.dynamic && rows) {
		/* parts by elements, as many rows a part as it takes */
		unsigned parts = npukb_parallel_parts(x->numel, NPUKB_PARALLEL_GRAIN);
		npukb_parallel_run(rows, parts < rows ? parts : (unsigned)rows, gq_dynamic, &j);
	} else if (!j.dynamic && x->numel) {
		npukb_parallel_run(x->numel, npukb_parallel_parts(x->numel, NPUKB_PARALLEL_GRAIN),
				   gq_static, &j);
	}
	if (!j.dynamic)
		npukb_store_from_double(c->out[1].dtype, c->out[1].data, 0, 1.0 / j.scale);
	free(table);
	return 0;
}

/* DequantSwigluQuant over x [N, 2h] in groups of consecutive rows
 * (group_index: the rows of each group, in order, summing to N; absent:
 * one group), g the row's group:
 *   v = x; for int32 x: v = (x + bias) * weight_scale[g] (* activate_scale[r])
 *   a, b = v[:h], v[h:]; s = silu(a) * b when activate_left, else silu(b) * a
 *   static: y = code(s / quant_scale[g] + quant_offset[g]), scale[r] = 1
 *   dynamic: m = s * quant_scale[g], scale[r] = max|m| / 127,
 *            y = code(m / scale[r])
 * silu(u) = u * sigmoid(u); weight_scale rows have 2h elements,
 * quant_scale's and quant_offset's h. in: x, weight_scale, activate_scale,
 * bias, quant_scale, quant_offset, group_index (all but x and quant_scale
 * optional); out: y (int8), scale (one per row). */
int npukb_ref_dequant_swiglu_quant(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	const struct npukb_ref_tensor *x = &c->in[0], *ws = &c->in[1], *as = &c->in[2],
				      *bias = &c->in[3], *qs = &c->in[4], *qo = &c->in[5],
				      *gi = &c->in[6];
	size_t w = x->shape.rank ? (size_t)x->shape.dims[x->shape.rank - 1] : 0, h = w / 2;
	size_t rows, groups, r = 0, g, j;
	int left, dynamic, deq = x->dtype == NPUKB_DT_INT32;
	int rc = ref_attr_bool(c, "activate_left", &left, err, errlen);
	double *v;

	if (!rc)
		rc = ref_attr_bool(c, "dynamic", &dynamic, err, errlen);
	if (rc)
		return rc;
	if (w == 0 || w % 2) {
		snprintf(err, errlen, "x's last dimension (%zu) does not split in two halves", w);
		return -EINVAL;
	}
	rows = x->numel / w;
	groups = gi->numel ? gi->numel : 1;
	if (c->out[0].numel != rows * h || c->out[1].numel != rows || qs->numel != groups * h ||
	    (!dynamic && qo->numel != groups * h) || (deq && ws->numel != groups * w) ||
	    (deq && bias->numel && bias->numel != w) || (deq && as->numel && as->numel != rows)) {
		snprintf(err, errlen,
			 "for x [%zu, %zu] in %zu groups: y needs %zu elements, scale %zu, quant_scale (and static quant_offset) %zu, weight_scale %zu, bias %zu, activate_scale %zu",
			 rows, w, groups, rows * h, rows, groups * h, groups * w, w, rows);
		return -EINVAL;
	}
	v = malloc(w * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (g = 0; g < groups; g++) {
		int64_t n = gi->numel ? ref_load_i64(gi, g) : (int64_t)rows;
		size_t end;
		if (n < 0 || (size_t)n > rows - r) {
			snprintf(err, errlen, "group_index[%zu] = %lld overruns the %zu rows", g,
				 (long long)n, rows);
			free(v);
			return -EINVAL;
		}
		for (end = r + (size_t)n; r < end; r++) {
			double amax = 0.0, k = 1.0;
			for (j = 0; j < w; j++) {
				v[j] = in_at(c, 0, r * w + j);
				if (!deq)
					continue;
				if (bias->numel)
					v[j] += in_at(c, 3, j);
				v[j] *= in_at(c, 1, g * w + j);
				if (as->numel)
					v[j] *= in_at(c, 2, r);
			}
			for (j = 0; j < h; j++) {
				double a = left ? v[j] : v[h + j], b = left ? v[h + j] : v[j];
				v[j] = a * sigmoid(a) * b * (dynamic ? in_at(c, 4, g * h + j) : 1.0);
				amax = fabs(v[j]) > amax ? fabs(v[j]) : amax;
			}
			if (dynamic)
				k = amax / 127.0;
			npukb_store_from_double(c->out[1].dtype, c->out[1].data, r, k);
			for (j = 0; j < h; j++)
				npukb_store_from_double(
					c->out[0].dtype, c->out[0].data, r * h + j,
					quant_code(dynamic ? v[j] / k
							   : v[j] / in_at(c, 4, g * h + j) + in_at(c, 5, g * h + j)));
		}
	}
	free(v);
	if (r != rows) {
		snprintf(err, errlen, "group_index covers %zu of the %zu rows", r, rows);
		return -EINVAL;
	}
	return 0;
}

/* InplaceFusedMatmulSoftmaxGrad: with s = softmax_output (M x N, rows of
 * the softmax), the incoming gradient g (M x K) and values v (N x K),
 *   d = g v^T (M x N),  out[m][n] = (d[m][n] - sum_j s[m][j] d[m][j]) s[m][n]
 * (the softmax's backward for the gradient d), written over s. in:
 * grad_output, values, softmax_output (before); out: softmax_output. */
int npukb_ref_fused_matmul_softmax_grad(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	const struct npukb_ref_tensor *g = &c->in[0], *v = &c->in[1], *s = &c->in[2];
	size_t m, n, k, rows, cols, depth;
	double *d;
	if (s->shape.rank != 2 || g->shape.rank != 2 || v->shape.rank != 2 ||
	    g->shape.dims[0] != s->shape.dims[0] || v->shape.dims[0] != s->shape.dims[1] ||
	    g->shape.dims[1] != v->shape.dims[1] || c->out[0].numel != s->numel) {
		snprintf(err, errlen, "need softmax_output M x N, grad_output M x K, values N x K");
		return -EINVAL;
	}
	rows = (size_t)s->shape.dims[0];
	cols = (size_t)s->shape.dims[1];
	depth = (size_t)g->shape.dims[1];
	d = malloc((cols ? cols : 1) * sizeof(*d));
	if (!d) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (m = 0; m < rows; m++) {
		double r = 0.0;
		for (n = 0; n < cols; n++) {
			double acc = 0.0;
			for (k = 0; k < depth; k++)
				acc += npukb_load_as_double(g->dtype, g->data, m * depth + k) *
				       npukb_load_as_double(v->dtype, v->data, n * depth + k);
			d[n] = acc;
			r += in_at(c, 2, m * cols + n) * acc;
		}
		for (n = 0; n < cols; n++)
			out_at(c, m * cols + n, (d[n] - r) * in_at(c, 2, m * cols + n));
	}
	free(d);
	return 0;
}
