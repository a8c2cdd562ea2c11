/* index.c - operators that move elements by index: GatherV3 (index_select
 * along an axis), ScatterList (a block of each update copied into its
 * list member) and MaskedSelect (the elements a mask picks). Elements are copied as bytes, so results are exact for
 * every dtype. An index outside the tensor is a manifest or generator
 * defect, reported, never read. */
#include "ref_util.h"

/* Product of dims [from, to) of s. */
static size_t span(const struct npukb_shape *s, int from, int to)
{
	size_t n = 1;
	for (int i = from; i < to; i++)
		n *= (size_t)s->dims[i];
	return n;
}

/* y = index_select(x, axis, indices): in x, indices, axis (a scalar tensor). */
int npukb_ref_gather_v3(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	const struct npukb_ref_tensor *x = &c->in[0], *idx = &c->in[1], *ax = &c->in[2];
	struct npukb_ref_tensor *y = &c->out[0];
	size_t esize = npukb_dtype_size(x->dtype), pre, post, n = idx->numel;
	int64_t axis, dim;

	if (ax->numel != 1 || !ref_is_int(ax->dtype) || !ref_is_int(idx->dtype)) {
		snprintf(err, errlen, "%s must be one integer and %s integers", ax->name, idx->name);
		return -EINVAL;
	}
	axis = ref_load_i64(ax, 0);
	if (axis < 0)
		axis += x->shape.rank;
	if (axis < 0 || axis >= x->shape.rank) {
		snprintf(err, errlen, "axis %lld is out of range for rank %d",
			 (long long)ref_load_i64(ax, 0), x->shape.rank);
		return -EINVAL;
	}
	dim = x->shape.dims[axis];
	pre = span(&x->shape, 0, (int)axis);
	post = span(&x->shape, (int)axis + 1, x->shape.rank);
	if (y->dtype != x->dtype || y->numel != pre * n * post) {
		snprintf(err, errlen, "%s must have %zu elements of %s's dtype, not %zu", y->name,
			 pre * n * post, x->name, y->numel);
		return -EINVAL;
	}
	for (size_t j = 0; j < n; j++) {
		int64_t k = ref_load_i64(idx, j);
		if (k < 0 || k >= dim) {
			snprintf(err, errlen, "%s[%zu] = %lld is outside 0..%lld", idx->name, j,
				 (long long)k, (long long)dim - 1);
			return -EINVAL;
		}
		for (size_t p = 0; p < pre; p++)
			memcpy((char *)y->data + ((p * n + j) * post) * esize,
			       (const char *)x->data + ((p * (size_t)dim + (size_t)k) * post) * esize,
			       post * esize);
	}
	return 0;
}

/* For each member i of varRef whose mask is set: along axis, positions
 * start .. start+len-1 of the member take positions 0 .. len-1 of
 * updates[i], where (start, len) = indice[i]. The output is the updated
 * list (the reference's copy starts as the generated input). */
int npukb_ref_scatter_list(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	/* Inputs in manifest order: indice, updates, mask, then var itself. */
	const struct npukb_ref_tensor *ind = &c->in[0], *upd = &c->in[1], *mask = &c->in[2];
	struct npukb_ref_tensor *var = &c->out[0];
	size_t esize = npukb_dtype_size(var->dtype);
	long long axis_attr;
	int rc = ref_attr_int(c, "axis", &axis_attr, err, errlen);

	if (rc)
		return rc;
	if (var->nmembers == 0 || upd->shape.rank < 2 || ind->numel != 2 * var->nmembers ||
	    mask->numel != var->nmembers || (size_t)upd->shape.dims[0] != var->nmembers ||
	    upd->dtype != var->dtype) {
		snprintf(err, errlen, "%s must be a list of N tensors, with %s [N, 2], %s [N] and %s [N, ...] of its dtype",
			 var->name, ind->name, mask->name, upd->name);
		return -EINVAL;
	}
	for (size_t i = 0; i < var->nmembers; i++) {
		const struct npukb_shape *s = &var->members[i];
		struct npukb_shape us = upd->shape;
		size_t member = npukb_shape_numel(&us) / (size_t)us.dims[0];
		int64_t start = ref_load_i64(ind, 2 * i), len = ref_load_i64(ind, 2 * i + 1);
		int r = s->rank, ax = (int)(axis_attr < 0 ? axis_attr + r : axis_attr);
		size_t pre, post;

		if (npukb_load_as_double(mask->dtype, mask->data, i) == 0)
			continue;
		/* updates[i] has the member's rank. */
		us.rank--;
		memmove(us.dims, us.dims + 1, sizeof(us.dims[0]) * (size_t)us.rank);
		if (ax < 0 || ax >= r || us.rank != r) {
			snprintf(err, errlen, "axis %lld does not fit member %zu of rank %d", axis_attr, i, r);
			return -EINVAL;
		}
		for (int d = 0; d < r; d++)
			if (d != ax && us.dims[d] != s->dims[d]) {
				snprintf(err, errlen, "updates[%zu] and member %zu differ in dim %d", i, i, d);
				return -EINVAL;
			}
		if (len < 0 || start < 0 || start + len > s->dims[ax] || len > us.dims[ax]) {
			snprintf(err, errlen, "%s[%zu] = (%lld, %lld) does not fit dim %d of member and update",
				 ind->name, i, (long long)start, (long long)len, ax);
			return -EINVAL;
		}
		pre = span(s, 0, ax);
		post = span(s, ax + 1, r);
		for (size_t p = 0; p < pre; p++)
			memcpy((char *)var->data +
				       (var->member_offsets[i] + (p * (size_t)s->dims[ax] + (size_t)start) * post) *
					       esize,
			       (const char *)upd->data +
				       (i * member + p * (size_t)us.dims[ax] * post) * esize,
			       (size_t)len * post * esize);
	}
	return 0;
}

/* MaskedSelect with its output shape computed by the kernel (OpDef
 * OutputShapeDependOnCompute): in x, mask (same element count); out y, as
 * large as x, whose first count elements are x's where mask is set, and
 * y_shape, the shape buffer: rank 1, then count. The rest of both stays
 * as the framework left it (poisoned, so not compared), as CANN narrows y
 * to the shape the kernel reports. */
int npukb_ref_masked_select(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	const struct npukb_ref_tensor *x = &c->in[0], *mask = &c->in[1];
	struct npukb_ref_tensor *y = &c->out[0], *shape = &c->out[1];
	size_t esize = npukb_dtype_size(x->dtype), count = 0;

	if (mask->numel != x->numel || y->numel < x->numel || y->dtype != x->dtype ||
	    !ref_is_int(shape->dtype) || shape->numel < 2) {
		snprintf(err, errlen,
			 "%s and %s must have as many elements, %s at least as many and %s's dtype, %s two integers or more",
			 x->name, mask->name, y->name, x->name, shape->name);
		return -EINVAL;
	}
	for (size_t i = 0; i < x->numel; i++)
		if (npukb_load_as_double(mask->dtype, mask->data, i) != 0.0)
			memcpy((char *)y->data + esize * count++, (const char *)x->data + esize * i, esize);
	ref_store_i64(shape, 0, 1);
	ref_store_i64(shape, 1, (int64_t)count);
	return 0;
}
