/* test_golden.c - golden files: a case takes tensors from .npy files (an
 * input's values, an output's expected result); the loader refuses a file
 * whose dtype, shape or size does not fit the case, that is missing, or
 * that lies outside the task's folder, naming the manifest line and the
 * file. */
#include <criterion/criterion.h>

#include "own_task_fixture.h"

#include <npukb/case_data.h>
#include <npukb/npy.h>

#include <errno.h>
#include <math.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char root[256], dir[300];

static void setup(void)
{
	own_task_mkdir(root, sizeof(root));
	snprintf(dir, sizeof(dir), "%s/task", root);
	own_task_write(dir, "work/.keep", "");
}

static void teardown(void)
{
	own_task_cleanup(root);
}

TestSuite(golden, .init = setup, .fini = teardown);

static const char both[] = "<golden tensor=\"x\" file=\"g/x.npy\"/>"
			   "<golden tensor=\"y\" file=\"g/y.npy\"/>";

/* base/rel as .npy of dtype dt and shape rows x cols, element i = f(i). */
static void write_npy(const char *base, const char *rel, enum npukb_dtype dt, int rows, int cols,
		      double scale)
{
	struct npukb_shape s = { 2, { rows, cols } };
	size_t n = (size_t)rows * (size_t)cols;
	char path[PATH_MAX], err[512] = "";
	void *buf = calloc(n, npukb_dtype_size(dt));

	for (size_t i = 0; i < n; i++)
		npukb_store_from_double(dt, buf, i, scale * ((double)i - 10.0));
	own_task_write(base, rel, "");
	snprintf(path, sizeof(path), "%s/%s", base, rel);
	cr_assert_eq(npukb_npy_write(path, dt, &s, buf, n, err, sizeof(err)), 0, "%s", err);
	free(buf);
}

/* Loading fails with a line "<manifest>:LINE: ..." holding each needle:
 * line 17 is the case, 19 its golden files. */
static void assert_refused_at(int line, const char *reference, const char *extra,
			      const char *const *needles)
{
	struct npukb_task *t = NULL;
	char err[8192] = "", where[PATH_MAX + 16];

	own_task_manifest(dir, reference, extra);
	cr_assert_neq(own_task_load(dir, &t, err, sizeof(err)), 0, "loaded");
	cr_assert_null(t);
	snprintf(where, sizeof(where), "task.xml:%d:", line);
	cr_assert_not_null(strstr(err, where), "no file:line in: %s", err);
	for (size_t i = 0; needles[i]; i++)
		cr_assert_not_null(strstr(err, needles[i]), "'%s' not in: %s", needles[i], err);
}

static void assert_refused(const char *reference, const char *extra, const char *const *needles)
{
	assert_refused_at(19, reference, extra, needles);
}

static struct npukb_task *load_ok(const char *reference, const char *extra)
{
	struct npukb_task *t = NULL;
	char err[8192] = "";

	own_task_manifest(dir, reference, extra);
	cr_assert_eq(own_task_load(dir, &t, err, sizeof(err)), 0, "%s", err);
	return t;
}

static int prepare(struct npukb_task *t, struct npukb_case_data *d, char *err, size_t len)
{
	char work[PATH_MAX];
	snprintf(work, sizeof(work), "%s/work", dir);
	return npukb_case_data_prepare(t, &t->cases[0], 3, work, d, err, len);
}

Test(golden, outputs_from_files_need_no_reference)
{
	struct npukb_task *t;
	struct npukb_case_data d;
	char err[1024] = "";

	write_npy(dir, "g/x.npy", NPUKB_DT_FLOAT32, 4, 8, 0.5);
	write_npy(dir, "g/y.npy", NPUKB_DT_FLOAT32, 4, 8, -3.0);
	t = load_ok("", both);
	cr_assert_null(t->reference);
	cr_assert_eq(t->cases[0].ngolden, 2);
	cr_assert_eq(prepare(t, &d, err, sizeof(err)), 0, "%s", err);
	for (size_t i = 0; i < 32; i++) {
		cr_assert_float_eq(((const float *)d.tensors[0].data)[i], 0.5 * ((double)i - 10), 1e-6);
		cr_assert_float_eq(((const float *)d.tensors[1].expected)[i], -3.0 * ((double)i - 10),
				   1e-6);
	}
	npukb_case_data_free(&d);
	npukb_task_free(t);
}

Test(golden, input_from_file_feeds_the_reference)
{
	struct npukb_task *t;
	struct npukb_case_data d;
	char err[1024] = "";

	write_npy(dir, "g/x.npy", NPUKB_DT_FLOAT32, 4, 8, 0.25);
	t = load_ok("<reference function=\"abs\"/>", "<golden tensor=\"x\" file=\"g/x.npy\"/>");
	cr_assert_eq(prepare(t, &d, err, sizeof(err)), 0, "%s", err);
	for (size_t i = 0; i < 32; i++)
		cr_assert_float_eq(((const float *)d.tensors[1].expected)[i],
				   0.25 * fabs((double)i - 10), 1e-6);
	npukb_case_data_free(&d);
	npukb_task_free(t);
}

Test(golden, wrong_dtype_is_refused)
{
	const char *const needles[] = { "g/y.npy", "dtype '<f8', the case needs float32", NULL };

	write_npy(dir, "g/x.npy", NPUKB_DT_FLOAT32, 4, 8, 1);
	write_npy(dir, "g/y.npy", NPUKB_DT_FLOAT64, 4, 8, 1);
	assert_refused("", both, needles);
}

Test(golden, wrong_shape_is_refused)
{
	const char *const needles[] = { "g/x.npy", "shape (4, 9), the case needs (4, 8)", NULL };

	write_npy(dir, "g/x.npy", NPUKB_DT_FLOAT32, 4, 9, 1);
	write_npy(dir, "g/y.npy", NPUKB_DT_FLOAT32, 4, 8, 1);
	assert_refused("", both, needles);
}

Test(golden, missing_file_is_refused)
{
	const char *const needles[] = { "golden file", "g/y.npy", "No such file", NULL };

	write_npy(dir, "g/x.npy", NPUKB_DT_FLOAT32, 4, 8, 1);
	assert_refused("", both, needles);
}

Test(golden, truncated_file_is_refused)
{
	const char *const needles[] = { "g/y.npy", "truncated", NULL };
	char path[PATH_MAX];

	write_npy(dir, "g/x.npy", NPUKB_DT_FLOAT32, 4, 8, 1);
	write_npy(dir, "g/y.npy", NPUKB_DT_FLOAT32, 4, 8, 1);
	snprintf(path, sizeof(path), "%s/g/y.npy", dir);
	cr_assert_eq(truncate(path, 64 + 4 * 31), 0); /* header + 31 of 32 floats */
	assert_refused("", both, needles);
}

Test(golden, malformed_file_is_refused)
{
	const char *const needles[] = { "g/y.npy", "not a .npy file", NULL };

	write_npy(dir, "g/x.npy", NPUKB_DT_FLOAT32, 4, 8, 1);
	own_task_write(dir, "g/y.npy", "just text\n");
	assert_refused("", both, needles);
}

Test(golden, path_out_of_the_task_folder_is_refused)
{
	const char *const dotdot[] = { "'../x.npy' lies outside the task's folder", NULL };
	const char *const link[] = { "'g/link.npy' lies outside the task's folder", NULL };
	const char *const absolute[] = { "must be a path relative to the task's folder", NULL };
	char target[PATH_MAX], linkpath[PATH_MAX], extra[PATH_MAX + 128];

	write_npy(root, "x.npy", NPUKB_DT_FLOAT32, 4, 8, 1);
	write_npy(dir, "g/y.npy", NPUKB_DT_FLOAT32, 4, 8, 1);
	assert_refused("<reference function=\"abs\"/>", "<golden tensor=\"x\" file=\"../x.npy\"/>",
		       dotdot);
	snprintf(target, sizeof(target), "%s/x.npy", root);
	snprintf(linkpath, sizeof(linkpath), "%s/g/link.npy", dir);
	cr_assert_eq(symlink(target, linkpath), 0);
	assert_refused("<reference function=\"abs\"/>", "<golden tensor=\"x\" file=\"g/link.npy\"/>",
		       link);
	snprintf(extra, sizeof(extra), "<golden tensor=\"x\" file=\"%s\"/>", target);
	assert_refused("<reference function=\"abs\"/>", extra, absolute);
}

Test(golden, golden_outputs_need_golden_inputs)
{
	const char *const needles[] = { "input 'x' needs a golden file too", NULL };

	write_npy(dir, "g/y.npy", NPUKB_DT_FLOAT32, 4, 8, 1);
	assert_refused_at(17, "", "<golden tensor=\"y\" file=\"g/y.npy\"/>", needles);
}

Test(golden, no_reference_and_no_golden_outputs_is_refused)
{
	const char *const needles[] = { "no golden outputs and the task names no <reference>",
					NULL };

	write_npy(dir, "g/x.npy", NPUKB_DT_FLOAT32, 4, 8, 1);
	assert_refused_at(17, "", "<golden tensor=\"x\" file=\"g/x.npy\"/>", needles);
}

/* A file changed after loading is caught when its data is read. */
Test(golden, file_broken_after_loading_fails_the_case)
{
	struct npukb_task *t;
	struct npukb_case_data d;
	char err[1024] = "", path[PATH_MAX];

	write_npy(dir, "g/x.npy", NPUKB_DT_FLOAT32, 4, 8, 1);
	write_npy(dir, "g/y.npy", NPUKB_DT_FLOAT32, 4, 8, 1);
	t = load_ok("", both);
	snprintf(path, sizeof(path), "%s/g/y.npy", dir);
	cr_assert_eq(truncate(path, 70), 0);
	cr_assert_neq(prepare(t, &d, err, sizeof(err)), 0);
	cr_assert_not_null(strstr(err, "y.npy: truncated"), "err: %s", err);
	npukb_task_free(t);
}
