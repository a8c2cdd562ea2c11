/* journal.h - the run journal: one JSON line per verdict, appended and
 * flushed as each verdict is produced, so a killed run loses nothing it
 * had finished (private). */
#ifndef NPUKB_JOURNAL_H
#define NPUKB_JOURNAL_H

#include <stddef.h>
#include <stdio.h>
#include <npukb/verdict.h>

struct npukb_journal {
	FILE *f;
	char *path;
	char *run_id;
};

int npukb_journal_open(struct npukb_journal *j, const char *path, const char *run_id,
		       char *err, size_t errlen);
/* The run's header record: backend, SoC, seeds, host. */
int npukb_journal_begin(struct npukb_journal *j, const char *backend,
			const char *identity, const char *soc, unsigned nseeds,
			unsigned long long base_seed, const char *hostname);
int npukb_journal_append(struct npukb_journal *j, const char *task, const char *sample,
			 const char *case_id, const struct npukb_verdict *v);
void npukb_journal_close(struct npukb_journal *j);

#endif
