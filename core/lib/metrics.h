/* metrics.h - the figures a leaderboard is built on, from one run's
 * journal: unbiased pass@k for compile and correctness, fast_p, speedups,
 * NPUKernelBench's level-weighted score and failure-category shares; per
 * task, per level ("levelN" prefix of the task id) and overall (private).
 *
 * Definitions (README and `npukb help report` repeat them):
 * - The expert answer (sample id "answer") is not a sample of the model:
 *   it is left out of n and of every count, and is only the speed baseline.
 * - A sample is judged when its compile verdict is pass or fail; a sample
 *   whose compile was skipped (backend unusable) is counted apart, not in n.
 * - A task's cases are the union of the case ids seen for any sample of the
 *   task in the run. A sample is correct when it compiled and passed
 *   correctness on every one of them; a case with no verdict is not passed.
 * - When one journal holds a verdict twice (a re-judged sample, overlapping
 *   shards) the later record wins.
 * - pass@k = 1 - C(n-c,k)/C(n,k); not available when n < k. A level's or
 *   the overall pass@k is the mean over the tasks with n >= k (their count
 *   is reported); not available when there is none.
 * - speedup of a (sample, case) = answer / sample, in cycles when both have
 *   cycles, else in time_us; a correct sample's speedup is the geometric
 *   mean over all the task's cases, not available when any case lacks a
 *   timing. A task's speedup is its best correct sample's.
 * - fast_p = share of tasks having a correct sample with speedup > p
 *   (strictly, see npukb_speedup_exceeds); fast_0 = share of tasks with a correct sample, whatever the
 *   timing. Tasks missing from the run count in the denominator.
 * - NPUKernelBench score (NPUKernelBench's docs/BENCHMARK_EVALUATION.md
 *   section 3 and run_multi_test.py's StatisticsGenerator): a task's score
 *   is the share of its (model sample, case) pairs that passed, a sample
 *   that did not compile passing none; a level's score is the mean over
 *   the run's tasks of that level with a judged model sample; the score is
 *   sum(w_l * score_l) over levels 1-3, w = 0.2, 0.3, 0.5, a level the run
 *   has no judged task of adding 0 (the weights are not rescaled). Only
 *   the run's own tasks count: coverage (tasks judged / tasks of the
 *   level) is reported beside it, never folded in.
 * - fast_0-weighted score = sum(w_l * fast_0_l) / sum(w_l) over the levels
 *   1-3 the run has tasks of, fast_0_l over the run's own tasks of level
 *   l; the absent levels are listed.
 * - categories: each failed (sample, case) of the model counts once with its
 *   final category (classify's when it ran, else the failing verdict's);
 *   a failed compile is one failure (the journal gives it no case).
 * - clean: a correct sample none of whose correctness verdicts lists a
 *   defect (a contract broken with no effect on the output, which only
 *   --strict fails); the clean rate is clean / n beside correct / n. */
#ifndef NPUKB_METRICS_H
#define NPUKB_METRICS_H

#include <stddef.h>
#include <stdio.h>

#include "journal_read.h"

#define NPUKB_METRICS_NK 3    /* k = 1, 5, 10 */
#define NPUKB_METRICS_NFAST 6 /* p = 0, 0.5, 0.8, 1, 1.5, 2 */
#define NPUKB_SUSPECT_SPEEDUP 10.0

extern const unsigned npukb_metrics_k[NPUKB_METRICS_NK];
extern const double npukb_metrics_p[NPUKB_METRICS_NFAST];
/* The p values as the reports name them ("0", "0.5", ...). */
extern const char *const npukb_metrics_p_names[NPUKB_METRICS_NFAST];
/* NPUKernelBench's weights of levels 1-3 in the weighted score. */
extern const double npukb_metrics_level_weight[3];

/* A figure that may be unavailable: then value is 0 and reason says why
 * (static text, e.g. "n<k"). */
struct npukb_figure {
	int available;
	double value;
	const char *reason;
};

/* 1 - C(n-c,k)/C(n,k) as a product (no binomials); n<k -> not available. */
struct npukb_figure npukb_pass_at_k(unsigned long n, unsigned long c, unsigned long k);

/* speedup > p, where values within a relative 1e-9 of p count as equal:
 * a geometric mean goes through log/exp, and a sample exactly as fast as
 * p x the answer must not pass for faster by a rounding error. */
int npukb_speedup_exceeds(double speedup, double p);

/* Geometric mean of n positive values; not available when n == 0 or any
 * value is not positive and finite. */
struct npukb_figure npukb_geomean(const double *v, size_t n);

/* "level2" from "level2/Norm/RmsNorm"; "unknown" when the id has no
 * levelN/ prefix. Writes into buf. */
const char *npukb_task_level(const char *task_id, char *buf, size_t len);

struct npukb_category_count {
	char *name;
	size_t count;
};

struct npukb_task_metrics {
	char *task_id;
	char *level;
	int missing;         /* no verdict for it in this run (other runs have it) */
	size_t n;            /* judged model samples */
	size_t n_skipped;    /* model samples whose compile was skipped */
	size_t n_compiled;
	size_t n_correct;
	/* of them, correct with no defect listed on any case (what a
	 * --strict run would count correct) */
	size_t n_clean;
	size_t ncases;
	size_t n_unjudged;   /* (compiled sample, case) pairs with no verdict */
	size_t n_case_passes; /* (model sample, case) pairs passed */
	/* NPUKernelBench's task score: n_case_passes / (n * ncases), 0 when
	 * no sample compiled; not available when n == 0 */
	struct npukb_figure case_score;
	int has_answer;
	int answer_correct;
	struct npukb_figure pass_compile[NPUKB_METRICS_NK];
	struct npukb_figure pass_correct[NPUKB_METRICS_NK];
	struct npukb_figure speedup; /* best correct sample's */
	char *best_sample;           /* NULL when speedup is not available */
	size_t n_speedups;           /* correct samples with a speedup */
	double *speedups;            /* theirs, in sample order */
	size_t nsuspects;            /* of them, above NPUKB_SUSPECT_SPEEDUP */
	char **suspects;             /* their sample ids */
	size_t nfailures;            /* failed (sample, case) of the model */
	size_t ncategories;
	struct npukb_category_count *categories;
};

struct npukb_agg_metrics {
	char *name;                  /* "level1" ... or "overall" */
	size_t ntasks;
	size_t ntasks_missing;
	size_t nsamples;
	size_t ncompiled;
	size_t ncorrect;
	size_t nclean;                    /* correct without defects */
	size_t ntasks_scored;             /* tasks with a judged model sample */
	struct npukb_figure case_score;   /* mean of their case_score */
	struct npukb_figure pass_compile[NPUKB_METRICS_NK];
	struct npukb_figure pass_correct[NPUKB_METRICS_NK];
	size_t ntasks_k[NPUKB_METRICS_NK]; /* tasks with n >= k */
	struct npukb_figure fast[NPUKB_METRICS_NFAST];
	size_t nfast[NPUKB_METRICS_NFAST]; /* tasks counted in fast[i] */
	size_t ntasks_correct_untimed; /* correct, but no speedup available */
	struct npukb_figure geomean_speedup; /* over every correct sample timed */
	size_t n_speedups;
	size_t n_suspect;
	size_t nfailures;
	size_t ncategories;
	struct npukb_category_count *categories; /* count desc, then name */
};

struct npukb_run_metrics {
	char *run_id;
	char *backend, *soc, *toolchain, *started; /* NULL when unknown */
	char *label;                       /* `run --label`; NULL when none */
	size_t nsources;
	char **sources;
	size_t ntasks;
	struct npukb_task_metrics *tasks;  /* sorted by id */
	size_t nlevels;
	struct npukb_agg_metrics *levels;  /* sorted by level number */
	struct npukb_agg_metrics overall;
	struct npukb_figure fast0_weighted_score;
	char levels_missing[64];           /* "level3" or "level1, level3"; "" */
	struct npukb_figure npukernelbench_score;
	/* per level 1-3: its score (not available: no judged task), the
	 * tasks it was taken over and the level's tasks (coverage) */
	struct npukb_figure nkb_level_score[3];
	size_t nkb_tasks_judged[3];
	size_t nkb_tasks_total[3];
};

/* The tasks each of levels 1-3 has (counts[l-1]) under levels_dir: every
 * level<N>/<Category>/<Task>/task.xml. 0 or a negative errno. */
int npukb_metrics_count_level_tasks(const char *levels_dir, size_t counts[3]);
/* Coverage denominators: by default a level's tasks are those the run
 * and the universe name; counts (of npukb_metrics_count_level_tasks)
 * replace them where larger. */
void npukb_metrics_set_level_tasks(struct npukb_run_metrics *m, const size_t counts[3]);
/* Both of the above over levels_dir (NULL: $NPUKB_DATADIR/levels, else the
 * installed levels); a folder that cannot be read changes nothing. */
void npukb_metrics_cover_levels(struct npukb_run_metrics *m, const char *levels_dir);

/* Metrics of run. universe (may be NULL) lists task ids that other runs
 * shown beside this one have: those missing here are reported as missing
 * tasks. Returns 0 or -ENOMEM (err filled). */
int npukb_metrics_compute(const struct npukb_jrun *run, const char *const *universe,
			  size_t nuniverse, struct npukb_run_metrics *out, char *err,
			  size_t errlen);
void npukb_run_metrics_free(struct npukb_run_metrics *m);

enum npukb_report_by {
	NPUKB_REPORT_BY_LEVEL = 1, /* levels and overall */
	NPUKB_REPORT_BY_TASK,      /* tasks and overall */
	NPUKB_REPORT_BY_ALL        /* tasks, levels and overall */
};

/* The report as JSON (metrics_json.c): fixed key order, numbers in the C
 * locale, figures that are not available as null with a "reason". Returns
 * 0 or -EIO. */
int npukb_metrics_write_json(FILE *f, const struct npukb_run_metrics *runs, size_t nruns,
			     const char *const *warnings, size_t nwarnings,
			     enum npukb_report_by by);

#endif
