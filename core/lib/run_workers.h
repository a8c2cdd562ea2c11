/* run_workers.h - judge a run's units in worker processes (private).
 *
 * The run forks `jobs` workers; each takes the next unit of the plan
 * (a counter in shared memory, so units start in plan order and a worker
 * never waits while units are left) and judges it, appending the unit's
 * records to the journal itself (one write under an flock: journal.h).
 * The parent only draws the progress display, fed by the workers' events
 * through a pipe, and redraws it at least once a second.
 *
 * Processes rather than threads: a backend's and a stage's state is
 * theirs to keep without locks, and a worker that dies takes nothing of
 * the others' with it. A worker dies with the run (PR_SET_PDEATHSIG), so
 * a killed run leaves nobody writing to its journal. */
#ifndef NPUKB_RUN_WORKERS_H
#define NPUKB_RUN_WORKERS_H

#include <stddef.h>
#include "progress.h"

struct npukb_worker_ops {
	/* In the worker, once, after the fork: reopen what must not be
	 * shared (the journal's file description, for its flock) and use
	 * relay for progress. worker counts from 0. */
	int (*start)(void *ctx, unsigned worker, struct npukb_progress *relay, char *err,
		     size_t errlen);
	/* Judges the plan's item k. Nonzero stops the run (npukb's own
	 * failure: the sample's failures are verdicts). */
	int (*unit)(void *ctx, size_t k, char *err, size_t errlen);
	/* In the worker, at its end: the verdict records it appended. */
	size_t (*verdicts)(void *ctx);
};

/* Runs nitems units in min(jobs, nitems) workers. *nverdicts receives the
 * verdict records all workers appended. 0, or a negative errno value with
 * err filled: the first worker's failure, or a worker that died (its
 * signal named), or a fork/pipe failure. */
int npukb_workers_run(unsigned jobs, size_t nitems, const struct npukb_worker_ops *ops,
		      void *ctx, struct npukb_progress *progress, size_t *nverdicts, char *err,
		      size_t errlen);

/* The default -j: the cores hwloc reports (at least 1). */
unsigned npukb_default_jobs(void);

#endif
