/* test_metrics.c - every published figure against hand-computed values:
 * pass@k (n<k, c=0, c=n), fast_p at its boundaries, geometric means, the
 * level-weighted score with a missing level, category shares, missing
 * tasks, and the JSON report of tests/data/journals/small.jsonl compared
 * byte for byte with small.golden.json. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "journal_read.h"
#include "metrics.h"

#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char err[1024];

/* ---- formulas -------------------------------------------------------------- */

struct passk_case {
	unsigned long n, c, k;
	int available;
	double expected;
};

ParameterizedTestParameters(metrics, pass_at_k)
{
	/* expected values: 1 - C(n-c,k)/C(n,k) with exact fractions */
	static struct passk_case cases[] = {
		{ 10, 3, 1, 1, 0.3 },
		{ 10, 3, 5, 1, 1.0 - 21.0 / 252.0 },
		{ 7, 2, 5, 1, 1.0 - 1.0 / 21.0 },
		{ 20, 5, 10, 1, 1.0 - 3003.0 / 184756.0 },
		{ 200, 3, 10, 1, 0.1433074463225217 },
		{ 100000, 50000, 10, 1, 0.9990238768959967 },
		{ 1000, 1, 1, 1, 0.001 },
		{ 10, 0, 1, 1, 0.0 },   /* zero correct */
		{ 10, 0, 10, 1, 0.0 },
		{ 10, 10, 10, 1, 1.0 }, /* all correct */
		{ 5, 5, 1, 1, 1.0 },
		{ 5, 2, 5, 1, 1.0 },    /* n-c < k: every k-subset holds a pass */
		{ 10, 1, 10, 1, 1.0 },
		{ 4, 4, 5, 0, 0 },      /* n < k */
		{ 9, 0, 10, 0, 0 },
		{ 0, 0, 1, 0, 0 },
	};
	return cr_make_param_array(struct passk_case, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(struct passk_case *pc, metrics, pass_at_k)
{
	struct npukb_figure f = npukb_pass_at_k(pc->n, pc->c, pc->k);
	cr_assert_eq(f.available, pc->available, "n=%lu c=%lu k=%lu", pc->n, pc->c, pc->k);
	if (!pc->available) {
		cr_assert_str_eq(f.reason, "n<k");
		return;
	}
	cr_assert(fabs(f.value - pc->expected) < 1e-12, "pass@%lu(n=%lu,c=%lu) = %.17g, want %.17g",
		  pc->k, pc->n, pc->c, f.value, pc->expected);
}

Test(metrics, geomean)
{
	double a[] = { 2, 8 }, b[] = { 1, 10, 100 }, c[] = { 3, 0 }, d[] = { 0.5, 2, 4 };
	struct npukb_figure f;
	f = npukb_geomean(a, 2);
	cr_assert(f.available && fabs(f.value - 4) < 1e-12);
	f = npukb_geomean(b, 3);
	cr_assert(f.available && fabs(f.value - 10) < 1e-12);
	f = npukb_geomean(d, 3);
	cr_assert(f.available && fabs(f.value - cbrt(4.0)) < 1e-12, "%g", f.value);
	cr_assert_not(npukb_geomean(c, 2).available);
	cr_assert_not(npukb_geomean(a, 0).available);
}

Test(metrics, speedup_exceeds_is_strict)
{
	cr_assert_not(npukb_speedup_exceeds(1.0, 1.0));
	cr_assert_not(npukb_speedup_exceeds(1.0000000000000002, 1.0), "rounding is not faster");
	cr_assert_not(npukb_speedup_exceeds(exp(log(2.0)), 2.0));
	cr_assert(npukb_speedup_exceeds(1.001, 1.0));
	cr_assert(npukb_speedup_exceeds(0.1, 0.0));
	cr_assert_not(npukb_speedup_exceeds(0.49, 0.5));
}

Test(metrics, task_level)
{
	char buf[32];
	cr_assert_str_eq(npukb_task_level("level2/Norm/RmsNorm", buf, sizeof(buf)), "level2");
	cr_assert_str_eq(npukb_task_level("level12/X", buf, sizeof(buf)), "level12");
	cr_assert_str_eq(npukb_task_level("level3", buf, sizeof(buf)), "level3");
	cr_assert_str_eq(npukb_task_level("level/X", buf, sizeof(buf)), "unknown");
	cr_assert_str_eq(npukb_task_level("levels2/X", buf, sizeof(buf)), "unknown");
	cr_assert_str_eq(npukb_task_level("misc/X", buf, sizeof(buf)), "unknown");
}

/* ---- runs built in memory ---------------------------------------------------- */

static struct npukb_jset set;

static struct npukb_jrun *run_new(const char *id)
{
	set.runs = realloc(set.runs, (set.nruns + 1) * sizeof(*set.runs));
	cr_assert_not_null(set.runs);
	memset(&set.runs[set.nruns], 0, sizeof(set.runs[0]));
	set.runs[set.nruns].run_id = strdup(id);
	return &set.runs[set.nruns++];
}

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

static void add(struct npukb_jrun *r, const char *task, const char *sample, const char *case_id,
		enum npukb_stage_id stage, enum npukb_outcome outcome, const char *category,
		double cycles, double time_us)
{
	struct npukb_jverdict *v;
	r->v = realloc(r->v, (r->n + 1) * sizeof(*r->v));
	cr_assert_not_null(r->v);
	v = &r->v[r->n++];
	memset(v, 0, sizeof(*v));
	v->task = dup_or_null(task);
	v->sample = dup_or_null(sample);
	v->case_id = dup_or_null(case_id);
	v->stage = stage;
	v->outcome = outcome;
	v->category = dup_or_null(category);
	v->has_timing = cycles >= 0;
	v->cycles = cycles >= 0 ? cycles : 0;
	v->time_us = time_us >= 0 ? time_us : 0;
}

#define NO_TIME -1, -1

/* A sample that compiles and passes every case, timed per case in cycles
 * (and microseconds = cycles / 1000); cycles NULL = no performance
 * verdict. */
static void correct(struct npukb_jrun *r, const char *task, const char *sample,
		    const char *const *cases, const double *cycles)
{
	add(r, task, sample, NULL, NPUKB_STAGE_COMPILE, NPUKB_PASS, NULL, NO_TIME);
	for (; *cases; cases++) {
		add(r, task, sample, *cases, NPUKB_STAGE_CORRECTNESS, NPUKB_PASS, NULL, NO_TIME);
		if (cycles) {
			add(r, task, sample, *cases, NPUKB_STAGE_PERFORMANCE, NPUKB_PASS, NULL,
			    *cycles, *cycles / 1000);
			cycles++;
		}
	}
}

static void compile_fail(struct npukb_jrun *r, const char *task, const char *sample,
			 const char *category)
{
	add(r, task, sample, NULL, NPUKB_STAGE_COMPILE, NPUKB_FAIL, category, NO_TIME);
}

static const char *const one_case[] = { "c1", NULL };
static const char *const two_cases[] = { "c1", "c2", NULL };

static const struct npukb_task_metrics *task_of(const struct npukb_run_metrics *m,
						const char *id)
{
	size_t i;
	for (i = 0; i < m->ntasks; i++)
		if (strcmp(m->tasks[i].task_id, id) == 0)
			return &m->tasks[i];
	cr_assert_fail("no task %s", id);
	return NULL;
}

static const struct npukb_agg_metrics *level_of(const struct npukb_run_metrics *m,
						const char *name)
{
	size_t i;
	for (i = 0; i < m->nlevels; i++)
		if (strcmp(m->levels[i].name, name) == 0)
			return &m->levels[i];
	cr_assert_fail("no level %s", name);
	return NULL;
}

static void compute(const struct npukb_jrun *r, struct npukb_run_metrics *m)
{
	cr_assert_eq(npukb_metrics_compute(r, NULL, 0, m, err, sizeof(err)), 0, "%s", err);
}

static void fini(void)
{
	npukb_jset_free(&set);
}

TestSuite(metrics_run, .fini = fini);

#define near(a, b) (fabs((a) - (b)) < 1e-12)

Test(metrics_run, answer_is_not_a_sample)
{
	struct npukb_jrun *r = run_new("r");
	struct npukb_run_metrics m;
	const struct npukb_task_metrics *t;
	static const double fast[] = { 1000 };
	correct(r, "level1/A", "answer", one_case, fast);
	compile_fail(r, "level1/A", "s1", "syntax");
	compute(r, &m);
	t = task_of(&m, "level1/A");
	cr_assert_eq(t->n, 1);
	cr_assert_eq(t->n_correct, 0);
	cr_assert(t->has_answer && t->answer_correct);
	cr_assert(t->pass_correct[0].available && near(t->pass_correct[0].value, 0));
	cr_assert_not(t->speedup.available);
	cr_assert_str_eq(t->speedup.reason, "no correct sample");
	cr_assert(near(m.overall.fast[0].value, 0), "zero correct: fast_0 = 0");
	cr_assert_eq(m.overall.nfailures, 1, "the answer's verdicts are not failures");
	npukb_run_metrics_free(&m);
}

Test(metrics_run, fast_p_boundaries_are_strict)
{
	struct npukb_jrun *r = run_new("r");
	struct npukb_run_metrics m;
	static const double base[] = { 1000 }, same[] = { 1000 }, twice[] = { 500 },
			    half[] = { 2000 }, p08[] = { 1250 };
	size_t i;
	/* speedups exactly 1, 2, 0.5 and 0.8 */
	correct(r, "level1/One", "answer", one_case, base);
	correct(r, "level1/One", "s1", one_case, same);
	correct(r, "level1/Two", "answer", one_case, base);
	correct(r, "level1/Two", "s1", one_case, twice);
	correct(r, "level1/Half", "answer", one_case, base);
	correct(r, "level1/Half", "s1", one_case, half);
	correct(r, "level1/P08", "answer", one_case, base);
	correct(r, "level1/P08", "s1", one_case, p08);
	/* 4x and 1x: a geometric mean of exactly 2, through log and exp */
	{
		static const double ans2[] = { 4000, 1000 }, s2[] = { 1000, 1000 };
		correct(r, "level1/Geo", "answer", two_cases, ans2);
		correct(r, "level1/Geo", "s1", two_cases, s2);
	}
	compute(r, &m);
	cr_assert(fabs(task_of(&m, "level1/Geo")->speedup.value - 2.0) < 1e-12);
	cr_assert(near(task_of(&m, "level1/One")->speedup.value, 1.0));
	cr_assert(near(task_of(&m, "level1/Two")->speedup.value, 2.0));
	cr_assert(near(task_of(&m, "level1/Half")->speedup.value, 0.5));
	cr_assert(near(task_of(&m, "level1/P08")->speedup.value, 0.8));
	/* p:        0    0.5  0.8  1    1.5  2
	 * One (1)   yes  yes  yes  no   no   no
	 * Two (2)   yes  yes  yes  yes  yes  no
	 * Half(.5)  yes  no   no   no   no   no
	 * P08(.8)   yes  yes  no   no   no   no
	 * Geo (2)   yes  yes  yes  yes  yes  no */
	{
		static const size_t want[NPUKB_METRICS_NFAST] = { 5, 4, 3, 2, 2, 0 };
		for (i = 0; i < NPUKB_METRICS_NFAST; i++) {
			cr_assert_eq(m.overall.nfast[i], want[i], "fast_%g: %zu", npukb_metrics_p[i],
				     m.overall.nfast[i]);
			cr_assert(near(m.overall.fast[i].value, (double)want[i] / 5.0));
		}
	}
	/* geomean over the five correct samples: (1*2*0.5*0.8*2)^(1/5) */
	cr_assert(near(m.overall.geomean_speedup.value, pow(1.6, 0.2)),
		  "%.17g", m.overall.geomean_speedup.value);
	npukb_run_metrics_free(&m);
}

Test(metrics_run, speedup_is_geomean_over_cases_best_sample_wins)
{
	struct npukb_jrun *r = run_new("r");
	struct npukb_run_metrics m;
	const struct npukb_task_metrics *t;
	static const double ans[] = { 1000, 4000 }, s1[] = { 500, 4000 }, s2[] = { 250, 1000 };
	correct(r, "level2/T", "answer", two_cases, ans);
	correct(r, "level2/T", "s1", two_cases, s1); /* 2 and 1: sqrt 2 */
	correct(r, "level2/T", "s2", two_cases, s2); /* 4 and 4: 4 */
	compute(r, &m);
	t = task_of(&m, "level2/T");
	cr_assert_eq(t->n_speedups, 2);
	cr_assert(near(t->speedups[0], sqrt(2.0)));
	cr_assert(near(t->speedups[1], 4.0));
	cr_assert(near(t->speedup.value, 4.0));
	cr_assert_str_eq(t->best_sample, "s2");
	cr_assert_eq(t->nsuspects, 0);
	/* geomean over samples, not over tasks: sqrt(sqrt2 * 4) */
	cr_assert(near(m.overall.geomean_speedup.value, sqrt(sqrt(2.0) * 4.0)));
	npukb_run_metrics_free(&m);
}

Test(metrics_run, cycles_first_else_microseconds)
{
	struct npukb_jrun *r = run_new("r");
	struct npukb_run_metrics m;
	correct(r, "level1/T", "answer", one_case, NULL);
	add(r, "level1/T", "answer", "c1", NPUKB_STAGE_PERFORMANCE, NPUKB_PASS, NULL, 0, 30);
	correct(r, "level1/T", "s1", one_case, NULL);
	add(r, "level1/T", "s1", "c1", NPUKB_STAGE_PERFORMANCE, NPUKB_PASS, NULL, 500, 10);
	compute(r, &m);
	/* the answer has no cycles: both fall back to microseconds */
	cr_assert(near(task_of(&m, "level1/T")->speedup.value, 3.0));
	npukb_run_metrics_free(&m);
}

Test(metrics_run, suspect_speedup_above_ten)
{
	struct npukb_jrun *r = run_new("r");
	struct npukb_run_metrics m;
	const struct npukb_task_metrics *t;
	static const double ans[] = { 1000 }, ten[] = { 100 }, more[] = { 99 };
	correct(r, "level1/T", "answer", one_case, ans);
	correct(r, "level1/T", "s1", one_case, ten);
	correct(r, "level1/T", "s2", one_case, more);
	compute(r, &m);
	t = task_of(&m, "level1/T");
	cr_assert_eq(t->nsuspects, 1, "exactly 10x is not suspect");
	cr_assert_str_eq(t->suspects[0], "s2");
	cr_assert_eq(m.overall.n_suspect, 1);
	npukb_run_metrics_free(&m);
}

Test(metrics_run, no_answer_timing)
{
	struct npukb_jrun *r = run_new("r");
	struct npukb_run_metrics m;
	static const double t1[] = { 1000 };
	correct(r, "level1/NoTime", "answer", one_case, NULL);
	correct(r, "level1/NoTime", "s1", one_case, t1);
	correct(r, "level1/NoAnswer", "s1", one_case, t1);
	compute(r, &m);
	cr_assert_not(task_of(&m, "level1/NoTime")->speedup.available);
	cr_assert_str_eq(task_of(&m, "level1/NoTime")->speedup.reason, "no answer timing");
	cr_assert_str_eq(task_of(&m, "level1/NoAnswer")->speedup.reason, "no answer in the run");
	cr_assert(near(m.overall.fast[0].value, 1.0), "correct without timing counts for fast_0");
	cr_assert(near(m.overall.fast[1].value, 0.0), "but not for fast_0.5");
	cr_assert_eq(m.overall.ntasks_correct_untimed, 2);
	cr_assert_not(m.overall.geomean_speedup.available);
	npukb_run_metrics_free(&m);
}

Test(metrics_run, case_without_verdict_is_not_passed)
{
	struct npukb_jrun *r = run_new("r");
	struct npukb_run_metrics m;
	const struct npukb_task_metrics *t;
	correct(r, "level1/T", "s1", two_cases, NULL);
	correct(r, "level1/T", "s2", one_case, NULL); /* never judged on c2 */
	compute(r, &m);
	t = task_of(&m, "level1/T");
	cr_assert_eq(t->ncases, 2);
	cr_assert_eq(t->n, 2);
	cr_assert_eq(t->n_compiled, 2);
	cr_assert_eq(t->n_correct, 1);
	cr_assert_eq(t->n_unjudged, 1);
	cr_assert(near(t->pass_correct[0].value, 0.5));
	npukb_run_metrics_free(&m);
}

Test(metrics_run, later_verdict_wins_and_skipped_compile_is_not_counted)
{
	struct npukb_jrun *r = run_new("r");
	struct npukb_run_metrics m;
	const struct npukb_task_metrics *t;
	add(r, "level1/T", "s1", NULL, NPUKB_STAGE_COMPILE, NPUKB_PASS, NULL, NO_TIME);
	add(r, "level1/T", "s1", "c1", NPUKB_STAGE_CORRECTNESS, NPUKB_FAIL, "mismatch", NO_TIME);
	/* judged again (a resumed run): now it passes */
	add(r, "level1/T", "s1", "c1", NPUKB_STAGE_CORRECTNESS, NPUKB_PASS, NULL, NO_TIME);
	add(r, "level1/T", "s2", NULL, NPUKB_STAGE_COMPILE, NPUKB_SKIPPED, NULL, NO_TIME);
	compute(r, &m);
	t = task_of(&m, "level1/T");
	cr_assert_eq(t->n, 1);
	cr_assert_eq(t->n_skipped, 1);
	cr_assert_eq(t->n_correct, 1);
	cr_assert_eq(t->nfailures, 0);
	npukb_run_metrics_free(&m);
}

Test(metrics_run, category_shares)
{
	struct npukb_jrun *r = run_new("r");
	struct npukb_run_metrics m;
	const struct npukb_agg_metrics *l1;
	/* compile failures: classify refines the provisional category */
	compile_fail(r, "level1/A", "s1", "other-compile");
	add(r, "level1/A", "s1", NULL, NPUKB_STAGE_CLASSIFY, NPUKB_FAIL, "api-signature", NO_TIME);
	compile_fail(r, "level1/A", "s2", "api-signature");
	compile_fail(r, "level1/A", "s3", NULL); /* no category at all */
	/* a run failure on one of two cases; the other case passes */
	add(r, "level1/A", "s4", NULL, NPUKB_STAGE_COMPILE, NPUKB_PASS, NULL, NO_TIME);
	add(r, "level1/A", "s4", "c1", NPUKB_STAGE_CORRECTNESS, NPUKB_PASS, NULL, NO_TIME);
	add(r, "level1/A", "s4", "c2", NPUKB_STAGE_CORRECTNESS, NPUKB_FAIL, "crash", NO_TIME);
	add(r, "level1/A", "s4", "c2", NPUKB_STAGE_CLASSIFY, NPUKB_FAIL, "ub-overflow", NO_TIME);
	/* level 2: two mismatching cases of one sample */
	add(r, "level2/B", "s1", NULL, NPUKB_STAGE_COMPILE, NPUKB_PASS, NULL, NO_TIME);
	add(r, "level2/B", "s1", "c1", NPUKB_STAGE_CORRECTNESS, NPUKB_FAIL, "mismatch", NO_TIME);
	add(r, "level2/B", "s1", "c2", NPUKB_STAGE_CORRECTNESS, NPUKB_FAIL, "mismatch", NO_TIME);
	/* the answer's failures are not the model's */
	compile_fail(r, "level2/B", "answer", "syntax");
	compute(r, &m);

	l1 = level_of(&m, "level1");
	cr_assert_eq(l1->nfailures, 4);
	cr_assert_eq(l1->ncategories, 3);
	cr_assert_str_eq(l1->categories[0].name, "api-signature");
	cr_assert_eq(l1->categories[0].count, 2);
	cr_assert_str_eq(l1->categories[1].name, "ub-overflow");
	cr_assert_str_eq(l1->categories[2].name, "uncategorized");
	cr_assert_eq(level_of(&m, "level2")->nfailures, 2);
	cr_assert_eq(m.overall.nfailures, 6);
	cr_assert_eq(m.overall.ncategories, 4);
	/* ties in count are ordered by name */
	cr_assert_str_eq(m.overall.categories[0].name, "api-signature");
	cr_assert_eq(m.overall.categories[0].count, 2);
	cr_assert_str_eq(m.overall.categories[1].name, "mismatch");
	cr_assert_eq(m.overall.categories[1].count, 2);
	cr_assert_str_eq(m.overall.categories[2].name, "ub-overflow");
	npukb_run_metrics_free(&m);
}

Test(metrics_run, weighted_score_with_a_missing_level)
{
	struct npukb_jrun *r = run_new("r");
	struct npukb_run_metrics m;
	correct(r, "level1/A", "s1", one_case, NULL);
	compile_fail(r, "level1/B", "s1", "syntax");
	correct(r, "level3/C", "s1", one_case, NULL);
	compute(r, &m);
	/* (0.2 * 1/2 + 0.5 * 1) / (0.2 + 0.5) */
	cr_assert(m.fast0_weighted_score.available);
	cr_assert(near(m.fast0_weighted_score.value, 0.6 / 0.7), "%.17g", m.fast0_weighted_score.value);
	cr_assert_str_eq(m.levels_missing, "level2");
	npukb_run_metrics_free(&m);
}

Test(metrics_run, weighted_score_all_levels)
{
	struct npukb_jrun *r = run_new("r");
	struct npukb_run_metrics m;
	correct(r, "level1/A", "s1", one_case, NULL);
	compile_fail(r, "level2/B", "s1", "syntax");
	correct(r, "level2/C", "s1", one_case, NULL);
	compile_fail(r, "level3/D", "s1", "syntax");
	compute(r, &m);
	cr_assert(near(m.fast0_weighted_score.value, 0.2 * 1 + 0.3 * 0.5 + 0.5 * 0));
	cr_assert_str_eq(m.levels_missing, "");
	npukb_run_metrics_free(&m);
}

Test(metrics_run, weighted_score_without_levels)
{
	struct npukb_jrun *r = run_new("r");
	struct npukb_run_metrics m;
	correct(r, "misc/A", "s1", one_case, NULL);
	compute(r, &m);
	cr_assert_not(m.fast0_weighted_score.available);
	cr_assert_str_eq(m.levels_missing, "level1, level2, level3");
	cr_assert_str_eq(m.levels[0].name, "unknown");
	npukb_run_metrics_free(&m);
}

Test(metrics_run, level_pass_at_k_averages_tasks_with_enough_samples)
{
	struct npukb_jrun *r = run_new("r");
	struct npukb_run_metrics m;
	char id[16];
	int i;
	/* A: 5 samples, 1 correct; B: 2 samples, both correct */
	for (i = 0; i < 5; i++) {
		snprintf(id, sizeof(id), "s%d", i);
		if (i == 0)
			correct(r, "level1/A", id, one_case, NULL);
		else
			compile_fail(r, "level1/A", id, "type");
	}
	correct(r, "level1/B", "s0", one_case, NULL);
	correct(r, "level1/B", "s1", one_case, NULL);
	compute(r, &m);
	cr_assert_eq(m.overall.ntasks_k[0], 2);
	cr_assert(near(m.overall.pass_correct[0].value, (0.2 + 1.0) / 2));
	cr_assert_eq(m.overall.ntasks_k[1], 1, "only A has n >= 5");
	cr_assert(near(m.overall.pass_correct[1].value, 1.0));
	cr_assert_eq(m.overall.ntasks_k[2], 0);
	cr_assert_not(m.overall.pass_correct[2].available);
	cr_assert_not(task_of(&m, "level1/B")->pass_correct[1].available);
	cr_assert_str_eq(task_of(&m, "level1/B")->pass_correct[1].reason, "n<k");
	npukb_run_metrics_free(&m);
}

Test(metrics_run, task_missing_from_one_run)
{
	struct npukb_jrun *a = run_new("a"), *b;
	struct npukb_run_metrics ma, mb;
	static const char *const universe[] = { "level1/X", "level1/Y" };
	b = run_new("b");
	a = &set.runs[0]; /* run_new may have moved it */
	correct(a, "level1/X", "s1", one_case, NULL);
	correct(a, "level1/Y", "s1", one_case, NULL);
	correct(b, "level1/X", "s1", one_case, NULL);
	cr_assert_eq(npukb_metrics_compute(a, universe, 2, &ma, err, sizeof(err)), 0);
	cr_assert_eq(npukb_metrics_compute(b, universe, 2, &mb, err, sizeof(err)), 0);
	cr_assert_eq(ma.overall.ntasks_missing, 0);
	cr_assert_eq(mb.ntasks, 2);
	cr_assert_eq(mb.overall.ntasks_missing, 1);
	cr_assert(task_of(&mb, "level1/Y")->missing);
	cr_assert_not(task_of(&mb, "level1/Y")->pass_correct[0].available);
	/* same denominator beside each other: b solved 1 of the 2 tasks */
	cr_assert(near(ma.overall.fast[0].value, 1.0));
	cr_assert(near(mb.overall.fast[0].value, 0.5));
	/* pass@1 averages only tasks with samples */
	cr_assert_eq(mb.overall.ntasks_k[0], 1);
	cr_assert(near(mb.overall.pass_correct[0].value, 1.0));
	npukb_run_metrics_free(&ma);
	npukb_run_metrics_free(&mb);
}

/* NPUKernelBench's score against hand-computed values: per task the share
 * of (sample, case) pairs passed (a sample that did not compile passes
 * none; the answer is not a sample), per level the mean over tasks, then
 * 0.2 L1 + 0.3 L2 + 0.5 L3 with an absent level adding 0. */
Test(metrics_run, npukernelbench_score_by_hand)
{
	struct npukb_jrun *r = run_new("r");
	struct npukb_run_metrics m;
	static const char *const three_cases[] = { "c1", "c2", "c3", NULL };
	/* level1/A: s1 passes 2 of 3 cases, s2 does not compile: 2 / 6 */
	add(r, "level1/A", "s1", NULL, NPUKB_STAGE_COMPILE, NPUKB_PASS, NULL, NO_TIME);
	add(r, "level1/A", "s1", "c1", NPUKB_STAGE_CORRECTNESS, NPUKB_PASS, NULL, NO_TIME);
	add(r, "level1/A", "s1", "c2", NPUKB_STAGE_CORRECTNESS, NPUKB_FAIL, "mismatch", NO_TIME);
	add(r, "level1/A", "s1", "c3", NPUKB_STAGE_CORRECTNESS, NPUKB_PASS, NULL, NO_TIME);
	compile_fail(r, "level1/A", "s2", "syntax");
	correct(r, "level1/A", "answer", three_cases, NULL);
	/* level1/B: every case passed: 1 */
	correct(r, "level1/B", "s1", two_cases, NULL);
	/* level2/C: 1 of 2 cases, the other without a verdict: 1 / 2; the
	 * answer failing everything changes nothing */
	add(r, "level2/C", "s1", NULL, NPUKB_STAGE_COMPILE, NPUKB_PASS, NULL, NO_TIME);
	add(r, "level2/C", "s1", "c1", NPUKB_STAGE_CORRECTNESS, NPUKB_PASS, NULL, NO_TIME);
	add(r, "level2/C", "answer", NULL, NPUKB_STAGE_COMPILE, NPUKB_PASS, NULL, NO_TIME);
	add(r, "level2/C", "answer", "c2", NPUKB_STAGE_CORRECTNESS, NPUKB_FAIL, "mismatch", NO_TIME);
	/* level2/D: only the answer: not scored */
	correct(r, "level2/D", "answer", one_case, NULL);
	compute(r, &m);

	cr_assert(near(task_of(&m, "level1/A")->case_score.value, 2.0 / 6.0));
	cr_assert_eq(task_of(&m, "level1/A")->n_case_passes, 2);
	cr_assert(near(task_of(&m, "level1/B")->case_score.value, 1.0));
	cr_assert(near(task_of(&m, "level2/C")->case_score.value, 0.5));
	cr_assert_not(task_of(&m, "level2/D")->case_score.available);
	cr_assert(near(m.nkb_level_score[0].value, (2.0 / 6.0 + 1.0) / 2.0));
	cr_assert(near(m.nkb_level_score[1].value, 0.5));
	cr_assert_not(m.nkb_level_score[2].available);
	cr_assert(m.npukernelbench_score.available);
	cr_assert(near(m.npukernelbench_score.value, 0.2 * (2.0 / 3.0) + 0.3 * 0.5 + 0.5 * 0),
		  "%.17g", m.npukernelbench_score.value);
	/* coverage: tasks judged / tasks of the level (here: of the run) */
	cr_assert_eq(m.nkb_tasks_judged[0], 2);
	cr_assert_eq(m.nkb_tasks_total[0], 2);
	cr_assert_eq(m.nkb_tasks_judged[1], 1);
	cr_assert_eq(m.nkb_tasks_total[1], 2);
	cr_assert_eq(m.nkb_tasks_total[2], 0);
	/* npukb's own score: fast_0 of level 1 is 1/2 (B), of level 2 is 0 */
	cr_assert(near(m.fast0_weighted_score.value, (0.2 * 0.5 + 0.3 * 0) / 0.5),
		  "%.17g", m.fast0_weighted_score.value);
	npukb_run_metrics_free(&m);
}

Test(metrics_run, npukernelbench_score_without_a_model_sample)
{
	struct npukb_jrun *r = run_new("r");
	struct npukb_run_metrics m;
	correct(r, "level1/A", "answer", one_case, NULL);
	compile_fail(r, "misc/B", "s1", "syntax");
	compute(r, &m);
	cr_assert_not(m.npukernelbench_score.available);
	npukb_run_metrics_free(&m);
}

/* A run's scores do not change with the runs beside it: the tasks only
 * others have raise the coverage denominator, never the scores. */
Test(metrics_run, scores_do_not_depend_on_other_runs)
{
	struct npukb_jrun *a = run_new("a");
	struct npukb_run_metrics alone, beside;
	static const char *const universe[] = { "level1/X", "level1/Y", "level1/Z",
						"level2/W", "level3/V" };
	size_t counts[3] = { 37, 2, 40 };
	correct(a, "level1/X", "s1", one_case, NULL);
	compute(a, &alone);
	cr_assert_eq(npukb_metrics_compute(a, universe, 5, &beside, err, sizeof(err)), 0);
	cr_assert(near(alone.npukernelbench_score.value, 0.2));
	cr_assert(near(beside.npukernelbench_score.value, 0.2), "%.17g",
		  beside.npukernelbench_score.value);
	cr_assert(near(alone.fast0_weighted_score.value, 1.0));
	cr_assert(near(beside.fast0_weighted_score.value, 1.0), "%.17g",
		  beside.fast0_weighted_score.value);
	cr_assert_str_eq(beside.levels_missing, "level2, level3");
	cr_assert_eq(beside.nkb_tasks_judged[0], 1);
	cr_assert_eq(beside.nkb_tasks_total[0], 3);
	cr_assert_eq(beside.nkb_tasks_total[1], 1);
	/* the levels folder's counts, where larger, are the denominators */
	npukb_metrics_set_level_tasks(&beside, counts);
	cr_assert_eq(beside.nkb_tasks_total[0], 37);
	cr_assert_eq(beside.nkb_tasks_total[1], 2);
	cr_assert_eq(beside.nkb_tasks_total[2], 40);
	cr_assert(near(beside.npukernelbench_score.value, 0.2));
	npukb_run_metrics_free(&alone);
	npukb_run_metrics_free(&beside);
}

Test(metrics, count_level_tasks)
{
	char dir[] = "/tmp/npukb-count-XXXXXX", path[512];
	size_t counts[3];
	const char *files[] = { "level1/Math/A/task.xml", "level1/Math/B/task.xml",
				"level1/Norm/C/task.xml", "level3/G/D/task.xml" };
	size_t i;
	FILE *f;
	cr_assert_not_null(mkdtemp(dir));
	for (i = 0; i < 4; i++) {
		char *p;
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		for (p = path + strlen(dir) + 1; (p = strchr(p, '/')) != NULL; p++) {
			*p = '\0';
			mkdir(path, 0700);
			*p = '/';
		}
		cr_assert_not_null(f = fopen(path, "w"));
		fclose(f);
	}
	snprintf(path, sizeof(path), "%s/level1/Math/NoManifest", dir);
	mkdir(path, 0700);
	cr_assert_eq(npukb_metrics_count_level_tasks(dir, counts), 0);
	cr_assert_eq(counts[0], 3);
	cr_assert_eq(counts[1], 0);
	cr_assert_eq(counts[2], 1);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	cr_assert_eq(system(path), 0);
}

/* ---- the JSON report, golden ---------------------------------------------- */

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;
	cr_assert_not_null(f, "cannot open %s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	cr_assert_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static char *report_json(const char *const *journals, size_t n, enum npukb_report_by by,
			 size_t *len)
{
	struct npukb_jset js = { 0 };
	struct npukb_run_metrics m[4];
	char dir[PATH_MAX], *out = NULL;
	const char *root = getenv("NPUKB_SRCDIR");
	FILE *f;
	size_t i;
	/* relative journal names: the report names them as given */
	snprintf(dir, sizeof(dir), "%s/tests/data/journals", root && *root ? root : ".");
	cr_assert_eq(chdir(dir), 0, "cannot enter %s", dir);
	for (i = 0; i < n; i++)
		cr_assert_eq(npukb_journal_read(&js, journals[i], err, sizeof(err)), 0, "%s", err);
	cr_assert_leq(js.nruns, 4);
	for (i = 0; i < js.nruns; i++)
		cr_assert_eq(npukb_metrics_compute(&js.runs[i], NULL, 0, &m[i], err, sizeof(err)), 0);
	f = open_memstream(&out, len);
	cr_assert_not_null(f);
	cr_assert_eq(npukb_metrics_write_json(f, m, js.nruns,
					      (const char *const *)js.warnings, js.nwarnings, by),
		     0);
	fclose(f);
	for (i = 0; i < js.nruns; i++)
		npukb_run_metrics_free(&m[i]);
	npukb_jset_free(&js);
	return out;
}

Test(metrics_json, golden_small_journal)
{
	static const char *const journals[] = { "small.jsonl" };
	size_t len, glen;
	char *got = report_json(journals, 1, NPUKB_REPORT_BY_ALL, &len);
	char *want = slurp("small.golden.json", &glen);
	if (len != glen || memcmp(got, want, len) != 0) {
		FILE *f = fopen("/tmp/npukb-small.got.json", "w");
		if (f) {
			fwrite(got, 1, len, f);
			fclose(f);
		}
		cr_assert_fail("JSON differs from tests/data/journals/small.golden.json "
			       "(got: /tmp/npukb-small.got.json)");
	}
	free(got);
	free(want);
}

Test(metrics_json, by_level_leaves_tasks_out)
{
	static const char *const journals[] = { "small.jsonl" };
	size_t len;
	char *got = report_json(journals, 1, NPUKB_REPORT_BY_LEVEL, &len);
	cr_assert_null(strstr(got, "\"tasks\": ["));
	cr_assert_not_null(strstr(got, "\"levels\": ["));
	free(got);
}

Test(metrics_json, figures_not_available_are_null_with_a_reason)
{
	static const char *const journals[] = { "small.jsonl" };
	size_t len;
	char *got = report_json(journals, 1, NPUKB_REPORT_BY_ALL, &len);
	cr_assert_not_null(strstr(got, "\"value\": null,\n              \"reason\": \"n<k\""));
	cr_assert_not_null(strstr(got, "\"reason\": \"no answer timing\""));
	cr_assert_null(strstr(got, ": nan"));
	cr_assert_null(strstr(got, ": inf"));
	free(got);
}

Test(metrics_json, two_runs_and_warnings)
{
	static const char *const journals[] = { "small.jsonl", "runB.jsonl", "torn.jsonl" };
	size_t len;
	char *got = report_json(journals, 3, NPUKB_REPORT_BY_LEVEL, &len);
	char *a = strstr(got, "\"run\": \"runA\""), *b = strstr(got, "\"run\": \"runB\""),
	     *t = strstr(got, "\"run\": \"runT\"");
	cr_assert(a && b && t && a < b && b < t, "one block per run, in order");
	cr_assert_not_null(strstr(got, "torn.jsonl:4: torn last line"));
	free(got);
}

Test(metrics_json, numbers_ignore_the_locale)
{
	static const char *const journals[] = { "small.jsonl" };
	size_t len, glen;
	char *got, *want;
	if (!setlocale(LC_ALL, "de_DE.UTF-8") && !setlocale(LC_ALL, "fr_FR.UTF-8"))
		cr_skip_test("no locale with a decimal comma installed");
	got = report_json(journals, 1, NPUKB_REPORT_BY_ALL, &len);
	want = slurp("small.golden.json", &glen);
	cr_assert(len == glen && memcmp(got, want, len) == 0);
	free(got);
	free(want);
}
