/* results.c - a run's verdicts per (task, sample, case), aggregated from
 * its journal for the report writers. */
#include "results.h"
#include "journal_read.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct npukb_sample_result *npukb_results_add(struct npukb_results *r,
					      const char *task_id,
					      const char *sample_id,
					      size_t ncases)
{
	struct npukb_sample_result *s;
	size_t i;
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 16;
		struct npukb_sample_result *grown = realloc(r->items, cap * sizeof(*grown));
		if (!grown)
			return NULL;
		r->items = grown;
		r->cap = cap;
	}
	s = &r->items[r->n];
	memset(s, 0, sizeof(*s));
	s->task_id = strdup(task_id);
	s->sample_id = strdup(sample_id);
	s->cases = calloc(ncases ? ncases : 1, sizeof(*s->cases));
	if (!s->task_id || !s->sample_id || !s->cases) {
		free(s->task_id);
		free(s->sample_id);
		free(s->cases);
		return NULL;
	}
	s->ncases = ncases;
	npukb_verdict_init(&s->compile, NPUKB_STAGE_COMPILE);
	npukb_verdict_init(&s->compile_classify, NPUKB_STAGE_CLASSIFY);
	for (i = 0; i < ncases; i++) {
		npukb_verdict_init(&s->cases[i].correctness, NPUKB_STAGE_CORRECTNESS);
		npukb_verdict_init(&s->cases[i].performance, NPUKB_STAGE_PERFORMANCE);
		npukb_verdict_init(&s->cases[i].classify, NPUKB_STAGE_CLASSIFY);
	}
	r->n++;
	return s;
}

void npukb_results_free(struct npukb_results *r)
{
	size_t i, j;
	for (i = 0; i < r->n; i++) {
		struct npukb_sample_result *s = &r->items[i];
		npukb_verdict_clear(&s->compile);
		npukb_verdict_clear(&s->compile_classify);
		for (j = 0; j < s->ncases; j++) {
			free(s->cases[j].case_id);
			free(s->cases[j].desc);
			npukb_verdict_clear(&s->cases[j].correctness);
			npukb_verdict_clear(&s->cases[j].performance);
			npukb_verdict_clear(&s->cases[j].classify);
		}
		free(s->cases);
		free(s->task_id);
		free(s->sample_id);
		free(s->sample_dir);
		free(s->model);
		free(s->response_sha256);
	}
	free(r->items);
	free(r->run_id);
	free(r->backend);
	free(r->backend_identity);
	free(r->soc);
	free(r->hostname);
	memset(r, 0, sizeof(*r));
}

const struct npukb_verdict *npukb_case_outcome(const struct npukb_sample_result *s,
					       size_t i, const char **category,
					       const char **rule)
{
	const struct npukb_verdict *v, *cls;
	if (s->compile.outcome != NPUKB_PASS) {
		v = &s->compile;
		cls = &s->compile_classify;
	} else {
		v = &s->cases[i].correctness;
		cls = &s->cases[i].classify;
	}
	*category = v->category;
	*rule = NULL;
	if (v->outcome == NPUKB_FAIL && cls->outcome == NPUKB_FAIL && cls->category) {
		*category = cls->category;
		*rule = cls->rule;
	}
	return v;
}

void npukb_results_tally(const struct npukb_results *r, struct npukb_tally *t)
{
	size_t i, j;
	memset(t, 0, sizeof(*t));
	for (i = 0; i < r->n; i++)
		for (j = 0; j < r->items[i].ncases; j++) {
			const char *cat, *rule;
			const struct npukb_verdict *v = npukb_case_outcome(&r->items[i], j, &cat, &rule);
			t->total++;
			if (v->outcome == NPUKB_PASS)
				t->passed++;
			else if (v->outcome == NPUKB_SKIPPED)
				t->skipped++;
			else
				t->failed++;
		}
}

/* ---- from the journal ----------------------------------------------------- */

static char *dup_opt(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* A verdict as the journal kept it. */
static int verdict_from(struct npukb_verdict *dst, const struct npukb_jverdict *src)
{
	npukb_verdict_clear(dst);
	npukb_verdict_init(dst, src->stage);
	dst->outcome = src->outcome;
	dst->category = dup_opt(src->category);
	dst->message = dup_opt(src->message);
	dst->details = dup_opt(src->details);
	dst->rule = dup_opt(src->rule);
	dst->flags = dup_opt(src->flags);
	dst->defects = dup_opt(src->defects);
	if ((src->category && !dst->category) || (src->message && !dst->message) ||
	    (src->details && !dst->details) || (src->rule && !dst->rule) ||
	    (src->flags && !dst->flags) || (src->defects && !dst->defects))
		return -ENOMEM;
	dst->has_error_stats = src->has_error_stats;
	dst->max_abs_err = src->max_abs_err;
	dst->max_rel_err = src->max_rel_err;
	dst->bad_count = src->bad_count;
	dst->first_bad_index = src->first_bad_index;
	dst->expected_at_first = src->expected_at_first;
	dst->actual_at_first = src->actual_at_first;
	dst->has_timing = src->has_timing;
	dst->cycles = src->cycles;
	dst->time_us = src->time_us;
	dst->wall_seconds = src->wall_seconds;
	return 0;
}

/* "2026-11-27T02:14:23Z" (journal.c's stamp) as a time; 0 when it is not. */
static time_t parse_stamp(const char *s)
{
	struct tm tm;
	memset(&tm, 0, sizeof(tm));
	if (!s || sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2dZ", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
			 &tm.tm_hour, &tm.tm_min, &tm.tm_sec) != 6)
		return 0;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	return timegm(&tm);
}

static size_t count_words(const char *s)
{
	size_t n = 0;
	while (*s) {
		s += strspn(s, " ");
		if (!*s)
			break;
		n++;
		s += strcspn(s, " ");
	}
	return n;
}

/* Fields of a ';'-separated list ("" has one, empty, field). */
static size_t count_fields(const char *s)
{
	size_t n = 1;
	for (; *s; s++)
		n += *s == ';';
	return n;
}

/* The units in plan order (index), file order among equals. */
static int cmp_unit(const void *a, const void *b)
{
	const struct npukb_jwork *x = *(const struct npukb_jwork *const *)a;
	const struct npukb_jwork *y = *(const struct npukb_jwork *const *)b;
	if (x->index != y->index)
		return x->index < y->index ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* One unit's sample_result: its cases from the unit record, its verdicts
 * from the batch before it. */
static int add_unit(struct npukb_results *out, const struct npukb_jrun *run,
		    const struct npukb_jwork *u, char *err, size_t errlen)
{
	struct npukb_sample_result *s;
	const char *p = u->cases;
	size_t i, k;

	s = npukb_results_add(out, u->task, u->sample, count_words(u->cases));
	if (!s)
		return -ENOMEM;
	s->is_answer = u->is_answer;
	if ((u->sample_dir && !(s->sample_dir = strdup(u->sample_dir))) ||
	    (u->model && !(s->model = strdup(u->model))) ||
	    (u->response_sha256 && !(s->response_sha256 = strdup(u->response_sha256))))
		return -ENOMEM;
	for (i = 0; i < s->ncases; i++) {
		size_t len;
		p += strspn(p, " ");
		len = strcspn(p, " ");
		if (!(s->cases[i].case_id = strndup(p, len)))
			return -ENOMEM;
		p += len;
	}
	/* descriptions, one per case id (';' separated); any other count is
	 * not theirs and is ignored */
	if (u->case_descs && count_fields(u->case_descs) == s->ncases)
		for (i = 0, p = u->case_descs; i < s->ncases; i++) {
			size_t len = strcspn(p, ";");
			if (len && !(s->cases[i].desc = strndup(p, len)))
				return -ENOMEM;
			p += len + (p[len] == ';');
		}
	for (k = u->first; k < u->first + u->nverdicts; k++) {
		const struct npukb_jverdict *v = &run->v[k];
		struct npukb_verdict *dst = NULL;
		if (!v->case_id) {
			if (v->stage == NPUKB_STAGE_COMPILE)
				dst = &s->compile;
			else if (v->stage == NPUKB_STAGE_CLASSIFY)
				dst = &s->compile_classify;
		} else {
			for (i = 0; i < s->ncases && !dst; i++) {
				struct npukb_case_result *c = &s->cases[i];
				if (strcmp(c->case_id, v->case_id) != 0)
					continue;
				if (v->stage == NPUKB_STAGE_CORRECTNESS)
					dst = &c->correctness;
				else if (v->stage == NPUKB_STAGE_PERFORMANCE)
					dst = &c->performance;
				else if (v->stage == NPUKB_STAGE_CLASSIFY)
					dst = &c->classify;
			}
		}
		if (!dst) {
			snprintf(err, errlen, "%s %s: a %s verdict for case %s, which its unit "
				 "record does not name", u->task, u->sample, npukb_stage_name(v->stage),
				 v->case_id ? v->case_id : "(none)");
			return -EINVAL;
		}
		if (verdict_from(dst, v) != 0)
			return -ENOMEM;
	}
	return 0;
}

int npukb_results_from_jrun(struct npukb_results *out, const struct npukb_jrun *run,
			    char *err, size_t errlen)
{
	const struct npukb_jwork **order = NULL;
	size_t i;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (run->n > 0 && run->nunits == 0) {
		snprintf(err, errlen, "run %s has verdicts but no unit records (written by an older "
			 "npukb): it cannot be rendered", run->run_id);
		return -EINVAL;
	}
	out->run_id = dup_opt(run->run_id);
	out->backend = dup_opt(run->backend);
	out->backend_identity = dup_opt(run->toolchain);
	out->soc = dup_opt(run->soc);
	out->hostname = dup_opt(run->host);
	out->started = parse_stamp(run->started);
	out->seconds = run->seconds;
	order = calloc(run->nunits + 1, sizeof(*order));
	if (!order || !out->run_id)
		rc = -ENOMEM;
	for (i = 0; rc == 0 && i < run->nunits; i++)
		order[i] = &run->units[i];
	if (rc == 0)
		qsort(order, run->nunits, sizeof(*order), cmp_unit);
	for (i = 0; rc == 0 && i < run->nunits; i++)
		rc = add_unit(out, run, order[i], err, errlen);
	if (rc == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	free(order);
	return rc;
}
