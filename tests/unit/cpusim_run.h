/* cpusim_run.h - what the end-to-end tests that judge samples on cpusim
 * share: paths in the source tree, the loaded plugins and a run
 * configuration with test-sized limits. */
#ifndef NPUKB_TEST_CPUSIM_RUN_H
#define NPUKB_TEST_CPUSIM_RUN_H

#include <stddef.h>

#include "plugin_loader.h"
#include "results.h"
#include "run.h"

/* buf = $NPUKB_SRCDIR/rel (the current folder when unset). */
void test_src_path(char *buf, size_t len, const char *rel);

/* Loads the plugins into *plugins, creates a fresh output folder from
 * outdir (a mkdtemp template, rewritten) and fills cfg for the cpusim
 * backend on SoC ascend910b2 with the levels under levels_rel: no expert
 * answer, one seed from base 1, builds limited to 120 s and runs to 60 s,
 * 8 GiB each. The strings cfg points to live in static storage until the
 * next call. Callers set tasks, cases, samples and seeds. */
/* The folders $NPUKB_SRCDIR/folder/<name> of the NULL-terminated names (at
 * most 8), NULL-terminated, in static storage until the next call. */
const char *const *test_sample_dirs(const char *folder, const char *const *names);

/* The result of the sample with this id; fails the test when there is none. */
const struct npukb_sample_result *test_find_sample(const struct npukb_results *results,
						   const char *id);

/* The sample compiled and passed each of its ncases cases. */
void test_assert_all_pass(const struct npukb_sample_result *s, size_t ncases);

void test_cpusim_config(struct npukb_run_config *cfg, struct npukb_plugin_set *plugins,
			const char *levels_rel, char *outdir);

#endif
