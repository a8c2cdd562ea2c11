/* unit_cache.h - a unit's (task, sample) verdict records kept across runs,
 * so a run that judges nothing new takes seconds (private).
 *
 * The key is a SHA-256 of everything the records depend on:
 *   - npukb: its version and the bytes of the npukb executable and of
 *     libnpukb (a rebuild is another npukb, whatever its version says);
 *   - the backend and every stage plugin: name, version and the bytes of
 *     the .so; the backend's identity line (cpusim's names its emulation
 *     files, cost model and compiler);
 *   - the options that change a verdict: SoC, seeds and base seed, build
 *     and run limits, perf warm-up and runs, --backend-opt, --dump-tensors,
 *     --unsafe-no-sandbox, and the environment a plugin or a sandbox reads
 *     (NPUKB_*, ASCEND_*, PATH, LD_LIBRARY_PATH, *SAN_OPTIONS; a variable
 *     naming a file adds the file's bytes: the classify rules);
 *   - the output folder (records name files below it), <levels>/common and
 *     the NPUKB_SANDBOX_READ folders (samples may include them);
 *   - the task: its id, its manifest's bytes and the selected case ids;
 *   - the sample: its id, folder, mode, and every name and byte below its
 *     folder (dot files and symlinks included).
 * The value is the unit's verdict records without their run id, and what
 * the progress display shows of each case. A hit appends them as records
 * of the new run; its unit record is written as for any unit.
 *
 * Only for a backend whose identity() returns NPUKB_IDENTITY_REPRODUCIBLE
 * (plugin.h): the same key gives the same records (cpusim: its cycles are a
 * model's, not a clock's). Hardware backends return 0 and are always
 * judged. A unit with a verdict that depends on the machine's state (a
 * skip, a timeout, an internal error, a resource limit) is not kept. */
#ifndef NPUKB_UNIT_CACHE_H
#define NPUKB_UNIT_CACHE_H

#include <stdio.h>

#include "journal.h"
#include "progress.h"
#include "results.h"
#include "run.h"
#include "samples.h"
#include "sha256.h"

struct npukb_unit_cache {
	char *dir; /* NULL: off */
	struct npukb_sha256 base; /* the key material every unit of the run shares */
	unsigned hits, stored;
};

#define NPUKB_UNIT_KEY_LEN NPUKB_SHA256_HEX_LEN

/* Prepares the cache for a run: off (dir NULL, 0 returned) when
 * options->cache_dir is NULL (--no-cache), the backend does not call its
 * results reproducible, or the cache folder is one a sample could see
 * (then a note goes to warn). identity: what the backend's identity()
 * said. */
int npukb_unit_cache_open(struct npukb_unit_cache *uc, const struct npukb_run_config *cfg,
			  const struct npukb_options *options, const char *identity,
			  int reproducible, FILE *warn);

/* Before judging unit (t, s) (t's cases: the selected ones): 1 when the
 * cache held it: its records are in batch as records of j's run, and
 * progress was told of each case; 0 when not (key names the unit for
 * npukb_unit_cache_store; "" when it cannot be cached). */
int npukb_unit_cache_replay(struct npukb_unit_cache *uc, const struct npukb_task *t,
			    const struct npukb_sample_entry *s, const struct npukb_journal *j,
			    struct npukb_journal_batch *batch, struct npukb_progress *progress,
			    char key[NPUKB_UNIT_KEY_LEN + 1]);

/* After judging sample s, before the batch is committed: keeps r's
 * records (batch) under key, with the line naming its first failure,
 * unless a verdict depends on the machine's state. */
void npukb_unit_cache_store(struct npukb_unit_cache *uc, const char *key,
			    const struct npukb_sample_entry *s, const struct npukb_sample_result *r,
			    const struct npukb_journal *j, const struct npukb_journal_batch *batch);

/* End of run: evicts the least recently used entries past the cap. */
void npukb_unit_cache_close(struct npukb_unit_cache *uc);

#endif
