/* data_cache.h - a case's inputs and expected outputs for one seed,
 * computed once and shared: by every sample of a task within a run, and
 * by later runs (private).
 *
 * Key: a SHA-256 of npukb's version and library bytes (the generators and
 * the references are compiled into it), the task id and its manifest's
 * bytes, the case id and the seed value. Value: each generated input, then
 * each expected output, as case_data.c laid them out before any kernel
 * ran. A hit copies them into the (case, seed)'s own fresh files: the
 * kernel works on a private copy and never sees an entry, so a kernel that
 * writes its inputs is caught as before (input-mutated) and changes
 * nothing another sample reads.
 *
 * Entries live in <cache>/data (cache_store.h); with --no-cache, in a
 * folder of the run's own, below its output folder but outside the work
 * folders, removed when the run ends, so samples of one run still share. */
#ifndef NPUKB_DATA_CACHE_H
#define NPUKB_DATA_CACHE_H

#include <npukb/case_data.h>

#include "cache_store.h"

#include <stdint.h>

/* For the rest of the process (a run): cache_dir, or when NULL a private
 * folder below output_dir. Returns 0 or a negative errno (then nothing is
 * shared). */
int npukb_data_cache_begin(const char *cache_dir, const char *output_dir);
/* Removes the private folder, if any; sharing stops. */
void npukb_data_cache_end(void);

/* What the run's plan says is worth keeping: the data of the tasks in
 * ids (n of them), which several units of the run judge, always; that of
 * the other tasks (others_bytes in all, over their cases and seeds) only
 * in a lasting cache that holds it with room to spare. Until called,
 * everything is kept. 0 or -ENOMEM. */
int npukb_data_cache_plan(const char *const *ids, size_t n, uint64_t others_bytes);

/* 0 with b holding the entry of (t, c, seed), whose parts fit d's tensors
 * (see case_data.c); -ENOENT otherwise. */
int npukb_data_cache_find(const struct npukb_task *t, const struct npukb_case *c, uint64_t seed,
			  const struct npukb_case_data *d, struct npukb_cache_blob *b);
/* Keeps d's inputs and expected outputs, as generated, for (t, c, seed). */
void npukb_data_cache_keep(const struct npukb_task *t, const struct npukb_case *c, uint64_t seed,
			   const struct npukb_case_data *d);

/* The order of an entry's parts: part i of d, for i in 0 ..; 0 past the
 * last. An input part (also for an in-place tensor) is the tensor's
 * generated data, an output part its expected values. */
const struct npukb_case_tensor *npukb_data_cache_part(const struct npukb_case_data *d, size_t i,
						      int *expected);

#endif
