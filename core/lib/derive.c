/* derive.c - the functions of derived inputs (derive.h). Coordinates are
 * rows of a rank-2 integer tensor [n, k] (n entries of k sparse
 * dimensions, the layout a sparse kernel reads), int32 or int64. */
#include "derive.h"

#include "npukb/dtype.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int64_t coord(const struct npukb_case_tensor *t, size_t i)
{
	int64_t v;
	if (t->dtype == NPUKB_DT_INT64) {
		memcpy(&v, (const char *)t->data + 8 * i, 8);
		return v;
	}
	return (int64_t)npukb_load_as_double(t->dtype, t->data, i);
}

static void put(struct npukb_case_tensor *t, size_t i, int64_t v)
{
	if (t->dtype == NPUKB_DT_INT64)
		memcpy((char *)t->data + 8 * i, &v, 8);
	else
		npukb_store_from_double(t->dtype, t->data, i, (double)v);
}

/* A rank-2 integer tensor of rows: n and k. */
static int rows_of(const struct npukb_case_tensor *t, size_t *n, size_t *k, char *err,
		   size_t errlen)
{
	if (t->shape.rank != 2 || (t->dtype != NPUKB_DT_INT32 && t->dtype != NPUKB_DT_INT64)) {
		snprintf(err, errlen, "%s must be rows of coordinates: rank 2, int32 or int64", t->name);
		return -EINVAL;
	}
	*n = (size_t)t->shape.dims[0];
	*k = (size_t)t->shape.dims[1];
	return 0;
}

/* distinct_rows: n rows of k integers in [a, b] of which exactly count are
 * distinct: count distinct rows drawn uniformly, each used once, the other
 * n - count rows copies of uniformly chosen ones, all in a random order. */
static int distinct_rows(const struct npukb_derive_args *g, char *err, size_t errlen)
{
	struct npukb_case_tensor *t = g->dst;
	size_t n, k, i, j, u = (size_t)g->count, span = (size_t)(g->b - g->a + 1);
	double space = 1.0;
	int rc = rows_of(t, &n, &k, err, errlen);

	if (rc)
		return rc;
	for (j = 0; j < k; j++)
		space *= (double)span;
	if (g->count < 0 || u > n || (n > 0 && u == 0) || (double)u > space || g->b < g->a) {
		snprintf(err, errlen, "%s: %lld distinct rows of %zu do not fit %zu rows of %zu integers in [%g, %g]",
			 t->name, (long long)g->count, k, n, k, g->a, g->b);
		return -EINVAL;
	}
	for (i = 0; i < u; i++) {
		size_t r;
		do {
			for (j = 0; j < k; j++)
				put(t, i * k + j, (int64_t)g->a + (int64_t)(npukb_rng_next(g->rng) % span));
			for (r = 0; r < i; r++)
				if (memcmp((char *)t->data + r * k * npukb_dtype_size(t->dtype),
					   (char *)t->data + i * k * npukb_dtype_size(t->dtype),
					   k * npukb_dtype_size(t->dtype)) == 0)
					break;
		} while (r < i);
	}
	for (; i < n; i++) {
		size_t src = (size_t)(npukb_rng_next(g->rng) % u);
		for (j = 0; j < k; j++)
			put(t, i * k + j, coord(t, src * k + j));
	}
	/* Fisher-Yates over the rows. */
	for (i = n; i > 1; i--) {
		size_t r = (size_t)(npukb_rng_next(g->rng) % i);
		for (j = 0; j < k; j++) {
			int64_t x = coord(t, (i - 1) * k + j);
			put(t, (i - 1) * k + j, coord(t, r * k + j));
			put(t, r * k + j, x);
		}
	}
	return 0;
}

/* Row i's flat index over the dense size each dimension has when it ends
 * at the rows' largest coordinate (a COO tensor's size, row-major). */
static int flatten(const struct npukb_case_tensor *from, int64_t **flat, size_t *n, char *err,
		   size_t errlen)
{
	size_t k, i, j;
	int64_t *size;
	int rc = rows_of(from, n, &k, err, errlen);

	if (rc)
		return rc;
	size = calloc(k ? k : 1, sizeof(*size));
	*flat = calloc(*n ? *n : 1, sizeof(**flat));
	if (!size || !*flat) {
		free(size);
		free(*flat);
		return -ENOMEM;
	}
	for (i = 0; i < *n; i++)
		for (j = 0; j < k; j++) {
			int64_t v = coord(from, i * k + j);
			if (v < 0) {
				snprintf(err, errlen, "%s[%zu][%zu] = %lld is negative", from->name, i, j,
					 (long long)v);
				free(size);
				free(*flat);
				return -EINVAL;
			}
			if (v + 1 > size[j])
				size[j] = v + 1;
		}
	for (i = 0; i < *n; i++) {
		int64_t f = 0;
		for (j = 0; j < k; j++)
			f = f * size[j] + coord(from, i * k + j);
		(*flat)[i] = f;
	}
	free(size);
	return 0;
}

static int cmp_i64(const void *x, const void *y)
{
	int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
	return a < b ? -1 : a > b;
}

/* The sorted distinct flat indices of from's rows, their number in *u. */
static int distinct_flat(const struct npukb_case_tensor *from, int64_t **flat, int64_t **uniq,
			 size_t *n, size_t *u, char *err, size_t errlen)
{
	size_t i;
	int rc = flatten(from, flat, n, err, errlen);

	if (rc)
		return rc;
	*uniq = malloc((*n ? *n : 1) * sizeof(**uniq));
	if (!*uniq) {
		free(*flat);
		return -ENOMEM;
	}
	memcpy(*uniq, *flat, *n * sizeof(**uniq));
	qsort(*uniq, *n, sizeof(**uniq), cmp_i64);
	for (i = 0, *u = 0; i < *n; i++)
		if (*u == 0 || (*uniq)[*u - 1] != (*uniq)[i])
			(*uniq)[(*u)++] = (*uniq)[i];
	return 0;
}

/* unique_flat: the sorted distinct flat indices (torch.unique's values);
 * dst must have one element per distinct row. unique_inverse: each row's
 * position among them (torch.unique's inverse); dst one per row. */
static int unique_common(const struct npukb_derive_args *g, int inverse, char *err, size_t errlen)
{
	int64_t *flat, *uniq;
	size_t n, u, i;
	int rc = distinct_flat(g->from, &flat, &uniq, &n, &u, err, errlen);

	if (rc)
		return rc;
	if (g->dst->numel != (inverse ? n : u)) {
		snprintf(err, errlen, "%s has %zu elements; %s's %zu rows hold %zu distinct ones: it needs %zu",
			 g->dst->name, g->dst->numel, g->from->name, n, u, inverse ? n : u);
		rc = -EINVAL;
	}
	for (i = 0; rc == 0 && i < g->dst->numel; i++) {
		if (inverse) {
			const int64_t *at = bsearch(&flat[i], uniq, u, sizeof(*uniq), cmp_i64);
			put(g->dst, i, (int64_t)(at - uniq));
		} else {
			put(g->dst, i, uniq[i]);
		}
	}
	free(flat);
	free(uniq);
	return rc;
}

static int unique_flat(const struct npukb_derive_args *g, char *err, size_t errlen)
{
	return unique_common(g, 0, err, errlen);
}

static int unique_inverse(const struct npukb_derive_args *g, char *err, size_t errlen)
{
	return unique_common(g, 1, err, errlen);
}

/* Group end offsets (a grouped GEMM's group list): numel(dst) integers in
 * [0, count], each drawn uniformly, sorted ascending; group g spans
 * [end(g-1), end(g)) with end(-1) = 0, so a group may be empty. group_ends
 * makes the last end count (the groups cover every row); group_ends_open
 * leaves it drawn (the groups may leave a tail of the dimension out). */
static int group_ends_common(const struct npukb_derive_args *g, int closed, char *err,
			     size_t errlen)
{
	struct npukb_case_tensor *t = g->dst;
	size_t n = t->numel, i;
	int64_t *v;

	if (g->count < 0 || (t->dtype != NPUKB_DT_INT32 && t->dtype != NPUKB_DT_INT64) ||
	    (t->dtype == NPUKB_DT_INT32 && g->count > INT32_MAX)) {
		snprintf(err, errlen, "%s: group ends in [0, %lld] need an int32 or int64 tensor and a count >= 0",
			 t->name, (long long)g->count);
		return -EINVAL;
	}
	if (n == 0)
		return 0;
	v = malloc(n * sizeof *v);
	if (!v) {
		snprintf(err, errlen, "%s: out of memory", t->name);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		v[i] = (int64_t)(npukb_rng_next(g->rng) % (uint64_t)(g->count + 1));
	if (closed)
		v[n - 1] = g->count;
	qsort(v, n, sizeof *v, cmp_i64);
	for (i = 0; i < n; i++)
		put(t, i, v[i]);
	free(v);
	return 0;
}

static int group_ends(const struct npukb_derive_args *g, char *err, size_t errlen)
{
	return group_ends_common(g, 1, err, errlen);
}

static int group_ends_open(const struct npukb_derive_args *g, char *err, size_t errlen)
{
	return group_ends_common(g, 0, err, errlen);
}

/* distinct_along_dim: values uniform in [a, b], rounded to the tensor's
 * dtype, all different along dimension count (each line through the
 * tensor along that dimension holds distinct values), so that a sort or
 * a top-k along it has one answer: no tie for an index to break. A line's
 * duplicates are drawn again until none is left. */
struct val_at {
	double v;
	size_t at;
};

static int cmp_val(const void *x, const void *y)
{
	const struct val_at *p = x, *q = y;
	return p->v < q->v ? -1 : p->v > q->v ? 1 : (p->at > q->at) - (p->at < q->at);
}

static double draw_rounded(const struct npukb_derive_args *g, struct npukb_case_tensor *t,
			   size_t i)
{
	npukb_store_from_double(t->dtype, t->data, i,
				g->a + (g->b - g->a) * npukb_rng_uniform01(g->rng));
	return npukb_load_as_double(t->dtype, t->data, i);
}

static int distinct_along_dim(const struct npukb_derive_args *g, char *err, size_t errlen)
{
	struct npukb_case_tensor *t = g->dst;
	size_t outer = 1, len, inner = 1, o, in, i, r;
	struct val_at *line;
	int d, tries, dup;

	if (g->count < 0 || g->count >= t->shape.rank || g->b <= g->a) {
		snprintf(err, errlen, "%s: no dimension %lld to make distinct along, or an empty range",
			 t->name, (long long)g->count);
		return -EINVAL;
	}
	for (d = 0; d < t->shape.rank; d++)
		if (d < g->count)
			outer *= (size_t)t->shape.dims[d];
		else if (d > g->count)
			inner *= (size_t)t->shape.dims[d];
	len = (size_t)t->shape.dims[g->count];
	line = malloc((len ? len : 1) * sizeof *line);
	if (!line) {
		snprintf(err, errlen, "%s: out of memory", t->name);
		return -ENOMEM;
	}
	for (o = 0; o < outer; o++)
		for (in = 0; in < inner; in++) {
			const size_t base = o * len * inner + in;
			for (i = 0; i < len; i++) {
				line[i].at = base + i * inner;
				line[i].v = draw_rounded(g, t, line[i].at);
			}
			for (tries = 0;; tries++) {
				qsort(line, len, sizeof *line, cmp_val);
				for (dup = 0, r = 1; r < len; r++)
					if (line[r].v == line[r - 1].v) {
						line[r].v = draw_rounded(g, t, line[r].at);
						dup = 1;
					}
				if (!dup)
					break;
				if (tries == 1000) {
					free(line);
					snprintf(err, errlen, "%s: %zu distinct values of its dtype do not fit in [%g, %g]",
						 t->name, len, g->a, g->b);
					return -EINVAL;
				}
			}
		}
	free(line);
	return 0;
}

static const struct npukb_derive_fn derive_fns[] = {
	{ "distinct_rows", 0, 1, 1, distinct_rows },
	{ "unique_flat", 1, 0, 0, unique_flat },
	{ "unique_inverse", 1, 0, 0, unique_inverse },
	{ "group_ends", 0, 1, 0, group_ends },
	{ "group_ends_open", 0, 1, 0, group_ends_open },
	{ "distinct_along_dim", 0, 1, 1, distinct_along_dim },
};

const struct npukb_derive_fn *npukb_derive_find(const char *name)
{
	size_t i;
	for (i = 0; name && i < sizeof(derive_fns) / sizeof(derive_fns[0]); i++)
		if (strcmp(derive_fns[i].name, name) == 0)
			return &derive_fns[i];
	return NULL;
}
