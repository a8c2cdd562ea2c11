/* linalg.c - matrix products. matmul: out[..., m, n] = sum_k a[..., m, k] *
 * b[..., k, n], over the leading (batch) dimensions of a; b has the same
 * batch or none (one matrix for every batch). Each output element is summed
 * in double (the blocked, threaded core of gemm.h) and rounded once to the
 * output dtype. */
#include "gemm.h"
#include "ref_util.h"

static int64_t batch_of(const struct npukb_shape *s)
{
	int64_t n = 1;
	int i;
	for (i = 0; i + 2 < s->rank; i++)
		n *= s->dims[i];
	return n;
}

struct store_ctx {
	struct npukb_ref_tensor *o;
	size_t off;
};

static void store_plain(void *ctx, size_t i, double *row, size_t n)
{
	const struct store_ctx *sc = ctx;
	size_t j;
	for (j = 0; j < n; j++)
		npukb_store_from_double(sc->o->dtype, sc->o->data, sc->off + i * n + j, row[j]);
}

int npukb_ref_matmul(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	const struct npukb_ref_tensor *a = &c->in[0], *b = &c->in[1];
	struct npukb_ref_tensor *o = &c->out[0];
	int64_t batch, bbatch, m, k, n, bi;

	if (a->shape.rank < 2 || b->shape.rank < 2) {
		snprintf(err, errlen, "%s and %s must be matrices (rank >= 2)", a->name, b->name);
		return -EINVAL;
	}
	m = a->shape.dims[a->shape.rank - 2];
	k = a->shape.dims[a->shape.rank - 1];
	n = b->shape.dims[b->shape.rank - 1];
	batch = batch_of(&a->shape);
	bbatch = batch_of(&b->shape);
	if (b->shape.dims[b->shape.rank - 2] != k || (bbatch != batch && bbatch != 1)) {
		snprintf(err, errlen, "%s [.., %lld, %lld] and %s [.., %lld, %lld] do not multiply", a->name,
			 (long long)m, (long long)k, b->name, (long long)b->shape.dims[b->shape.rank - 2],
			 (long long)n);
		return -EINVAL;
	}
	if (o->numel != (size_t)(batch * m * n)) {
		snprintf(err, errlen, "%s has %zu elements, the product %lld", o->name, o->numel,
			 (long long)(batch * m * n));
		return -EINVAL;
	}
	for (bi = 0; bi < batch; bi++) {
		struct ref_gemm_operand ao = { a, (size_t)(bi * m * k), (size_t)k, 1 },
					bo = { b, bbatch == 1 ? 0 : (size_t)(bi * k * n), (size_t)n, 1 };
		struct store_ctx sc = { o, (size_t)(bi * m * n) };
		if (ref_gemm(&ao, &bo, (size_t)m, (size_t)n, (size_t)k, 0, store_plain, &sc)) {
			snprintf(err, errlen, "out of memory");
			return -ENOMEM;
		}
	}
	return 0;
}

/* Cross: y = x1 x x2, the cross product of the 3-vectors along dim (whose
 * size must be 3): with the tensor seen as [pre, 3, post], y[p, k, c] =
 * x1[p, k+1, c] x2[p, k+2, c] - x1[p, k+2, c] x2[p, k+1, c], k+1 and k+2
 * taken mod 3. Integer results wrap. */
int npukb_ref_cross(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	const struct npukb_ref_tensor *a = &c->in[0], *b = &c->in[1];
	struct npukb_ref_tensor *y = &c->out[0];
	long long dim;
	size_t pre = 1, post = 1;
	int rc = ref_attr_int(c, "dim", &dim, err, errlen), r = a->shape.rank;

	if (rc)
		return rc;
	if (dim < 0)
		dim += r;
	if (dim < 0 || dim >= r || a->shape.dims[dim] != 3 || b->numel != a->numel ||
	    y->numel != a->numel) {
		snprintf(err, errlen, "%s, %s and %s must have one shape whose dim %lld is 3", a->name,
			 b->name, y->name, dim);
		return -EINVAL;
	}
	for (int d = 0; d < dim; d++)
		pre *= (size_t)a->shape.dims[d];
	for (int d = (int)dim + 1; d < r; d++)
		post *= (size_t)a->shape.dims[d];
	for (size_t p = 0; p < pre; p++)
		for (size_t k = 0; k < 3; k++)
			for (size_t j = 0; j < post; j++) {
				size_t base = p * 3 * post + j, i1 = base + ((k + 1) % 3) * post,
				       i2 = base + ((k + 2) % 3) * post;
				double v = npukb_load_as_double(a->dtype, a->data, i1) *
						   npukb_load_as_double(b->dtype, b->data, i2) -
					   npukb_load_as_double(a->dtype, a->data, i2) *
						   npukb_load_as_double(b->dtype, b->data, i1);
				if (ref_is_int(y->dtype))
					ref_store_i64(y, base + k * post, (int64_t)v);
				else
					npukb_store_from_double(y->dtype, y->data, base + k * post, v);
			}
	return 0;
}
