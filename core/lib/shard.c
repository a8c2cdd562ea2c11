/* shard.c - parse --shard I/N and tell which units are the shard's. */
#include "shard.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Decimal digits only, at most 7 of them: strtoul alone would take " 1",
 * "+1", "-1" (as ULONG_MAX) and "0x1". */
static int digits(const char *s, size_t len, unsigned *out)
{
	unsigned long v = 0;
	size_t i;
	if (len == 0 || len > 7)
		return -1;
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (unsigned long)(s[i] - '0');
	}
	*out = (unsigned)v;
	return 0;
}

int npukb_shard_parse(const char *s, struct npukb_shard *out, char *err, size_t errlen)
{
	const char *slash = strchr(s, '/');
	unsigned i, n;
	if (!slash || digits(s, (size_t)(slash - s), &i) != 0 ||
	    digits(slash + 1, strlen(slash + 1), &n) != 0) {
		snprintf(err, errlen, "'%s' is not I/N (two decimal numbers, e.g. 0/4)", s);
		return -EINVAL;
	}
	if (n < 1 || n > NPUKB_SHARD_MAX) {
		snprintf(err, errlen, "'%s': the shard count N must be 1 to %u", s, NPUKB_SHARD_MAX);
		return -EINVAL;
	}
	if (i >= n) {
		snprintf(err, errlen, "'%s': the shard index I counts from 0, so it must be below N=%u",
			 s, n);
		return -EINVAL;
	}
	out->index = i;
	out->count = n;
	return 0;
}

int npukb_shard_owns(const struct npukb_shard *s, size_t k)
{
	return s->count == 0 || k % s->count == s->index;
}
