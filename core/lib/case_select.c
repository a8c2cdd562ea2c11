/* case_select.c - case subsets: all cases, the smallest case of each dtype
 * combination (what `make check` runs of Level 1), or the smallest case of
 * the task (of Level 2). */
#include "case_select.h"

#include <errno.h>
#include <string.h>

int npukb_case_subset_parse(const char *name, enum npukb_case_subset *out)
{
	if (strcmp(name, "all") == 0)
		*out = NPUKB_CASES_ALL;
	else if (strcmp(name, "smallest-per-dtype") == 0)
		*out = NPUKB_CASES_SMALLEST_PER_DTYPE;
	else if (strcmp(name, "smallest-one") == 0)
		*out = NPUKB_CASES_SMALLEST_ONE;
	else
		return -EINVAL;
	return 0;
}

static enum npukb_dtype dtype_in(const struct npukb_task *t, const struct npukb_case *c, size_t i)
{
	enum npukb_dtype dt;
	char err[128];

	if (npukb_case_tensor_dtype(t, c, t->tensors[i].name, &dt, err, sizeof err) != 0)
		return NPUKB_DT_INVALID;
	return dt;
}

static int same_dtypes(const struct npukb_task *t, const struct npukb_case *a, const struct npukb_case *b)
{
	size_t i;

	for (i = 0; i < t->ntensors; i++)
		if (dtype_in(t, a, i) != dtype_in(t, b, i))
			return 0;
	return 1;
}

size_t npukb_case_tensor_bytes(const struct npukb_task *t, const struct npukb_case *c)
{
	size_t i, total = 0;

	for (i = 0; i < t->ntensors; i++) {
		struct npukb_shape shape;
		enum npukb_dtype dt = dtype_in(t, c, i);
		char err[128];

		if (npukb_case_tensor_absent(c, t->tensors[i].name))
			continue;
		if (dt == NPUKB_DT_INVALID ||
		    npukb_case_tensor_shape(t, c, t->tensors[i].name, &shape, err, sizeof err) != 0)
			return 0;
		total += npukb_shape_numel(&shape) * npukb_dtype_size(dt);
	}
	return total;
}

int npukb_case_in_subset(const struct npukb_task *t, size_t i, enum npukb_case_subset s)
{
	size_t j, mine;

	if (s == NPUKB_CASES_ALL)
		return 1;
	mine = npukb_case_tensor_bytes(t, &t->cases[i]);
	for (j = 0; j < t->ncases; j++) {
		size_t other;

		if (j == i || (s == NPUKB_CASES_SMALLEST_PER_DTYPE &&
				!same_dtypes(t, &t->cases[i], &t->cases[j])))
			continue;
		other = npukb_case_tensor_bytes(t, &t->cases[j]);
		if (other < mine || (other == mine && j < i))
			return 0;
	}
	return 1;
}
