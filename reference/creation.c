/* creation.c - tensors made from scalars: arange, eye, fill. */
#include "ref_util.h"

#include <math.h>

/* out[i] = start + i * step for the output's numel elements (the manifest
 * sizes the output as ceil((end - start) / step)); start, end and step are
 * the values of the one-element inputs, i.e. already rounded to their dtype. */
int npukb_ref_arange(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	struct npukb_ref_tensor *y = &c->out[0];
	double start, end, step, want;
	size_t i;
	if (c->in[0].numel < 1 || c->in[1].numel < 1 || c->in[2].numel < 1) {
		snprintf(err, errlen, "arange: start, end and step must hold one element");
		return -EINVAL;
	}
	start = npukb_load_as_double(c->in[0].dtype, c->in[0].data, 0);
	end = npukb_load_as_double(c->in[1].dtype, c->in[1].data, 0);
	step = npukb_load_as_double(c->in[2].dtype, c->in[2].data, 0);
	want = step != 0.0 ? ceil((end - start) / step) : -1.0;
	if (!(want >= 0.0) || want != (double)y->numel) {
		snprintf(err, errlen, "arange(%g, %g, %g) has %g elements, %s has %zu", start,
			 end, step, want, y->name, y->numel);
		return -EINVAL;
	}
	for (i = 0; i < y->numel; i++)
		npukb_store_from_double(y->dtype, y->data, i, start + (double)i * step);
	return 0;
}

/* A batch of identity matrices: the last two dimensions are rows x cols,
 * 1 on the main diagonal, 0 elsewhere. The input only gives the shape. */
int npukb_ref_eye(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	struct npukb_ref_tensor *y = &c->out[0];
	size_t i, rows, cols;
	if (y->shape.rank < 2) {
		snprintf(err, errlen, "eye: %s needs at least two dimensions", y->name);
		return -EINVAL;
	}
	rows = (size_t)y->shape.dims[y->shape.rank - 2];
	cols = (size_t)y->shape.dims[y->shape.rank - 1];
	for (i = 0; i < y->numel; i++) {
		size_t in_mat = i % (rows * cols);
		npukb_store_from_double(y->dtype, y->data, i, in_mat / cols == in_mat % cols);
	}
	return 0;
}

/* Every element = the one-element input `value`, the last one (converted
 * to the output dtype; an integer value is kept exactly); the first, dims,
 * only repeats the output's shape. */
int npukb_ref_fill(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	const struct npukb_ref_tensor *v = &c->in[c->nin - 1];
	struct npukb_ref_tensor *y = &c->out[0];
	size_t i;
	if (v->numel < 1) {
		snprintf(err, errlen, "fill: %s is empty", v->name);
		return -EINVAL;
	}
	for (i = 0; i < y->numel; i++) {
		if (ref_is_int(v->dtype) && ref_is_int(y->dtype) && y->dtype != NPUKB_DT_BOOL)
			ref_store_i64(y, i, ref_load_i64(v, 0));
		else
			npukb_store_from_double(y->dtype, y->data, i,
						npukb_load_as_double(v->dtype, v->data, 0));
	}
	return 0;
}
