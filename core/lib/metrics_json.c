/* metrics_json.c - the report as JSON (npukb_metrics_write_json in
 * metrics.h): fixed key order, numbers in the C locale, figures that are not
 * available as null with a "reason". */
#include "metrics.h"

#include "text.h"

#include <npukb/util.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- JSON ---------------------------------------------------------------- */

/* A tiny pretty-printer: two-space indent, commas placed by jw_key. */
struct jw {
	FILE *f;
	int depth;
	int first[32];
};

static void jw_nl(struct jw *w)
{
	int i;
	fputc('\n', w->f);
	/* depth is -1 outside the root object */
	for (i = 0; i <= w->depth; i++)
		fputs("  ", w->f);
}

static void jw_key(struct jw *w, const char *key)
{
	if (!w->first[w->depth])
		fputc(',', w->f);
	w->first[w->depth] = 0;
	jw_nl(w);
	if (key) {
		npukb_json_string(w->f, key);
		fputs(": ", w->f);
	}
}

static void jw_open(struct jw *w, const char *key, char c)
{
	if (w->depth >= 0)
		jw_key(w, key);
	fputc(c, w->f);
	w->depth++;
	w->first[w->depth] = 1;
}

static void jw_close(struct jw *w, char c)
{
	int empty = w->first[w->depth];
	w->depth--;
	if (!empty)
		jw_nl(w);
	fputc(c, w->f);
}

static void jw_str(struct jw *w, const char *key, const char *s)
{
	jw_key(w, key);
	if (s)
		npukb_json_string(w->f, s);
	else
		fputs("null", w->f);
}

static void jw_num(struct jw *w, const char *key, double v)
{
	char buf[64];
	jw_key(w, key);
	if (!isfinite(v)) {
		fputs("null", w->f);
		return;
	}
	npukb_fmt_double(buf, sizeof(buf), v, 6);
	fputs(strcmp(buf, "-0") == 0 ? "0" : buf, w->f);
}

static void jw_uint(struct jw *w, const char *key, size_t v)
{
	jw_key(w, key);
	fprintf(w->f, "%zu", v);
}

static void jw_bool(struct jw *w, const char *key, int v)
{
	jw_key(w, key);
	fputs(v ? "true" : "false", w->f);
}

/* {"value": x, "reason": null} or {"value": null, "reason": "..."}, with
 * an optional count (when count_key is not NULL). */
/* "value" (null when not available) and "reason" (null when it is). */
static void jw_value_reason(struct jw *w, struct npukb_figure fig)
{
	if (fig.available)
		jw_num(w, "value", fig.value);
	else
		jw_str(w, "value", NULL);
	jw_str(w, "reason", fig.available ? NULL : fig.reason);
}

static void jw_figure(struct jw *w, const char *key, struct npukb_figure fig,
		      const char *count_key, size_t count)
{
	jw_open(w, key, '{');
	if (fig.available)
		jw_num(w, "value", fig.value);
	else
		jw_str(w, "value", NULL);
	if (count_key)
		jw_uint(w, count_key, count);
	jw_str(w, "reason", fig.available ? NULL : fig.reason);
	jw_close(w, '}');
}

static void jw_passk(struct jw *w, const char *key, const struct npukb_figure *f,
		     const size_t *tasks)
{
	size_t i;
	jw_open(w, key, '{');
	for (i = 0; i < NPUKB_METRICS_NK; i++) {
		char k[8];
		snprintf(k, sizeof(k), "%u", npukb_metrics_k[i]);
		jw_figure(w, k, f[i], tasks ? "tasks" : NULL, tasks ? tasks[i] : 0);
	}
	jw_close(w, '}');
}

static void jw_categories(struct jw *w, const struct npukb_category_count *c, size_t n,
			  size_t total)
{
	size_t i;
	jw_open(w, "categories", '[');
	for (i = 0; i < n; i++) {
		jw_open(w, NULL, '{');
		jw_str(w, "category", c[i].name);
		jw_uint(w, "count", c[i].count);
		jw_num(w, "share", total ? (double)c[i].count / (double)total : 0);
		jw_close(w, '}');
	}
	jw_close(w, ']');
}

static void jw_agg(struct jw *w, const char *key, const struct npukb_agg_metrics *a)
{
	size_t i;
	jw_open(w, key, '{');
	jw_str(w, "name", a->name);
	jw_uint(w, "tasks", a->ntasks);
	jw_uint(w, "tasks_missing", a->ntasks_missing);
	jw_uint(w, "samples", a->nsamples);
	jw_uint(w, "compiled", a->ncompiled);
	jw_uint(w, "correct", a->ncorrect);
	jw_uint(w, "clean", a->nclean);
	jw_passk(w, "compile_pass_at_k", a->pass_compile, a->ntasks_k);
	jw_passk(w, "correct_pass_at_k", a->pass_correct, a->ntasks_k);
	jw_open(w, "fast_p", '{');
	for (i = 0; i < NPUKB_METRICS_NFAST; i++)
		jw_figure(w, npukb_metrics_p_names[i], a->fast[i], "count", a->nfast[i]);
	jw_close(w, '}');
	jw_uint(w, "tasks_correct_untimed", a->ntasks_correct_untimed);
	jw_figure(w, "geomean_speedup", a->geomean_speedup, NULL, 0);
	jw_uint(w, "speedups", a->n_speedups);
	jw_uint(w, "suspect_speedups", a->n_suspect);
	jw_uint(w, "failures", a->nfailures);
	jw_categories(w, a->categories, a->ncategories, a->nfailures);
	jw_close(w, '}');
}

static void jw_task(struct jw *w, const struct npukb_task_metrics *t)
{
	size_t i;
	jw_open(w, NULL, '{');
	jw_str(w, "task", t->task_id);
	jw_str(w, "level", t->level);
	jw_bool(w, "missing", t->missing);
	jw_uint(w, "samples", t->n);
	jw_uint(w, "skipped", t->n_skipped);
	jw_uint(w, "compiled", t->n_compiled);
	jw_uint(w, "correct", t->n_correct);
	jw_uint(w, "clean", t->n_clean);
	jw_uint(w, "cases", t->ncases);
	jw_uint(w, "unjudged", t->n_unjudged);
	jw_uint(w, "case_passes", t->n_case_passes);
	jw_figure(w, "npukernelbench_score", t->case_score, NULL, 0);
	jw_str(w, "answer", !t->has_answer ? "absent" : t->answer_correct ? "correct" : "incorrect");
	jw_passk(w, "compile_pass_at_k", t->pass_compile, NULL);
	jw_passk(w, "correct_pass_at_k", t->pass_correct, NULL);
	jw_figure(w, "speedup", t->speedup, NULL, 0);
	jw_str(w, "best_sample", t->best_sample);
	jw_uint(w, "speedups", t->n_speedups);
	jw_open(w, "suspect_speedup", '[');
	for (i = 0; i < t->nsuspects; i++)
		jw_str(w, NULL, t->suspects[i]);
	jw_close(w, ']');
	jw_uint(w, "failures", t->nfailures);
	jw_categories(w, t->categories, t->ncategories, t->nfailures);
	jw_close(w, '}');
}

static void jw_run(struct jw *w, const struct npukb_run_metrics *m, enum npukb_report_by by)
{
	size_t i;
	jw_open(w, NULL, '{');
	jw_str(w, "run", m->run_id);
	jw_str(w, "label", m->label);
	jw_str(w, "backend", m->backend);
	jw_str(w, "soc", m->soc);
	jw_str(w, "toolchain", m->toolchain);
	jw_str(w, "started", m->started);
	jw_open(w, "journals", '[');
	for (i = 0; i < m->nsources; i++)
		jw_str(w, NULL, m->sources[i]);
	jw_close(w, ']');
	jw_open(w, "tasks_missing", '[');
	for (i = 0; i < m->ntasks; i++)
		if (m->tasks[i].missing)
			jw_str(w, NULL, m->tasks[i].task_id);
	jw_close(w, ']');
	jw_agg(w, "overall", &m->overall);
	if (by != NPUKB_REPORT_BY_TASK) {
		jw_open(w, "levels", '[');
		for (i = 0; i < m->nlevels; i++)
			jw_agg(w, NULL, &m->levels[i]);
		jw_close(w, ']');
	}
	if (by != NPUKB_REPORT_BY_LEVEL) {
		jw_open(w, "tasks", '[');
		for (i = 0; i < m->ntasks; i++)
			jw_task(w, &m->tasks[i]);
		jw_close(w, ']');
	}
	jw_open(w, "npukernelbench_score", '{');
	jw_value_reason(w, m->npukernelbench_score);
	jw_open(w, "levels", '[');
	for (i = 0; i < 3; i++) {
		char name[16];
		snprintf(name, sizeof(name), "level%zu", i + 1);
		jw_open(w, NULL, '{');
		jw_str(w, "level", name);
		jw_num(w, "weight", npukb_metrics_level_weight[i]);
		jw_figure(w, "score", m->nkb_level_score[i], NULL, 0);
		jw_uint(w, "tasks_judged", m->nkb_tasks_judged[i]);
		jw_uint(w, "tasks", m->nkb_tasks_total[i]);
		jw_close(w, '}');
	}
	jw_close(w, ']');
	jw_close(w, '}');
	jw_open(w, "fast0_weighted_score", '{');
	jw_value_reason(w, m->fast0_weighted_score);
	jw_str(w, "of", "fast_0");
	jw_open(w, "weights", '{');
	for (i = 0; i < 3; i++) {
		char name[16];
		snprintf(name, sizeof(name), "level%zu", i + 1);
		jw_num(w, name, npukb_metrics_level_weight[i]);
	}
	jw_close(w, '}');
	jw_open(w, "levels_missing", '[');
	{
		/* levels_missing is "level1, level3": one string per level */
		const char *p = m->levels_missing;
		while (*p) {
			size_t len = strcspn(p, ",");
			char name[16];
			snprintf(name, sizeof(name), "%.*s", (int)len, p);
			jw_str(w, NULL, name);
			p += len;
			while (*p == ',' || *p == ' ')
				p++;
		}
	}
	jw_close(w, ']');
	jw_close(w, '}');
	jw_close(w, '}');
}

int npukb_metrics_write_json(FILE *f, const struct npukb_run_metrics *runs, size_t nruns,
			     const char *const *warnings, size_t nwarnings,
			     enum npukb_report_by by)
{
	struct jw w;
	size_t i;
	memset(&w, 0, sizeof(w));
	w.f = f;
	w.depth = -1;
	jw_open(&w, NULL, '{');
	jw_str(&w, "format", "npukb-report/1");
	jw_open(&w, "runs", '[');
	for (i = 0; i < nruns; i++)
		jw_run(&w, &runs[i], by);
	jw_close(&w, ']');
	jw_open(&w, "warnings", '[');
	for (i = 0; i < nwarnings; i++)
		jw_str(&w, NULL, warnings[i]);
	jw_close(&w, ']');
	jw_close(&w, '}');
	fputc('\n', f);
	if (fflush(f) != 0 || ferror(f))
		return -EIO;
	return 0;
}
