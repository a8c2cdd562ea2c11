/* elementwise.c - references for elementwise binary operators. */
#include "reference.h"

#include <errno.h>
#include <stdio.h>

static int same_numel(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	size_t i;
	for (i = 0; i < c->nin; i++)
		if (c->in[i].numel != c->out[0].numel) {
			snprintf(err, errlen, "%s has %zu elements, %s has %zu",
				 c->in[i].name, c->in[i].numel, c->out[0].name, c->out[0].numel);
			return -EINVAL;
		}
	return 0;
}

/* z = x + y. The exact sum of two fp16/bf16/fp32 values fits a double, so
 * one rounding to the output dtype gives the correctly rounded result. */
int npukb_ref_add(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	const struct npukb_ref_tensor *x = &c->in[0], *y = &c->in[1];
	struct npukb_ref_tensor *z = &c->out[0];
	size_t i;
	int rc;

	/* An absent (optional) addend counts as zero. */
	if (!y->data && x->numel == z->numel) {
		for (i = 0; i < z->numel; i++)
			npukb_store_from_double(z->dtype, z->data, i,
						npukb_load_as_double(x->dtype, x->data, i));
		return 0;
	}
	rc = same_numel(c, err, errlen);
	if (rc)
		return rc;
	for (i = 0; i < z->numel; i++)
		npukb_store_from_double(z->dtype, z->data, i,
					npukb_load_as_double(x->dtype, x->data, i) +
					npukb_load_as_double(y->dtype, y->data, i));
	return 0;
}
