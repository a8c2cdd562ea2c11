/* test_run_checks.c - the run's checks beyond one verdict per case: the
 * re-check on a fresh seed after the performance stage, the
 * suspect-constant-output flag, and --dump-tensors (.npy files of a
 * failing case), on AddCustom's case 4 under cpusim. */
#include <criterion/criterion.h>

#include <npukb/npy.h>

#include "fsutil.h"
#include "plugin_loader.h"
#include "results.h"
#include "run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TASK "level1/Math/AddCustom"

static char outdir[] = "/tmp/npukb-checks-XXXXXX";
static struct npukb_results results;
static struct npukb_plugin_set plugins;

static const struct npukb_sample_result *sample(const char *id)
{
	size_t i;
	for (i = 0; i < results.n; i++)
		if (strcmp(results.items[i].sample_id, id) == 0)
			return &results.items[i];
	cr_assert_fail("no result for sample %s", id);
	return NULL;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;
	cr_assert_not_null(f, "%s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = calloc(1, (size_t)n + 1);
	cr_assert_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return buf;
}

static void run_once(void)
{
	static char levels[4096], schema[4096], s1[4096], s2[4096];
	static const char *ids[] = { TASK, NULL };
	static const char *cases[] = { "4", NULL };
	static const char *samples[3];
	const char *src = getenv("NPUKB_SRCDIR");
	struct npukb_run_config cfg;
	char **dirs, err[8192] = "";

	src = src ? src : ".";
	snprintf(levels, sizeof(levels), "%s/levels", src);
	snprintf(schema, sizeof(schema), "%s/levels/schema/task.rng", src);
	snprintf(s1, sizeof(s1), "%s/tests/samples/AddCustom/constant_output", src);
	snprintf(s2, sizeof(s2), "%s/tests/samples/AddCustom/seed_dependent", src);
	samples[0] = s1;
	samples[1] = s2;
	samples[2] = NULL;
	cr_assert_not_null(mkdtemp(outdir));
	cr_assert_eq(npukb_plugin_dirs(NULL, &dirs, err, sizeof(err)), 0);
	cr_assert_eq(npukb_plugins_load(&plugins, dirs, err, sizeof(err)), 0);
	npukb_plugin_dirs_free(dirs);

	memset(&cfg, 0, sizeof(cfg));
	cfg.levels_dir = levels;
	cfg.schema_path = schema;
	cfg.task_ids = ids;
	cfg.case_ids = cases;
	cfg.sample_dirs = samples;
	cfg.include_answer = 1;
	cfg.plugins = &plugins;
	cfg.backend = "cpusim";
	cfg.output_dir = outdir;
	cfg.options.soc = "ascend910b2";
	/* Seed values are base + index: with base 7, case 4's seeds 7 and 8
	 * start x with a non-negative value and the re-check's seed 9 with a
	 * negative one, which is where seed_dependent goes wrong. */
	cfg.options.nseeds = 2;
	cfg.options.base_seed = 7;
	cfg.options.dump_tensors = 1;
	cfg.options.build_limits.wall_seconds = 120;
	cfg.options.build_limits.memory_bytes = 8ull << 30;
	cfg.options.run_limits.wall_seconds = 10;
	cfg.options.run_limits.cpu_seconds = 10;
	cfg.options.run_limits.memory_bytes = 8ull << 30;
	cr_assert_eq(npukb_run_execute(&cfg, &results, err, sizeof(err)), 0, "run failed: %s", err);
}

static void only_the_selected_case_ran(void)
{
	const struct npukb_sample_result *s = sample("answer");
	cr_assert_eq(s->ncases, 1);
	cr_assert_str_eq(s->cases[0].case_id, "4");
}

static void answer_passes_the_recheck_unflagged(const char *journal)
{
	const struct npukb_sample_result *s = sample("answer");
	cr_assert_eq(s->cases[0].correctness.outcome, NPUKB_PASS, "%s",
		     s->cases[0].correctness.message);
	cr_assert_null(s->cases[0].correctness.flags);
	cr_assert_not_null(strstr(journal, "re-check on fresh seed 2"), "no re-check journaled");
}

static void recheck_catches_a_seed_dependent_kernel(const char *journal)
{
	const struct npukb_sample_result *s = sample("seed_dependent");
	const struct npukb_verdict *v = &s->cases[0].correctness;
	const char *cat, *rule;
	cr_assert_eq(v->outcome, NPUKB_FAIL, "the re-check did not fail it: %s", v->message);
	cr_assert_not_null(strstr(v->message, "failed on re-check with a fresh seed"), "%s",
			   v->message);
	npukb_case_outcome(s, 0, &cat, &rule);
	cr_assert_str_eq(cat, "unwritten-output");
	/* it passed the regular seeds, so it was timed */
	cr_assert_eq(s->cases[0].performance.outcome, NPUKB_PASS);
	cr_assert_not_null(strstr(journal, "failed on re-check with a fresh seed"));
}

static void constant_output_is_flagged(const char *journal, const char *junit)
{
	const struct npukb_sample_result *s = sample("constant_output");
	const struct npukb_verdict *v = &s->cases[0].correctness;
	cr_assert_eq(v->outcome, NPUKB_FAIL);
	cr_assert_str_eq(v->category, "mismatch");
	cr_assert_not_null(v->flags);
	cr_assert(npukb_verdict_has_flag(v, "suspect-constant-output"), "flags: %s", v->flags);
	cr_assert_not_null(strstr(journal, "\"flags\":\"suspect-constant-output\""));
	cr_assert_not_null(strstr(junit, "npukb.flags.constant_output.case-4"));
	/* the real Add's output changes with its inputs */
	cr_assert_null(sample("seed_dependent")->cases[0].correctness.flags);
}

static void failing_case_tensors_are_dumped(void)
{
	static const char *const names[] = { "x.npy", "y.npy", "z.npy", "z.expected.npy" };
	char path[8192], err[512];
	struct npukb_npy_header h;
	size_t i;
	for (i = 0; i < 4; i++) {
		snprintf(path, sizeof(path),
			 "%s/dumps/level1/Math/AddCustom/constant_output/case-4-seed-0/%s", outdir,
			 names[i]);
		cr_assert(npukb_is_file(path), "%s missing", path);
		cr_assert_eq(npukb_npy_read_header(path, &h, err, sizeof(err)), 0, "%s", err);
		cr_assert_str_eq(h.descr, "<f2");
		cr_assert_eq(h.rank, 2);
		cr_assert_eq(h.dims[0], 48);
		cr_assert_eq(h.dims[1], 8192);
	}
	/* passing samples leave nothing */
	snprintf(path, sizeof(path), "%s/dumps/level1/Math/AddCustom/answer", outdir);
	cr_assert_not(npukb_is_dir(path));
}

Test(run_checks, recheck_flags_and_dumps, .timeout = 600)
{
	char path[8192], *journal, *junit;
	run_once();
	snprintf(path, sizeof(path), "%s/journal.jsonl", outdir);
	journal = slurp(path);
	snprintf(path, sizeof(path), "%s/junit.xml", outdir);
	junit = slurp(path);
	only_the_selected_case_ran();
	answer_passes_the_recheck_unflagged(journal);
	recheck_catches_a_seed_dependent_kernel(journal);
	constant_output_is_flagged(journal, junit);
	failing_case_tensors_are_dumped();
	free(journal);
	free(junit);
	npukb_results_free(&results);
	npukb_plugins_unload(&plugins);
	npukb_rm_rf(outdir);
}
