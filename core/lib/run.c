/* run.c - drive the stages for every (task, sample, case) of a run.
 *
 * The core owns order, work folders and the journal; what a stage decides
 * is the plugin's business. The journal is the only thing a run writes
 * while it judges: a unit's (task, sample) records are appended together
 * when it is judged whole; the reports are rendered from the journal
 * afterwards (render_run.h). Units are judged by worker processes
 * (run_workers.h), each with its own copy of this state. */
#include "config.h"
#include "run.h"
#include "run_workers.h"
#include "tensor_pool.h"
#include "data_threads.h"
#include "case_select.h"
#include "case_desc.h"

#include "catalog.h"
#include "data_cache.h"
#include "ref_plugin.h"
#include "fsutil.h"
#include "journal.h"
#include "journal_resume.h"
#include "outlock.h"
#include "render_run.h"
#include "run_journal.h"
#include "run_samples.h"
#include "samples.h"
#include "unit_cache.h"
#include "workroot.h"

#include <npukb/util.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

struct run_state {
	const struct npukb_run_config *cfg;
	struct npukb_options options; /* cfg->options with the run's defaults filled in */
	char *dump_dir;
	struct npukb_journal journal;
	/* cfg->progress in the run; a worker's relay to it in a worker */
	struct npukb_progress *progress;
	/* the records of the unit being judged, appended whole at its end */
	struct npukb_journal_batch batch;
	struct npukb_backend backend;
	const struct npukb_plugin *stage[NPUKB_STAGE_CLASSIFY + 1];
	char *workroot;
	struct npukb_unit_cache ucache; /* off with --no-cache (unit_cache.h) */
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
	rc = npukb_journal_batch_add(&st->batch, &st->journal, task, sample, case_id, v);
	if (rc != 0)
		io_failure(st, rc, st->journal.path, "cannot render a journal record");
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
		ctx.case_correctness = &cr->correctness;
		judge(st, NPUKB_STAGE_PERFORMANCE, &ctx, &cr->performance);
		journal(st, t->id, r->sample_id, cr->case_id, &cr->performance);
		if (!st->options.keep_workdirs)
			npukb_rm_rf(pdir);
		free(pdir);
	}
	return 0;
}

/* DESIGN.md: a sample correct on case 0's regular seeds is checked once
 * more there, on a seed it has never seen, so a kernel tuned to the seeds
 * it was validated on (or one whose results depend on leftovers of earlier
 * launches) is caught. It runs inside the correctness phase, before any
 * performance, and folds into case 0's one correctness verdict: a failure
 * replaces it (its message says so), a pass adds its message. */
static int recheck(struct run_state *st, const struct npukb_task *t,
		   struct npukb_stage_ctx *base, const char *sdir, struct npukb_verdict *cv)
{
	struct npukb_stage_ctx ctx = *base;
	struct npukb_verdict v;
	char *cdir, *msg = NULL;
	unsigned nseeds = st->options.nseeds ? st->options.nseeds : NPUKB_DEFAULT_SEEDS;

	if (asprintf(&cdir, "%s/recheck", sdir) < 0)
		return -ENOMEM;
	ctx.kcase = &t->cases[0];
	ctx.workdir = cdir;
	/* seed indices 0..nseeds-1 were the regular pass */
	ctx.seed_offset = nseeds;
	judge(st, NPUKB_STAGE_CORRECTNESS, &ctx, &v);
	if (v.outcome == NPUKB_FAIL) {
		if (asprintf(&msg, "failed on re-check with a fresh seed: %s",
			     v.message ? v.message : "") >= 0) {
			free(v.message);
			v.message = msg;
		}
		/* the case's verdict becomes the failure; the time is both */
		v.wall_seconds += cv->wall_seconds;
		npukb_verdict_clear(cv);
		*cv = v;
	} else {
		if (v.outcome == NPUKB_PASS &&
		    asprintf(&msg, "%s; %s", cv->message ? cv->message : "passed",
			     v.message ? v.message : "passed the re-check with a fresh seed") >= 0) {
			free(cv->message);
			cv->message = msg;
		}
		/* a re-check that could not run (skipped) leaves the regular
		 * verdict: the sample was not caught doing anything */
		cv->wall_seconds += v.wall_seconds;
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
	if (v->outcome == NPUKB_FAIL) /* before the unit, which may close its task */
		npukb_progress_failure(st->progress, cat, v);
	npukb_progress_unit(st->progress, v->outcome, cat);
	if (r->cases[i].correctness.flags)
		npukb_progress_flagged(st->progress);
}

/* The unit is judged whole: its records go to the journal in one write,
 * closed by the unit record that names its cases. A unit cut short (an
 * I/O error stopped it) is not journaled: --resume judges it again. */
static void commit_unit(struct run_state *st, const struct npukb_task *t,
			const struct npukb_sample_entry *s, size_t index)
{
	struct npukb_journal_unit u;
	const char **ids = calloc(t->ncases + 1, sizeof(*ids));
	char *descs = npukb_case_describe_all(t);
	size_t i;
	int rc;
	if (!ids) {
		free(descs);
		io_failure(st, -ENOMEM, st->journal.path, "cannot append to the journal");
		return;
	}
	for (i = 0; i < t->ncases; i++)
		ids[i] = t->cases[i].id;
	memset(&u, 0, sizeof(u));
	u.task = t->id;
	u.sample = s->id;
	u.is_answer = s->is_answer;
	u.index = index;
	u.case_ids = ids;
	u.ncases = t->ncases;
	u.case_descs = descs; /* NULL (no memory): the reports name cases by id only */
	u.sample_dir = s->dir; /* absolute (npukb_sample_load) */
	u.model = s->model;
	u.response_sha256 = s->response_sha256;
	rc = npukb_journal_batch_commit(&st->journal, &st->batch, &u);
	if (rc != 0)
		io_failure(st, rc, st->journal.path, "cannot append to the journal");
	free(ids);
	free(descs);
}

static int judge_sample(struct run_state *st, const struct npukb_task *t,
			const struct npukb_sample_entry *s, size_t index)
{
	const struct npukb_run_config *cfg = st->cfg;
	/* the unit's verdicts while it is judged: the flow and the progress
	 * display read them; the reports read the journal */
	struct npukb_results unit;
	struct npukb_sample_result *r;
	struct npukb_stage_ctx ctx;
	struct npukb_verdict *history;
	char *sdir = NULL, *tid = strdup(t->id), *sid = strdup(s->id);
	char ukey[NPUKB_UNIT_KEY_LEN + 1];
	size_t i, nhist = 0, passed = 0;
	int rc = 0;

	memset(&unit, 0, sizeof(unit));
	memset(&ctx, 0, sizeof(ctx));
	r = npukb_results_add(&unit, t->id, s->id, t->ncases);
	history = calloc(t->ncases + 2, sizeof(*history));
	if (!r || !history || !tid || !sid) {
		rc = -ENOMEM;
		goto out;
	}
	r->is_answer = s->is_answer;
	npukb_progress_sample(st->progress, t->id, s->id);
	npukb_progress_sample_dir(st->progress, s->dir);
	/* judged before with everything the same: its records again */
	if (npukb_unit_cache_replay(&st->ucache, t, s, &st->journal, &st->batch, st->progress,
				    ukey)) {
		commit_unit(st, t, s, index);
		rc = st->io_rc;
		goto out;
	}
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
	/* seeds of a case reuse each other's tensor memory; kept work
	 * folders must keep each seed's files as it left them */
	if (!cfg->options.keep_workdirs)
		(void)npukb_tensor_pool_open(st->workroot);

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
		if (i == 0 && cr->correctness.outcome == NPUKB_PASS &&
		    (rc = recheck(st, t, &ctx, sdir, &cr->correctness)) != 0) {
			free(cdir);
			break;
		}
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
		report_unit(st, r, i);
	}
	/* Performance only for a sample correct on every case, the re-check
	 * included (issue 5): a speedup of a wrong kernel means nothing. */
	if (rc == 0 && !st->io_rc && r->compile.outcome == NPUKB_PASS && t->ncases &&
	    passed == t->ncases)
		rc = measure(st, t, r, &ctx, sdir, history, nhist);
	if (rc == 0 && !st->io_rc) {
		npukb_unit_cache_store(&st->ucache, ukey, s, r, &st->journal, &st->batch);
		commit_unit(st, t, s, index);
	}
	if (rc == 0)
		rc = st->io_rc;

out:
	npukb_tensor_pool_trim(); /* a worker between units holds no tensors */
	st->batch.len = 0; /* an unfinished unit's records are dropped */
	st->batch.nverdicts = 0;
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
	npukb_results_free(&unit);
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

/* Does case c take every output's expected values from a golden file (no
 * reference is called for it)? */
static int outputs_all_golden(const struct npukb_task *t, const struct npukb_case *c)
{
	for (size_t k = 0; k < t->ntensors; k++)
		if (t->tensors[k].is_output && !npukb_case_tensor_absent(c, t->tensors[k].name) &&
		    !npukb_case_golden(c, t->tensors[k].name))
			return 0;
	return 1;
}

/* A reference plugin that cannot serve (not built, not loadable, no such
 * function) is bad input, said before any work: otherwise every case of
 * its task would end as an internal error. */
static int check_reference_plugins(const struct npukb_run_config *cfg,
				   const struct npukb_catalog *cat, char *err, size_t errlen)
{
	for (size_t i = 0; i < cat->ntasks; i++) {
		const struct npukb_task *t = cat->tasks[i];
		const struct npukb_reference *ref;
		int needed = 0;
		if (!t->reference_plugin)
			continue;
		for (size_t c = 0; c < t->ncases && !needed; c++)
			needed = case_selected(cfg, t, c) && !outputs_all_golden(t, &t->cases[c]);
		if (needed && npukb_task_reference(t, &ref, err, errlen) != 0)
			return -ENOENT;
	}
	return 0;
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

/* --shard: count the units (task, sample) that are the shard's, in the
 * order the run enumerates them (shard.h); the others stay in the lists
 * but are not judged. Returns the cases left to judge, for the progress
 * display; *kept and *total count units. */
static size_t count_shard(const struct npukb_run_config *cfg, struct npukb_task *const *tasks,
			  const struct npukb_sample_list *lists, size_t ntasks, size_t *kept,
			  size_t *total)
{
	size_t i, j, k = 0, cases = 0;
	*kept = 0;
	for (i = 0; i < ntasks; i++)
		for (j = 0; j < lists[i].n; j++, k++)
			if (npukb_shard_owns(&cfg->shard, k)) {
				++*kept;
				cases += count_selected(cfg, tasks[i]);
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

/* One unit the run judges: task i's sample j, its place in the plan. */
struct plan_item {
	size_t task, sample, index;
};

/* What the workers judge (run_workers.h), in their copies of it. */
struct run_work {
	struct run_state *st;
	struct npukb_task *const *tasks;
	const struct npukb_sample_list *lists;
	const struct plan_item *plan;
	unsigned jobs;
};

static int work_start(void *ctx, unsigned worker, struct npukb_progress *relay, char *err,
		      size_t errlen)
{
	struct run_work *w = ctx;
	const struct npukb_backend_ops *ops = w->st->backend.desc->backend;
	unsigned cpus = npukb_data_threads();
	int rc;
	w->st->progress = relay;
	if (ops->worker_start) {
		char why[512] = "";
		if (ops->worker_start(worker, w->jobs, why, sizeof why) != 0) {
			snprintf(err, errlen, "the %s backend cannot start worker %u: %s",
				 w->st->backend.desc->name, worker, why[0] ? why : "no reason given");
			return NPUKB_RUN_EBADINPUT; /* like a refused option: exit 3 */
		}
	}
	/* the workers share the cores: the data path's threads too */
	npukb_set_data_threads(cpus > w->jobs ? cpus / w->jobs : 1);
	/* an flock holds between open file descriptions, not between
	 * processes sharing one: each worker opens the journal anew */
	rc = npukb_journal_reopen(&w->st->journal);
	if (rc)
		snprintf(err, errlen, "%s: cannot open the journal: %s", w->st->journal.path,
			 strerror(-rc));
	w->st->journal.nverdicts = 0;
	return rc;
}

static int work_unit(void *ctx, size_t k, char *err, size_t errlen)
{
	struct run_work *w = ctx;
	const struct plan_item *u = &w->plan[k];
	const struct npukb_task *t = w->tasks[u->task];
	int rc = judge_sample(w->st, t, &w->lists[u->task].items[u->sample], u->index);
	if (w->st->io_rc) {
		snprintf(err, errlen, "%s", w->st->io_err);
		return w->st->io_rc;
	}
	if (rc == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	else if (rc)
		snprintf(err, errlen, "%s: %s", t->id, strerror(-rc));
	return rc;
}

static size_t work_verdicts(void *ctx)
{
	return ((struct run_work *)ctx)->st->journal.nverdicts;
}

static const struct npukb_worker_ops work_ops = {
	.start = work_start,
	.unit = work_unit,
	.verdicts = work_verdicts,
};

/* The units left to judge, in plan order: the shard's, not already whole
 * in a resumed journal. Tells the display how many units each task has.
 * *nplan 0 is a run with nothing (more) to judge. */
static int make_plan(const struct run_state *st, struct npukb_task *const *tasks,
		     const struct npukb_sample_list *lists, size_t ntasks,
		     const struct npukb_journal_resume *resumed, struct plan_item **plan,
		     size_t *nplan)
{
	size_t i, j, index = 0, n = 0, cap = 0;
	*plan = NULL;
	*nplan = 0;
	for (i = 0; i < ntasks; i++)
		cap += lists[i].n;
	if (!(*plan = calloc(cap + 1, sizeof(**plan))))
		return -ENOMEM;
	for (i = 0; i < ntasks; i++) {
		size_t mine = 0;
		for (j = 0; j < lists[i].n; j++, index++)
			if (npukb_shard_owns(&st->cfg->shard, index) &&
			    !npukb_journal_resume_done(resumed, tasks[i]->id, lists[i].items[j].id)) {
				(*plan)[n++] = (struct plan_item){ i, j, index };
				mine++;
			}
		if (mine)
			npukb_progress_expect(st->progress, tasks[i]->id,
					      mine * count_selected(st->cfg, tasks[i]));
	}
	*nplan = n;
	return 0;
}

/* Tell the case-data cache which tasks' data another unit of the run
 * reads again (those with two samples or more in the plan) and how much
 * the others would write (their selected cases, every seed and the
 * re-check's). The plan lists a task's units side by side. */
static int plan_data_sharing(const struct run_state *st, struct npukb_task *const *tasks,
			     const struct plan_item *plan, size_t nplan)
{
	unsigned seeds = (st->options.nseeds ? st->options.nseeds : NPUKB_DEFAULT_SEEDS) + 1;
	const char **ids = calloc(nplan + 1, sizeof(*ids));
	uint64_t others = 0;
	size_t i = 0, n = 0, c;
	int rc;

	if (!ids)
		return -ENOMEM;
	while (i < nplan) {
		const struct npukb_task *t = tasks[plan[i].task];
		size_t units = 0;
		for (; i < nplan && tasks[plan[i].task] == t; i++)
			units++;
		if (units > 1) {
			ids[n++] = t->id;
			continue;
		}
		for (c = 0; c < t->ncases; c++) /* the selected ones (select_cases) */
			others += (uint64_t)npukb_case_tensor_bytes(t, &t->cases[c]) * seeds;
	}
	rc = npukb_data_cache_plan(ids, n, others);
	free(ids);
	return rc;
}

int npukb_run_execute(const struct npukb_run_config *cfg, struct npukb_results *results,
		      char *err, size_t errlen)
{
	struct run_state st;
	struct npukb_catalog cat;
	struct npukb_sample_list *lists = NULL;
	struct npukb_journal_resume resumed;
	struct npukb_journal_header head;
	char *path = NULL, *run_id = NULL, host[256] = "localhost", ident[256] = "";
	size_t i, units = 0, nplan = 0, *all_cases = NULL;
	struct plan_item *plan = NULL;
	double t0 = npukb_monotonic_seconds();
	int rc, lock = -1, reproducible = 0;

	memset(&st, 0, sizeof(st));
	memset(&resumed, 0, sizeof(resumed));
	memset(results, 0, sizeof(*results));
	st.cfg = cfg;
	st.progress = cfg->progress;
	st.options = cfg->options;
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
	    (rc = npukb_catalog_check_samples_root(&cat, cfg->samples_root, err, errlen)) != 0 ||
	    (rc = check_reference_plugins(cfg, &cat, err, errlen)) != 0) {
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
		rc = npukb_run_collect_samples(cfg, cat.tasks[i], &lists[i], err, errlen);
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
		units = count_shard(cfg, cat.tasks, lists, cat.ntasks, &head.units,
				    &head.units_total);
	}

	gethostname(host, sizeof(host) - 1);
	if (st.backend.desc->backend->identity)
		reproducible = st.backend.desc->backend->identity(ident, sizeof(ident)) ==
			       NPUKB_IDENTITY_REPRODUCIBLE && st.backend.usable;
	if (!(run_id = make_run_id())) {
		rc = -ENOMEM;
		goto out;
	}
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
	if ((rc = npukb_workroot_make(cfg->output_dir, cfg->work_parent, cfg->options.keep_workdirs,
				      &st.workroot, err, errlen)) != 0)
		goto out;
	if (asprintf(&path, "%s/journal.jsonl", cfg->output_dir) < 0) {
		rc = -ENOMEM;
		goto out;
	}
	head.identity = st.backend.usable ? ident : st.backend.reason;
	head.hostname = host;
	rc = npukb_run_open_journal(&st.journal, cfg, path, run_id, &head, &resumed, err, errlen);
	if (rc == 0)
		rc = npukb_unit_cache_open(&st.ucache, cfg, &st.options, ident, reproducible, stderr);
	/* not sharing case data costs time, not verdicts */
	if (rc == 0)
		(void)npukb_data_cache_begin(st.options.cache_dir, cfg->output_dir);
	if (rc)
		goto out;

	/* the cases each task judges, chosen before the workers copy the
	 * tasks; every case goes back to its task at the end */
	if (!(all_cases = calloc(cat.ntasks + 1, sizeof(*all_cases)))) {
		rc = -ENOMEM;
		goto out;
	}
	for (i = 0; i < cat.ntasks; i++)
		all_cases[i] = select_cases(cfg, cat.tasks[i]);
	/* --resume: the units the journal holds whole are neither judged
	 * again nor counted by the progress display */
	if ((rc = make_plan(&st, cat.tasks, lists, cat.ntasks, &resumed, &plan, &nplan)) != 0) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if ((rc = plan_data_sharing(&st, cat.tasks, plan, nplan)) != 0) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (i = 0, units = 0; i < nplan; i++)
		units += count_selected(cfg, cat.tasks[plan[i].task]);
	npukb_progress_start(cfg->progress, units);
	{
		struct run_work work = { &st, cat.tasks, lists, plan,
					 cfg->jobs ? cfg->jobs : npukb_default_jobs() };
		size_t appended = 0;
		unsigned most = st.backend.desc->backend->max_workers
					? st.backend.desc->backend->max_workers() : 0;
		if (most && work.jobs > most) /* e.g. one worker per NPU */
			work.jobs = most;
		if (work.jobs > nplan) /* the workers that will really start */
			work.jobs = nplan ? (unsigned)nplan : 1;
		rc = npukb_workers_run(work.jobs, nplan, &work_ops, &work, cfg->progress, &appended,
				       err, errlen);
		st.journal.nverdicts += appended;
	}
	npukb_progress_finish(cfg->progress);
	st.journal.seconds = npukb_monotonic_seconds() - t0;
	if (rc == 0 && (rc = npukb_journal_end(&st.journal)) != 0)
		snprintf(err, errlen, "%s: cannot write the end-of-run record: %s", path,
			 strerror(-rc));
	/* judging is over: every report comes from the journal alone */
	if (rc == 0)
		rc = npukb_render_run_reports(cfg->output_dir, cfg->reports_dir, results, err,
					      errlen);
out:
	/* a failed run frees its disk too: the work folders are only worth
	 * keeping when asked for */
	npukb_tensor_pool_close();
	if (!cfg->options.keep_workdirs && st.workroot)
		npukb_rm_rf(st.workroot);
	npukb_unit_cache_close(&st.ucache);
	npukb_data_cache_end();
	npukb_journal_close(&st.journal);
	npukb_journal_batch_free(&st.batch);
	npukb_journal_resume_free(&resumed);
	npukb_outlock_release(lock);
	for (i = 0; all_cases && i < cat.ntasks; i++)
		cat.tasks[i]->ncases = all_cases[i]; /* the catalog frees them all */
	free(all_cases);
	free(plan);
	for (i = 0; lists && i < cat.ntasks; i++)
		npukb_sample_list_free(&lists[i]);
	free(lists);
	npukb_catalog_free(&cat);
	free(st.workroot);
	free(st.dump_dir);
	free(path);
	free(run_id);
	return rc;
}
