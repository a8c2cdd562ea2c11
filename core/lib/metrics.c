/* metrics.c - from a run's verdicts to the published figures. The
 * definitions are in metrics.h; this file only implements them (the JSON
 * report is metrics_json.c). */
#include "data_path.h"
#include "metrics.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const unsigned npukb_metrics_k[NPUKB_METRICS_NK] = { 1, 5, 10 };
const double npukb_metrics_p[NPUKB_METRICS_NFAST] = { 0, 0.5, 0.8, 1, 1.5, 2 };
const char *const npukb_metrics_p_names[NPUKB_METRICS_NFAST] = {
	"0", "0.5", "0.8", "1", "1.5", "2"
};
const double npukb_metrics_level_weight[3] = { 0.2, 0.3, 0.5 };

static const char ANSWER_ID[] = "answer";

static struct npukb_figure figure(double v)
{
	struct npukb_figure f = { 1, v, NULL };
	return f;
}

static struct npukb_figure not_available(const char *reason)
{
	struct npukb_figure f = { 0, 0, reason };
	return f;
}

struct npukb_figure npukb_pass_at_k(unsigned long n, unsigned long c, unsigned long k)
{
	double fail = 1.0;
	unsigned long i;
	if (k == 0 || n < k)
		return not_available("n<k");
	if (c > n)
		c = n;
	if (n - c < k)
		return figure(1.0);
	/* C(n-c,k)/C(n,k) = prod_{i=n-c+1}^{n} (1 - k/i): every factor is in
	 * (0,1], so nothing overflows or cancels */
	for (i = n - c + 1; i <= n; i++)
		fail *= 1.0 - (double)k / (double)i;
	return figure(1.0 - fail);
}

int npukb_speedup_exceeds(double speedup, double p)
{
	return speedup > p * (1.0 + 1e-9);
}

struct npukb_figure npukb_geomean(const double *v, size_t n)
{
	double sum = 0;
	size_t i;
	if (n == 0)
		return not_available("no value");
	for (i = 0; i < n; i++) {
		if (!(v[i] > 0) || !isfinite(v[i]))
			return not_available("a value is not positive");
		sum += log(v[i]);
	}
	if (n == 1)
		return figure(v[0]); /* exact, as printed */
	return figure(exp(sum / (double)n));
}

const char *npukb_task_level(const char *task_id, char *buf, size_t len)
{
	size_t d = 0;
	if (strncmp(task_id, "level", 5) == 0) {
		while (task_id[5 + d] >= '0' && task_id[5 + d] <= '9')
			d++;
		if (d > 0 && d < 8 && (task_id[5 + d] == '/' || task_id[5 + d] == '\0')) {
			snprintf(buf, len, "%.*s", (int)(5 + d), task_id);
			return buf;
		}
	}
	snprintf(buf, len, "unknown");
	return buf;
}

/* ---- categories ---------------------------------------------------------- */

static int cat_add(struct npukb_category_count **cats, size_t *n, const char *name,
		   size_t count)
{
	struct npukb_category_count *grown;
	size_t i;
	for (i = 0; i < *n; i++)
		if (strcmp((*cats)[i].name, name) == 0) {
			(*cats)[i].count += count;
			return 0;
		}
	grown = realloc(*cats, (*n + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	*cats = grown;
	if (!(grown[*n].name = strdup(name)))
		return -ENOMEM;
	grown[*n].count = count;
	(*n)++;
	return 0;
}

static int cat_cmp(const void *a, const void *b)
{
	const struct npukb_category_count *x = a, *y = b;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->name, y->name);
}

static void cats_free(struct npukb_category_count *cats, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		free(cats[i].name);
	free(cats);
}

/* ---- one task ------------------------------------------------------------ */

/* What the journal says about one sample of a task: the latest verdict of
 * each kind (later records win). */
struct sample_state {
	const char *id;
	const struct npukb_jverdict *compile, *compile_cls;
	const struct npukb_jverdict **corr, **cls, **perf; /* per case */
};

struct task_scan {
	const struct npukb_jverdict **v; /* this task's verdicts, file order */
	size_t nv;
	const char **cases;
	size_t ncases;
	struct sample_state *samples;
	size_t nsamples;
};

static void scan_free(struct task_scan *t)
{
	size_t i;
	for (i = 0; i < t->nsamples; i++) {
		free(t->samples[i].corr);
		free(t->samples[i].cls);
		free(t->samples[i].perf);
	}
	free(t->samples);
	free(t->cases);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int sample_cmp(const void *a, const void *b)
{
	const struct sample_state *x = a, *y = b;
	return strcmp(x->id, y->id);
}

static long find_str(const char **list, size_t n, const char *s)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (strcmp(list[i], s) == 0)
			return (long)i;
	return -1;
}

static int scan_task(struct task_scan *t)
{
	size_t i, j;
	t->cases = calloc(t->nv + 1, sizeof(*t->cases));
	t->samples = calloc(t->nv + 1, sizeof(*t->samples));
	if (!t->cases || !t->samples)
		return -ENOMEM;
	for (i = 0; i < t->nv; i++) {
		const struct npukb_jverdict *v = t->v[i];
		if (v->case_id && find_str(t->cases, t->ncases, v->case_id) < 0)
			t->cases[t->ncases++] = v->case_id;
		for (j = 0; j < t->nsamples; j++)
			if (strcmp(t->samples[j].id, v->sample) == 0)
				break;
		if (j == t->nsamples)
			t->samples[t->nsamples++].id = v->sample;
	}
	/* cases and samples in name order: the report must not depend on the
	 * order the workers finished in */
	qsort(t->cases, t->ncases, sizeof(*t->cases), cmp_str);
	qsort(t->samples, t->nsamples, sizeof(*t->samples), sample_cmp);
	for (j = 0; j < t->nsamples; j++) {
		struct sample_state *s = &t->samples[j];
		s->corr = calloc(t->ncases + 1, sizeof(*s->corr));
		s->cls = calloc(t->ncases + 1, sizeof(*s->cls));
		s->perf = calloc(t->ncases + 1, sizeof(*s->perf));
		if (!s->corr || !s->cls || !s->perf)
			return -ENOMEM;
	}
	for (i = 0; i < t->nv; i++) {
		const struct npukb_jverdict *v = t->v[i];
		struct sample_state *s = NULL;
		long c = v->case_id ? find_str(t->cases, t->ncases, v->case_id) : -1;
		for (j = 0; j < t->nsamples; j++)
			if (strcmp(t->samples[j].id, v->sample) == 0)
				s = &t->samples[j];
		switch (v->stage) {
		case NPUKB_STAGE_COMPILE:
			s->compile = v;
			break;
		case NPUKB_STAGE_CORRECTNESS:
			if (c >= 0)
				s->corr[c] = v;
			break;
		case NPUKB_STAGE_PERFORMANCE:
			if (c >= 0)
				s->perf[c] = v;
			break;
		case NPUKB_STAGE_CLASSIFY:
			if (c >= 0)
				s->cls[c] = v;
			else
				s->compile_cls = v;
			break;
		}
	}
	return 0;
}

static int judged(const struct sample_state *s)
{
	return s->compile &&
	       (s->compile->outcome == NPUKB_PASS || s->compile->outcome == NPUKB_FAIL);
}

static int is_correct(const struct sample_state *s, size_t ncases)
{
	size_t i;
	if (!s->compile || s->compile->outcome != NPUKB_PASS || ncases == 0)
		return 0;
	for (i = 0; i < ncases; i++)
		if (!s->corr[i] || s->corr[i]->outcome != NPUKB_PASS)
			return 0;
	return 1;
}

/* No correctness verdict of s lists a defect. */
static int is_clean(const struct sample_state *s, size_t ncases)
{
	for (size_t i = 0; i < ncases; i++)
		if (s->corr[i] && s->corr[i]->defects && *s->corr[i]->defects)
			return 0;
	return 1;
}

static const char *final_category(const struct npukb_jverdict *failed,
				  const struct npukb_jverdict *cls)
{
	if (cls && cls->outcome == NPUKB_FAIL && cls->category)
		return cls->category;
	if (failed->category)
		return failed->category;
	return "uncategorized";
}

static const struct npukb_jverdict *timed(const struct npukb_jverdict *perf)
{
	return perf && perf->outcome == NPUKB_PASS && perf->has_timing ? perf : NULL;
}

/* Speedup of sample s over answer a on case i; <= 0 when not measurable
 * on a common unit. */
static double case_speedup(const struct npukb_jverdict *a, const struct npukb_jverdict *s)
{
	if (a->cycles > 0 && s->cycles > 0)
		return a->cycles / s->cycles;
	if (a->time_us > 0 && s->time_us > 0)
		return a->time_us / s->time_us;
	return 0;
}

static int task_metrics(struct task_scan *t, struct npukb_task_metrics *m)
{
	const struct sample_state *answer = NULL;
	double *ratios;
	size_t i, j, k;
	int answer_timed = 0, rc;

	m->ncases = t->ncases;
	for (j = 0; j < t->nsamples; j++)
		if (strcmp(t->samples[j].id, ANSWER_ID) == 0)
			answer = &t->samples[j];
	if (answer) {
		m->has_answer = 1;
		m->answer_correct = is_correct(answer, t->ncases);
		answer_timed = t->ncases > 0;
		for (i = 0; i < t->ncases; i++)
			if (!timed(answer->perf[i]))
				answer_timed = 0;
	}
	ratios = calloc(t->ncases + 1, sizeof(*ratios));
	m->speedups = calloc(t->nsamples + 1, sizeof(*m->speedups));
	m->suspects = calloc(t->nsamples + 1, sizeof(*m->suspects));
	if (!ratios || !m->speedups || !m->suspects) {
		free(ratios);
		return -ENOMEM;
	}
	m->speedup = not_available("no correct sample");
	for (j = 0; j < t->nsamples; j++) {
		const struct sample_state *s = &t->samples[j];
		struct npukb_figure sp;
		if (s == answer)
			continue;
		if (!judged(s)) {
			m->n_skipped++;
			continue;
		}
		m->n++;
		if (s->compile->outcome == NPUKB_FAIL) {
			if ((rc = cat_add(&m->categories, &m->ncategories,
					  final_category(s->compile, s->compile_cls), 1)) != 0)
				goto out;
			m->nfailures++;
			continue;
		}
		m->n_compiled++;
		for (i = 0; i < t->ncases; i++) {
			if (s->corr[i] && s->corr[i]->outcome == NPUKB_PASS)
				m->n_case_passes++;
			if (!s->corr[i]) {
				m->n_unjudged++;
			} else if (s->corr[i]->outcome == NPUKB_FAIL) {
				if ((rc = cat_add(&m->categories, &m->ncategories,
						  final_category(s->corr[i], s->cls[i]), 1)) != 0)
					goto out;
				m->nfailures++;
			}
		}
		if (!is_correct(s, t->ncases))
			continue;
		m->n_correct++;
		m->n_clean += is_clean(s, t->ncases);
		if (!answer_timed)
			continue;
		for (i = 0, k = 0; i < t->ncases; i++) {
			const struct npukb_jverdict *sv = timed(s->perf[i]);
			double r = sv ? case_speedup(answer->perf[i], sv) : 0;
			if (r <= 0)
				break;
			ratios[k++] = r;
		}
		if (k < t->ncases)
			continue;
		sp = npukb_geomean(ratios, k);
		if (!sp.available)
			continue;
		m->speedups[m->n_speedups++] = sp.value;
		if (npukb_speedup_exceeds(sp.value, NPUKB_SUSPECT_SPEEDUP) &&
		    !(m->suspects[m->nsuspects++] = strdup(s->id))) {
			rc = -ENOMEM;
			goto out;
		}
		if (!m->speedup.available || sp.value > m->speedup.value) {
			m->speedup = figure(sp.value);
			free(m->best_sample);
			if (!(m->best_sample = strdup(s->id))) {
				rc = -ENOMEM;
				goto out;
			}
		}
	}
	m->case_score = m->n == 0 ? not_available("no judged model sample")
		      : t->ncases == 0 ? figure(0)
				       : figure((double)m->n_case_passes /
						((double)m->n * (double)t->ncases));
	if (m->n_correct > 0 && !m->speedup.available)
		m->speedup = not_available(!answer ? "no answer in the run"
					   : !answer_timed ? "no answer timing"
							   : "no sample timing");
	for (i = 0; i < NPUKB_METRICS_NK; i++) {
		m->pass_compile[i] = npukb_pass_at_k(m->n, m->n_compiled, npukb_metrics_k[i]);
		m->pass_correct[i] = npukb_pass_at_k(m->n, m->n_correct, npukb_metrics_k[i]);
	}
	if (m->ncategories > 1) /* qsort wants a non-null array */
		qsort(m->categories, m->ncategories, sizeof(*m->categories), cat_cmp);
	rc = 0;
out:
	free(ratios);
	return rc;
}

static void task_free(struct npukb_task_metrics *m)
{
	size_t i;
	free(m->task_id);
	free(m->level);
	free(m->best_sample);
	free(m->speedups);
	for (i = 0; i < m->nsuspects; i++)
		free(m->suspects[i]);
	free(m->suspects);
	cats_free(m->categories, m->ncategories);
}

/* ---- aggregates ---------------------------------------------------------- */

static int aggregate(struct npukb_agg_metrics *a, const char *name,
		     const struct npukb_task_metrics *tasks, size_t ntasks, const char *level)
{
	double sum_c[NPUKB_METRICS_NK] = { 0 }, sum_k[NPUKB_METRICS_NK] = { 0 }, logs = 0;
	double score_sum = 0;
	size_t i, j;
	memset(a, 0, sizeof(*a));
	if (!(a->name = strdup(name)))
		return -ENOMEM;
	for (i = 0; i < ntasks; i++) {
		const struct npukb_task_metrics *t = &tasks[i];
		if (level && strcmp(t->level, level) != 0)
			continue;
		a->ntasks++;
		a->ntasks_missing += t->missing != 0;
		a->nsamples += t->n;
		a->ncompiled += t->n_compiled;
		a->ncorrect += t->n_correct;
		a->nclean += t->n_clean;
		if (!t->missing && t->case_score.available) {
			a->ntasks_scored++;
			score_sum += t->case_score.value;
		}
		for (j = 0; j < NPUKB_METRICS_NK; j++)
			if (t->pass_correct[j].available) {
				a->ntasks_k[j]++;
				sum_c[j] += t->pass_compile[j].value;
				sum_k[j] += t->pass_correct[j].value;
			}
		for (j = 0; j < NPUKB_METRICS_NFAST; j++)
			if (t->n_correct > 0 &&
			    (j == 0 || (t->speedup.available &&
					npukb_speedup_exceeds(t->speedup.value,
							      npukb_metrics_p[j]))))
				a->nfast[j]++;
		if (t->n_correct > 0 && !t->speedup.available)
			a->ntasks_correct_untimed++;
		for (j = 0; j < t->n_speedups; j++)
			logs += log(t->speedups[j]);
		a->n_speedups += t->n_speedups;
		a->n_suspect += t->nsuspects;
		a->nfailures += t->nfailures;
		for (j = 0; j < t->ncategories; j++)
			if (cat_add(&a->categories, &a->ncategories, t->categories[j].name,
				    t->categories[j].count) != 0)
				return -ENOMEM;
	}
	for (j = 0; j < NPUKB_METRICS_NK; j++) {
		if (a->ntasks_k[j] == 0) {
			a->pass_compile[j] = not_available("no task with n>=k");
			a->pass_correct[j] = a->pass_compile[j];
			continue;
		}
		a->pass_compile[j] = figure(sum_c[j] / (double)a->ntasks_k[j]);
		a->pass_correct[j] = figure(sum_k[j] / (double)a->ntasks_k[j]);
	}
	for (j = 0; j < NPUKB_METRICS_NFAST; j++)
		a->fast[j] = a->ntasks ? figure((double)a->nfast[j] / (double)a->ntasks)
				       : not_available("no task");
	a->case_score = a->ntasks_scored ? figure(score_sum / (double)a->ntasks_scored)
					 : not_available("no judged model sample");
	a->geomean_speedup = a->n_speedups ? figure(exp(logs / (double)a->n_speedups))
					   : not_available("no correct sample with a speedup");
	if (a->ncategories > 1)
		qsort(a->categories, a->ncategories, sizeof(*a->categories), cat_cmp);
	return 0;
}

static void agg_free(struct npukb_agg_metrics *a)
{
	free(a->name);
	cats_free(a->categories, a->ncategories);
}

/* "level2" < "level10" < "unknown" */
static int level_cmp(const void *x, const void *y)
{
	const char *a = *(const char *const *)x, *b = *(const char *const *)y;
	int la = strncmp(a, "level", 5) == 0, lb = strncmp(b, "level", 5) == 0;
	if (la && lb) {
		long na = strtol(a + 5, NULL, 10), nb = strtol(b + 5, NULL, 10);
		if (na != nb)
			return na < nb ? -1 : 1;
	} else if (la != lb) {
		return la ? -1 : 1;
	}
	return strcmp(a, b);
}

static int task_cmp(const void *x, const void *y)
{
	const struct npukb_task_metrics *a = x, *b = y;
	return strcmp(a->task_id, b->task_id);
}

/* verdict pointers sorted by task, then file order */
static int vptr_cmp(const void *x, const void *y)
{
	const struct npukb_jverdict *a = *(const struct npukb_jverdict *const *)x;
	const struct npukb_jverdict *b = *(const struct npukb_jverdict *const *)y;
	int c = strcmp(a->task, b->task);
	if (c)
		return c;
	return a < b ? -1 : a > b;
}

static int copy_meta(struct npukb_run_metrics *m, const struct npukb_jrun *run)
{
	const char *src[6] = { run->run_id, run->backend, run->soc, run->toolchain,
			       run->started, run->label };
	char **dst[6] = { &m->run_id, &m->backend, &m->soc, &m->toolchain, &m->started,
			  &m->label };
	size_t i;
	for (i = 0; i < 6; i++)
		if (src[i] && !(*dst[i] = strdup(src[i])))
			return -ENOMEM;
	m->sources = calloc(run->nsources + 1, sizeof(*m->sources));
	if (!m->sources)
		return -ENOMEM;
	for (i = 0; i < run->nsources; i++) {
		if (!(m->sources[i] = strdup(run->sources[i])))
			return -ENOMEM;
		m->nsources++;
	}
	return 0;
}

/* Adds to *n the <Category>/<Task>/task.xml regular files under dir (a
 * levelN folder; absent: none). */
static int count_tasks(const char *dir, size_t *n)
{
	DIR *d = opendir(dir), *cd;
	struct dirent *e, *t;
	struct stat st;
	if (!d)
		return errno == ENOENT || errno == ENOTDIR ? 0 : -errno;
	while ((e = readdir(d)) != NULL) {
		int cfd;
		if (e->d_name[0] == '.')
			continue;
		cfd = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (cfd < 0)
			continue;
		if (!(cd = fdopendir(cfd))) {
			close(cfd);
			continue;
		}
		while ((t = readdir(cd)) != NULL) {
			char rel[NAME_MAX + 16];
			if (t->d_name[0] == '.')
				continue;
			snprintf(rel, sizeof(rel), "%s/task.xml", t->d_name);
			if (fstatat(cfd, rel, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode))
				(*n)++;
		}
		closedir(cd);
	}
	closedir(d);
	return 0;
}

static const struct npukb_agg_metrics *level_agg(const struct npukb_run_metrics *m, size_t l)
{
	char name[16];
	size_t i;
	snprintf(name, sizeof(name), "level%zu", l + 1);
	for (i = 0; i < m->nlevels; i++)
		if (strcmp(m->levels[i].name, name) == 0)
			return &m->levels[i];
	return NULL;
}

/* Both scores, from the run's own tasks only (see metrics.h). */
static void scores(struct npukb_run_metrics *m)
{
	double sum = 0, wsum = 0, nkb = 0;
	int any = 0;
	size_t l;
	m->levels_missing[0] = '\0';
	for (l = 0; l < 3; l++) {
		const struct npukb_agg_metrics *a = level_agg(m, l);
		size_t own = a ? a->ntasks - a->ntasks_missing : 0;
		m->nkb_tasks_total[l] = a ? a->ntasks : 0;
		m->nkb_tasks_judged[l] = a ? a->ntasks_scored : 0;
		m->nkb_level_score[l] = a ? a->case_score : not_available("no task of the level");
		if (m->nkb_level_score[l].available) {
			nkb += npukb_metrics_level_weight[l] * m->nkb_level_score[l].value;
			any = 1;
		}
		if (own > 0) {
			sum += npukb_metrics_level_weight[l] * (double)a->nfast[0] / (double)own;
			wsum += npukb_metrics_level_weight[l];
			continue;
		}
		if (m->levels_missing[0])
			strcat(m->levels_missing, ", ");
		snprintf(m->levels_missing + strlen(m->levels_missing),
			 sizeof(m->levels_missing) - strlen(m->levels_missing), "level%zu", l + 1);
	}
	m->fast0_weighted_score = wsum > 0 ? figure(sum / wsum) : not_available("no level 1-3 task");
	m->npukernelbench_score = any ? figure(nkb) : not_available("no judged level 1-3 task");
}

void npukb_metrics_set_level_tasks(struct npukb_run_metrics *m, const size_t counts[3])
{
	size_t l;
	for (l = 0; l < 3; l++)
		if (counts[l] > m->nkb_tasks_total[l])
			m->nkb_tasks_total[l] = counts[l];
}

int npukb_metrics_count_level_tasks(const char *levels_dir, size_t counts[3])
{
	size_t l;
	for (l = 0; l < 3; l++) {
		char *dir = NULL;
		int rc;
		counts[l] = 0;
		if (asprintf(&dir, "%s/level%zu", levels_dir, l + 1) < 0)
			return -ENOMEM;
		rc = count_tasks(dir, &counts[l]);
		free(dir);
		if (rc)
			return rc;
	}
	return 0;
}

void npukb_metrics_cover_levels(struct npukb_run_metrics *m, const char *levels_dir)
{
	char *dflt = NULL;
	size_t counts[3];
	if (!levels_dir) {
		if (!(dflt = npukb_data_path("levels")))
			return;
		levels_dir = dflt;
	}
	if (npukb_metrics_count_level_tasks(levels_dir, counts) == 0)
		npukb_metrics_set_level_tasks(m, counts);
	free(dflt);
}

int npukb_metrics_compute(const struct npukb_jrun *run, const char *const *universe,
			  size_t nuniverse, struct npukb_run_metrics *out, char *err,
			  size_t errlen)
{
	const struct npukb_jverdict **vs = NULL;
	const char **levels = NULL;
	size_t i, j, nlev = 0;
	int rc = -ENOMEM;

	memset(out, 0, sizeof(*out));
	if (copy_meta(out, run) != 0)
		goto fail;
	vs = calloc(run->n + 1, sizeof(*vs));
	out->tasks = calloc(run->n + nuniverse + 1, sizeof(*out->tasks));
	if (!vs || !out->tasks)
		goto fail;
	for (i = 0; i < run->n; i++)
		vs[i] = &run->v[i];
	qsort(vs, run->n, sizeof(*vs), vptr_cmp);

	for (i = 0; i < run->n; i = j) {
		struct task_scan scan;
		struct npukb_task_metrics *m = &out->tasks[out->ntasks];
		char lev[32];
		for (j = i; j < run->n && strcmp(vs[j]->task, vs[i]->task) == 0; j++)
			;
		memset(&scan, 0, sizeof(scan));
		scan.v = vs + i;
		scan.nv = j - i;
		out->ntasks++;
		m->task_id = strdup(vs[i]->task);
		m->level = strdup(npukb_task_level(vs[i]->task, lev, sizeof(lev)));
		if (!m->task_id || !m->level)
			goto fail;
		rc = scan_task(&scan);
		if (rc == 0)
			rc = task_metrics(&scan, m);
		scan_free(&scan);
		if (rc != 0)
			goto fail;
	}
	/* tasks other runs have and this one lacks: shown, and counted as
	 * tasks without a correct sample, so runs side by side share one
	 * denominator */
	for (i = 0; i < nuniverse; i++) {
		struct npukb_task_metrics *m;
		char lev[32];
		int found = 0;
		for (j = 0; j < out->ntasks && !found; j++)
			found = strcmp(out->tasks[j].task_id, universe[i]) == 0;
		if (found)
			continue;
		m = &out->tasks[out->ntasks++];
		m->missing = 1;
		m->task_id = strdup(universe[i]);
		m->level = strdup(npukb_task_level(universe[i], lev, sizeof(lev)));
		if (!m->task_id || !m->level)
			goto fail;
		for (j = 0; j < NPUKB_METRICS_NK; j++)
			m->pass_compile[j] = m->pass_correct[j] = not_available("n<k");
		m->speedup = not_available("task missing from the run");
	}
	qsort(out->tasks, out->ntasks, sizeof(*out->tasks), task_cmp);

	levels = calloc(out->ntasks + 1, sizeof(*levels));
	if (!levels)
		goto fail;
	for (i = 0; i < out->ntasks; i++)
		if (find_str(levels, nlev, out->tasks[i].level) < 0)
			levels[nlev++] = out->tasks[i].level;
	qsort(levels, nlev, sizeof(*levels), level_cmp);
	out->levels = calloc(nlev + 1, sizeof(*out->levels));
	if (!out->levels)
		goto fail;
	for (i = 0; i < nlev; i++) {
		out->nlevels++;
		if (aggregate(&out->levels[i], levels[i], out->tasks, out->ntasks, levels[i]) != 0)
			goto fail;
	}
	if (aggregate(&out->overall, "overall", out->tasks, out->ntasks, NULL) != 0)
		goto fail;
	scores(out);
	free(levels);
	free(vs);
	return 0;
fail:
	free(levels);
	free(vs);
	npukb_run_metrics_free(out);
	snprintf(err, errlen, "out of memory");
	return rc;
}

void npukb_run_metrics_free(struct npukb_run_metrics *m)
{
	size_t i;
	for (i = 0; i < m->ntasks; i++)
		task_free(&m->tasks[i]);
	free(m->tasks);
	for (i = 0; i < m->nlevels; i++)
		agg_free(&m->levels[i]);
	free(m->levels);
	agg_free(&m->overall);
	for (i = 0; i < m->nsources; i++)
		free(m->sources[i]);
	free(m->sources);
	free(m->run_id);
	free(m->backend);
	free(m->soc);
	free(m->toolchain);
	free(m->started);
	free(m->label);
	memset(m, 0, sizeof(*m));
}
