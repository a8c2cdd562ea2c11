/* journal.h - the run journal: one JSON line per verdict, the only thing a
 * run writes while it judges; every report is rendered from it afterwards
 * (render_run.h) (private).
 *
 * A run journals a unit of work (task, sample) at its end: the unit's
 * verdict records, then a unit record naming its cases, appended with one
 * write() and synced, so a killed run loses at most the units in flight
 * and `npukb run --resume` knows exactly which units are whole.
 *
 * Each record is rendered in memory and written with one write() on an
 * O_APPEND descriptor under an flock, capped at NPUKB_JOURNAL_RECORD_MAX bytes (long
 * details and messages are cut, saying so), so a record cannot tear in
 * the middle or interleave with another writer's. A run that judged
 * everything ends its journal with an end-of-run record; a journal
 * without one is of a run that was killed or is still running. */
#ifndef NPUKB_JOURNAL_H
#define NPUKB_JOURNAL_H

#include <stddef.h>
#include <npukb/verdict.h>

#define NPUKB_JOURNAL_RECORD_MAX (64u * 1024u)

struct npukb_journal {
	int fd;
	char *path;
	char *run_id;
	size_t nverdicts; /* verdict records appended */
	/* Set by the caller before npukb_journal_begin / _end: the level the
	 * run selected (0: every level) and the run's wall time. */
	int level;
	double seconds;
	/* Set by the caller before npukb_journal_begin: the run's --label
	 * (e.g. a model name); NULL or "" writes none. Borrowed. */
	const char *label;
};

/* The records of one unit of work (task, sample), rendered in memory and
 * appended together by npukb_journal_batch_commit: a zeroed batch is
 * empty; the caller owns it and frees it with npukb_journal_batch_free. */
struct npukb_journal_batch {
	char *buf;
	size_t len, cap;
	size_t nverdicts;
};

/* What the unit record that closes a batch says. */
struct npukb_journal_unit {
	const char *task;
	const char *sample;
	int is_answer;
	size_t index;                 /* the unit's place in the run's plan */
	const char *const *case_ids;  /* the cases selected for the task, in order */
	size_t ncases;
	/* Their descriptions (case_desc.h), joined by ';'; NULL: none. */
	const char *case_descs;
	/* The sample's folder (absolute when it could be resolved); NULL: none.
	 * Reports find the sample's own line in messages with it. */
	const char *sample_dir;
	/* From the sample's response.json (samples.h); NULL: none. */
	const char *model;
	const char *response_sha256;
};

int npukb_journal_open(struct npukb_journal *j, const char *path, const char *run_id,
		       char *err, size_t errlen);
/* Opens j's file again, on a file description of its own: a worker
 * process must not share its parent's, or their flocks would not exclude
 * each other. 0 or a negative errno value (j unchanged). */
int npukb_journal_reopen(struct npukb_journal *j);
/* What the run's header record says. */
struct npukb_journal_header {
	const char *backend;
	const char *identity; /* the backend's toolchain identity */
	const char *soc;
	unsigned nseeds;
	unsigned long long base_seed;
	int strict; /* --strict: written only when set ("strict":1) */
	const char *hostname;
	/* NULL: now, this npukb's version, this process's sandbox mode; a
	 * merged run carries its shards' instead. */
	const char *started;
	const char *npukb;
	const char *sandbox;
	/* --shard I/N (shard_count 0: a whole run): the shard judges units
	 * of the units_total (task, sample) pairs the run's selection holds,
	 * so merge can tell a missing shard or a different selection. */
	unsigned shard_index, shard_count;
	size_t units, units_total;
};

int npukb_journal_write_header(struct npukb_journal *j, const struct npukb_journal_header *h);
/* A whole run's header record: backend, SoC, seeds, host, label. */
int npukb_journal_begin(struct npukb_journal *j, const char *backend,
			const char *identity, const char *soc, unsigned nseeds,
			unsigned long long base_seed, const char *hostname);
int npukb_journal_append(struct npukb_journal *j, const char *task, const char *sample,
			 const char *case_id, const struct npukb_verdict *v);
/* Renders a verdict record into b; nothing is written yet. */
int npukb_journal_batch_add(struct npukb_journal_batch *b, const struct npukb_journal *j,
			    const char *task, const char *sample, const char *case_id,
			    const struct npukb_verdict *v);
/* Ends b with the unit record ({"type":"unit", task, sample, index,
 * answer, verdicts: the count before it, cases: the ids separated by
 * spaces}) and appends the whole batch with one write() under an
 * exclusive flock, then syncs. b is empty afterwards, whatever the
 * result. 0, -EINVAL (a case id with characters manifests refuse),
 * -E2BIG (the unit record alone exceeds the cap), or a write error. */
int npukb_journal_batch_commit(struct npukb_journal *j, struct npukb_journal_batch *b,
			       const struct npukb_journal_unit *u);
/* The verdict records of b without what ties them to j's run (the record
 * type and run id that start each line), for the unit cache: malloc'd
 * text in *out. -EINVAL when a record does not start so. */
int npukb_journal_batch_detach(const struct npukb_journal *j, const struct npukb_journal_batch *b,
			       char **out, size_t *outlen);
/* Adds detached records (of any run) to b as nverdicts records of j's
 * run. -EINVAL, and b unchanged, when text is not nverdicts such records. */
int npukb_journal_batch_attach(struct npukb_journal_batch *b, const struct npukb_journal *j,
			       const char *text, size_t len, size_t nverdicts);
void npukb_journal_batch_free(struct npukb_journal_batch *b);
/* The end-of-run record: every selected (sample, case) was judged, and
 * nverdicts verdict records precede it. */
int npukb_journal_end(struct npukb_journal *j);
void npukb_journal_close(struct npukb_journal *j);

#endif
