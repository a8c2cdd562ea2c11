/* ref_util.h - small helpers shared by the reference families. */
#ifndef NPUKB_REF_UTIL_H
#define NPUKB_REF_UTIL_H

#include "reference.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Element i of a complex64 tensor as (re, im). */
static inline void ref_c64_load(const struct npukb_ref_tensor *t, size_t i, double *re,
				double *im)
{
	float p[2];
	memcpy(p, (const char *)t->data + 8 * i, 8);
	*re = p[0];
	*im = p[1];
}

static inline void ref_c64_store(struct npukb_ref_tensor *t, size_t i, double re, double im)
{
	float p[2] = { (float)re, (float)im };
	memcpy((char *)t->data + 8 * i, p, 8);
}

static inline int ref_is_int(enum npukb_dtype dt)
{
	return dt == NPUKB_DT_INT8 || dt == NPUKB_DT_UINT8 || dt == NPUKB_DT_INT16 ||
	       dt == NPUKB_DT_INT32 || dt == NPUKB_DT_INT64 || dt == NPUKB_DT_BOOL;
}

/* Elements [i, i+n) of t widened to double: a block at a time for the
 * float dtypes (npukb_load_as_float_n), else one by one; the same values
 * as npukb_load_as_double. n is at most REF_BLOCK. */
#define REF_BLOCK 1024
static inline void ref_load_block(const struct npukb_ref_tensor *t, size_t i, size_t n,
				  double *dst)
{
	float f[REF_BLOCK];
	size_t k;
	if (npukb_load_as_float_n(t->dtype, t->data, i, n, f) == 0) {
		for (k = 0; k < n; k++)
			dst[k] = f[k];
		return;
	}
	for (k = 0; k < n; k++)
		dst[k] = npukb_load_as_double(t->dtype, t->data, i + k);
}

/* Integer elements read exactly (a double holds int64 only up to 2^53). */
static inline int64_t ref_load_i64(const struct npukb_ref_tensor *t, size_t i)
{
	int64_t v;
	if (t->dtype == NPUKB_DT_INT64) {
		memcpy(&v, (const char *)t->data + 8 * i, 8);
		return v;
	}
	return (int64_t)npukb_load_as_double(t->dtype, t->data, i);
}

/* Stores an exact integer result, wrapping to the dtype's width. */
static inline void ref_store_i64(struct npukb_ref_tensor *t, size_t i, int64_t v)
{
	if (t->dtype == NPUKB_DT_INT64)
		memcpy((char *)t->data + 8 * i, &v, 8);
	else
		npukb_store_from_double(t->dtype, t->data, i, (double)v);
}

/* The first nin inputs have as many elements as the output. */
static inline int ref_same_numel(const struct npukb_ref_call *c, size_t nin, char *err,
				 size_t errlen)
{
	size_t i;
	for (i = 0; i < nin; i++)
		if (c->in[i].numel != c->out[0].numel) {
			snprintf(err, errlen, "%s has %zu elements, %s has %zu", c->in[i].name,
				 c->in[i].numel, c->out[0].name, c->out[0].numel);
			return -EINVAL;
		}
	return 0;
}

/* The case's value of attribute name; NULL, with a message, when absent. */
static inline const char *ref_attr_text(const struct npukb_ref_call *c, const char *name, char *err,
					size_t errlen)
{
	const char *v = npukb_case_attr(c->kcase, name);
	if (!v)
		snprintf(err, errlen, "case gives no attribute %s", name);
	return v;
}

/* Integer attribute of the case; -EINVAL with a message when absent. */
static inline int ref_attr_int(const struct npukb_ref_call *c, const char *name, long long *out,
			       char *err, size_t errlen)
{
	const char *v = ref_attr_text(c, name, err, errlen);
	char *end;
	if (!v)
		return -EINVAL;
	*out = strtoll(v, &end, 10);
	if (end == v || *end) {
		snprintf(err, errlen, "attribute %s = '%s' is not an integer", name, v);
		return -EINVAL;
	}
	return 0;
}

/* Float attribute of the case; -EINVAL with a message when absent. */
static inline int ref_attr_double(const struct npukb_ref_call *c, const char *name, double *out,
				  char *err, size_t errlen)
{
	const char *v = ref_attr_text(c, name, err, errlen);
	char *end;
	if (!v)
		return -EINVAL;
	*out = strtod(v, &end);
	if (end == v || *end) {
		snprintf(err, errlen, "attribute %s = '%s' is not a number", name, v);
		return -EINVAL;
	}
	return 0;
}

/* Bool attribute of the case (true/false or 1/0). */
static inline int ref_attr_bool(const struct npukb_ref_call *c, const char *name, int *out,
				char *err, size_t errlen)
{
	const char *v = ref_attr_text(c, name, err, errlen);
	if (!v)
		return -EINVAL;
	if (strcmp(v, "true") != 0 && strcmp(v, "false") != 0 && strcmp(v, "1") != 0 &&
	    strcmp(v, "0") != 0) {
		snprintf(err, errlen, "attribute %s must be true or false", name);
		return -EINVAL;
	}
	*out = strcmp(v, "true") == 0 || strcmp(v, "1") == 0;
	return 0;
}

#endif
