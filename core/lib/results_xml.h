/* results_xml.h - the run's results as XML, the data the HTML report (and
 * any other consumer) is rendered from (private).
 *
 * <run> holds <provenance> (npukb version, backend and toolchain, SoC,
 * seeds, machine, date), <totals>, then one <task> per task with one
 * <sample> per judged sample, each with its <compile> verdict and one
 * <case> per case carrying the deciding outcome and every stage verdict
 * (message, details, error figures, cycles, classify rule). Each sample
 * names the report page made for it (@page). Presentation is not here:
 * the templates in reports/html/ turn this into pages. When the run info
 * names the run's journal, <metrics> (metrics_xml.h) follows <totals>: the
 * figures of `npukb report` for that journal; the templates show it only
 * when present. */
#ifndef NPUKB_RESULTS_XML_H
#define NPUKB_RESULTS_XML_H

#include <stddef.h>
#include "results.h"

struct npukb_run_metrics;

/* Run facts that results.h does not carry. */
struct npukb_run_info {
	unsigned nseeds;
	unsigned long long base_seed;
	int level; /* 0: every level */
	const char *journal; /* the run's journal.jsonl; NULL: no <metrics> */
	/* The metrics to write, already computed from the rendered run: then
	 * journal is not read again. NULL: from journal, if named. */
	const struct npukb_run_metrics *metrics;
	/* The sandbox mode the run's journal records; NULL: this process's. */
	const char *sandbox;
	/* The run's --label, from its journal header; NULL: none. */
	const char *label;
};

/* Write path atomically (path.tmp, then rename). 0 or a negative errno. */
int npukb_results_xml_write(const struct npukb_results *r, const struct npukb_run_info *info,
			    const char *path, char *err, size_t errlen);

#endif
