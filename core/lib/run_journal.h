/* run_journal.h - the journal a run judges into (private to run.c).
 *
 * A fresh run appends its header record to what the folder's journal
 * holds (a torn last line cut first); --resume continues the journal's
 * last run, cut back to its whole units, and appends no header, after
 * checking the run is the one this invocation would make (npukb version,
 * backend, SoC, seeds, shard). */
#ifndef NPUKB_RUN_JOURNAL_H
#define NPUKB_RUN_JOURNAL_H

#include <stddef.h>
#include "journal.h"
#include "journal_resume.h"
#include "run.h"

/* Opens j at path for the run cfg describes; head holds what the run
 * knows of itself (identity, host, shard counts): the rest is filled in
 * from cfg. res receives what a resumed journal holds (zeroed for a fresh
 * run; the caller frees it). 0, NPUKB_RUN_EBADINPUT (a journal this run
 * cannot continue, err says why) or a negative errno value. */
int npukb_run_open_journal(struct npukb_journal *j, const struct npukb_run_config *cfg,
			   const char *path, const char *new_id,
			   struct npukb_journal_header *head, struct npukb_journal_resume *res,
			   char *err, size_t errlen);

#endif
