/* render_run.c - journal -> (reader) -> aggregate -> reports. */
#include "render_run.h"

#include "diag_loc.h"
#include "fsutil.h"
#include "journal_read.h"
#include "junit.h"
#include "metrics.h"
#include "report_html.h"
#include "results_xml.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int write_summary(const struct npukb_results *r, const char *label, FILE *f)
{
	struct npukb_tally t;
	size_t i, j;
	npukb_results_tally(r, &t);
	fprintf(f, "npukb run %s%s%s%s on %s (%s), SoC %s\n", r->run_id,
		label ? " (label " : "", label ? label : "", label ? ")" : "", r->backend,
		r->backend_identity ? r->backend_identity : "?", r->soc);
	for (i = 0; i < r->n; i++) {
		const struct npukb_sample_result *s = &r->items[i];
		for (j = 0; j < s->ncases; j++) {
			const char *cat, *rule;
			const struct npukb_verdict *v = npukb_case_outcome(s, j, &cat, &rule);
			char at[1024];
			long line = 0;
			fprintf(f, "%s\t%s\tcase %s\t%s", s->task_id, s->sample_id,
				s->cases[j].case_id ? s->cases[j].case_id : "?",
				npukb_outcome_name(v->outcome));
			if (cat)
				fprintf(f, "\t%s", cat);
			if (s->cases[j].performance.has_timing)
				fprintf(f, "\t%.0f cycles", s->cases[j].performance.cycles);
			if (s->cases[j].correctness.flags)
				fprintf(f, "\t[%s]", s->cases[j].correctness.flags);
			if (s->cases[j].performance.flags)
				fprintf(f, "\t[%s]", s->cases[j].performance.flags);
			/* the sample's own line, not npukb's headers' */
			if (npukb_verdict_sample_location(v, s->sample_dir, at, sizeof(at),
							  &line) == 0)
				fprintf(f, "\tat %s:%ld", at, line);
			if (v->outcome != NPUKB_PASS && v->message)
				fprintf(f, "\t%s", v->message);
			fputc('\n', f);
		}
	}
	fprintf(f, "%zu passed, %zu failed, %zu skipped\n", t.passed, t.failed, t.skipped);
	return ferror(f) ? -EIO : 0;
}

/* summary.txt through a temporary file: an old summary stays whole until
 * the new one is. */
static int write_summary_file(const struct npukb_results *r, const char *label,
			      const char *path, char *err, size_t errlen)
{
	char *tmp = NULL;
	FILE *f;
	int rc;
	if (asprintf(&tmp, "%s.tmp", path) < 0) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	f = fopen(tmp, "we");
	if (!f) {
		rc = -errno;
		snprintf(err, errlen, "%s: cannot create: %s", tmp, strerror(-rc));
		free(tmp);
		return rc;
	}
	rc = write_summary(r, label, f);
	errno = 0;
	if (fclose(f) != 0 && rc == 0)
		rc = errno ? -errno : -EIO;
	if (rc == 0 && rename(tmp, path) != 0)
		rc = -errno;
	if (rc) {
		snprintf(err, errlen, "%s: cannot write: %s", path, strerror(-rc));
		unlink(tmp);
	}
	free(tmp);
	return rc;
}

/* report/ is rendered beside the old one and swapped in whole. */
static int write_report_dir(const char *outdir, const char *reports_dir,
			    const char *results_xml, char *err, size_t errlen)
{
	char *fresh = NULL, *dir = NULL, *old = NULL;
	int rc;
	if (asprintf(&fresh, "%s/.report.new", outdir) < 0 ||
	    asprintf(&dir, "%s/report", outdir) < 0 ||
	    asprintf(&old, "%s/.report.old", outdir) < 0) {
		free(fresh);
		free(dir);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	npukb_rm_rf(fresh);
	npukb_rm_rf(old);
	rc = npukb_report_html_render_page(results_xml, reports_dir, "run.xsl", fresh, err,
					   errlen);
	if (rc == 0 && npukb_is_dir(dir) && rename(dir, old) != 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: cannot replace: %s", dir, strerror(-rc));
	}
	if (rc == 0 && rename(fresh, dir) != 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: cannot write: %s", dir, strerror(-rc));
		rename(old, dir); /* the old report back, if it was there */
	}
	npukb_rm_rf(fresh);
	npukb_rm_rf(old);
	free(fresh);
	free(dir);
	free(old);
	return rc;
}

static int write_all(const char *outdir, const char *reports_dir,
		     const struct npukb_results *results, const struct npukb_run_info *info,
		     char *err, size_t errlen)
{
	char *junit = NULL, *xml = NULL, *summary = NULL;
	int rc = 0;
	if (asprintf(&junit, "%s/junit.xml", outdir) < 0 ||
	    asprintf(&xml, "%s/results.xml", outdir) < 0 ||
	    asprintf(&summary, "%s/summary.txt", outdir) < 0) {
		snprintf(err, errlen, "out of memory");
		rc = -ENOMEM;
	}
	if (rc == 0)
		rc = npukb_junit_write(results, junit, err, errlen);
	if (rc == 0)
		rc = npukb_results_xml_write(results, info, xml, err, errlen);
	if (rc == 0 && reports_dir)
		rc = write_report_dir(outdir, reports_dir, xml, err, errlen);
	if (rc == 0)
		rc = write_summary_file(results, info->label, summary, err, errlen);
	free(junit);
	free(xml);
	free(summary);
	return rc;
}

int npukb_render_run_reports(const char *outdir, const char *reports_dir,
			     struct npukb_results *results, char *err, size_t errlen)
{
	struct npukb_jset set;
	struct npukb_results own;
	struct npukb_results *r = results ? results : &own;
	struct npukb_run_metrics metrics;
	struct npukb_run_info info;
	const struct npukb_jrun *run;
	char *path = NULL;
	int rc, have_metrics = 0;

	memset(&set, 0, sizeof(set));
	memset(r, 0, sizeof(*r));
	if (asprintf(&path, "%s/journal.jsonl", outdir) < 0) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	rc = npukb_journal_read(&set, path, err, errlen);
	if (rc == 0 && set.nruns == 0) {
		snprintf(err, errlen, "%s: no run in the journal", path);
		rc = -ENOENT;
	}
	if (rc)
		goto out;
	run = &set.runs[set.nruns - 1];
	if ((rc = npukb_results_from_jrun(r, run, err, errlen)) != 0)
		goto out;
	/* results.xml's metrics come from the very run it renders */
	if ((rc = npukb_metrics_compute(run, NULL, 0, &metrics, err, errlen)) != 0)
		goto out;
	have_metrics = 1;
	npukb_metrics_cover_levels(&metrics, NULL);
	memset(&info, 0, sizeof(info));
	info.nseeds = run->nseeds;
	info.base_seed = (unsigned long long)run->base_seed;
	info.level = run->level;
	info.journal = path;
	info.metrics = &metrics;
	info.sandbox = run->sandbox;
	info.label = run->label;
	rc = write_all(outdir, reports_dir, r, &info, err, errlen);
out:
	if (have_metrics)
		npukb_run_metrics_free(&metrics);
	if (!results)
		npukb_results_free(&own);
	npukb_jset_free(&set);
	free(path);
	return rc;
}
