/* cpusim_run.c - see cpusim_run.h. */
#include "cpusim_run.h"

#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void test_src_path(char *buf, size_t len, const char *rel)
{
	const char *src = getenv("NPUKB_SRCDIR");
	src = src && *src ? src : ".";
	cr_assert_lt((size_t)snprintf(buf, len, "%s/%s", src, rel), len, "path too long: %s", rel);
}

const char *const *test_sample_dirs(const char *folder, const char *const *names)
{
	static char paths[8][4096];
	static const char *dirs[9];
	char rel[512];
	size_t i;

	for (i = 0; names[i]; i++) {
		cr_assert_lt(i, 8, "more than 8 samples");
		snprintf(rel, sizeof(rel), "%s/%s", folder, names[i]);
		test_src_path(paths[i], sizeof(paths[i]), rel);
		dirs[i] = paths[i];
	}
	dirs[i] = NULL;
	return dirs;
}

const struct npukb_sample_result *test_find_sample(const struct npukb_results *results,
						   const char *id)
{
	for (size_t i = 0; i < results->n; i++)
		if (strcmp(results->items[i].sample_id, id) == 0)
			return &results->items[i];
	cr_assert_fail("no result for sample %s", id);
	return NULL;
}

void test_assert_all_pass(const struct npukb_sample_result *s, size_t ncases)
{
	cr_assert_eq(s->compile.outcome, NPUKB_PASS, "%s\n%s", s->compile.message,
		     s->compile.details ? s->compile.details : "");
	cr_assert_eq(s->ncases, ncases);
	for (size_t i = 0; i < s->ncases; i++)
		cr_expect_eq(s->cases[i].correctness.outcome, NPUKB_PASS, "case %zu: %s", i,
			     s->cases[i].correctness.message);
}

void test_cpusim_config(struct npukb_run_config *cfg, struct npukb_plugin_set *plugins,
			const char *levels_rel, char *outdir)
{
	static char levels[4096], schema[4096], shared[2][4096], reads[8200];
	char **dirs, err[8192] = "";

	test_src_path(levels, sizeof(levels), levels_rel);
	/* Some test samples include files of other test samples or of the
	 * AddCustom answer: the sandbox shows those folders too. */
	test_src_path(shared[0], sizeof(shared[0]), "tests/samples");
	test_src_path(shared[1], sizeof(shared[1]), "levels/level1/Math/AddCustom/answer");
	snprintf(reads, sizeof(reads), "%s:%s", shared[0], shared[1]);
	setenv("NPUKB_SANDBOX_READ", reads, 1);
	test_src_path(schema, sizeof(schema), "levels/schema/task.rng");
	cr_assert_not_null(mkdtemp(outdir), "cannot create %s", outdir);
	cr_assert_eq(npukb_plugin_dirs(NULL, &dirs, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(npukb_plugins_load(plugins, dirs, err, sizeof(err)), 0, "%s", err);
	npukb_plugin_dirs_free(dirs);

	memset(cfg, 0, sizeof(*cfg));
	cfg->levels_dir = levels;
	cfg->schema_path = schema;
	cfg->include_answer = 0;
	cfg->plugins = plugins;
	cfg->backend = "cpusim";
	cfg->output_dir = outdir;
	cfg->options.soc = "ascend910b2";
	cfg->options.nseeds = 1;
	cfg->options.base_seed = 1;
	cfg->options.build_limits.wall_seconds = 120;
	cfg->options.build_limits.memory_bytes = 8ull << 30;
	cfg->options.run_limits.wall_seconds = 60;
	cfg->options.run_limits.cpu_seconds = 60;
	cfg->options.run_limits.memory_bytes = 8ull << 30;
}
