/* test_cpusim_variants.c - cpusim builds a sample once per dtype
 * combination of the task's cases (DTYPE_<TENSOR> per build, as CANN
 * does), and runs kernels named like C library functions. */
#include <criterion/criterion.h>

#include "cpusim_run.h"
#include "results.h"

#include <stdio.h>
#include <string.h>

static char outdir[] = "/tmp/npukb-variants-XXXXXX";
static struct npukb_results results;
static struct npukb_plugin_set plugins;

static void run_task(const char *task, const char *const *sample_rel)
{
	static const char *ids[2];
	struct npukb_run_config cfg;
	char err[8192] = "";

	test_cpusim_config(&cfg, &plugins, "tests/data/levels-variants", outdir);
	ids[0] = task;
	ids[1] = NULL;
	cfg.task_ids = ids;
	cfg.sample_dirs = test_sample_dirs("tests/samples/variants", sample_rel);
	cfg.options.base_seed = 5;
	cfg.options.run_limits.wall_seconds = 20;
	cfg.options.run_limits.cpu_seconds = 20;
	cr_assert_eq(npukb_run_execute(&cfg, &results, err, sizeof(err)), 0, "run failed: %s", err);
}

static const struct npukb_sample_result *sample(const char *id)
{
	size_t i;
	for (i = 0; i < results.n; i++)
		if (strcmp(results.items[i].sample_id, id) == 0)
			return &results.items[i];
	cr_assert_fail("no result for sample %s", id);
	return NULL;
}


static const char *case_outcome(const struct npukb_sample_result *s, size_t i)
{
	return npukb_outcome_name(s->cases[i].correctness.outcome);
}

Test(cpusim_variants, one_source_serves_every_dtype, .timeout = 300)
{
	static const char *const samples[] = { "dtype_neg", "float_only_neg", NULL };
	const struct npukb_sample_result *bad;

	run_task("level1/Test/DtypeNeg", samples);
	test_assert_all_pass(sample("dtype_neg"), 4);

	/* The float-only sample is right exactly where the build's dtype is
	 * float32 (cases 0 and 2): each case ran its own dtype's build. */
	bad = sample("float_only_neg");
	cr_assert_eq(bad->compile.outcome, NPUKB_PASS);
	cr_assert_str_eq(case_outcome(bad, 0), "pass");
	cr_assert_str_eq(case_outcome(bad, 1), "fail");
	cr_assert_str_eq(case_outcome(bad, 2), "pass");
	cr_assert_str_eq(case_outcome(bad, 3), "fail");
}

Test(cpusim_variants, kernel_named_like_libc_function, .timeout = 300)
{
	static const char *const samples[] = { "libc_sqrt", NULL };
	const struct npukb_sample_result *s;

	run_task("level1/Test/LibcSqrt", samples);
	s = sample("libc_sqrt");
	cr_assert_eq(s->compile.outcome, NPUKB_PASS, "%s\n%s", s->compile.message,
		     s->compile.details ? s->compile.details : "");
	cr_assert_eq(s->ncases, 1);
	cr_assert_eq(s->cases[0].correctness.outcome, NPUKB_PASS, "%s", s->cases[0].correctness.message);
}

/* A list result (ForeachXxx's y): each member is compared on its own, and
 * a member the kernel never writes fails the case as unwritten. */
Test(cpusim_variants, tensor_list_output_is_checked_member_by_member, .timeout = 300)
{
	static const char *const samples[] = { "list_neg", "list_neg_skips_last", NULL };
	const struct npukb_sample_result *bad;
	size_t i;

	run_task("level1/Test/ListNeg", samples);
	test_assert_all_pass(sample("list_neg"), 2);

	bad = sample("list_neg_skips_last");
	cr_assert_eq(bad->compile.outcome, NPUKB_PASS);
	cr_assert_eq(bad->ncases, 2);
	for (i = 0; i < bad->ncases; i++) {
		const struct npukb_verdict *v = &bad->cases[i].correctness;
		cr_expect_eq(v->outcome, NPUKB_FAIL, "case %zu passed", i);
		cr_expect_str_eq(v->category ? v->category : "", "unwritten-output", "case %zu: %s", i,
				 v->message);
		cr_expect_not_null(strstr(v->message ? v->message : "", "(member 2, element 0)"),
				   "case %zu: %s", i, v->message);
	}
	/* Case 0's members hold 15, 7 and 8 elements: the last 8 are unwritten,
	 * out of 30 (the alignment gaps are no element). */
	cr_expect_not_null(strstr(bad->cases[0].correctness.message, ": 8 of 30 elements never written"),
			   "%s", bad->cases[0].correctness.message);
}

/* An optional input a case leaves out (<absent>) reaches the kernel as a
 * null GM_ADDR: a kernel that checks for it passes every case, one that
 * reads it anyway fails those cases out of bounds. */
Test(cpusim_variants, absent_optional_input_is_a_null_argument, .timeout = 300)
{
	static const char *const samples[] = { "optional_add", "optional_add_always_reads", NULL };
	const struct npukb_sample_result *bad;
	size_t i;

	run_task("level1/Test/OptionalAdd", samples);
	test_assert_all_pass(sample("optional_add"), 4);

	bad = sample("optional_add_always_reads");
	cr_assert_eq(bad->compile.outcome, NPUKB_PASS);
	cr_assert_eq(bad->ncases, 4);
	for (i = 0; i < bad->ncases; i++) {
		const struct npukb_verdict *v = &bad->cases[i].correctness;
		if (i == 1 || i == 2) {
			cr_expect_eq(v->outcome, NPUKB_FAIL, "case %zu passed", i);
			cr_expect_str_eq(v->category ? v->category : "", "out-of-bounds", "case %zu: %s", i,
					 v->message);
		} else {
			cr_expect_eq(v->outcome, NPUKB_PASS, "case %zu: %s", i, v->message);
		}
	}
}
