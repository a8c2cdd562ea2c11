/* test_mutant_guards.c - verdict paths that deliberate bugs once slipped
 * past `make check` (issue 15), one test each: a kernel that writes into an
 * input, a write-after-read pipe race, a correct kernel whose reference is
 * the same on every seed (not a suspect constant output), and the journal
 * syncing every record to disk. scripts/mutants/mutants.list names the
 * mutant each one catches. */
#include <criterion/criterion.h>

#include "cpusim_run.h"
#include "fsutil.h"
#include "journal.h"
#include "results.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The journal's durability seam: this definition takes the place of libc's
 * for the library too (the executable's symbol is bound first), counts the
 * calls and forwards them, so the records still reach the disk. */
static unsigned fdatasync_calls;

int fdatasync(int fd);
int fdatasync(int fd)
{
	static int (*real)(int);
	if (!real) {
		void *sym = dlsym(RTLD_NEXT, "fdatasync");
		cr_assert_not_null(sym, "no libc fdatasync: %s", dlerror());
		memcpy(&real, &sym, sizeof(real));
	}
	fdatasync_calls++;
	return real(fd);
}

static struct npukb_results results;
static struct npukb_plugin_set plugins;

static const struct npukb_sample_result *sample(const char *id)
{
	return test_find_sample(&results, id);
}

/* Judges the named samples of tests/samples/checks on AddCustom's case 4. */
static void run_checks(const char *const *names, unsigned nseeds)
{
	static char outdir[] = "/tmp/npukb-guards-XXXXXX";
	static const char *const ids[] = { "level1/Math/AddCustom", NULL };
	static const char *const cases[] = { "4", NULL };
	struct npukb_run_config cfg;
	char err[8192] = "";

	test_cpusim_config(&cfg, &plugins, "levels", outdir);
	cfg.task_ids = ids;
	cfg.case_ids = cases;
	cfg.options.nseeds = nseeds;
	cfg.sample_dirs = test_sample_dirs("tests/samples/checks", names);
	cr_assert_eq(npukb_run_execute(&cfg, &results, err, sizeof(err)), 0, "run failed: %s", err);
	npukb_rm_rf(outdir);
}

static void expect_failure(const char *id, const char *category, const char *what)
{
	const struct npukb_sample_result *s = sample(id);
	const char *cat, *rule;

	cr_assert_eq(s->compile.outcome, NPUKB_PASS, "%s", s->compile.message);
	cr_assert_eq(s->cases[0].correctness.outcome, NPUKB_FAIL, "%s went unnoticed", id);
	npukb_case_outcome(s, 0, &cat, &rule);
	cr_expect_str_eq(cat, category, "%s", s->cases[0].correctness.message);
	cr_expect_not_null(strstr(s->cases[0].correctness.message, what), "%s",
			   s->cases[0].correctness.message);
}

/* z is right on every seed, so only the input comparison can fail it. */
Test(mutant_guards, kernel_writing_into_an_input_is_input_mutated, .timeout = 300)
{
	static const char *const names[] = { "input_written_back", NULL };
	run_checks(names, 2);
	expect_failure("input_written_back", "input-mutated", "input x was modified by the kernel");
}

Test(mutant_guards, write_after_read_between_pipes_is_a_race, .timeout = 300)
{
	static const char *const names[] = { "war_no_flag_v_mte2", "war_flag_v_mte2", NULL };
	const struct npukb_sample_result *ordered;

	run_checks(names, 1);
	expect_failure("war_no_flag_v_mte2", "sync-race",
		       "DataCopy GM->UB (MTE2 pipe) overwrites its destination at UB 0x0 while the "
		       "vector pipe may still be reading it");
	ordered = sample("war_flag_v_mte2");
	cr_assert_eq(ordered->compile.outcome, NPUKB_PASS, "%s", ordered->compile.message);
	cr_expect_eq(ordered->cases[0].correctness.outcome, NPUKB_PASS, "%s",
		     ordered->cases[0].correctness.message);
}

/* Eye's output is the identity on every seed while its input changes: the
 * same output bytes are right, and must not be called a constant output. */
Test(mutant_guards, same_reference_on_every_seed_is_not_suspect, .timeout = 300)
{
	static char outdir[] = "/tmp/npukb-guards-XXXXXX";
	static const char *const ids[] = { "level1/TensorCreation/Eye", NULL };
	static const char *const cases[] = { "4", NULL };
	const struct npukb_sample_result *s;
	struct npukb_run_config cfg;
	char err[8192] = "";

	test_cpusim_config(&cfg, &plugins, "levels", outdir);
	cfg.task_ids = ids;
	cfg.case_ids = cases;
	cfg.include_answer = 1;
	cfg.options.nseeds = 3;
	cr_assert_eq(npukb_run_execute(&cfg, &results, err, sizeof(err)), 0, "run failed: %s", err);
	npukb_rm_rf(outdir);
	s = sample("answer");
	cr_assert_eq(s->ncases, 1);
	cr_assert_eq(s->cases[0].correctness.outcome, NPUKB_PASS, "%s",
		     s->cases[0].correctness.message);
	cr_assert(!npukb_verdict_has_flag(&s->cases[0].correctness, "suspect-constant-output"),
		  "a right constant output was flagged: %s", s->cases[0].correctness.flags);
}

static unsigned lines_in(const char *path)
{
	char line[1024];
	unsigned n = 0;
	FILE *f = fopen(path, "r");
	cr_assert_not_null(f, "%s", path);
	while (fgets(line, sizeof(line), f))
		n++;
	fclose(f);
	return n;
}

/* Every record is on disk when append returns: flushed from the stdio
 * buffer (another reader sees it) and synced (fdatasync called for it). */
Test(mutant_guards, journal_syncs_every_record, .timeout = 30)
{
	char dir[] = "/tmp/npukb-journal-XXXXXX", path[64], err[256] = "";
	struct npukb_journal j;
	struct npukb_verdict v;
	unsigned before;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/journal.jsonl", dir);
	cr_assert_eq(npukb_journal_open(&j, path, "run-1", err, sizeof(err)), 0, "%s", err);
	before = fdatasync_calls;
	cr_assert_eq(npukb_journal_begin(&j, "cpusim", "cpusim 0.1", "ascend910b2", 5, 1, "host"), 0);
	cr_assert_gt(fdatasync_calls, before, "the header record was not synced");
	cr_assert_eq(lines_in(path), 1, "the header record is not in the file yet");
	for (int i = 0; i < 3; i++) {
		npukb_verdict_init(&v, NPUKB_STAGE_CORRECTNESS);
		npukb_verdict_pass(&v);
		before = fdatasync_calls;
		cr_assert_eq(npukb_journal_append(&j, "level1/Math/AddCustom", "s", "4", &v), 0);
		cr_assert_gt(fdatasync_calls, before, "verdict record %d was not synced", i);
		cr_assert_eq(lines_in(path), (unsigned)i + 2, "verdict record %d is not in the file yet", i);
		npukb_verdict_clear(&v);
	}
	npukb_journal_close(&j);
	npukb_rm_rf(dir);
}
