/* test_cpusim_variants.c - cpusim builds a sample once per dtype
 * combination of the task's cases (DTYPE_<TENSOR> per build, as CANN
 * does), and runs kernels named like C library functions. */
#include <criterion/criterion.h>

#include "plugin_loader.h"
#include "results.h"
#include "run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char outdir[] = "/tmp/npukb-variants-XXXXXX";
static struct npukb_results results;
static struct npukb_plugin_set plugins;

static void run_task(const char *task, const char *const *sample_rel)
{
	static char levels[4096], schema[4096], paths[4][4096];
	static const char *samples[5];
	const char *ids[] = { task, NULL };
	const char *src = getenv("NPUKB_SRCDIR");
	struct npukb_run_config cfg;
	char **dirs, err[8192] = "";
	size_t i;

	src = src ? src : ".";
	snprintf(levels, sizeof(levels), "%s/tests/data/levels-variants", src);
	snprintf(schema, sizeof(schema), "%s/levels/schema/task.rng", src);
	for (i = 0; sample_rel[i] && i < 4; i++) {
		snprintf(paths[i], sizeof(paths[i]), "%s/tests/samples/variants/%s", src, sample_rel[i]);
		samples[i] = paths[i];
	}
	samples[i] = NULL;
	cr_assert_not_null(mkdtemp(outdir));
	cr_assert_eq(npukb_plugin_dirs(NULL, &dirs, err, sizeof(err)), 0);
	cr_assert_eq(npukb_plugins_load(&plugins, dirs, err, sizeof(err)), 0);
	npukb_plugin_dirs_free(dirs);

	memset(&cfg, 0, sizeof(cfg));
	cfg.levels_dir = levels;
	cfg.schema_path = schema;
	cfg.task_ids = ids;
	cfg.sample_dirs = samples;
	cfg.include_answer = 0;
	cfg.plugins = &plugins;
	cfg.backend = "cpusim";
	cfg.output_dir = outdir;
	cfg.options.soc = "ascend910b2";
	cfg.options.nseeds = 1;
	cfg.options.base_seed = 5;
	cfg.options.build_limits.wall_seconds = 120;
	cfg.options.build_limits.memory_bytes = 8ull << 30;
	cfg.options.run_limits.wall_seconds = 20;
	cfg.options.run_limits.cpu_seconds = 20;
	cfg.options.run_limits.memory_bytes = 8ull << 30;
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
	const struct npukb_sample_result *good, *bad;
	size_t i;

	run_task("level1/Test/DtypeNeg", samples);
	good = sample("dtype_neg");
	cr_assert_eq(good->compile.outcome, NPUKB_PASS, "%s\n%s", good->compile.message,
		     good->compile.details ? good->compile.details : "");
	cr_assert_eq(good->ncases, 4);
	for (i = 0; i < good->ncases; i++)
		cr_assert_eq(good->cases[i].correctness.outcome, NPUKB_PASS, "case %zu: %s", i,
			     good->cases[i].correctness.message);

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
