/* journal_resume.h - what `npukb run --resume` continues: the last run of
 * a journal, the units it holds whole, and where its whole part ends
 * (private).
 *
 * A unit's records are appended with one write (journal.h), closed by its
 * unit record; a kill can leave a batch cut short, even mid-line. The
 * whole part of a journal ends after the last line that is a run header
 * or a unit record: verdicts after it belong to a unit that was never
 * finished, an end-of-run record after it is rewritten by the resumed
 * run. */
#ifndef NPUKB_JOURNAL_RESUME_H
#define NPUKB_JOURNAL_RESUME_H

#include <stddef.h>
#include <sys/types.h>

struct npukb_journal_resume {
	int has_run;          /* a whole run header was found */
	char *run_id;         /* the last run's */
	/* from its header; NULL / has_seeds 0 when absent */
	char *npukb, *backend, *soc;
	char *shard;          /* "I/N" of a --shard run, NULL for a whole run */
	int has_seeds;
	double nseeds, base_seed;
	int has_units;        /* the header is of an npukb that writes unit records */
	int strict;           /* the run was --strict */
	off_t keep;           /* bytes of the file that are whole */
	size_t nverdicts;     /* verdict records of the run's whole units */
	size_t ndone;
	char **done;          /* "task\nsample" of the run's whole units, sorted */
};

/* Scans the journal at path (zeroes out first). 0, or a negative errno
 * with err filled (unreadable, a whole line that is not a record). */
int npukb_journal_resume_scan(const char *path, struct npukb_journal_resume *out, char *err,
			      size_t errlen);
/* 1 when the unit (task, sample) is whole in the journal. */
int npukb_journal_resume_done(const struct npukb_journal_resume *r, const char *task,
			      const char *sample);
void npukb_journal_resume_free(struct npukb_journal_resume *r);

#endif
