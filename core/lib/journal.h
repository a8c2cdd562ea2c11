/* journal.h - the run journal: one JSON line per verdict, appended and
 * synced as each verdict is produced, so a killed run loses nothing it
 * had finished (private).
 *
 * Each record is rendered in memory and written with one write() on an
 * O_APPEND descriptor, capped at NPUKB_JOURNAL_RECORD_MAX bytes (long
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
};

int npukb_journal_open(struct npukb_journal *j, const char *path, const char *run_id,
		       char *err, size_t errlen);
/* What the run's header record says. */
struct npukb_journal_header {
	const char *backend;
	const char *identity; /* the backend's toolchain identity */
	const char *soc;
	unsigned nseeds;
	unsigned long long base_seed;
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
/* A whole run's header record: backend, SoC, seeds, host. */
int npukb_journal_begin(struct npukb_journal *j, const char *backend,
			const char *identity, const char *soc, unsigned nseeds,
			unsigned long long base_seed, const char *hostname);
int npukb_journal_append(struct npukb_journal *j, const char *task, const char *sample,
			 const char *case_id, const struct npukb_verdict *v);
/* The end-of-run record: every selected (sample, case) was judged, and
 * nverdicts verdict records precede it. */
int npukb_journal_end(struct npukb_journal *j);
void npukb_journal_close(struct npukb_journal *j);

#endif
