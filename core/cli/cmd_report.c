/* cmd_report.c - `npukb report`: the leaderboard figures of one or more
 * journals, as a terminal table and as JSON. One block per run; journals
 * that are shards of one run (same run id) merge. */
#include "cmd_report.h"

#include "journal_read.h"
#include "metrics.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { EXIT_OK = 0, EXIT_USAGE = 2, EXIT_BADINPUT = 3, EXIT_INTERNAL = 4 };

static const char report_usage[] =
	"Usage: npukb report JOURNAL... [--json FILE] [--by task|level|all]\n"
	"The figures a leaderboard is built on, from run journals (journal.jsonl):\n"
	"compile@k and correct@k (unbiased pass@k, k = 1, 5, 10), fast_p (share of\n"
	"tasks with a correct sample faster than p x the expert answer, p = 0, 0.5,\n"
	"0.8, 1, 1.5, 2), the geometric-mean speedup of correct samples, the\n"
	"two level-weighted scores and the failure categories; per level and overall.\n"
	"\n"
	"  --by level   rows per level and overall (default)\n"
	"  --by task    rows per task and overall\n"
	"  --by all     rows per task, per level and overall\n"
	"  --json FILE  also write the figures as JSON to FILE ('-': only the JSON,\n"
	"               on stdout)\n"
	"  -h, --help   show this text\n"
	"\n"
	"Rules: the expert answer (sample \"answer\") is only the speed baseline, never\n"
	"counted as a sample. A sample is correct when it passed every case of the\n"
	"task; a case without a verdict is not passed. pass@k needs n >= k samples:\n"
	"otherwise it shows n<k; a level's pass@k is the mean over its tasks with\n"
	"n >= k, and '(m)' after it says only m tasks had that many. Speedup =\n"
	"answer / sample on the same case (cycles, else microseconds), geometric\n"
	"mean over cases; the speedup column is that mean over correct samples\n"
	"(per task: the best correct sample's); '-' = not available. Above 10x is\n"
	"flagged suspect. clean = correct with no defect listed (a check's finding\n"
	"that would not change the device's output; `run --strict` fails those).\n"
	"Several journals of different runs are shown side by\n"
	"side; a task one run lacks is listed and counted as not solved in fast_p.\n"
	"\n"
	"Scores, each over the run's own tasks only (other runs never change them):\n"
	"  NPUKernelBench score (as NPUKernelBench defines it) = 0.2 S1 + 0.3 S2 + 0.5 S3,\n"
	"    S_l = mean over the run's level-l tasks with a judged sample of\n"
	"    (sample, case) pairs passed / (samples x cases), a sample that did not\n"
	"    compile passing none; a level without such a task adds 0 (weights are\n"
	"    not rescaled). Coverage beside it: tasks judged / tasks of the level.\n"
	"  fast_0-weighted score (npukb's) = sum(w_l F_l) / sum(w_l) over the levels\n"
	"    1-3 the run has tasks of, w = 0.2, 0.3, 0.5, F_l = share of the run's\n"
	"    level-l tasks with a correct sample (fast_0).\n"
	"\n"
	"Exit status: 0 done; 2 usage error; 3 unreadable or invalid journal\n"
	"(FILE:LINE given); 4 npukb could not work (memory, writing FILE).\n";

static void fmt_fig(char *buf, size_t len, struct npukb_figure f, const char *na)
{
	if (f.available)
		snprintf(buf, len, "%.3f", f.value);
	else
		snprintf(buf, len, "%s", na);
}

/* pass@k of an aggregate: the mean, with the count of tasks behind it when
 * some tasks had fewer than k samples. */
static void fmt_passk(char *buf, size_t len, struct npukb_figure f, size_t used, size_t all)
{
	if (!f.available)
		snprintf(buf, len, "n<k");
	else if (used < all)
		snprintf(buf, len, "%.3f(%zu)", f.value, used);
	else
		snprintf(buf, len, "%.3f", f.value);
}

#define NCOLS (3 + 2 * NPUKB_METRICS_NK + NPUKB_METRICS_NFAST + 1)
#define CELL 64

struct row {
	char cell[NCOLS][CELL];
};

static const char *const headers[NCOLS] = {
	"", "tasks", "n", "compile@1", "compile@5", "compile@10", "correct@1", "correct@5",
	"correct@10", "fast_0", "fast_0.5", "fast_0.8", "fast_1", "fast_1.5", "fast_2",
	"speedup"
};

static void agg_row(struct row *r, const struct npukb_agg_metrics *a)
{
	size_t j, c = 0;
	snprintf(r->cell[c++], CELL, "%s", a->name);
	snprintf(r->cell[c++], CELL, "%zu", a->ntasks);
	snprintf(r->cell[c++], CELL, "%zu", a->nsamples);
	for (j = 0; j < NPUKB_METRICS_NK; j++)
		fmt_passk(r->cell[c++], CELL, a->pass_compile[j], a->ntasks_k[j], a->ntasks);
	for (j = 0; j < NPUKB_METRICS_NK; j++)
		fmt_passk(r->cell[c++], CELL, a->pass_correct[j], a->ntasks_k[j], a->ntasks);
	for (j = 0; j < NPUKB_METRICS_NFAST; j++)
		fmt_fig(r->cell[c++], CELL, a->fast[j], "-");
	fmt_fig(r->cell[c++], CELL, a->geomean_speedup, "-");
}

static void task_row(struct row *r, const struct npukb_task_metrics *t)
{
	size_t j, c = 0;
	snprintf(r->cell[c++], CELL, "%s", "");
	snprintf(r->cell[c++], CELL, "%s", t->missing ? "missing" : "1");
	snprintf(r->cell[c++], CELL, "%zu", t->n);
	for (j = 0; j < NPUKB_METRICS_NK; j++)
		fmt_fig(r->cell[c++], CELL, t->pass_compile[j], t->missing ? "-" : "n<k");
	for (j = 0; j < NPUKB_METRICS_NK; j++)
		fmt_fig(r->cell[c++], CELL, t->pass_correct[j], t->missing ? "-" : "n<k");
	for (j = 0; j < NPUKB_METRICS_NFAST; j++) {
		int yes = t->n_correct > 0 &&
			  (j == 0 || (t->speedup.available &&
				      npukb_speedup_exceeds(t->speedup.value, npukb_metrics_p[j])));
		snprintf(r->cell[c++], CELL, "%s", yes ? "yes" : "no");
	}
	fmt_fig(r->cell[c++], CELL, t->speedup, "-");
}

static void print_table(const struct npukb_run_metrics *m, enum npukb_report_by by)
{
	struct row *rows = calloc(m->ntasks + m->nlevels + 2, sizeof(*rows));
	const char **names = calloc(m->ntasks + m->nlevels + 2, sizeof(*names));
	size_t width[NCOLS], n = 0, i, c;
	if (!rows || !names) {
		free(rows);
		free(names);
		printf("(out of memory)\n");
		return;
	}
	if (by != NPUKB_REPORT_BY_LEVEL)
		for (i = 0; i < m->ntasks; i++) {
			task_row(&rows[n], &m->tasks[i]);
			names[n++] = m->tasks[i].task_id;
		}
	if (by != NPUKB_REPORT_BY_TASK)
		for (i = 0; i < m->nlevels; i++) {
			agg_row(&rows[n], &m->levels[i]);
			names[n++] = m->levels[i].name;
		}
	agg_row(&rows[n], &m->overall);
	names[n++] = m->overall.name;

	for (c = 0; c < NCOLS; c++)
		width[c] = strlen(headers[c]);
	for (i = 0; i < n; i++) {
		if (strlen(names[i]) > width[0])
			width[0] = strlen(names[i]);
		for (c = 1; c < NCOLS; c++)
			if (strlen(rows[i].cell[c]) > width[c])
				width[c] = strlen(rows[i].cell[c]);
	}
	printf("%-*s", (int)width[0], "");
	for (c = 1; c < NCOLS; c++)
		printf("  %*s", (int)width[c], headers[c]);
	printf("\n");
	for (i = 0; i < n; i++) {
		printf("%-*s", (int)width[0], names[i]);
		for (c = 1; c < NCOLS; c++)
			printf("  %*s", (int)width[c], rows[i].cell[c]);
		printf("\n");
	}
	free(rows);
	free(names);
}

static void print_categories(const struct npukb_agg_metrics *a)
{
	size_t i;
	printf("  %s: %zu failure%s", a->name, a->nfailures, a->nfailures == 1 ? "" : "s");
	for (i = 0; i < a->ncategories; i++)
		printf("%s %s %zu (%.1f%%)", i ? "," : ":", a->categories[i].name,
		       a->categories[i].count,
		       100.0 * (double)a->categories[i].count / (double)a->nfailures);
	printf("\n");
}

static void print_run(const struct npukb_run_metrics *m, enum npukb_report_by by)
{
	size_t i, j, nmissing = 0, npassk_partial = 0;
	printf("run %s", m->run_id);
	if (m->label)
		printf("  label %s", m->label);
	if (m->backend)
		printf("  backend %s", m->backend);
	if (m->soc)
		printf("  soc %s", m->soc);
	printf("  journal%s", m->nsources == 1 ? "" : "s");
	for (i = 0; i < m->nsources; i++)
		printf(" %s", m->sources[i]);
	printf("\n");
	print_table(m, by);

	for (j = 0; j < NPUKB_METRICS_NK; j++)
		npassk_partial += m->overall.ntasks_k[j] < m->overall.ntasks &&
				  m->overall.ntasks_k[j] > 0;
	if (npassk_partial)
		printf("(m) after pass@k: mean over the m tasks with at least k samples\n");
	printf("NPUKernelBench score (0.2 L1 + 0.3 L2 + 0.5 L3 of case pass shares): ");
	if (m->npukernelbench_score.available)
		printf("%.3f", m->npukernelbench_score.value);
	else
		printf("n/a (%s)", m->npukernelbench_score.reason);
	printf("\n  coverage (tasks judged / tasks of the level):");
	for (j = 0; j < 3; j++) {
		char buf[32];
		fmt_fig(buf, sizeof(buf), m->nkb_level_score[j], "-");
		printf("%s L%zu %s, %zu/%zu", j ? ";" : "", j + 1, buf, m->nkb_tasks_judged[j],
		       m->nkb_tasks_total[j]);
	}
	printf("\nfast_0-weighted score (0.2 L1 + 0.3 L2 + 0.5 L3 of fast_0): ");
	if (m->fast0_weighted_score.available)
		printf("%.3f", m->fast0_weighted_score.value);
	else
		printf("n/a (%s)", m->fast0_weighted_score.reason);
	if (m->levels_missing[0])
		printf("; missing %s, weights of the levels present rescaled", m->levels_missing);
	printf("\n");
	/* the clean rate beside the correct rate: what --strict would count */
	printf("correct: %zu of %zu samples (%.1f%%); clean (no defect listed): %zu (%.1f%%)\n",
	       m->overall.ncorrect, m->overall.nsamples,
	       m->overall.nsamples ? 100.0 * (double)m->overall.ncorrect / (double)m->overall.nsamples : 0.0,
	       m->overall.nclean,
	       m->overall.nsamples ? 100.0 * (double)m->overall.nclean / (double)m->overall.nsamples : 0.0);
	printf("speedups: %zu correct sample%s timed", m->overall.n_speedups,
	       m->overall.n_speedups == 1 ? "" : "s");
	if (m->overall.ntasks_correct_untimed)
		printf("; %zu task%s solved without a speedup (no timing)",
		       m->overall.ntasks_correct_untimed,
		       m->overall.ntasks_correct_untimed == 1 ? "" : "s");
	printf("\n");
	for (i = 0; i < m->ntasks; i++)
		for (j = 0; j < m->tasks[i].nsuspects; j++)
			printf("suspect-speedup: %s %s (> %gx)\n", m->tasks[i].task_id,
			       m->tasks[i].suspects[j], NPUKB_SUSPECT_SPEEDUP);
	for (i = 0; i < m->ntasks; i++)
		if (m->tasks[i].missing) {
			printf("%s %s", nmissing++ ? "," : "missing here (present in another run):",
			       m->tasks[i].task_id);
		}
	if (nmissing)
		printf("\n");
	printf("failure categories:\n");
	if (by != NPUKB_REPORT_BY_TASK)
		for (i = 0; i < m->nlevels; i++)
			print_categories(&m->levels[i]);
	print_categories(&m->overall);
}

static int cmp_cstr(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Every task id of every run, sorted and unique. NULL on no memory. */
static const char **task_universe(const struct npukb_jset *set, size_t *n)
{
	size_t total = 0, i, j, k = 0;
	const char **all;
	for (i = 0; i < set->nruns; i++)
		total += set->runs[i].n;
	all = calloc(total + 1, sizeof(*all));
	if (!all)
		return NULL;
	for (i = 0; i < set->nruns; i++)
		for (j = 0; j < set->runs[i].n; j++)
			all[k++] = set->runs[i].v[j].task;
	qsort(all, k, sizeof(*all), cmp_cstr);
	*n = 0;
	for (i = 0; i < k; i++)
		if (*n == 0 || strcmp(all[*n - 1], all[i]) != 0)
			all[(*n)++] = all[i];
	return all;
}

int npukb_cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", required_argument, NULL, 'j' },
		{ "by", required_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	enum npukb_report_by by = NPUKB_REPORT_BY_LEVEL;
	const char *json = NULL;
	const char **universe = NULL;
	struct npukb_jset set;
	struct npukb_run_metrics *runs = NULL;
	size_t nuniverse = 0, nruns = 0, i;
	char err[1024];
	int c, rc = EXIT_OK;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'j': json = optarg; break;
		case 'b':
			if (strcmp(optarg, "level") == 0)
				by = NPUKB_REPORT_BY_LEVEL;
			else if (strcmp(optarg, "task") == 0)
				by = NPUKB_REPORT_BY_TASK;
			else if (strcmp(optarg, "all") == 0)
				by = NPUKB_REPORT_BY_ALL;
			else {
				fprintf(stderr, "npukb report: bad value '%s' for --by: "
						"expected task, level or all\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'h': fputs(report_usage, stdout); return EXIT_OK;
		default: fputs("Try 'npukb report --help'.\n", stderr); return EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		fputs("npukb report: no journal given\nTry 'npukb report --help'.\n", stderr);
		return EXIT_USAGE;
	}

	memset(&set, 0, sizeof(set));
	for (i = (size_t)optind; i < (size_t)argc; i++) {
		int r = npukb_journal_read(&set, argv[i], err, sizeof(err));
		if (r != 0) {
			fprintf(stderr, "npukb report: %s\n", err);
			rc = r == -ENOMEM ? EXIT_INTERNAL : EXIT_BADINPUT;
			goto out;
		}
	}
	if (npukb_jset_warn_incomplete(&set) != 0) {
		fputs("npukb report: out of memory\n", stderr);
		rc = EXIT_INTERNAL;
		goto out;
	}
	for (i = 0; i < set.nwarnings; i++)
		fprintf(stderr, "npukb report: warning: %s\n", set.warnings[i]);
	if (set.nruns == 0) {
		fprintf(stderr, "npukb report: no run record in the journal%s given\n",
			argc - optind > 1 ? "s" : "");
		rc = EXIT_BADINPUT;
		goto out;
	}
	universe = task_universe(&set, &nuniverse);
	runs = calloc(set.nruns, sizeof(*runs));
	if (!universe || !runs) {
		fputs("npukb report: out of memory\n", stderr);
		rc = EXIT_INTERNAL;
		goto out;
	}
	for (i = 0; i < set.nruns; i++) {
		if (npukb_metrics_compute(&set.runs[i], universe, nuniverse, &runs[i], err,
					  sizeof(err)) != 0) {
			fprintf(stderr, "npukb report: %s\n", err);
			rc = EXIT_INTERNAL;
			goto out;
		}
		npukb_metrics_cover_levels(&runs[i], NULL);
		nruns++;
	}
	/* with --json - stdout carries the JSON alone */
	for (i = 0; (!json || strcmp(json, "-") != 0) && i < nruns; i++) {
		if (i)
			printf("\n");
		print_run(&runs[i], by);
	}
	if (json) {
		int to_stdout = strcmp(json, "-") == 0;
		FILE *f = to_stdout ? stdout : fopen(json, "we");
		int wr;
		if (!f) {
			fprintf(stderr, "npukb report: cannot write %s: %s\n", json, strerror(errno));
			rc = EXIT_INTERNAL;
			goto out;
		}
		wr = npukb_metrics_write_json(f, runs, nruns, (const char *const *)set.warnings,
					      set.nwarnings, by);
		if (!to_stdout && fclose(f) != 0)
			wr = -EIO;
		if (wr != 0) {
			fprintf(stderr, "npukb report: cannot write %s\n", json);
			rc = EXIT_INTERNAL;
		}
	}
out:
	for (i = 0; i < nruns; i++)
		npukb_run_metrics_free(&runs[i]);
	free(runs);
	free(universe);
	npukb_jset_free(&set);
	return rc;
}
