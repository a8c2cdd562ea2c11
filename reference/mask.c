/* mask.c - operators that keep part of a tensor and zero the rest:
 * tril and triu over the last two dimensions. */
#include "ref_util.h"

/* Element (r, col) of each matrix of x (its last two dimensions) is kept
 * when lower ? col - r <= diagonal : col - r >= diagonal, else zero; the
 * kept elements are copied bit for bit. */
static int triangle(const struct npukb_ref_call *c, int lower, char *err, size_t errlen)
{
	const struct npukb_ref_tensor *x = &c->in[0];
	struct npukb_ref_tensor *y = &c->out[0];
	size_t esize = npukb_dtype_size(x->dtype), rows, cols, i;
	long long diag;
	int rc;

	rc = ref_attr_int(c, "diagonal", &diag, err, errlen);
	if (rc < 0)
		return rc;
	if (x->shape.rank < 2 || y->numel != x->numel || y->dtype != x->dtype) {
		snprintf(err, errlen, "%s needs two dimensions or more, %s its size and dtype",
			 x->name, y->name);
		return -EINVAL;
	}
	rows = (size_t)x->shape.dims[x->shape.rank - 2];
	cols = (size_t)x->shape.dims[x->shape.rank - 1];
	for (i = 0; i < x->numel; i++) {
		long long r = (long long)(i / cols % rows), col = (long long)(i % cols);
		int keep = lower ? col - r <= diag : col - r >= diag;
		if (keep)
			memcpy((char *)y->data + esize * i, (const char *)x->data + esize * i, esize);
		else
			npukb_store_from_double(y->dtype, y->data, i, 0.0);
	}
	return 0;
}

int npukb_ref_tril(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	return triangle(c, 1, err, errlen);
}

int npukb_ref_triu(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	return triangle(c, 0, err, errlen);
}
