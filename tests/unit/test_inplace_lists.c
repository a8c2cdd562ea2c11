/* test_inplace_lists.c - tasks whose kernels update a tensor in place
 * (<inout>) or take a tensor list (ListTensorDesc), run end to end on
 * cpusim against the shipped Level 1 manifests: wrong kernels of each kind
 * must fail, and a list read past its end must be stopped. */
#include <criterion/criterion.h>

#include "cpusim_run.h"
#include "results.h"

#include <stdio.h>
#include <string.h>

static struct npukb_results results;
static struct npukb_plugin_set plugins;

static void run_task(const char *task, const char *const *case_ids, unsigned seeds,
		     const char *const *sample_rel)
{
	static char outdir[64];
	static const char *ids[2];
	struct npukb_run_config cfg;
	char err[8192] = "";

	snprintf(outdir, sizeof(outdir), "/tmp/npukb-inplace-XXXXXX");
	test_cpusim_config(&cfg, &plugins, "levels", outdir);
	ids[0] = task;
	ids[1] = NULL;
	cfg.task_ids = ids;
	cfg.case_ids = case_ids;
	cfg.sample_dirs = test_sample_dirs("tests/samples/inplace", sample_rel);
	cfg.options.nseeds = seeds;
	cfg.options.base_seed = 3;
	cr_assert_eq(npukb_run_execute(&cfg, &results, err, sizeof(err)), 0, "run failed: %s", err);
}

static const struct npukb_sample_result *sample(const char *id)
{
	for (size_t i = 0; i < results.n; i++)
		if (strcmp(results.items[i].sample_id, id) == 0)
			return &results.items[i];
	cr_assert_fail("no result for sample %s", id);
	return NULL;
}

static void assert_compiled(const struct npukb_sample_result *s)
{
	cr_assert_eq(s->compile.outcome, NPUKB_PASS, "%s\n%s", s->compile.message,
		     s->compile.details ? s->compile.details : "");
}

static const char *case_outcome(const struct npukb_sample_result *s, const char *id)
{
	for (size_t i = 0; i < s->ncases; i++)
		if (strcmp(s->cases[i].case_id, id) == 0)
			return npukb_outcome_name(s->cases[i].correctness.outcome);
	cr_assert_fail("no case %s", id);
	return NULL;
}

/* An in-place tensor starts as generated inputs: doing nothing fails. */
Test(inplace_lists, sscal_that_does_nothing_fails, .timeout = 300)
{
	static const char *const samples[] = { "sscal_noop", NULL };
	const struct npukb_sample_result *s;

	run_task("level1/Math/Sscal", NULL, 1, samples);
	s = sample("sscal_noop");
	assert_compiled(s);
	cr_assert_eq(s->ncases, 4);
	for (size_t i = 0; i < s->ncases; i++) {
		const char *cat, *rule;
		cr_assert_eq(s->cases[i].correctness.outcome, NPUKB_FAIL, "case %s passed",
			     s->cases[i].case_id);
		npukb_case_outcome(s, i, &cat, &rule);
		cr_assert_str_eq(cat, "mismatch");
	}
}

/* Cases 1-7 (case 0 is 12M elements, too many for scalar kernels). */
static const char *const small_cases[] = { "1", "2", "3", "4", "5", "6", "7", NULL };

Test(inplace_lists, tensor_list_is_read_through_list_tensor_desc, .timeout = 300)
{
	static const char *const samples[] = { "nfc_scalar", "nfc_first_member", NULL };
	const struct npukb_sample_result *good, *first;
	size_t true_failed = 0;

	run_task("level1/Condition/NonFiniteCheckOp", small_cases, 4, samples);
	good = sample("nfc_scalar");
	assert_compiled(good);
	cr_assert_eq(good->ncases, 7);
	for (size_t i = 0; i < good->ncases; i++)
		cr_assert_eq(good->cases[i].correctness.outcome, NPUKB_PASS, "case %s: %s",
			     good->cases[i].case_id, good->cases[i].correctness.message);

	/* Reading only the first tensor is right when nothing is planted,
	 * and caught on some seed of the cases that plant. */
	first = sample("nfc_first_member");
	assert_compiled(first);
	cr_assert_str_eq(case_outcome(first, "1"), "pass");
	cr_assert_str_eq(case_outcome(first, "4"), "pass");
	cr_assert_str_eq(case_outcome(first, "7"), "pass");
	for (size_t i = 0; i < first->ncases; i++)
		true_failed += first->cases[i].correctness.outcome == NPUKB_FAIL;
	cr_assert_geq(true_failed, 1, "looking at one tensor of the list passed every case");
}

Test(inplace_lists, list_index_past_the_end_is_out_of_bounds, .timeout = 300)
{
	static const char *const samples[] = { "list_past_end", NULL };
	static const char *const one_case[] = { "5", NULL };
	const struct npukb_sample_result *s;
	const char *cat, *rule;

	run_task("level1/Condition/NonFiniteCheckOp", one_case, 1, samples);
	s = sample("list_past_end");
	assert_compiled(s);
	cr_assert_eq(s->ncases, 1);
	cr_assert_eq(s->cases[0].correctness.outcome, NPUKB_FAIL);
	npukb_case_outcome(s, 0, &cat, &rule);
	cr_assert_str_eq(cat, "out-of-bounds", "category %s: %s", cat, s->cases[0].correctness.message);
	cr_assert_not_null(strstr(s->cases[0].correctness.message, "ListTensorDesc::GetDataPtr(2)"), "%s",
			   s->cases[0].correctness.message);
	cr_assert_not_null(strstr(s->cases[0].correctness.message, "non_finite_check_op.cpp:"), "%s",
			   s->cases[0].correctness.message);
}

/* An in-place list: members whose mask is false must stay as they were. */
Test(inplace_lists, scatter_list_members_with_mask_false_are_untouched, .timeout = 300)
{
	static const char *const samples[] = { "scatter_ignore_mask", NULL };
	static const char *const cases[] = { "1", "2", "3", "4", "5", NULL };
	const struct npukb_sample_result *s;

	run_task("level1/Index/ScatterList", cases, 2, samples);
	s = sample("scatter_ignore_mask");
	assert_compiled(s);
	cr_assert_str_eq(case_outcome(s, "1"), "pass");
	cr_assert_str_eq(case_outcome(s, "2"), "pass");
	cr_assert_str_eq(case_outcome(s, "3"), "fail");
	cr_assert_str_eq(case_outcome(s, "4"), "fail");
	cr_assert_str_eq(case_outcome(s, "5"), "fail");
}
