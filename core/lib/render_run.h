/* render_run.h - every report of a run, rendered from its journal
 * (private to libnpukb's users: the CLI's run, and merges of journals).
 *
 * Data flows one way: the run judges into <outdir>/journal.jsonl; this
 * reads the journal with the reader `npukb report` and `npukb leaderboard`
 * use (journal_read.h), aggregates it (results.h, metrics.h) and writes
 * junit.xml, results.xml, summary.txt and report/index.html, each
 * replaced only once its new version is whole on disk. */
#ifndef NPUKB_RENDER_RUN_H
#define NPUKB_RENDER_RUN_H

#include <stddef.h>
#include "results.h"

/* Renders the last run of <outdir>/journal.jsonl (the one appended last;
 * a journal may hold several runs into one folder). reports_dir holds the
 * templates (<dir>/html/run.xsl); NULL: no HTML report. When results is
 * not NULL it receives the aggregate the reports were rendered from (the
 * caller frees it with npukb_results_free, also on error). Returns 0, or a
 * negative errno value with err filled: -ENOENT when the journal holds no
 * run, -EINVAL when it cannot be read or rendered. */
int npukb_render_run_reports(const char *outdir, const char *reports_dir,
			     struct npukb_results *results, char *err, size_t errlen);

#endif
