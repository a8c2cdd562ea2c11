/* test_cpusim_checks.c - checks cpusim makes at the end of a launch, on
 * AddCustom samples: two cores writing the same GM bytes between two
 * SyncAlls is a race even when every value written is right; the same
 * writes ordered by a SyncAll are not; raw-pointer writes past a buffer
 * and kernels that end the process. */
#include <criterion/criterion.h>

#include "cpusim_run.h"
#include "results.h"

#include <string.h>

static struct npukb_results results;
static struct npukb_plugin_set plugins;

static const struct npukb_sample_result *sample(const char *id)
{
	for (size_t i = 0; i < results.n; i++)
		if (strcmp(results.items[i].sample_id, id) == 0)
			return &results.items[i];
	cr_assert_fail("no result for sample %s", id);
	return NULL;
}

/* Judges the named samples of tests/samples/checks on AddCustom's case 4. */
static void run_checks(const char *const *names)
{
	static char outdir[] = "/tmp/npukb-checks-XXXXXX";
	static const char *const ids[] = { "level1/Math/AddCustom", NULL };
	static const char *const cases[] = { "4", NULL };
	struct npukb_run_config cfg;
	char err[8192] = "";

	test_cpusim_config(&cfg, &plugins, "levels", outdir);
	cfg.task_ids = ids;
	cfg.case_ids = cases;
	cfg.sample_dirs = test_sample_dirs("tests/samples/checks", names);
	cr_assert_eq(npukb_run_execute(&cfg, &results, err, sizeof(err)), 0, "run failed: %s", err);
}

Test(cpusim_checks, gm_bytes_written_by_two_cores, .timeout = 300)
{
	static const char *const names[] = { "gm_overlap", "gm_overlap_synced", NULL };
	const struct npukb_sample_result *racy, *synced;
	const char *cat, *rule;

	run_checks(names);

	racy = sample("gm_overlap");
	cr_assert_eq(racy->compile.outcome, NPUKB_PASS, "%s", racy->compile.message);
	cr_assert_eq(racy->cases[0].correctness.outcome, NPUKB_FAIL, "the race went unnoticed");
	npukb_case_outcome(racy, 0, &cat, &rule);
	cr_expect_str_eq(cat, "sync-race", "%s", racy->cases[0].correctness.message);
	cr_expect_not_null(strstr(racy->cases[0].correctness.message, "blocks 0 and 1 both write bytes 16384..16415 of argument 2 (out)"),
			   "%s", racy->cases[0].correctness.message);
	cr_expect_not_null(strstr(racy->cases[0].correctness.message, "add_custom.cpp:"), "%s",
			   racy->cases[0].correctness.message);

	synced = sample("gm_overlap_synced");
	cr_assert_eq(synced->compile.outcome, NPUKB_PASS, "%s", synced->compile.message);
	cr_expect_eq(synced->cases[0].correctness.outcome, NPUKB_PASS, "%s",
		     synced->cases[0].correctness.message);
}

static void expect_queue_misuse(const char *id, const char *what)
{
	const struct npukb_sample_result *s = sample(id);
	const char *cat, *rule;

	cr_assert_eq(s->compile.outcome, NPUKB_PASS, "%s", s->compile.message);
	cr_assert_eq(s->cases[0].correctness.outcome, NPUKB_FAIL, "%s went unnoticed", id);
	npukb_case_outcome(s, 0, &cat, &rule);
	cr_expect_str_eq(cat, "queue-misuse", "%s", s->cases[0].correctness.message);
	cr_expect_not_null(strstr(s->cases[0].correctness.message, what), "%s",
			   s->cases[0].correctness.message);
	cr_expect_not_null(strstr(s->cases[0].correctness.message, "add_custom.cpp:"), "%s",
			   s->cases[0].correctness.message);
}

Test(cpusim_checks, queue_tensor_used_after_free_or_while_enqueued, .timeout = 300)
{
	static const char *const names[] = { "use_after_free", "use_while_enqueued", NULL };

	run_checks(names);
	expect_queue_misuse("use_after_free", "Add: first source is a queue's tensor after FreeTensor");
	expect_queue_misuse("use_while_enqueued",
			    "DataCopy GM->UB: destination is a queue's tensor while it is enqueued");
}

Test(cpusim_checks, pipes_unordered_by_flags_race, .timeout = 300)
{
	static const char *const names[] = { "no_flag_mte2_v", "flags_mte2_v", NULL };
	const struct npukb_sample_result *racy, *ordered;
	const char *cat, *rule;

	run_checks(names);

	racy = sample("no_flag_mte2_v");
	cr_assert_eq(racy->compile.outcome, NPUKB_PASS, "%s", racy->compile.message);
	cr_assert_eq(racy->cases[0].correctness.outcome, NPUKB_FAIL, "the race went unnoticed");
	npukb_case_outcome(racy, 0, &cat, &rule);
	cr_expect_str_eq(cat, "sync-race", "%s", racy->cases[0].correctness.message);
	cr_expect_not_null(strstr(racy->cases[0].correctness.message,
				  "Add (vector pipe) reads its first source at UB 0x0 while the MTE2 pipe is still writing it (at add_custom.cpp:24)"),
			   "%s", racy->cases[0].correctness.message);
	cr_expect_not_null(strstr(racy->cases[0].correctness.message, "at add_custom.cpp:26"), "%s",
			   racy->cases[0].correctness.message);

	ordered = sample("flags_mte2_v");
	cr_assert_eq(ordered->compile.outcome, NPUKB_PASS, "%s", ordered->compile.message);
	cr_expect_eq(ordered->cases[0].correctness.outcome, NPUKB_PASS, "%s",
		     ordered->cases[0].correctness.message);
}

/* Scalar accesses right after a copy are ordered by the flags CANN's
 * default --cce-auto-sync inserts; a project that turns it off races. */
Test(cpusim_checks, scalar_unit_after_mte2_follows_auto_sync, .timeout = 300)
{
	static const char *const names[] = { "scalar_after_mte2", "scalar_after_mte2_no_auto_sync", NULL };
	const struct npukb_sample_result *synced, *strict;
	const char *cat, *rule;

	run_checks(names);

	synced = sample("scalar_after_mte2");
	cr_assert_eq(synced->compile.outcome, NPUKB_PASS, "%s", synced->compile.message);
	cr_expect_eq(synced->cases[0].correctness.outcome, NPUKB_PASS, "%s",
		     synced->cases[0].correctness.message);

	strict = sample("scalar_after_mte2_no_auto_sync");
	cr_assert_eq(strict->compile.outcome, NPUKB_PASS, "%s", strict->compile.message);
	cr_assert_eq(strict->cases[0].correctness.outcome, NPUKB_FAIL, "the race went unnoticed");
	npukb_case_outcome(strict, 0, &cat, &rule);
	cr_expect_str_eq(cat, "sync-race", "%s", strict->cases[0].correctness.message);
	cr_expect_not_null(strstr(strict->cases[0].correctness.message,
				  "LocalTensor::GetValue (scalar pipe) reads its element at UB 0x0 while the MTE2 pipe is still writing it"),
			   "%s", strict->cases[0].correctness.message);
}

static void expect_run_failure(const char *id, const char *category, const char *what)
{
	const struct npukb_sample_result *s = sample(id);
	const char *cat, *rule;

	cr_assert_eq(s->compile.outcome, NPUKB_PASS, "%s: %s", id, s->compile.message);
	cr_assert_eq(s->cases[0].correctness.outcome, NPUKB_FAIL, "%s went unnoticed", id);
	npukb_case_outcome(s, 0, &cat, &rule);
	cr_expect_str_eq(cat, category, "%s: %s", id, s->cases[0].correctness.message);
	cr_expect_not_null(strstr(s->cases[0].correctness.message, what), "%s: %s", id,
			   s->cases[0].correctness.message);
}

/* Raw-pointer stores past a GM buffer reach the guard zones around it:
 * inaccessible pages far out, poisoned bytes just past the allocation. */
Test(cpusim_checks, raw_writes_past_a_buffer_hit_its_guard_zone, .timeout = 300)
{
	static const char *const names[] = { "raw_write_past_end", "raw_write_tail", "raw_write_before",
					     NULL };

	run_checks(names);
	/* case 4: 48 x 8192 halves = 786432 bytes */
	expect_run_failure("raw_write_past_end", "out-of-bounds",
			   "an access at byte offset 986432 of argument 2 (out, 786432 bytes), 200000 bytes past its end");
	expect_run_failure("raw_write_tail", "out-of-bounds",
			   "wrote past the end of argument 2 (out, 786432 bytes): bytes 787456..787457 beyond its device allocation");
	expect_run_failure("raw_write_before", "out-of-bounds",
			   "an access 16 bytes before the start of argument 2 (out, 786432 bytes)");
}

/* A kernel that ends the process is not a crash and not a check failure,
 * whatever status it picks. */
Test(cpusim_checks, kernel_ending_the_process_is_an_early_exit, .timeout = 300)
{
	static const char *const names[] = { "early_exit", "early_exit_status", NULL };

	run_checks(names);
	expect_run_failure("early_exit", "early-exit", "exited with status 0 before the launch finished");
	expect_run_failure("early_exit_status", "early-exit", "exited with status 3 before the launch finished");
}

/* A kernel cannot hand in a timing of its own: the harness writes the
 * stats file with a token only it has read, and never takes one it finds. */
Test(cpusim_checks, a_kernel_cannot_forge_its_timing, .timeout = 300)
{
	static const char *const names[] = { "forged_timing", "forged_timing_returns", NULL };

	run_checks(names);
	expect_run_failure("forged_timing", "sandbox-violation", "the timing file was not written by the harness");
	expect_run_failure("forged_timing_returns", "sandbox-violation",
			   "the kernel wrote the harness's stats file");
}
