/* test_case_select.c - the case subsets a run can judge: every case, or the
 * smallest case of each dtype combination (make check's Level 1 subset). */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "case_select.h"
#include "case_desc.h"
#include "manifest.h"

static struct npukb_task *load(const char *rel)
{
	const char *src = getenv("NPUKB_SRCDIR");
	char path[4096], schema[4096], err[2048] = "";
	struct npukb_task *t = NULL;

	src = src ? src : ".";
	snprintf(path, sizeof(path), "%s/%s", src, rel);
	snprintf(schema, sizeof(schema), "%s/levels/schema/task.rng", src);
	cr_assert_eq(npukb_manifest_load(path, schema, &t, err, sizeof(err)), 0, "%s", err);
	return t;
}

/* The ids of the selected cases, space-separated. */
static void selected(const struct npukb_task *t, enum npukb_case_subset s, char *buf, size_t len)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < t->ncases; i++)
		if (npukb_case_in_subset(t, i, s))
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? " " : "", t->cases[i].id);
}

Test(case_select, parse)
{
	enum npukb_case_subset s = NPUKB_CASES_SMALLEST_PER_DTYPE;

	cr_assert_eq(npukb_case_subset_parse("all", &s), 0);
	cr_assert_eq(s, NPUKB_CASES_ALL);
	cr_assert_eq(npukb_case_subset_parse("smallest-per-dtype", &s), 0);
	cr_assert_eq(s, NPUKB_CASES_SMALLEST_PER_DTYPE);
	cr_assert_eq(npukb_case_subset_parse("smallest-one", &s), 0);
	cr_assert_eq(s, NPUKB_CASES_SMALLEST_ONE);
	cr_assert_lt(npukb_case_subset_parse("smallest", &s), 0);
	cr_assert_lt(npukb_case_subset_parse("", &s), 0);
}

Test(case_select, all_keeps_every_case)
{
	struct npukb_task *t = load("tests/data/levels-variants/level1/Test/DtypeNeg/task.xml");
	char buf[256];

	selected(t, NPUKB_CASES_ALL, buf, sizeof(buf));
	cr_assert_str_eq(buf, "0 1 2 3");
	npukb_task_free(t);
}

/* float32 has cases 0 (1000 elements) and 2 (17): 2 is the smaller;
 * int32 and float16 have one case each. */
Test(case_select, smallest_case_of_each_dtype)
{
	struct npukb_task *t = load("tests/data/levels-variants/level1/Test/DtypeNeg/task.xml");
	char buf[256];

	selected(t, NPUKB_CASES_SMALLEST_PER_DTYPE, buf, sizeof(buf));
	cr_assert_str_eq(buf, "1 2 3");
	cr_assert_eq(npukb_case_tensor_bytes(t, &t->cases[0]), 2 * 1000 * 4);
	cr_assert_eq(npukb_case_tensor_bytes(t, &t->cases[3]), 2 * 300 * 2);
	npukb_task_free(t);
}

/* One dtype: only the case with the fewest bytes (48 x 8192 halves). */
Test(case_select, single_dtype_task_keeps_one_case)
{
	struct npukb_task *t = load("levels/level1/Math/AddCustom/task.xml");
	char buf[256];

	selected(t, NPUKB_CASES_SMALLEST_PER_DTYPE, buf, sizeof(buf));
	cr_assert_str_eq(buf, "4");
	npukb_task_free(t);
}

/* smallest-one: the one case with the fewest bytes over every dtype (2: 17
 * float32 elements), the first on a tie. */
Test(case_select, smallest_one_keeps_one_case)
{
	struct npukb_task *t = load("tests/data/levels-variants/level1/Test/DtypeNeg/task.xml");
	char buf[256];

	selected(t, NPUKB_CASES_SMALLEST_ONE, buf, sizeof(buf));
	cr_assert_str_eq(buf, "2");
	npukb_task_free(t);
}

/* ---- a case in a few words (case_desc.h) ---------------------------------- */

Test(case_desc, first_input_dtype_and_shape)
{
	struct npukb_task *t = load("levels/level1/Math/AddCustom/task.xml");
	char buf[128], *all;

	cr_assert_eq(npukb_case_describe(t, &t->cases[0], buf, sizeof(buf)), 0);
	cr_assert_str_eq(buf, "float16 48x128x512");
	cr_assert_eq(npukb_case_describe(t, &t->cases[1], buf, sizeof(buf)), 0);
	cr_assert_str_eq(buf, "float16 96x64x1024");
	/* cut to fit, never overflowing */
	cr_assert_eq(npukb_case_describe(t, &t->cases[0], buf, 10), 0);
	cr_assert_str_eq(buf, "float16 4");
	all = npukb_case_describe_all(t);
	cr_assert_not_null(all);
	cr_assert(strncmp(all, "float16 48x128x512;float16 96x64x1024;", 38) == 0, "%s", all);
	free(all);
	npukb_task_free(t);
}

Test(case_desc, dtype_of_the_case)
{
	struct npukb_task *t = load("tests/data/levels-variants/level1/Test/DtypeNeg/task.xml");
	char buf[128], *all = npukb_case_describe_all(t);

	cr_assert_str_eq(all, "float32 1000;int32 999;float32 17;float16 300");
	free(all);
	npukb_task_free(t);
	/* no task, no case: no description */
	cr_assert_lt(npukb_case_describe(NULL, NULL, buf, sizeof(buf)), 0);
	cr_assert_str_eq(buf, "");
}

Test(case_desc, list_tensor)
{
	struct npukb_task *t = load("levels/level2/Foreach/ForeachAbs/task.xml");
	char buf[128];

	cr_assert_eq(npukb_case_describe(t, &t->cases[1], buf, sizeof(buf)), 0);
	cr_assert_str_eq(buf, "float16 list-of-1 512x3");
	cr_assert_eq(npukb_case_describe(t, &t->cases[3], buf, sizeof(buf)), 0);
	cr_assert_str_eq(buf, "float16 list-of-2 1");
	npukb_task_free(t);
}
