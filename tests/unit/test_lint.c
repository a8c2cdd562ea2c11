/* test_lint.c - npukb lint flags tasks a trivial sample passes, and only
 * those. */
#include <criterion/criterion.h>

#include "lint.h"
#include "manifest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct npukb_task *load(const char *rel)
{
	const char *src = getenv("NPUKB_SRCDIR");
	char path[4096], schema[4096], err[4096] = "";
	struct npukb_task *t = NULL;
	snprintf(path, sizeof(path), "%s/%s", src ? src : ".", rel);
	snprintf(schema, sizeof(schema), "%s/levels/schema/task.rng", src ? src : ".");
	cr_assert_eq(npukb_manifest_load(path, schema, &t, err, sizeof(err)), 0, "%s", err);
	return t;
}

static void lint(struct npukb_task *t, struct npukb_lint_result *r)
{
	char dir[] = "/tmp/npukb-lint-test-XXXXXX", err[1024] = "";
	cr_assert_not_null(mkdtemp(dir));
	cr_assert_eq(npukb_lint_task(t, dir, 1u << 22, r, err, sizeof(err)), 0, "%s", err);
	rmdir(dir);
}

Test(lint, add_is_not_fooled)
{
	struct npukb_task *t = load("levels/level1/Math/AddCustom/task.xml");
	struct npukb_lint_result r;
	lint(t, &r);
	cr_assert_gt(r.cases_checked, 0);
	cr_assert_eq(r.passes[NPUKB_TRIVIAL_ZEROS], 0);
	cr_assert_eq(r.passes[NPUKB_TRIVIAL_COPY], 0);
	cr_assert_eq(r.passes[NPUKB_TRIVIAL_CONSTANT], 0);
	cr_assert_eq(npukb_lint_flagged(&r), 0);
	npukb_task_free(t);
}

Test(lint, abs_of_positive_inputs_is_a_copy)
{
	/* |x| on inputs drawn from [0, 1]: the upstream torch.rand defect */
	struct npukb_task *t = load("tests/data/manifests/lint_abs_positive.xml");
	struct npukb_lint_result r;
	lint(t, &r);
	cr_assert_eq(r.passes[NPUKB_TRIVIAL_COPY], 1);
	cr_assert_str_eq(r.copy_of, "x");
	cr_assert_eq(r.passes[NPUKB_TRIVIAL_ZEROS], 0);
	cr_assert(npukb_lint_flagged(&r));
	npukb_task_free(t);
}

Test(lint, allowed_trivial_output_is_not_flagged)
{
	/* Fill's correct output is a constant: its manifest says so */
	struct npukb_task *t = load("levels/level1/TensorCreation/Fill/task.xml");
	struct npukb_lint_result r;
	lint(t, &r);
	cr_assert_eq(npukb_lint_flagged(&r), 0, "constant %d allowed %d", r.passes[2], r.allowed[2]);
	npukb_task_free(t);
}
