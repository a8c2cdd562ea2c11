/* results.c - the in-memory record of a run. */
#include "results.h"

#include <stdlib.h>
#include <string.h>

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
			npukb_verdict_clear(&s->cases[j].correctness);
			npukb_verdict_clear(&s->cases[j].performance);
			npukb_verdict_clear(&s->cases[j].classify);
		}
		free(s->cases);
		free(s->task_id);
		free(s->sample_id);
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
