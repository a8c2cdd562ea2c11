/* test_ref_plugin.c - a task's reference from a reference plugin: the
 * function computes the expected outputs, and every way the plugin can
 * fail to serve is refused with the manifest's file:line, the plugin file
 * and the reason. The plugins are tests/refplugins: skeleton_ref.so (the
 * template `npukb task new` copies: y = 2x), badref.so; tests/plugins: good.so (a
 * backend) and wrongabi.so. */
#include <criterion/criterion.h>

#include "own_task_fixture.h"
#include "plugin_loader.h"
#include "ref_plugin.h"
#include "task_check.h"

#include <npukb/case_data.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char dir[256];

static void setup(void)
{
	own_task_mkdir(dir, sizeof(dir));
}

static void teardown(void)
{
	own_task_cleanup(dir);
}

TestSuite(ref_plugin, .init = setup, .fini = teardown);

static struct npukb_task *load_ok(const char *reference)
{
	struct npukb_task *t = NULL;
	char err[4096] = "";

	own_task_manifest(dir, reference, "");
	cr_assert_eq(own_task_load(dir, &t, err, sizeof(err)), 0, "%s", err);
	return t;
}

/* The reference of t fails with a message holding each of the needles. */
static void assert_refused(struct npukb_task *t, const char *const *needles)
{
	const struct npukb_reference *r = NULL;
	char err[4096] = "", where[PATH_MAX + 16];

	cr_assert_neq(npukb_task_reference(t, &r, err, sizeof(err)), 0);
	cr_assert_null(r);
	snprintf(where, sizeof(where), "%s:15:", t->manifest_path);
	cr_assert_not_null(strstr(err, where), "no file:line in: %s", err);
	for (size_t i = 0; needles[i]; i++)
		cr_assert_not_null(strstr(err, needles[i]), "'%s' not in: %s", needles[i], err);
}

Test(ref_plugin, plugin_function_computes_the_expected_outputs)
{
	struct npukb_task *t;
	struct npukb_case_data d;
	char err[4096] = "", work[PATH_MAX];

	own_task_copy_plugin(dir, "skeleton_ref");
	t = load_ok("<reference plugin=\"skeleton_ref\" function=\"skeleton\"/>");
	cr_assert_str_eq(t->reference_plugin, "skeleton_ref");
	snprintf(work, sizeof(work), "%s/work", dir);
	own_task_write(dir, "work/.keep", "");
	cr_assert_eq(npukb_case_data_prepare(t, &t->cases[0], 7, work, &d, err, sizeof(err)), 0,
		     "%s", err);
	cr_assert_eq(d.tensors[1].numel, 32);
	for (size_t i = 0; i < d.tensors[0].numel; i++) {
		float x = ((const float *)d.tensors[0].data)[i];
		float y = ((const float *)d.tensors[1].expected)[i];
		cr_assert_float_eq(y, 2.0f * x, 1e-6, "element %zu: %g for x = %g", i, y, x);
	}
	npukb_case_data_free(&d);
	npukb_task_free(t);
}

Test(ref_plugin, missing_function_names_the_plugin_and_its_functions)
{
	struct npukb_task *t;
	const char *const needles[] = { "skeleton_ref.so", "has no function 'nosuch'",
					"exports skeleton", NULL };

	own_task_copy_plugin(dir, "skeleton_ref");
	t = load_ok("<reference plugin=\"skeleton_ref\" function=\"nosuch\"/>");
	assert_refused(t, needles);
	npukb_task_free(t);
}

Test(ref_plugin, wrong_abi_is_refused)
{
	struct npukb_task *t;
	char has[64];
	const char *const needles[] = { "wrongabi.so", "rejected", has, NULL };

	snprintf(has, sizeof(has), "plugin ABI %d, npukb expects %d", NPUKB_PLUGIN_ABI + 98,
		 NPUKB_PLUGIN_ABI);
	own_task_copy_plugin(dir, "wrongabi");
	t = load_ok("<reference plugin=\"wrongabi\" function=\"f\"/>");
	assert_refused(t, needles);
	npukb_task_free(t);
}

Test(ref_plugin, backend_plugin_is_not_a_reference_plugin)
{
	struct npukb_task *t;
	const char *const needles[] = { "good.so", "backend plugin, not a reference plugin", NULL };

	own_task_copy_plugin(dir, "good");
	t = load_ok("<reference plugin=\"good\" function=\"f\"/>");
	assert_refused(t, needles);
	npukb_task_free(t);
}

Test(ref_plugin, table_entry_without_function_is_refused)
{
	struct npukb_task *t;
	const char *const needles[] = { "badref.so", "reference 'half' has no function", NULL };

	own_task_copy_plugin(dir, "badref");
	t = load_ok("<reference plugin=\"badref\" function=\"half\"/>");
	assert_refused(t, needles);
	npukb_task_free(t);
}

Test(ref_plugin, plugin_not_found_names_where_it_looked)
{
	struct npukb_task *t;
	const char *const needles[] = { "reference plugin absent.so not found in", dir, "make -C",
					NULL };

	t = load_ok("<reference plugin=\"absent\" function=\"f\"/>");
	assert_refused(t, needles);
	npukb_task_free(t);
}

Test(ref_plugin, tensor_counts_must_match_the_function)
{
	struct npukb_task *t;
	const char *const needles[] = { "takes 2 inputs and 1 outputs, the task has 1 and 1", NULL };

	/* "add" is built in: x + y, two inputs. */
	t = load_ok("<reference function=\"add\"/>");
	assert_refused(t, needles);
	npukb_task_free(t);
}

/* validate: a plugin not built yet is a note, not an error; once built,
 * its function is checked. */
Test(ref_plugin, validate_notes_an_unbuilt_plugin_then_checks_it)
{
	struct npukb_task *t;
	char err[4096] = "", note[1024] = "";

	t = load_ok("<reference plugin=\"skeleton_ref\" function=\"nosuch\"/>");
	cr_assert_eq(npukb_task_check(t, UINT64_MAX, err, sizeof(err), note, sizeof(note)), 0,
		     "%s", err);
	cr_assert_not_null(strstr(note, "skeleton_ref.so is not built yet"), "note: %s", note);
	own_task_copy_plugin(dir, "skeleton_ref");
	cr_assert_neq(npukb_task_check(t, UINT64_MAX, err, sizeof(err), note, sizeof(note)), 0);
	cr_assert_str_eq(note, "");
	cr_assert_not_null(strstr(err, "has no function 'nosuch'"), "err: %s", err);
	npukb_task_free(t);
}

/* `npukb plugins` lists a reference plugin as loaded, of its kind. */
Test(ref_plugin, loader_accepts_a_reference_plugin)
{
	struct npukb_plugin_set set = { 0 };
	char path[PATH_MAX], err[512] = "";

	own_task_copy_plugin(dir, "skeleton_ref");
	snprintf(path, sizeof(path), "%s/skeleton_ref.so", dir);
	cr_assert_eq(npukb_plugins_load_file(&set, path, err, sizeof(err)), 0, "%s", err);
	cr_assert_not_null(npukb_plugins_find(&set, NPUKB_PLUGIN_REFERENCE, "skeleton_ref"));
	cr_assert_str_eq(set.items[0].desc->references[0].name, "skeleton");
	npukb_plugins_unload(&set);
}
