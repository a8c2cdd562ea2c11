/* tensor_move.c - operators that move elements without arithmetic:
 * reverse_sequence, expand, feeds_repeat (copied bit for bit), and
 * coalesce_sparse, whose coordinates move and whose values of one
 * coordinate add up (in double, rounded once). */
#include "ref_util.h"

static void copy_elem(struct npukb_ref_tensor *y, size_t to, const struct npukb_ref_tensor *x,
		      size_t from)
{
	size_t es = npukb_dtype_size(x->dtype);
	memcpy((char *)y->data + es * to, (const char *)x->data + es * from, es);
}

/* For each index b along batch_dim, the first L = seq_lengths[b] elements
 * along seq_dim are reversed and the rest kept: y[.., p, ..] = x[.., L-1-p,
 * ..] for p < L, x[.., p, ..] otherwise. */
int npukb_ref_reverse_sequence(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	const struct npukb_ref_tensor *x = &c->in[0], *len = &c->in[1];
	struct npukb_ref_tensor *y = &c->out[0];
	long long sd, bd;
	size_t stride[NPUKB_MAX_DIMS], i;
	int rank = x->shape.rank, rc;

	rc = ref_attr_int(c, "seq_dim", &sd, err, errlen);
	if (rc == 0)
		rc = ref_attr_int(c, "batch_dim", &bd, err, errlen);
	if (rc < 0)
		return rc;
	if (sd < 0 || sd >= rank || bd < 0 || bd >= rank || sd == bd || y->numel != x->numel ||
	    y->dtype != x->dtype || len->numel != (size_t)x->shape.dims[bd]) {
		snprintf(err, errlen,
			 "seq_dim %lld and batch_dim %lld must be two dimensions of %s, %s hold one length per batch and %s be %s's copy",
			 sd, bd, x->name, len->name, y->name, x->name);
		return -EINVAL;
	}
	stride[rank - 1] = 1;
	for (int k = rank - 1; k > 0; k--)
		stride[k - 1] = stride[k] * (size_t)x->shape.dims[k];
	for (i = 0; i < x->numel; i++) {
		size_t p = i / stride[sd] % (size_t)x->shape.dims[sd];
		size_t b = i / stride[bd] % (size_t)x->shape.dims[bd];
		int64_t l = ref_load_i64(len, b);
		size_t from = i;
		if (l < 0 || l > x->shape.dims[sd]) {
			snprintf(err, errlen, "%s[%zu] = %lld is outside 0 .. %lld", len->name, b,
				 (long long)l, (long long)x->shape.dims[sd]);
			return -EINVAL;
		}
		if ((int64_t)p < l)
			from = i - p * stride[sd] + ((size_t)l - 1 - p) * stride[sd];
		copy_elem(y, i, x, from);
	}
	return 0;
}

/* y = x broadcast to y's shape: dimensions aligned from the last, each of
 * x's of size 1 or equal to y's. */
int npukb_ref_expand(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	const struct npukb_ref_tensor *x = &c->in[0];
	struct npukb_ref_tensor *y = &c->out[0];
	int ry = y->shape.rank, rx = x->shape.rank, k;
	size_t i;

	if (rx > ry || y->dtype != x->dtype) {
		snprintf(err, errlen, "%s cannot be broadcast to %s", x->name, y->name);
		return -EINVAL;
	}
	for (k = 0; k < rx; k++) {
		int64_t dx = x->shape.dims[rx - 1 - k], dy = y->shape.dims[ry - 1 - k];
		if (dx != 1 && dx != dy) {
			snprintf(err, errlen, "%s's dimension %d (%lld) is neither 1 nor %s's (%lld)",
				 x->name, rx - 1 - k, (long long)dx, y->name, (long long)dy);
			return -EINVAL;
		}
	}
	for (i = 0; i < y->numel; i++) {
		size_t rest = i, from = 0, xstride = 1;
		for (k = 0; k < rx; k++) {
			size_t dy = (size_t)y->shape.dims[ry - 1 - k];
			size_t dx = (size_t)x->shape.dims[rx - 1 - k];
			size_t idx = rest % dy;
			rest /= dy;
			if (dx != 1)
				from += idx * xstride;
			xstride *= dx;
		}
		copy_elem(y, i, x, from);
	}
	return 0;
}

/* Row i of feeds (its first dimension) repeated feeds_repeat_times[i]
 * times, rows in order, then zero rows up to y's first dimension. */
int npukb_ref_feeds_repeat(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	const struct npukb_ref_tensor *x = &c->in[0], *times = &c->in[1];
	struct npukb_ref_tensor *y = &c->out[0];
	size_t n, row, out = 0, i, k;
	int64_t t;

	if (x->shape.rank < 1 || y->shape.rank != x->shape.rank || y->dtype != x->dtype ||
	    times->numel != (size_t)x->shape.dims[0] || y->shape.dims[0] == 0) {
		snprintf(err, errlen, "%s needs one count per row of %s, and %s its row shape",
			 times->name, x->name, y->name);
		return -EINVAL;
	}
	n = (size_t)x->shape.dims[0];
	row = x->numel / (n ? n : 1);
	if (y->numel / (size_t)y->shape.dims[0] != row) {
		snprintf(err, errlen, "%s's rows differ from %s's", y->name, x->name);
		return -EINVAL;
	}
	for (i = 0; i < n; i++) {
		t = ref_load_i64(times, i);
		if (t < 0 || (size_t)t > (size_t)y->shape.dims[0] - out) {
			snprintf(err, errlen, "%s[%zu] = %lld: negative, or more rows than %s holds",
				 times->name, i, (long long)t, y->name);
			return -EINVAL;
		}
		for (; t > 0; t--, out++)
			for (k = 0; k < row; k++)
				copy_elem(y, out * row + k, x, i * row + k);
	}
	for (i = out * row; i < y->numel; i++)
		npukb_store_from_double(y->dtype, y->data, i, 0.0);
	return 0;
}

/* var[slices] = input_value: along each axis given in axes (int64, the
 * axes' positions in begin and strides), indices begin, begin + stride,
 * ... as many as input_value has there; other axes whole. var is updated
 * in place. in: input_value, begin, end, strides, axes, var; out: var. */
int npukb_ref_strided_slice_assign(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	const struct npukb_ref_tensor *val = &c->in[0], *begin = &c->in[1], *strides = &c->in[3],
				      *axes = &c->in[4];
	struct npukb_ref_tensor *var = &c->out[0];
	int64_t b[NPUKB_MAX_DIMS] = { 0 }, s[NPUKB_MAX_DIMS];
	size_t vstride[NPUKB_MAX_DIMS], i;
	int rank = var->shape.rank, k;

	if (val->shape.rank != rank || val->dtype != var->dtype || begin->numel != axes->numel ||
	    strides->numel != axes->numel) {
		snprintf(err, errlen, "%s needs %s's rank and dtype, begin and strides one value per axis",
			 val->name, var->name);
		return -EINVAL;
	}
	for (k = 0; k < rank; k++)
		s[k] = 1;
	for (i = 0; i < axes->numel; i++) {
		int64_t a = ref_load_i64(axes, i);
		if (a < 0 || a >= rank) {
			snprintf(err, errlen, "axis %lld outside 0 .. %d", (long long)a, rank - 1);
			return -EINVAL;
		}
		b[a] = ref_load_i64(begin, i);
		s[a] = ref_load_i64(strides, i);
	}
	for (k = 0; k < rank; k++)
		if (b[k] < 0 || s[k] < 1 ||
		    b[k] + (val->shape.dims[k] - 1) * s[k] >= var->shape.dims[k]) {
			snprintf(err, errlen, "the slice of axis %d leaves %s", k, var->name);
			return -EINVAL;
		}
	vstride[rank - 1] = 1;
	for (k = rank - 1; k > 0; k--)
		vstride[k - 1] = vstride[k] * (size_t)var->shape.dims[k];
	for (i = 0; i < val->numel; i++) {
		size_t rest = i, to = 0;
		for (k = rank - 1; k >= 0; k--) {
			size_t idx = rest % (size_t)val->shape.dims[k];
			rest /= (size_t)val->shape.dims[k];
			to += (size_t)(b[k] + (int64_t)idx * s[k]) * vstride[k];
		}
		copy_elem(var, to, val, i);
	}
	return 0;
}

/* One COO entry: its row-major flat index and its position in the input. */
struct coo_entry {
	int64_t flat;
	size_t at;
};

static int coo_cmp(const void *x, const void *y)
{
	const struct coo_entry *a = x, *b = y;
	if (a->flat != b->flat)
		return a->flat < b->flat ? -1 : 1;
	return a->at < b->at ? -1 : a->at > b->at;
}

/* CoalesceSparse: a COO tensor of nnz entries (indices [nnz, k], values
 * [nnz, d...]) coalesced: its U distinct coordinates in ascending
 * row-major order (new_indices [U, k]), each with the sum of its entries'
 * values (new_value [U, d...]). Computed from indices and values alone;
 * unique_len and unique_indices (the host's torch.unique) must only agree
 * in size. in: indices, unique_len, unique_indices, values; out:
 * new_indices, new_value. */
int npukb_ref_coalesce_sparse(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	const struct npukb_ref_tensor *idx = &c->in[0], *ulen = &c->in[1], *inv = &c->in[2],
				      *val = &c->in[3];
	struct npukb_ref_tensor *nidx = &c->out[0], *nval = &c->out[1];
	size_t nnz = idx->shape.rank == 2 ? (size_t)idx->shape.dims[0] : 0;
	size_t k = idx->shape.rank == 2 ? (size_t)idx->shape.dims[1] : 0, d, i, j, u;
	int64_t *size;
	struct coo_entry *e;
	double *acc;

	if (nnz == 0 || k == 0 || val->numel % nnz != 0 || inv->numel != nnz ||
	    nidx->numel != ulen->numel * k || nval->numel != ulen->numel * (val->numel / nnz)) {
		snprintf(err, errlen,
			 "%s must be [nnz, k] (nnz > 0), %s nnz rows, %s one per entry, %s [U, k] and %s U rows for %s's U",
			 idx->name, val->name, inv->name, nidx->name, nval->name, ulen->name);
		return -EINVAL;
	}
	d = val->numel / nnz;
	size = calloc(k, sizeof(*size));
	e = malloc(nnz * sizeof(*e));
	acc = malloc(d * sizeof(*acc));
	if (!size || !e || !acc) {
		free(size);
		free(e);
		free(acc);
		return -ENOMEM;
	}
	for (i = 0; i < nnz * k; i++) {
		int64_t v = ref_load_i64(idx, i);
		if (v < 0 || v == INT64_MAX) {
			snprintf(err, errlen, "%s[%zu] = %lld is not a coordinate", idx->name, i,
				 (long long)v);
			goto fail;
		}
		if (v + 1 > size[i % k])
			size[i % k] = v + 1;
	}
	for (i = 0; i < nnz; i++) {
		int64_t f = 0;
		for (j = 0; j < k; j++) {
			if (f > (INT64_MAX - size[j]) / size[j]) {
				snprintf(err, errlen, "%s's dense size overflows int64", idx->name);
				goto fail;
			}
			f = f * size[j] + ref_load_i64(idx, i * k + j);
		}
		e[i].flat = f;
		e[i].at = i;
	}
	qsort(e, nnz, sizeof(*e), coo_cmp);
	for (i = 0, u = 0; i < nnz; u++) {
		size_t first = i;
		if (u >= ulen->numel) {
			snprintf(err, errlen, "%s has more than %s's %zu distinct coordinates",
				 idx->name, ulen->name, ulen->numel);
			goto fail;
		}
		for (j = 0; j < d; j++)
			acc[j] = 0.0;
		for (; i < nnz && e[i].flat == e[first].flat; i++)
			for (j = 0; j < d; j++)
				acc[j] += npukb_load_as_double(val->dtype, val->data, e[i].at * d + j);
		for (j = 0; j < k; j++)
			ref_store_i64(nidx, u * k + j, ref_load_i64(idx, e[first].at * k + j));
		for (j = 0; j < d; j++)
			npukb_store_from_double(nval->dtype, nval->data, u * d + j, acc[j]);
	}
	if (u != ulen->numel) {
		snprintf(err, errlen, "%s has %zu distinct coordinates, %s %zu", idx->name, u,
			 ulen->name, ulen->numel);
		goto fail;
	}
	free(size);
	free(e);
	free(acc);
	return 0;
fail:
	free(size);
	free(e);
	free(acc);
	return -EINVAL;
}
