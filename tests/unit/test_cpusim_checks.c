/* test_cpusim_checks.c - checks cpusim makes, on AddCustom samples: two
 * cores writing the same GM bytes between two SyncAlls is a race (an error
 * when the values differ, a defect when they are the same); the same
 * writes ordered by a SyncAll are not; each check's defects pass by
 * default and fail under --strict, its errors fail either way; raw-pointer
 * writes past a buffer and kernels that end the process. */
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

/* Judges the named samples of tests/samples/checks on AddCustom's case 4,
 * --strict when strict is set. */
static void run_checks_as(const char *const *names, int strict)
{
	static char outdir[] = "/tmp/npukb-checks-XXXXXX";
	static const char *const ids[] = { "level1/Math/AddCustom", NULL };
	static const char *const cases[] = { "4", NULL };
	struct npukb_run_config cfg;
	char err[8192] = "";

	strcpy(outdir, "/tmp/npukb-checks-XXXXXX"); /* a second run gets a fresh folder */
	npukb_results_free(&results);
	test_cpusim_config(&cfg, &plugins, "levels", outdir);
	cfg.task_ids = ids;
	cfg.case_ids = cases;
	cfg.sample_dirs = test_sample_dirs("tests/samples/checks", names);
	cfg.options.strict = strict;
	cr_assert_eq(npukb_run_execute(&cfg, &results, err, sizeof(err)), 0, "run failed: %s", err);
}

static void run_checks(const char *const *names)
{
	run_checks_as(names, 0);
}

/* A defect: the numbers decide (here: right) and the defect of category
 * `category` naming `what` is listed beside the verdict. */
static void expect_pass_with_defect(const char *id, const char *category, const char *what)
{
	const struct npukb_sample_result *s = sample(id);
	const char *d;
	char prefix[64];

	cr_assert_eq(s->compile.outcome, NPUKB_PASS, "%s: %s", id, s->compile.message);
	cr_assert_eq(s->cases[0].correctness.outcome, NPUKB_PASS, "%s: %s", id,
		     s->cases[0].correctness.message);
	d = s->cases[0].correctness.defects;
	cr_assert_not_null(d, "%s: no defect listed", id);
	snprintf(prefix, sizeof(prefix), "%s: ", category);
	cr_expect_eq(strncmp(d, prefix, strlen(prefix)), 0, "%s: %s", id, d);
	cr_expect_not_null(strstr(d, what), "%s: %s", id, d);
	cr_expect_not_null(strstr(d, "add_custom.cpp:"), "%s: %s", id, d);
}

/* --strict: the same defect fails the case, its category the verdict's. */
static void expect_strict_failure(const char *id, const char *category, const char *what)
{
	const struct npukb_sample_result *s = sample(id);
	const char *cat, *rule;

	cr_assert_eq(s->cases[0].correctness.outcome, NPUKB_FAIL, "%s passed under --strict", id);
	npukb_case_outcome(s, 0, &cat, &rule);
	cr_expect_str_eq(cat, category, "%s: %s", id, s->cases[0].correctness.message);
	cr_expect_not_null(strstr(s->cases[0].correctness.message, "defect (--strict)"), "%s: %s", id,
			   s->cases[0].correctness.message);
	cr_expect_not_null(strstr(s->cases[0].correctness.message, what), "%s: %s", id,
			   s->cases[0].correctness.message);
}

/* Two cores writing the same values to the same bytes (each block also
 * stores 16 right sums of the next block's range): the device's output
 * does not depend on which is last, a defect. Different values are an
 * error (gm_overlap_differ, below). */
Test(cpusim_checks, gm_bytes_written_by_two_cores, .timeout = 300)
{
	static const char *const names[] = { "gm_overlap", "gm_overlap_synced", NULL };
	const char *what = "blocks 0 and 1 both write bytes 16384..16415 of argument 2 (out)";
	const struct npukb_sample_result *synced;

	run_checks(names);
	expect_pass_with_defect("gm_overlap", "sync-race", what);
	cr_expect_not_null(strstr(sample("gm_overlap")->cases[0].correctness.defects, "the same values"), "%s",
			   sample("gm_overlap")->cases[0].correctness.defects);

	synced = sample("gm_overlap_synced");
	cr_assert_eq(synced->compile.outcome, NPUKB_PASS, "%s", synced->compile.message);
	cr_expect_eq(synced->cases[0].correctness.outcome, NPUKB_PASS, "%s",
		     synced->cases[0].correctness.message);
	cr_expect_null(synced->cases[0].correctness.defects, "%s", synced->cases[0].correctness.defects);
}

static void expect_run_failure(const char *id, const char *category, const char *what);

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

/* Use after FreeTensor is a defect in itself (FreeTensor only marks the
 * buffer): use_after_free_last computes right. In use_after_free the next
 * tiles' copy-in re-allocates the freed buffers while the Add may still
 * read them: the race check fails it (an error), the defect listed beside.
 * Using a tensor the queue has handed to another pipe is an error. */
Test(cpusim_checks, queue_tensor_used_after_free_or_while_enqueued, .timeout = 300)
{
	static const char *const names[] = { "use_after_free", "use_after_free_last", "use_while_enqueued", NULL };
	const char *d;

	run_checks(names);
	expect_pass_with_defect("use_after_free_last", "queue-misuse",
				"Add: first source is a queue's tensor after FreeTensor");
	expect_run_failure("use_after_free", "sync-race",
			   "DataCopy GM->UB (MTE2 pipe) overwrites its destination at UB 0x0 while the vector pipe "
			   "may still be reading it");
	d = sample("use_after_free")->cases[0].correctness.defects;
	cr_assert_not_null(d, "the defect beside the error is not listed");
	cr_expect_not_null(strstr(d, "queue-misuse: Add: first source is a queue's tensor after FreeTensor"), "%s", d);
	expect_queue_misuse("use_while_enqueued",
			    "DataCopy GM->UB: destination is a queue's tensor while it is enqueued");
}

/* One kernel per severity of each check that has both: the defects pass
 * by default (the numbers are right) and fail under --strict. */
Test(cpusim_checks, defects_pass_by_default_and_fail_under_strict, .timeout = 600)
{
	static const char *const names[] = { "ub_overalloc_untouched", "use_after_free_last", "gm_overlap",
					     "read_padding", "defect_then_noise", NULL };
	static const char *const ub = "InitBuffer of 196608 bytes brings the unified buffer to 229376 bytes, "
				      "beyond the 196608 bytes of";
	static const char *const uaf = "Add: first source is a queue's tensor after FreeTensor";
	static const char *const race = "blocks 0 and 1 both write bytes 16384..16415 of argument 2 (out)";
	static const char *const pad = "DataCopy GM->UB reads: 16416 bytes at offset 770048 of argument 0 (in, "
				       "786432 bytes) run 32 bytes past its end, inside its allocation's padding";

	run_checks(names);
	expect_pass_with_defect("ub_overalloc_untouched", "ub-overflow", ub);
	expect_pass_with_defect("use_after_free_last", "queue-misuse", uaf);
	expect_pass_with_defect("gm_overlap", "sync-race", race);
	expect_pass_with_defect("read_padding", "out-of-bounds", pad);
	/* printed 2000 lines on stderr after its defect, then closed it */
	expect_pass_with_defect("defect_then_noise", "ub-overflow", ub);

	run_checks_as(names, 1);
	expect_strict_failure("ub_overalloc_untouched", "ub-overflow", ub);
	expect_strict_failure("use_after_free_last", "queue-misuse", uaf);
	expect_strict_failure("gm_overlap", "sync-race", race);
	expect_strict_failure("read_padding", "out-of-bounds", pad);
	expect_strict_failure("defect_then_noise", "ub-overflow", ub);
}

/* The error side of the same checks fails with or without --strict. */
Test(cpusim_checks, errors_fail_with_or_without_strict, .timeout = 600)
{
	static const char *const names[] = { "ub_overalloc_touched", "gm_overlap_differ", "use_while_enqueued",
					     "raw_write_past_end", NULL };
	static const char *const ub = "LocalTensor::SetValue: element at UB 0x37ffe, past the 196608 bytes of";
	static const char *const race = "both write bytes 16384..16415 of argument 2 (out)";
	static const char *const enq = "DataCopy GM->UB: destination is a queue's tensor while it is enqueued";
	static const char *const oob = "200000 bytes past its end";

	for (int strict = 0; strict <= 1; strict++) {
		run_checks_as(names, strict);
		expect_run_failure("ub_overalloc_touched", "ub-overflow", ub);
		expect_run_failure("gm_overlap_differ", "sync-race", race);
		cr_expect_not_null(strstr(sample("gm_overlap_differ")->cases[0].correctness.message,
					  "the result depends on which core is last"),
				   "%s", sample("gm_overlap_differ")->cases[0].correctness.message);
		expect_run_failure("use_while_enqueued", "queue-misuse", enq);
		expect_run_failure("raw_write_past_end", "out-of-bounds", oob);
	}
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
