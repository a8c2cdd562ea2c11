/* cmd_merge.c - `npukb merge DIR... -o OUT`: the journals of a run's
 * shards (DIR/journal.jsonl of `npukb run --shard I/N`) become one run in
 * OUT/journal.jsonl, its units in the order the unsharded run judges them;
 * then the run's reports are rendered from that journal.
 *
 * The journal reader reads the shards and the journal writer writes the
 * merged run, so the merged journal is one any reader takes, record for
 * record what one process would have written (but run ids and times). */
#include "config.h"
#include "data_path.h"
#include "cmd_merge.h"

#include "journal.h"
#include "journal_read.h"
#include "metrics.h"
#include "outlock.h"
#include "render_run.h"
#include "shard.h"

#include <npukb/util.h>

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { EXIT_OK = 0, EXIT_USAGE = 2, EXIT_BADINPUT = 3, EXIT_INTERNAL = 4 };

static const char merge_usage[] =
	"Usage: npukb merge DIR... -o OUT\n"
	"Combine the shards of one run (the output folders of `npukb run --shard I/N`,\n"
	"each holding journal.jsonl) into one run: OUT/journal.jsonl holds every\n"
	"verdict in the order one worker (`npukb run -j 1`) of the same selection\n"
	"judges its units; its reports (junit.xml, results.xml, summary.txt, report/) are\n"
	"rendered from it as a run's are, and OUT/metrics.json holds the figures\n"
	"`npukb report --json` gives.\n"
	"\n"
	"  -o, --output OUT  the merged run's folder (created; must hold no journal)\n"
	"  -h, --help        show this text\n"
	"\n"
	"Refused (exit 3, naming the folder and what differs): a folder without a\n"
	"journal, or whose journal holds more than one run or a run that did not\n"
	"finish; shards of different npukb versions, backends, toolchains, SoCs,\n"
	"seeds, base seeds, sandbox modes, --strict, shard counts or selections\n"
	"(units_total);\n"
	"a shard given twice or missing; a unit (task, sample) judged by two shards.\n"
	"A run without --shard counts as shard 0/1.\n"
	"\n"
	"Exit status: 0 merged; 2 usage error; 3 the folders are not the shards of\n"
	"one run, or a journal is unreadable; 4 npukb could not work (memory, OUT).\n";

/* One (task, sample) a shard judged: its unit record and its verdicts,
 * run->v[w->first .. w->first + w->nverdicts). */
struct unit {
	const struct npukb_jwork *w;
	const struct part *part;
};

/* One shard's folder and its run. */
struct part {
	const char *dir;
	char *path;
	struct npukb_jset set;
	const struct npukb_jrun *run; /* set.runs[0] */
	struct npukb_shard shard;
	struct unit *units;
	size_t nunits;
};

static void part_free(struct part *p)
{
	npukb_jset_free(&p->set);
	free(p->path);
	free(p->units);
	memset(p, 0, sizeof(*p));
}

/* The run's units, from its unit records. */
static int take_units(struct part *p, char *err, size_t errlen)
{
	const struct npukb_jrun *r = p->run;
	size_t i;
	p->units = calloc(r->nunits + 1, sizeof(*p->units));
	if (!p->units) {
		snprintf(err, errlen, "out of memory");
		return EXIT_INTERNAL;
	}
	for (i = 0; i < r->nunits; i++) {
		p->units[p->nunits].w = &r->units[i];
		p->units[p->nunits++].part = p;
	}
	return EXIT_OK;
}

/* Each unit is its shard's own: the run's unit k belongs to shard k mod N
 * (shard.h), so the indexes put the units back in the single run's order.
 * Returns an exit status. */
static int units_owned(const struct part *parts, size_t nparts, char *err, size_t errlen)
{
	size_t i, k;
	for (i = 0; i < nparts; i++)
		for (k = 0; k < parts[i].nunits; k++) {
			const struct part *p = &parts[i];
			const struct npukb_jwork *w = p->units[k].w;
			if (w->index % p->shard.count != p->shard.index) {
				snprintf(err, errlen, "%s: unit %zu (%s, %s) is not shard %u/%u's",
					 p->dir, w->index, w->task, w->sample, p->shard.index,
					 p->shard.count);
				return EXIT_BADINPUT;
			}
		}
	return EXIT_OK;
}

/* Read DIR/journal.jsonl: one finished run with a header. Returns an exit
 * status; err says why when not EXIT_OK. */
static int part_load(struct part *p, const char *dir, char *err, size_t errlen)
{
	const struct npukb_jrun *r;
	char why[1024];
	int rc;

	memset(p, 0, sizeof(*p));
	p->dir = dir;
	if (asprintf(&p->path, "%s/journal.jsonl", dir) < 0) {
		p->path = NULL;
		snprintf(err, errlen, "out of memory");
		return EXIT_INTERNAL;
	}
	rc = npukb_journal_read(&p->set, p->path, why, sizeof(why));
	if (rc == -ENOMEM) {
		snprintf(err, errlen, "out of memory");
		return EXIT_INTERNAL;
	}
	if (rc) {
		snprintf(err, errlen, "%s: %s", dir, why);
		return EXIT_BADINPUT;
	}
	if (p->set.nruns != 1) {
		snprintf(err, errlen, "%s: its journal holds %zu runs; merge takes one run per folder",
			 dir, p->set.nruns);
		return EXIT_BADINPUT;
	}
	r = p->run = &p->set.runs[0];
	if (!r->backend || !r->has_seeds) {
		snprintf(err, errlen, "%s: the run has no header record (backend, seeds)", dir);
		return EXIT_BADINPUT;
	}
	if (!npukb_jrun_complete(r)) {
		snprintf(err, errlen, "%s: run %s did not finish (no end-of-run record); run that "
			 "shard again", dir, r->run_id);
		return EXIT_BADINPUT;
	}
	if (!r->shard) {
		p->shard.index = 0;
		p->shard.count = 1;
	} else if (npukb_shard_parse(r->shard, &p->shard, why, sizeof(why)) != 0) {
		snprintf(err, errlen, "%s: shard %s", dir, why);
		return EXIT_BADINPUT;
	}
	if ((rc = take_units(p, err, errlen)) != EXIT_OK)
		return rc;
	if (r->has_shard_units && (double)p->nunits != r->shard_units) {
		snprintf(err, errlen, "%s: the header says %.0f units (task, sample) but the journal "
			 "holds %zu", dir, r->shard_units, p->nunits);
		return EXIT_BADINPUT;
	}
	return EXIT_OK;
}

static int same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* b must agree with a on everything that makes the verdicts comparable. */
static int agree(const struct part *a, const struct part *b, char *err, size_t errlen)
{
	static const char *const name[] = { "npukb version", "backend", "toolchain", "SoC",
					    "sandbox", "label" };
	const char *va[] = { a->run->npukb, a->run->backend, a->run->toolchain, a->run->soc,
			     a->run->sandbox, a->run->label };
	const char *vb[] = { b->run->npukb, b->run->backend, b->run->toolchain, b->run->soc,
			     b->run->sandbox, b->run->label };
	size_t i;
	for (i = 0; i < sizeof(name) / sizeof(name[0]); i++)
		if (!same_str(va[i], vb[i])) {
			snprintf(err, errlen, "%s and %s differ in %s: \"%s\" and \"%s\"", a->dir,
				 b->dir, name[i], va[i] ? va[i] : "(none)", vb[i] ? vb[i] : "(none)");
			return -1;
		}
	if (a->run->nseeds != b->run->nseeds || a->run->base_seed != b->run->base_seed) {
		int s = a->run->nseeds != b->run->nseeds;
		snprintf(err, errlen, "%s and %s differ in %s: %.0f and %.0f", a->dir, b->dir,
			 s ? "seeds" : "base seed", s ? (double)a->run->nseeds : a->run->base_seed,
			 s ? (double)b->run->nseeds : b->run->base_seed);
		return -1;
	}
	if (a->run->strict != b->run->strict) {
		snprintf(err, errlen, "%s and %s differ in --strict: %s and %s", a->dir, b->dir,
			 a->run->strict ? "on" : "off", b->run->strict ? "on" : "off");
		return -1;
	}
	if (a->run->level != b->run->level) {
		snprintf(err, errlen, "%s and %s differ in level: %d and %d (0: every level)",
			 a->dir, b->dir, a->run->level, b->run->level);
		return -1;
	}
	if (a->shard.count != b->shard.count) {
		snprintf(err, errlen, "%s and %s differ in shard count: %u and %u", a->dir, b->dir,
			 a->shard.count, b->shard.count);
		return -1;
	}
	if (a->run->has_shard_units != b->run->has_shard_units ||
	    (a->run->has_shard_units && a->run->shard_units_total != b->run->shard_units_total)) {
		snprintf(err, errlen, "%s and %s differ in units_total (%.0f and %.0f): the shards "
			 "were run on different selections", a->dir, b->dir, a->run->shard_units_total,
			 b->run->shard_units_total);
		return -1;
	}
	return 0;
}

static int cmp_unit(const void *x, const void *y)
{
	const struct unit *a = *(const struct unit *const *)x, *b = *(const struct unit *const *)y;
	int c = strcmp(a->w->task, b->w->task);
	return c ? c : strcmp(a->w->sample, b->w->sample);
}

/* No unit judged twice. Returns an exit status. */
static int units_once(struct part *parts, size_t nparts, char *err, size_t errlen)
{
	const struct unit **all;
	size_t n = 0, i, j;
	int rc = EXIT_OK;
	for (i = 0; i < nparts; i++)
		n += parts[i].nunits;
	all = calloc(n + 1, sizeof(*all));
	if (!all) {
		snprintf(err, errlen, "out of memory");
		return EXIT_INTERNAL;
	}
	n = 0;
	for (i = 0; i < nparts; i++)
		for (j = 0; j < parts[i].nunits; j++)
			all[n++] = &parts[i].units[j];
	qsort(all, n, sizeof(*all), cmp_unit);
	for (i = 1; i < n && rc == EXIT_OK; i++)
		if (cmp_unit(&all[i - 1], &all[i]) == 0) {
			snprintf(err, errlen, "unit (%s, %s) was judged by both %s and %s",
				 all[i]->w->task, all[i]->w->sample, all[i - 1]->part->dir,
				 all[i]->part->dir);
			rc = EXIT_BADINPUT;
		}
	free(all);
	return rc;
}

/* Every shard 0..N-1 exactly once: order[i] is shard i. Returns an exit
 * status. */
static int shards_complete(struct part *parts, size_t nparts, struct part **order, char *err,
			   size_t errlen)
{
	unsigned n = parts[0].shard.count, i;
	size_t k, off = 0, missing = 0;
	for (k = 0; k < nparts; k++) {
		struct part *p = &parts[k];
		if (order[p->shard.index]) {
			snprintf(err, errlen, "%s and %s are both shard %u/%u", order[p->shard.index]->dir,
				 p->dir, p->shard.index, n);
			return EXIT_BADINPUT;
		}
		order[p->shard.index] = p;
	}
	for (i = 0; i < n; i++)
		missing += !order[i];
	if (!missing)
		return EXIT_OK;
	off = (size_t)snprintf(err, errlen, "%zu of %u shards missing:", missing, n);
	for (i = 0; i < n && off < errlen; i++)
		if (!order[i])
			off += (size_t)snprintf(err + off, errlen - off, " %u/%u", i, n);
	return EXIT_BADINPUT;
}

/* A journal verdict back into the writer's form; borrows r's strings. */
static void as_verdict(const struct npukb_jverdict *r, struct npukb_verdict *v)
{
	memset(v, 0, sizeof(*v));
	v->stage = r->stage;
	v->outcome = r->outcome;
	v->category = r->category;
	v->message = r->message;
	v->details = r->details;
	v->rule = r->rule;
	v->flags = r->flags;
	v->defects = r->defects;
	v->has_error_stats = r->has_error_stats;
	v->max_abs_err = r->max_abs_err;
	v->max_rel_err = r->max_rel_err;
	v->bad_count = r->bad_count;
	v->first_bad_index = r->first_bad_index;
	v->expected_at_first = r->expected_at_first;
	v->actual_at_first = r->actual_at_first;
	v->has_timing = r->has_timing;
	v->cycles = r->cycles;
	v->time_us = r->time_us;
	v->wall_seconds = r->wall_seconds;
}

/* The merged header: the shards' (they agree), the earliest start, and
 * the host when every shard ran on one. */
static void merged_header(struct part *const *order, unsigned n, struct npukb_journal_header *h)
{
	const struct npukb_jrun *r = order[0]->run;
	unsigned i;
	memset(h, 0, sizeof(*h));
	h->backend = r->backend;
	h->identity = r->toolchain;
	h->soc = r->soc;
	h->nseeds = r->nseeds;
	/* a double holds seeds up to 2^53 exactly; larger base seeds are
	 * beyond what the journal reader keeps */
	h->base_seed = (unsigned long long)r->base_seed;
	h->npukb = r->npukb;
	h->sandbox = r->sandbox;
	h->strict = r->strict;
	h->started = r->started;
	h->hostname = r->host;
	for (i = 1; i < n; i++) {
		const struct npukb_jrun *o = order[i]->run;
		if (o->started && (!h->started || strcmp(o->started, h->started) < 0))
			h->started = o->started;
		if (!same_str(o->host, h->hostname))
			h->hostname = "several hosts (see the shard journals)";
	}
}

static int cmp_index(const void *x, const void *y)
{
	const struct unit *a = x, *b = y;
	return a->w->index < b->w->index ? -1 : a->w->index > b->w->index;
}

/* One unit's verdicts and its unit record, as one batch. */
static int write_unit(struct npukb_journal *j, struct npukb_journal_batch *b,
		      const struct unit *u)
{
	const struct npukb_jrun *r = u->part->run;
	struct npukb_journal_unit rec;
	char *cases = NULL, *save = NULL, *tok, **ids = NULL;
	size_t k, n = 0;
	int rc = 0;

	for (k = 0; k < u->w->nverdicts && rc == 0; k++) {
		const struct npukb_jverdict *jv = &r->v[u->w->first + k];
		struct npukb_verdict v;
		as_verdict(jv, &v);
		rc = npukb_journal_batch_add(b, j, jv->task, jv->sample, jv->case_id, &v);
	}
	if (rc == 0 && u->w->cases) {
		if (!(cases = strdup(u->w->cases)) ||
		    !(ids = calloc(strlen(cases) / 2 + 2, sizeof(*ids))))
			rc = -ENOMEM;
		for (tok = cases ? strtok_r(cases, " ", &save) : NULL; rc == 0 && tok;
		     tok = strtok_r(NULL, " ", &save))
			ids[n++] = tok;
	}
	if (rc == 0) {
		memset(&rec, 0, sizeof(rec));
		rec.task = u->w->task;
		rec.sample = u->w->sample;
		rec.is_answer = u->w->is_answer;
		rec.index = u->w->index;
		rec.case_ids = (const char *const *)ids;
		rec.ncases = n;
		rec.case_descs = u->w->case_descs;
		rec.sample_dir = u->w->sample_dir;
		rec.model = u->w->model;
		rec.response_sha256 = u->w->response_sha256;
		rc = npukb_journal_batch_commit(j, b, &rec);
	}
	free(ids);
	free(cases);
	return rc;
}

/* OUT/journal.jsonl through a temporary file: a merge that fails leaves
 * no half journal behind. The units go in the order of their index, the
 * place the unsharded run gives them (shard.h), so the merged journal is
 * the one a single run writes but for run ids and times. */
static int write_journal(const char *out, struct part *const *order, unsigned n, char *err,
			 size_t errlen)
{
	struct npukb_journal j;
	struct npukb_journal_batch b;
	struct npukb_journal_header h;
	struct unit *all = NULL;
	char *path = NULL, *tmp = NULL, *run_id = NULL, stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	size_t u, total = 0;
	unsigned i;
	int rc;

	memset(&j, 0, sizeof(j));
	memset(&b, 0, sizeof(b));
	j.fd = -1;
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	for (i = 0; i < n; i++)
		total += order[i]->nunits;
	if (asprintf(&path, "%s/journal.jsonl", out) < 0 ||
	    asprintf(&tmp, "%s/.journal.jsonl.merging", out) < 0 ||
	    asprintf(&run_id, "%s-%ld-merged", stamp, (long)getpid()) < 0 ||
	    !(all = calloc(total + 1, sizeof(*all)))) {
		snprintf(err, errlen, "out of memory");
		rc = -ENOMEM;
		goto out;
	}
	for (i = 0, total = 0; i < n; i++)
		for (u = 0; u < order[i]->nunits; u++)
			all[total++] = order[i]->units[u];
	qsort(all, total, sizeof(*all), cmp_index);
	if (access(path, F_OK) == 0) {
		snprintf(err, errlen, "%s already exists; merge writes a new run's journal", path);
		rc = -EEXIST;
		goto out;
	}
	unlink(tmp);
	if ((rc = npukb_journal_open(&j, tmp, run_id, err, errlen)) != 0)
		goto out;
	j.level = order[0]->run->level;
	j.label = order[0]->run->label;
	merged_header(order, n, &h);
	rc = npukb_journal_write_header(&j, &h);
	for (u = 0; u < total && rc == 0; u++)
		rc = write_unit(&j, &b, &all[u]);
	if (rc == 0) {
		for (i = 0; i < n; i++)
			if (order[i]->run->seconds > j.seconds)
				j.seconds = order[i]->run->seconds;
		rc = npukb_journal_end(&j);
	}
	if (rc == 0 && rename(tmp, path) != 0)
		rc = -errno;
	if (rc) {
		snprintf(err, errlen, "%s: cannot write: %s", path, strerror(-rc));
		unlink(tmp);
	}
out:
	npukb_journal_close(&j);
	npukb_journal_batch_free(&b);
	free(all);
	free(path);
	free(tmp);
	free(run_id);
	return rc;
}

/* The reports of the merged run, from its journal, by the renderer a run
 * uses (junit.xml, results.xml, summary.txt, report/), and the figures of
 * `npukb report --json` in metrics.json. */
static int render_reports(const char *outdir, char *err, size_t errlen)
{
	struct npukb_jset set;
	struct npukb_run_metrics m;
	char *journal = NULL, *json = NULL, *reports = NULL;
	FILE *f = NULL;
	int rc;

	memset(&set, 0, sizeof(set));
	memset(&m, 0, sizeof(m));
	if (asprintf(&journal, "%s/journal.jsonl", outdir) < 0 ||
	    asprintf(&json, "%s/metrics.json", outdir) < 0 ||
	    !(reports = npukb_data_path("reports"))) {
		snprintf(err, errlen, "out of memory");
		rc = -ENOMEM;
		goto out;
	}
	rc = npukb_render_run_reports(outdir, reports, NULL, err, errlen);
	if (rc == 0)
		rc = npukb_journal_read(&set, journal, err, errlen);
	if (rc == 0 && set.nruns != 1) {
		snprintf(err, errlen, "%s: expected one run, read %zu", journal, set.nruns);
		rc = -EINVAL;
	}
	if (rc == 0)
		rc = npukb_metrics_compute(&set.runs[0], NULL, 0, &m, err, errlen);
	if (rc == 0 && !(f = fopen(json, "we"))) {
		rc = -errno;
		snprintf(err, errlen, "%s: cannot create: %s", json, strerror(-rc));
	}
	if (rc == 0) {
		rc = npukb_metrics_write_json(f, &m, 1, (const char *const *)set.warnings,
					      set.nwarnings, NPUKB_REPORT_BY_ALL);
		if (fclose(f) != 0 && rc == 0)
			rc = -EIO;
		if (rc)
			snprintf(err, errlen, "%s: cannot write: %s", json, strerror(-rc));
	}
out:
	npukb_run_metrics_free(&m);
	npukb_jset_free(&set);
	free(journal);
	free(json);
	free(reports);
	return rc;
}

int npukb_cmd_merge(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *out = NULL;
	struct part *parts = NULL, **order = NULL;
	size_t nparts = 0, i;
	char err[2048] = "";
	int c, rc = EXIT_OK, lock = -1;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'h': fputs(merge_usage, stdout); return EXIT_OK;
		default: fputs("Try 'npukb merge --help'.\n", stderr); return EXIT_USAGE;
		}
	}
	if (!out || optind >= argc) {
		fprintf(stderr, "npukb merge: %s\nTry 'npukb merge --help'.\n",
			!out ? "no output folder (-o OUT)" : "no shard folder given");
		return EXIT_USAGE;
	}

	parts = calloc((size_t)(argc - optind), sizeof(*parts));
	if (!parts) {
		fputs("npukb merge: out of memory\n", stderr);
		return EXIT_INTERNAL;
	}
	for (i = (size_t)optind; i < (size_t)argc && rc == EXIT_OK; i++)
		rc = part_load(&parts[nparts++], argv[i], err, sizeof(err));
	for (i = 1; i < nparts && rc == EXIT_OK; i++)
		if (agree(&parts[0], &parts[i], err, sizeof(err)) != 0)
			rc = EXIT_BADINPUT;
	if (rc == EXIT_OK && !(order = calloc(parts[0].shard.count, sizeof(*order)))) {
		snprintf(err, sizeof(err), "out of memory");
		rc = EXIT_INTERNAL;
	}
	if (rc == EXIT_OK)
		rc = shards_complete(parts, nparts, order, err, sizeof(err));
	if (rc == EXIT_OK)
		rc = units_once(parts, nparts, err, sizeof(err));
	if (rc == EXIT_OK)
		rc = units_owned(parts, nparts, err, sizeof(err));
	if (rc == EXIT_OK) {
		int r = npukb_mkdir_p(out, 0755);
		if (r == 0)
			r = npukb_outlock_take(out, &lock, err, sizeof(err));
		else
			snprintf(err, sizeof(err), "%s: cannot create: %s", out, strerror(-r));
		if (r == 0)
			r = write_journal(out, order, parts[0].shard.count, err, sizeof(err));
		if (r == 0)
			r = render_reports(out, err, sizeof(err));
		if (r)
			rc = r == -EEXIST || r == -EBUSY ? EXIT_BADINPUT : EXIT_INTERNAL;
	}
	if (rc != EXIT_OK)
		fprintf(stderr, "npukb merge: %s\n", err);
	else
		printf("merged %u shards into %s: journal.jsonl junit.xml results.xml summary.txt "
		       "report/ metrics.json\n",
		       parts[0].shard.count, out);
	npukb_outlock_release(lock);
	for (i = 0; i < nparts; i++)
		part_free(&parts[i]);
	free(parts);
	free(order);
	return rc;
}
