/* metrics_xml.c - <metrics> for results.xml through libxml2's writer. The
 * number format is the JSON report's, so page and JSON agree digit for
 * digit. */
#include "config.h"
#include "metrics_xml.h"
#include "xml_file.h"

#include <npukb/util.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int start(xmlTextWriterPtr w, const char *name)
{
	return xmlTextWriterStartElement(w, BAD_CAST name) < 0 ? -1 : 0;
}

static int end(xmlTextWriterPtr w)
{
	return xmlTextWriterEndElement(w) < 0 ? -1 : 0;
}

/* As the JSON writer: 6 significant digits, no "-0". */
static int attr_num(xmlTextWriterPtr w, const char *name, double v)
{
	char buf[64];
	if (!isfinite(v))
		return 0;
	npukb_fmt_double(buf, sizeof(buf), v, 6);
	return npukb_xml_attr(w, name, strcmp(buf, "-0") == 0 ? "0" : buf);
}

static int attr_size(xmlTextWriterPtr w, const char *name, size_t v)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "%zu", v);
	return npukb_xml_attr(w, name, buf);
}

/* available="true" value="..." or available="false" reason="...". */
static int figure(xmlTextWriterPtr w, struct npukb_figure f)
{
	if (f.available)
		return npukb_xml_attr(w, "available", "true") || attr_num(w, "value", f.value);
	return npukb_xml_attr(w, "available", "false") ||
	       npukb_xml_attr(w, "reason", f.reason ? f.reason : "n/a");
}

static int passk(xmlTextWriterPtr w, const char *name, const struct npukb_figure *f,
		 const size_t *tasks)
{
	size_t i;
	for (i = 0; i < NPUKB_METRICS_NK; i++) {
		char k[8];
		snprintf(k, sizeof(k), "%u", npukb_metrics_k[i]);
		if (start(w, name) || npukb_xml_attr(w, "k", k) || figure(w, f[i]) ||
		    attr_size(w, "tasks", tasks[i]) || end(w))
			return -1;
	}
	return 0;
}

static int categories(xmlTextWriterPtr w, const struct npukb_category_count *c, size_t n,
		      size_t total)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (start(w, "category") || npukb_xml_attr(w, "name", c[i].name) ||
		    attr_size(w, "count", c[i].count) ||
		    attr_num(w, "share", total ? (double)c[i].count / (double)total : 0) || end(w))
			return -1;
	return 0;
}

static int aggregate(xmlTextWriterPtr w, const struct npukb_agg_metrics *a)
{
	size_t i;
	if (start(w, "aggregate") || npukb_xml_attr(w, "name", a->name) ||
	    attr_size(w, "tasks", a->ntasks) || attr_size(w, "tasks-missing", a->ntasks_missing) ||
	    attr_size(w, "samples", a->nsamples) || attr_size(w, "compiled", a->ncompiled) ||
	    attr_size(w, "correct", a->ncorrect) || attr_size(w, "clean", a->nclean) ||
	    attr_size(w, "tasks-correct-untimed", a->ntasks_correct_untimed) ||
	    attr_size(w, "speedups", a->n_speedups) ||
	    attr_size(w, "suspect-speedups", a->n_suspect) ||
	    attr_size(w, "failures", a->nfailures))
		return -1;
	if (passk(w, "compile", a->pass_compile, a->ntasks_k) ||
	    passk(w, "correct", a->pass_correct, a->ntasks_k))
		return -1;
	for (i = 0; i < NPUKB_METRICS_NFAST; i++)
		if (start(w, "fast") || npukb_xml_attr(w, "p", npukb_metrics_p_names[i]) ||
		    figure(w, a->fast[i]) || attr_size(w, "count", a->nfast[i]) || end(w))
			return -1;
	if (start(w, "geomean-speedup") || figure(w, a->geomean_speedup) || end(w))
		return -1;
	if (categories(w, a->categories, a->ncategories, a->nfailures))
		return -1;
	return end(w);
}

/* Every correct, timed sample's speedup: the data of the distribution chart. */
static int speedups(xmlTextWriterPtr w, const struct npukb_run_metrics *m)
{
	size_t i, j;
	if (start(w, "speedups") || attr_num(w, "suspect-above", NPUKB_SUSPECT_SPEEDUP))
		return -1;
	for (i = 0; i < m->ntasks; i++) {
		const struct npukb_task_metrics *t = &m->tasks[i];
		for (j = 0; j < t->n_speedups; j++)
			if (start(w, "speedup") || npukb_xml_attr(w, "task", t->task_id) ||
			    npukb_xml_attr(w, "level", t->level) ||
			    attr_num(w, "value", t->speedups[j]) ||
			    npukb_xml_attr(w, "suspect",
					   t->speedups[j] > NPUKB_SUSPECT_SPEEDUP ? "true" : "false") ||
			    end(w))
				return -1;
	}
	return end(w);
}

int npukb_metrics_xml_write(xmlTextWriterPtr w, const struct npukb_run_metrics *m)
{
	size_t i;
	if (start(w, "metrics") || npukb_xml_attr(w, "run", m->run_id) ||
	    npukb_xml_attr(w, "label", m->label) ||
	    npukb_xml_attr(w, "format", "1") || attr_num(w, "suspect-above", NPUKB_SUSPECT_SPEEDUP))
		goto fail;
	if (start(w, "npukernelbench-score") || figure(w, m->npukernelbench_score))
		goto fail;
	for (i = 0; i < 3; i++) {
		char name[16];
		snprintf(name, sizeof(name), "level%zu", i + 1);
		if (start(w, "level") || npukb_xml_attr(w, "name", name) ||
		    attr_num(w, "weight", npukb_metrics_level_weight[i]) ||
		    figure(w, m->nkb_level_score[i]) ||
		    attr_size(w, "tasks-judged", m->nkb_tasks_judged[i]) ||
		    attr_size(w, "tasks", m->nkb_tasks_total[i]) || end(w))
			goto fail;
	}
	if (end(w))
		goto fail;
	/* weighted-score: the old name of fast0-weighted-score, kept until the
	 * page templates read the new one; drop it then */
	for (i = 0; i < 2; i++)
		if (start(w, i ? "weighted-score" : "fast0-weighted-score") ||
		    figure(w, m->fast0_weighted_score) || npukb_xml_attr(w, "of", "fast_0") ||
		    npukb_xml_attr(w, "levels-missing", m->levels_missing) || end(w))
			goto fail;
	for (i = 0; i < m->nlevels; i++)
		if (aggregate(w, &m->levels[i]))
			goto fail;
	if (aggregate(w, &m->overall) || speedups(w, m) || end(w))
		goto fail;
	return 0;
fail:
	return -EIO;
}

int npukb_metrics_from_journal(const char *path, struct npukb_run_metrics *out, char *err,
			       size_t errlen)
{
	struct npukb_jset set;
	int rc;
	memset(&set, 0, sizeof(set));
	memset(out, 0, sizeof(*out));
	rc = npukb_journal_read(&set, path, err, errlen);
	if (rc == 0 && set.nruns == 0) {
		snprintf(err, errlen, "%s: no run in the journal", path);
		rc = -ENOENT;
	}
	if (rc == 0)
		rc = npukb_metrics_compute(&set.runs[0], NULL, 0, out, err, errlen);
	npukb_jset_free(&set);
	return rc;
}
