/* run.c - drive the stages for every (task, sample, case) of a run.
 *
 * The core owns order, work folders, the journal and the results; what a
 * stage decides is the plugin's business. Every verdict is journaled the
 * moment it exists. */
#include "run.h"
#include "case_select.h"

#include "catalog.h"
#include "fsutil.h"
#include "journal.h"
#include "junit.h"
#include "outlock.h"
#include "report_html.h"
#include "results_xml.h"
#include "samples.h"

#include <npukb/util.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

struct run_state {
	const struct npukb_run_config *cfg;
	struct npukb_options options; /* cfg->options with the run's defaults filled in */
	char *dump_dir;
	struct npukb_results *results;
	struct npukb_journal journal;
	struct npukb_backend backend;
	const struct npukb_plugin *stage[NPUKB_STAGE_CLASSIFY + 1];
	char *workroot;
	/* The first I/O error of npukb itself (a full disk, a journal that
	 * cannot be written): the run stops, and no sample is blamed. */
	int io_rc;
	char io_err[1024];
};

/* Sample ids and case ids become folder names: keep them tame. */
static void tame(char *s)
{
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '-' || *s == '_' || *s == '.'))
			*s = '_';
}

static void judge(struct run_state *st, enum npukb_stage_id id, struct npukb_stage_ctx *ctx,
		  struct npukb_verdict *v)
{
	const struct npukb_plugin *p = st->stage[id];
	double t0 = npukb_monotonic_seconds();
	int rc;
	npukb_verdict_init(v, id);
	if (ctx->workdir)
		npukb_mkdir_p(ctx->workdir, 0755);
	rc = p->stage->judge(ctx, v);
	if (rc != 0 || v->outcome == 0) {
		npukb_verdict_clear(v);
		npukb_verdict_fail(v, "internal-error", "the %s stage could not judge: %s",
				   p->name, rc ? strerror(-rc) : "no outcome returned");
	}
	v->wall_seconds = npukb_monotonic_seconds() - t0;
}

/* Below this much free space in the output folder a failed build or run
 * is taken for the disk's fault, not the sample's. */
#define FULL_DISK_BYTES (64u * 1024u)

static void io_failure(struct run_state *st, int rc, const char *path, const char *what)
{
	if (st->io_rc)
		return;
	st->io_rc = rc;
	snprintf(st->io_err, sizeof(st->io_err), "%s: %s: %s", path, what, strerror(-rc));
}

static int disk_full(const char *dir)
{
	struct statvfs fs;
	return statvfs(dir, &fs) == 0 &&
	       (unsigned long long)fs.f_bavail * fs.f_frsize < FULL_DISK_BYTES;
}

static void journal(struct run_state *st, const char *task, const char *sample,
		    const char *case_id, const struct npukb_verdict *v)
{
	int rc;
	if (st->io_rc)
		return;
	rc = npukb_journal_append(&st->journal, task, sample, case_id, v);
	if (rc != 0)
		io_failure(st, rc, st->journal.path, "cannot append to the journal");
	else if (v->outcome == NPUKB_FAIL && disk_full(st->cfg->output_dir))
		/* journaled, but the next reader must know the verdict is suspect */
		io_failure(st, -ENOSPC, st->cfg->output_dir,
			   "the disk is full; the run stops rather than blame the samples");
}

static void classify(struct run_state *st, struct npukb_stage_ctx *base,
		     const struct npukb_verdict *failed, struct npukb_verdict *out,
		     const char *task, const char *sample, const char *case_id)
{
	struct npukb_stage_ctx ctx = *base;
	ctx.failure = failed;
	ctx.workdir = NULL;
	judge(st, NPUKB_STAGE_CLASSIFY, &ctx, out);
	journal(st, task, sample, case_id, out);
}

/* The performance stage on every case of a sample that was correct on all
 * of them. */
static int measure(struct run_state *st, const struct npukb_task *t,
		   struct npukb_sample_result *r, struct npukb_stage_ctx *base, const char *sdir,
		   const struct npukb_verdict *history, size_t nhist)
{
	struct npukb_stage_ctx ctx = *base;
	size_t i;
	ctx.artifact = base->artifact_out;
	ctx.artifact_out = NULL;
	ctx.previous = history;
	ctx.nprevious = nhist;
	for (i = 0; i < t->ncases && !st->io_rc; i++) {
		struct npukb_case_result *cr = &r->cases[i];
		char *pdir;
		if (asprintf(&pdir, "%s/perf-%zu", sdir, i) < 0)
			return -ENOMEM;
		ctx.kcase = &t->cases[i];
		ctx.workdir = pdir;
		judge(st, NPUKB_STAGE_PERFORMANCE, &ctx, &cr->performance);
		journal(st, t->id, r->sample_id, cr->case_id, &cr->performance);
		if (!st->options.keep_workdirs)
			npukb_rm_rf(pdir);
		free(pdir);
	}
	return 0;
}

/* DESIGN.md: after the performance stage the sample is checked once more
 * on a seed it has never seen, so a kernel tuned to the seeds it was
 * validated on (or one whose results depend on leftovers of earlier runs)
 * is caught. The first case is used; a failure there fails that case. */
static int recheck(struct run_state *st, const struct npukb_task *t,
		   struct npukb_sample_result *r, struct npukb_stage_ctx *base, const char *sdir,
		   struct npukb_verdict *history, size_t *nhist)
{
	struct npukb_case_result *cr = &r->cases[0];
	struct npukb_stage_ctx ctx = *base;
	struct npukb_verdict v;
	char *cdir;
	unsigned nseeds = st->options.nseeds ? st->options.nseeds : NPUKB_DEFAULT_SEEDS;

	if (asprintf(&cdir, "%s/recheck", sdir) < 0)
		return -ENOMEM;
	ctx.kcase = &t->cases[0];
	ctx.artifact = base->artifact_out;
	ctx.artifact_out = NULL;
	ctx.previous = history;
	ctx.nprevious = *nhist;
	ctx.workdir = cdir;
	/* seed indices 0..nseeds-1 were the regular pass */
	ctx.seed_offset = nseeds;
	judge(st, NPUKB_STAGE_CORRECTNESS, &ctx, &v);
	if (v.outcome == NPUKB_FAIL) {
		char *msg = NULL;
		if (asprintf(&msg, "failed on re-check with a fresh seed: %s",
			     v.message ? v.message : "") >= 0) {
			free(v.message);
			v.message = msg;
		}
	} else if (v.outcome == NPUKB_PASS && !v.message) {
		v.message = strdup("passed the re-check with a fresh seed");
	}
	journal(st, t->id, r->sample_id, cr->case_id, &v);
	if (v.outcome == NPUKB_FAIL) {
		/* the case's verdict becomes the failure; its timing stays */
		npukb_verdict_clear(&cr->correctness);
		cr->correctness = v;
		npukb_verdict_copy(&history[(*nhist)++], &cr->correctness);
		ctx.previous = history;
		ctx.nprevious = *nhist;
		npukb_verdict_clear(&cr->classify);
		classify(st, &ctx, &cr->correctness, &cr->classify, t->id, r->sample_id,
			 cr->case_id);
	} else {
		npukb_verdict_clear(&v);
	}
	if (!st->options.keep_workdirs)
		npukb_rm_rf(cdir);
	free(cdir);
	return 0;
}

/* Case i of r is decided: tell the progress display. */
static void report_unit(const struct run_state *st, const struct npukb_sample_result *r,
			size_t i)
{
	const char *cat, *rule;
	const struct npukb_verdict *v = npukb_case_outcome(r, i, &cat, &rule);
	npukb_progress_unit(st->cfg->progress, v->outcome, cat);
	if (r->cases[i].correctness.flags)
		npukb_progress_flagged(st->cfg->progress);
}

static int judge_sample(struct run_state *st, const struct npukb_task *t,
			const struct npukb_sample_entry *s)
{
	const struct npukb_run_config *cfg = st->cfg;
	struct npukb_sample_result *r;
	struct npukb_stage_ctx ctx;
	struct npukb_verdict *history;
	char *sdir = NULL, *tid = strdup(t->id), *sid = strdup(s->id);
	size_t i, nhist = 0, passed = 0;
	int rc = 0;

	r = npukb_results_add(st->results, t->id, s->id, t->ncases);
	history = calloc(t->ncases + 2, sizeof(*history));
	if (!r || !history || !tid || !sid) {
		rc = -ENOMEM;
		goto out;
	}
	r->is_answer = s->is_answer;
	npukb_progress_sample(cfg->progress, t->id, s->id);
	tame(tid);
	tame(sid);
	if (asprintf(&sdir, "%s/%s/%s", st->workroot, tid, sid) < 0) {
		sdir = NULL;
		rc = -ENOMEM;
		goto out;
	}
	npukb_rm_rf(sdir);
	if ((rc = npukb_mkdir_p(sdir, 0755)) != 0)
		goto out;

	memset(&ctx, 0, sizeof(ctx));
	ctx.task = t;
	ctx.sample = &s->pub;
	ctx.options = &st->options;
	ctx.backend = &st->backend;

	{
		char *bdir;
		if (asprintf(&bdir, "%s/build", sdir) < 0) {
			rc = -ENOMEM;
			goto out;
		}
		ctx.workdir = bdir;
		judge(st, NPUKB_STAGE_COMPILE, &ctx, &r->compile);
		free(bdir);
	}
	journal(st, t->id, s->id, NULL, &r->compile);
	npukb_verdict_copy(&history[nhist++], &r->compile);
	if (r->compile.outcome == NPUKB_FAIL)
		classify(st, &ctx, &r->compile, &r->compile_classify, t->id, s->id, NULL);

	for (i = 0; i < t->ncases && !st->io_rc; i++) {
		struct npukb_case_result *cr = &r->cases[i];
		const struct npukb_case *c = &t->cases[i];
		char *cdir, *cid = strdup(c->id);
		if (!cid || !(cr->case_id = strdup(c->id))) {
			free(cid);
			rc = -ENOMEM;
			break;
		}
		tame(cid);
		if (r->compile.outcome != NPUKB_PASS) {
			free(cid);
			if (i > 0)
				report_unit(st, r, i); /* the compile verdict decides every case */
			continue;
		}
		if (asprintf(&cdir, "%s/case-%s", sdir, cid) < 0) {
			free(cid);
			rc = -ENOMEM;
			break;
		}
		free(cid);
		ctx.kcase = c;
		ctx.artifact = ctx.artifact_out;
		ctx.previous = history;
		ctx.nprevious = nhist;
		ctx.workdir = cdir;
		judge(st, NPUKB_STAGE_CORRECTNESS, &ctx, &cr->correctness);
		journal(st, t->id, s->id, c->id, &cr->correctness);
		npukb_verdict_copy(&history[nhist++], &cr->correctness);
		ctx.previous = history;
		ctx.nprevious = nhist;
		if (cr->correctness.outcome == NPUKB_FAIL)
			classify(st, &ctx, &cr->correctness, &cr->classify, t->id, s->id, c->id);
		else if (cr->correctness.outcome == NPUKB_PASS)
			passed++;
		if (!cfg->options.keep_workdirs)
			npukb_rm_rf(cdir);
		free(cdir);
		/* case 0 is reported last: the re-check below may still fail it */
		if (i > 0)
			report_unit(st, r, i);
	}
	/* Performance only for a sample correct on every case (issue 5): a
	 * speedup of a wrong kernel means nothing. Then the re-check. */
	if (rc == 0 && !st->io_rc && r->compile.outcome == NPUKB_PASS && t->ncases &&
	    passed == t->ncases) {
		rc = measure(st, t, r, &ctx, sdir, history, nhist);
		if (rc == 0)
			rc = recheck(st, t, r, &ctx, sdir, history, &nhist);
	}
	if (rc == 0 && t->ncases)
		report_unit(st, r, 0);
	if (rc == 0)
		rc = st->io_rc;

out:
	if (ctx.artifact_out && st->backend.desc->backend->cleanup)
		st->backend.desc->backend->cleanup(ctx.artifact_out);
	free(ctx.artifact_out);
	if (sdir && !cfg->options.keep_workdirs)
		npukb_rm_rf(sdir);
	for (i = 0; history && i < nhist; i++)
		npukb_verdict_clear(&history[i]);
	free(history);
	free(sdir);
	free(tid);
	free(sid);
	return rc;
}

struct sample_list {
	struct npukb_sample_entry *items;
	size_t n, cap;
};

static int push_sample(struct sample_list *l, const char *dir, const char *id, int answer,
		       char *err, size_t errlen)
{
	int rc;
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 8;
		struct npukb_sample_entry *g = realloc(l->items, cap * sizeof(*g));
		if (!g) {
			snprintf(err, errlen, "out of memory");
			return -ENOMEM;
		}
		l->items = g;
		l->cap = cap;
	}
	rc = npukb_sample_load(dir, id, &l->items[l->n], err, errlen);
	if (rc == 0)
		l->items[l->n++].is_answer = answer;
	return rc;
}

static void free_samples(struct sample_list *l)
{
	while (l->n)
		npukb_sample_free(&l->items[--l->n]);
	free(l->items);
	memset(l, 0, sizeof(*l));
}

/* The last n path components of dir (n >= 1), or NULL when dir has fewer. */
static const char *path_suffix(const char *dir, unsigned n)
{
	const char *p = dir + strlen(dir);
	while (p > dir) {
		p--;
		if (*p == '/' && --n == 0)
			return p + 1;
	}
	return NULL;
}

static unsigned components(const char *id)
{
	unsigned n = 1;
	for (; *id; id++)
		n += *id == '/';
	return n;
}

/* Two folders with the same base name (a/k, b/k), or a sample folder named
 * like the expert answer, must not merge into one sample: each such id
 * grows by its folder's parent components until the ids differ. The same
 * folder given twice is refused. */
static int unique_ids(struct sample_list *l, char *err, size_t errlen)
{
	size_t i, j;
	int again = 1;
	while (again) {
		again = 0;
		for (i = 0; i < l->n && !again; i++)
			for (j = i + 1; j < l->n && !again; j++) {
				struct npukb_sample_entry *a = &l->items[i], *b = &l->items[j];
				size_t k;
				if (strcmp(a->id, b->id) != 0)
					continue;
				if (strcmp(a->dir, b->dir) == 0) {
					snprintf(err, errlen, "%s: the same sample folder is given twice",
						 a->dir);
					return NPUKB_RUN_EBADINPUT;
				}
				for (k = 0; k < 2; k++) {
					struct npukb_sample_entry *e = k ? b : a;
					const char *longer;
					char *id;
					if (e->is_answer)
						continue;
					longer = path_suffix(e->dir, components(e->id) + 1);
					if (!longer || !(id = strdup(longer)))
						continue;
					free(e->id);
					e->id = id;
					e->pub.id = id;
					again = 1;
				}
				if (!again) {
					snprintf(err, errlen, "%s and %s: cannot tell the samples apart",
						 a->dir, b->dir);
					return NPUKB_RUN_EBADINPUT;
				}
			}
	}
	return 0;
}

/* The samples to judge for task t, in order: the expert answer, the
 * explicit sample folders, then each folder of <samples_root>/<task id>/. */
static int collect_samples(const struct npukb_run_config *cfg, const struct npukb_task *t,
			   struct sample_list *l, char *err, size_t errlen)
{
	char *path = NULL;
	size_t i;
	int rc = 0;

	memset(l, 0, sizeof(*l));
	if (cfg->include_answer) {
		if (asprintf(&path, "%s/answer", t->dir) < 0)
			return -ENOMEM;
		if (npukb_is_dir(path))
			rc = push_sample(l, path, "answer", 1, err, errlen);
		free(path);
	}
	for (i = 0; rc == 0 && cfg->sample_dirs && cfg->sample_dirs[i]; i++)
		rc = push_sample(l, cfg->sample_dirs[i], NULL, 0, err, errlen);
	if (rc == 0 && cfg->samples_root) {
		char **subs = NULL;
		size_t ns = 0;
		if (asprintf(&path, "%s/%s", cfg->samples_root, t->id) < 0)
			path = NULL, rc = -ENOMEM;
		else if (npukb_is_dir(path))
			rc = npukb_list_subdirs(path, &subs, &ns);
		for (i = 0; rc == 0 && i < ns; i++) {
			char *sp;
			if (asprintf(&sp, "%s/%s", path, subs[i]) < 0) {
				rc = -ENOMEM;
				break;
			}
			rc = push_sample(l, sp, subs[i], 0, err, errlen);
			free(sp);
		}
		npukb_free_names(subs, ns);
		free(path);
	}
	if (rc == 0)
		rc = unique_ids(l, err, errlen);
	if (rc)
		free_samples(l);
	return rc;
}

/* Case i of t is judged: named by --case (or no case named), and in the
 * configured subset. */
static int case_selected(const struct npukb_run_config *cfg, const struct npukb_task *t, size_t i)
{
	size_t k;
	if (!npukb_case_in_subset(t, i, cfg->case_subset))
		return 0;
	if (!cfg->case_ids)
		return 1;
	for (k = 0; cfg->case_ids[k]; k++)
		if (strcmp(cfg->case_ids[k], t->cases[i].id) == 0)
			return 1;
	return 0;
}

static size_t count_selected(const struct npukb_run_config *cfg, const struct npukb_task *t)
{
	size_t i, n = 0;
	for (i = 0; i < t->ncases; i++)
		n += case_selected(cfg, t, i) != 0;
	return n;
}

/* Move the selected cases of t to the front, in order, and hide the rest
 * behind ncases; returns the real count, which the caller restores. The
 * selection is decided before anything moves: the subset compares cases
 * by position. */
static size_t select_cases(const struct npukb_run_config *cfg, struct npukb_task *t)
{
	size_t i, n = 0, all = t->ncases;
	unsigned char *keep = calloc(all + 1, 1);

	if (!keep)
		return all; /* out of memory: judge every case rather than none */
	for (i = 0; i < all; i++)
		keep[i] = case_selected(cfg, t, i) != 0;
	for (i = 0; i < all; i++) {
		if (!keep[i])
			continue;
		if (i != n) {
			struct npukb_case tmp = t->cases[n];
			t->cases[n] = t->cases[i];
			t->cases[i] = tmp;
		}
		n++;
	}
	free(keep);
	t->ncases = n;
	return all;
}

/* --shard: drop the units (task, sample) that are not the shard's, in the
 * order the run enumerates them (shard.h). Returns the cases left to
 * judge, for the progress display; *kept and *total count units. */
static size_t keep_shard(const struct npukb_run_config *cfg, struct npukb_task *const *tasks,
			 struct sample_list *lists, size_t ntasks, size_t *kept, size_t *total)
{
	size_t i, j, k = 0, cases = 0;
	*kept = 0;
	for (i = 0; i < ntasks; i++) {
		size_t n = 0;
		for (j = 0; j < lists[i].n; j++, k++) {
			if (npukb_shard_owns(&cfg->shard, k))
				lists[i].items[n++] = lists[i].items[j];
			else
				npukb_sample_free(&lists[i].items[j]);
		}
		lists[i].n = n;
		*kept += n;
		cases += n * count_selected(cfg, tasks[i]);
	}
	*total = k;
	return cases;
}

static char *make_run_id(void)
{
	char stamp[32], *id;
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	if (asprintf(&id, "%s-%ld", stamp, (long)getpid()) < 0)
		return NULL;
	return id;
}

static int find_plugins(struct run_state *st, char *err, size_t errlen)
{
	const struct npukb_run_config *cfg = st->cfg;
	const struct npukb_loaded_plugin *lp;
	int id;
	lp = npukb_plugins_find(cfg->plugins, NPUKB_PLUGIN_BACKEND, cfg->backend);
	if (!lp) {
		snprintf(err, errlen,
			 "backend '%s' is not loaded (see `npukb plugins` for what was found and why)",
			 cfg->backend);
		return -ENOENT;
	}
	if (npukb_backend_opts_check(lp->desc, &cfg->options, err, errlen) != 0)
		return NPUKB_RUN_EBADINPUT;
	if (lp->desc->backend->configure) {
		char why[512] = "";
		if (lp->desc->backend->configure(&cfg->options, why, sizeof why) != 0) {
			snprintf(err, errlen, "the %s backend refuses its options: %s", cfg->backend,
				 why[0] ? why : "no reason given");
			return NPUKB_RUN_EBADINPUT;
		}
	}
	npukb_backend_open(&st->backend, lp->desc);
	if (lp->desc->backend->check_soc) {
		char known[512] = "";
		if (lp->desc->backend->check_soc(cfg->options.soc, known, sizeof(known)) != 0) {
			snprintf(err, errlen, "--soc %s: the %s backend knows no such SoC; it knows %s",
				 cfg->options.soc, cfg->backend, known[0] ? known : "none");
			return NPUKB_RUN_EBADINPUT;
		}
	}
	for (id = NPUKB_STAGE_COMPILE; id <= NPUKB_STAGE_CLASSIFY; id++) {
		lp = npukb_plugins_find_stage(cfg->plugins, (enum npukb_stage_id)id);
		if (!lp) {
			snprintf(err, errlen,
				 "no plugin implements the %s stage (see `npukb plugins`)",
				 npukb_stage_name((enum npukb_stage_id)id));
			return -ENOENT;
		}
		st->stage[id] = lp->desc;
	}
	return 0;
}

static int write_summary(const struct npukb_results *r, FILE *f)
{
	struct npukb_tally t;
	size_t i, j;
	npukb_results_tally(r, &t);
	fprintf(f, "npukb run %s on %s (%s), SoC %s\n", r->run_id, r->backend,
		r->backend_identity ? r->backend_identity : "?", r->soc);
	for (i = 0; i < r->n; i++) {
		const struct npukb_sample_result *s = &r->items[i];
		for (j = 0; j < s->ncases; j++) {
			const char *cat, *rule;
			const struct npukb_verdict *v = npukb_case_outcome(s, j, &cat, &rule);
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
static int write_summary_file(const struct npukb_results *r, const char *path, char *err,
			      size_t errlen)
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
	rc = write_summary(r, f);
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
static int write_report_dir(const struct npukb_run_config *cfg, const char *results_xml,
			    char *err, size_t errlen)
{
	char *fresh = NULL, *dir = NULL, *old = NULL;
	int rc;
	if (asprintf(&fresh, "%s/.report.new", cfg->output_dir) < 0 ||
	    asprintf(&dir, "%s/report", cfg->output_dir) < 0 ||
	    asprintf(&old, "%s/.report.old", cfg->output_dir) < 0) {
		free(fresh);
		free(dir);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	npukb_rm_rf(fresh);
	npukb_rm_rf(old);
	rc = npukb_report_html_render_page(results_xml, cfg->reports_dir, "run.xsl", fresh, err,
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

/* junit.xml, results.xml, report/ and summary.txt, each replaced only
 * once its new version is whole on disk. */
static int write_reports(const struct npukb_run_config *cfg, const struct npukb_results *results,
			 const struct npukb_run_info *info, char *err, size_t errlen)
{
	char *junit = NULL, *xml = NULL, *summary = NULL;
	int rc = 0;
	if (asprintf(&junit, "%s/junit.xml", cfg->output_dir) < 0 ||
	    asprintf(&xml, "%s/results.xml", cfg->output_dir) < 0 ||
	    asprintf(&summary, "%s/summary.txt", cfg->output_dir) < 0) {
		snprintf(err, errlen, "out of memory");
		rc = -ENOMEM;
	}
	if (rc == 0)
		rc = npukb_junit_write(results, junit, err, errlen);
	if (rc == 0)
		rc = npukb_results_xml_write(results, info, xml, err, errlen);
	if (rc == 0 && cfg->reports_dir)
		rc = write_report_dir(cfg, xml, err, errlen);
	if (rc == 0)
		rc = write_summary_file(results, summary, err, errlen);
	free(junit);
	free(xml);
	free(summary);
	return rc;
}

int npukb_run_execute(const struct npukb_run_config *cfg, struct npukb_results *results,
		      char *err, size_t errlen)
{
	struct run_state st;
	struct npukb_catalog cat;
	struct sample_list *lists = NULL;
	struct npukb_run_info info;
	struct npukb_journal_header head;
	char *path = NULL, host[256] = "localhost", ident[256] = "";
	size_t i, j, units = 0;
	double t0 = npukb_monotonic_seconds();
	int rc, lock = -1;

	memset(&st, 0, sizeof(st));
	memset(results, 0, sizeof(*results));
	st.cfg = cfg;
	st.options = cfg->options;
	st.results = results;
	rc = find_plugins(&st, err, errlen);
	if (rc)
		return rc;
	rc = npukb_catalog_load(&cat, cfg->levels_dir, cfg->schema_path, cfg->level,
				cfg->task_ids, err, errlen);
	if (rc)
		return rc;
	if (cat.nerrors) {
		size_t off = (size_t)snprintf(err, errlen, "%zu invalid manifest(s):", cat.nerrors);
		for (i = 0; i < cat.nerrors && off < errlen; i++)
			off += (size_t)snprintf(err + off, errlen - off, "\n%s", cat.errors[i].message);
		npukb_catalog_free(&cat);
		return NPUKB_RUN_EBADINPUT;
	}
	if (cat.ntasks == 0) {
		snprintf(err, errlen, "nothing selected: no task %s%s under %s (see `npukb list`)",
			 cfg->task_ids ? "named " : "of the selected level",
			 cfg->task_ids ? cfg->task_ids[0] : "", cfg->levels_dir);
		npukb_catalog_free(&cat);
		return NPUKB_RUN_EBADINPUT;
	}
	if ((rc = npukb_catalog_check_cases(&cat, cfg->case_ids, err, errlen)) != 0 ||
	    (rc = npukb_catalog_check_samples_root(&cat, cfg->samples_root, err, errlen)) != 0) {
		npukb_catalog_free(&cat);
		return rc == -ENOMEM ? rc : NPUKB_RUN_EBADINPUT;
	}

	/* every task's samples first: bad sample folders are reported before
	 * any work, and the progress display knows the total */
	lists = calloc(cat.ntasks, sizeof(*lists));
	if (!lists) {
		rc = -ENOMEM;
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (i = 0; i < cat.ntasks && rc == 0; i++) {
		rc = collect_samples(cfg, cat.tasks[i], &lists[i], err, errlen);
		if (rc == -ENOMEM)
			snprintf(err, errlen, "out of memory");
		else if (rc)
			rc = NPUKB_RUN_EBADINPUT;
		else
			units += lists[i].n * count_selected(cfg, cat.tasks[i]);
	}
	if (rc)
		goto out;
	if (units == 0) {
		size_t nsamples = 0;
		for (i = 0; i < cat.ntasks; i++)
			nsamples += lists[i].n;
		if (nsamples == 0)
			snprintf(err, errlen, "nothing selected: no sample to judge on the %zu selected "
				 "task%s (%s)", cat.ntasks, cat.ntasks == 1 ? "" : "s",
				 cfg->include_answer ? "no expert answer, no --sample, no --samples match"
						     : "--no-answer, and no --sample or --samples match");
		else
			snprintf(err, errlen, "nothing selected: the tasks with samples have none of "
				 "the selected cases (--case, --cases)");
		rc = NPUKB_RUN_EBADINPUT;
		goto out;
	}
	memset(&head, 0, sizeof(head));
	if (cfg->shard.count) {
		head.shard_index = cfg->shard.index;
		head.shard_count = cfg->shard.count;
		units = keep_shard(cfg, cat.tasks, lists, cat.ntasks, &head.units,
				   &head.units_total);
	}

	gethostname(host, sizeof(host) - 1);
	if (st.backend.desc->backend->identity)
		st.backend.desc->backend->identity(ident, sizeof(ident));
	results->run_id = make_run_id();
	results->backend = strdup(cfg->backend);
	results->backend_identity = strdup(st.backend.usable ? ident : st.backend.reason);
	results->soc = strdup(cfg->options.soc);
	results->hostname = strdup(host);
	results->started = time(NULL);
	if (st.options.dump_tensors && !st.options.dump_dir) {
		if (asprintf(&st.dump_dir, "%s/dumps", cfg->output_dir) < 0) {
			st.dump_dir = NULL;
			rc = -ENOMEM;
			goto out;
		}
		st.options.dump_dir = st.dump_dir;
	}
	if ((rc = npukb_mkdir_p(cfg->output_dir, 0755)) != 0) {
		snprintf(err, errlen, "%s: cannot create the output folder: %s", cfg->output_dir,
			 strerror(-rc));
		goto out;
	}
	if ((rc = npukb_outlock_take(cfg->output_dir, &lock, err, errlen)) != 0) {
		if (rc == -EBUSY)
			rc = NPUKB_RUN_EBADINPUT;
		goto out;
	}
	if (asprintf(&st.workroot, "%s/work", cfg->output_dir) < 0 ||
	    asprintf(&path, "%s/journal.jsonl", cfg->output_dir) < 0) {
		rc = -ENOMEM;
		goto out;
	}
	rc = npukb_journal_open(&st.journal, path, results->run_id, err, errlen);
	if (rc)
		goto out;
	head.backend = cfg->backend;
	head.identity = results->backend_identity;
	head.soc = cfg->options.soc;
	head.nseeds = cfg->options.nseeds;
	head.base_seed = (unsigned long long)cfg->options.base_seed;
	head.hostname = host;
	rc = npukb_journal_write_header(&st.journal, &head);
	if (rc) {
		snprintf(err, errlen, "%s: cannot write the journal: %s", path, strerror(-rc));
		goto out;
	}

	npukb_progress_start(cfg->progress, units);
	for (i = 0; i < cat.ntasks && rc == 0; i++) {
		size_t all_cases = select_cases(cfg, cat.tasks[i]);
		for (j = 0; j < lists[i].n && rc == 0; j++)
			rc = judge_sample(&st, cat.tasks[i], &lists[i].items[j]);
		cat.tasks[i]->ncases = all_cases; /* the catalog frees them all */
		if (st.io_rc)
			snprintf(err, errlen, "%s", st.io_err);
		else if (rc == -ENOMEM)
			snprintf(err, errlen, "out of memory");
		else if (rc)
			snprintf(err, errlen, "%s: %s", cat.tasks[i]->id, strerror(-rc));
	}
	npukb_progress_finish(cfg->progress);
	if (rc == 0 && (rc = npukb_journal_end(&st.journal)) != 0)
		snprintf(err, errlen, "%s: cannot write the end-of-run record: %s", path,
			 strerror(-rc));
	results->seconds = npukb_monotonic_seconds() - t0;
	memset(&info, 0, sizeof(info));
	info.nseeds = cfg->options.nseeds;
	info.base_seed = (unsigned long long)cfg->options.base_seed;
	info.level = cfg->level;
	info.journal = st.journal.path;
	if (rc == 0)
		rc = write_reports(cfg, results, &info, err, errlen);
out:
	/* a failed run frees its disk too: the work folders are only worth
	 * keeping when asked for */
	if (!cfg->options.keep_workdirs && st.workroot)
		npukb_rm_rf(st.workroot);
	npukb_journal_close(&st.journal);
	npukb_outlock_release(lock);
	for (i = 0; lists && i < cat.ntasks; i++)
		free_samples(&lists[i]);
	free(lists);
	npukb_catalog_free(&cat);
	free(st.workroot);
	free(st.dump_dir);
	free(path);
	return rc;
}
