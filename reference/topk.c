/* topk.c - TopK along a dimension: values and indices of the k largest
 * (largest = true) or smallest elements of each line of x along dim, in
 * order (largest first, or smallest first), indices int64 positions along
 * dim. Equal values keep the lower index first; the Level 3 manifest draws
 * distinct values along dim, so no case depends on that choice. Only the
 * sorted order is defined (sorted = false leaves torch's order open), so
 * sorted must be true. */
#include "ref_util.h"

struct entry {
	double v;
	int64_t at;
};

static int by_value_desc(const void *x, const void *y)
{
	const struct entry *p = x, *q = y;
	if (p->v != q->v)
		return p->v > q->v ? -1 : 1;
	return (p->at > q->at) - (p->at < q->at);
}

static int by_value_asc(const void *x, const void *y)
{
	const struct entry *p = x, *q = y;
	if (p->v != q->v)
		return p->v < q->v ? -1 : 1;
	return (p->at > q->at) - (p->at < q->at);
}

int npukb_ref_topk(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	const struct npukb_ref_tensor *x = &c->in[0];
	struct npukb_ref_tensor *vals = &c->out[0], *idx = &c->out[1];
	long long k, dim;
	int largest, sorted, rc, d;
	size_t outer = 1, len, inner = 1, o, in, i;
	struct entry *line;

	if ((rc = ref_attr_int(c, "k", &k, err, errlen)) ||
	    (rc = ref_attr_int(c, "dim", &dim, err, errlen)) ||
	    (rc = ref_attr_bool(c, "largest", &largest, err, errlen)) ||
	    (rc = ref_attr_bool(c, "sorted", &sorted, err, errlen)))
		return rc;
	if (dim < 0)
		dim += x->shape.rank;
	if (dim < 0 || dim >= x->shape.rank || k < 0 || k > x->shape.dims[dim] || !sorted) {
		snprintf(err, errlen, "topk: dim %lld, k %lld and sorted %d do not fit %s", dim, k, sorted,
			 x->name);
		return -EINVAL;
	}
	for (d = 0; d < x->shape.rank; d++)
		if (d < dim)
			outer *= (size_t)x->shape.dims[d];
		else if (d > dim)
			inner *= (size_t)x->shape.dims[d];
	len = (size_t)x->shape.dims[dim];
	if (vals->numel != outer * (size_t)k * inner || idx->numel != vals->numel) {
		snprintf(err, errlen, "%s and %s must have %s's shape with dim %lld of size k", vals->name,
			 idx->name, x->name, dim);
		return -EINVAL;
	}
	line = malloc((len ? len : 1) * sizeof *line);
	if (!line) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (o = 0; o < outer; o++)
		for (in = 0; in < inner; in++) {
			for (i = 0; i < len; i++) {
				line[i].v = npukb_load_as_double(x->dtype, x->data, (o * len + i) * inner + in);
				line[i].at = (int64_t)i;
			}
			qsort(line, len, sizeof *line, largest ? by_value_desc : by_value_asc);
			for (i = 0; i < (size_t)k; i++) {
				size_t at = (o * (size_t)k + i) * inner + in;
				npukb_store_from_double(vals->dtype, vals->data, at, line[i].v);
				ref_store_i64(idx, at, line[i].at);
			}
		}
	free(line);
	return 0;
}
