/* shard.h - `npukb run --shard I/N`: which units of a run one shard judges
 * (private).
 *
 * A unit is one (task, sample) pair; the run enumerates them in task
 * order, then sample order. Unit k belongs to shard k mod N. Round-robin
 * rather than a hash of the ids: shard sizes differ by at most one unit,
 * neighbouring tasks (often alike in cost) land on different shards, and
 * `npukb merge` can put the units back in the single run's order without
 * the catalog (shard I's j-th unit is unit j*N + I). The price: every
 * shard must be run on the same selection (levels, tasks, cases, samples),
 * which the journal's "units_total" lets merge check. */
#ifndef NPUKB_SHARD_H
#define NPUKB_SHARD_H

#include <stddef.h>

/* Shards per run at most: far beyond any job array, small enough that
 * "I/N" always fits a short string. */
#define NPUKB_SHARD_MAX 1000000u

struct npukb_shard {
	unsigned index; /* I: 0 <= index < count */
	unsigned count; /* N; 0: the whole run, not a shard */
};

/* Parse "I/N" (decimal digits only, 1 <= N <= NPUKB_SHARD_MAX, I < N).
 * Returns 0, or -EINVAL with err saying what is wrong. */
int npukb_shard_parse(const char *s, struct npukb_shard *out, char *err, size_t errlen);
/* 1 when unit k (0-based, in the run's order) is the shard's; every unit
 * is the whole run's. */
int npukb_shard_owns(const struct npukb_shard *s, size_t k);

#endif
