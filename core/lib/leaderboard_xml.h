/* leaderboard_xml.h - the data of the leaderboard page: several runs'
 * metrics side by side, written with libxml2's writer (private). The page
 * itself is reports/html/leaderboard.xsl.
 *
 * <leaderboard> holds one <entry> per run: its journals, the href of its
 * run report (relative to the leaderboard folder; absent when the run
 * folder has none) and its <metrics> (metrics_xml.h), whose aggregates
 * carry the coverage (tasks, missing tasks, samples) and suspect counts.
 * An incomplete run's entry says so (complete="no"). */
#ifndef NPUKB_LEADERBOARD_XML_H
#define NPUKB_LEADERBOARD_XML_H

#include <stddef.h>

#include "metrics.h"

struct npukb_lb_entry {
	const struct npukb_run_metrics *metrics;
	const char *report_href; /* NULL: no run report to link to */
	int incomplete;          /* no end-of-run record: killed or still running */
};

/* Write path atomically (path.tmp, then rename). 0 or a negative errno. */
int npukb_leaderboard_xml_write(const struct npukb_lb_entry *entries, size_t n,
				size_t ntasks_universe, const char *path, char *err,
				size_t errlen);

#endif
