/* compare.c - element-wise comparisons; results are bool (0/1). A NaN
 * compares false with everything, itself included, as IEEE and PyTorch say.
 * Integers compare exactly (int64 beyond 2^53 included). */
#include "ref_util.h"

enum cmp_op { CMP_EQ, CMP_LT, CMP_LE };

static int compare(const struct npukb_ref_call *c, enum cmp_op op, char *err, size_t errlen)
{
	const struct npukb_ref_tensor *x = &c->in[0], *y = &c->in[1];
	struct npukb_ref_tensor *z = &c->out[0];
	size_t i;
	int rc = ref_same_numel(c, 2, err, errlen);
	if (rc)
		return rc;
	for (i = 0; i < z->numel; i++) {
		int r;
		if (ref_is_int(x->dtype) && ref_is_int(y->dtype)) {
			int64_t a = ref_load_i64(x, i), b = ref_load_i64(y, i);
			r = op == CMP_EQ ? a == b : op == CMP_LT ? a < b : a <= b;
		} else {
			double a = npukb_load_as_double(x->dtype, x->data, i);
			double b = npukb_load_as_double(y->dtype, y->data, i);
			r = op == CMP_EQ ? a == b : op == CMP_LT ? a < b : a <= b;
		}
		npukb_store_from_double(z->dtype, z->data, i, r);
	}
	return 0;
}

int npukb_ref_equal(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	return compare(c, CMP_EQ, err, errlen);
}

int npukb_ref_less(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	return compare(c, CMP_LT, err, errlen);
}

int npukb_ref_less_equal(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	return compare(c, CMP_LE, err, errlen);
}
