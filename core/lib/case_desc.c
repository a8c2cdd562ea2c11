/* case_desc.c - a case in a few words (see case_desc.h). */
#include "case_desc.h"

#include <npukb/dtype.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Appends s to buf at *pos, cutting at len. */
static void put(char *buf, size_t len, size_t *pos, const char *s)
{
	size_t n = strlen(s);
	if (*pos + 1 >= len)
		return;
	if (n > len - 1 - *pos)
		n = len - 1 - *pos;
	memcpy(buf + *pos, s, n);
	*pos += n;
	buf[*pos] = '\0';
}

static void put_dims(char *buf, size_t len, size_t *pos, const struct npukb_shape *s)
{
	int i;
	if (s->rank <= 0) {
		put(buf, len, pos, "scalar");
		return;
	}
	for (i = 0; i < s->rank && i < NPUKB_MAX_DIMS; i++) {
		char d[32];
		snprintf(d, sizeof(d), "%s%" PRId64, i ? "x" : "", s->dims[i]);
		put(buf, len, pos, d);
	}
}

int npukb_case_describe(const struct npukb_task *t, const struct npukb_case *c, char *buf,
			size_t len)
{
	char err[256];
	size_t i, pos = 0;
	if (!buf || len == 0)
		return -EINVAL;
	buf[0] = '\0';
	for (i = 0; t && c && i < t->ntensors; i++) {
		const struct npukb_tensor_decl *d = &t->tensors[i];
		enum npukb_dtype dt;
		if ((d->is_output && !d->is_inout) || npukb_case_tensor_absent(c, d->name))
			continue;
		if (npukb_case_tensor_dtype(t, c, d->name, &dt, err, sizeof(err)) != 0)
			return -EINVAL;
		put(buf, len, &pos, npukb_dtype_name(dt));
		put(buf, len, &pos, " ");
		if (d->is_list) {
			const struct npukb_shape *members = NULL;
			size_t n = 0;
			char head[48];
			if (npukb_case_tensor_members(t, c, d->name, &n, &members, NULL, err,
						      sizeof(err)) != 0 || n == 0) {
				buf[0] = '\0';
				return -EINVAL;
			}
			snprintf(head, sizeof(head), "list-of-%zu ", n);
			put(buf, len, &pos, head);
			put_dims(buf, len, &pos, &members[0]);
		} else {
			struct npukb_shape s;
			if (npukb_case_tensor_shape(t, c, d->name, &s, err, sizeof(err)) != 0) {
				buf[0] = '\0';
				return -EINVAL;
			}
			put_dims(buf, len, &pos, &s);
		}
		return 0;
	}
	return -EINVAL;
}

char *npukb_case_describe_all(const struct npukb_task *t)
{
	char one[128], *out;
	size_t i, pos = 0, cap = t->ncases * sizeof(one) + 1;
	if (!(out = malloc(cap)))
		return NULL;
	out[0] = '\0';
	for (i = 0; i < t->ncases; i++) {
		char *p;
		npukb_case_describe(t, &t->cases[i], one, sizeof(one));
		/* the separator cannot occur in a description */
		for (p = one; (p = strchr(p, NPUKB_CASE_DESC_SEP)) != NULL;)
			*p = ',';
		if (i) {
			out[pos++] = NPUKB_CASE_DESC_SEP;
			out[pos] = '\0';
		}
		put(out, cap, &pos, one);
	}
	return out;
}
