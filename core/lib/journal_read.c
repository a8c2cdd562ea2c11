/* journal_read.c - the reader of run journals.
 *
 * A journal line is one flat JSON object (journal.c writes it), parsed by
 * json_line.c; this file turns the records into runs and verdicts. */
#include "journal_read.h"
#include "json_line.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- building the set ---------------------------------------------------- */

struct ctx {
	struct npukb_jset *set;
	const char *path;
	unsigned long line;
	char *err;
	size_t errlen;
	char *header_run; /* run id of this file's latest header (owned) */
};

static int bad(struct ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int bad(struct ctx *c, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(c->err, c->errlen, "%s:%lu: ", c->path, c->line);
	if (n >= 0 && (size_t)n < c->errlen) {
		va_start(ap, fmt);
		vsnprintf(c->err + n, c->errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static int warn(struct ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int warn(struct ctx *c, const char *fmt, ...)
{
	struct npukb_jset *s = c->set;
	char msg[512], *line, **grown;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if ((c->line ? asprintf(&line, "%s:%lu: %s", c->path, c->line, msg)
		     : asprintf(&line, "%s: %s", c->path, msg)) < 0)
		return -ENOMEM;
	grown = realloc(s->warnings, (s->nwarnings + 1) * sizeof(*grown));
	if (!grown) {
		free(line);
		return -ENOMEM;
	}
	s->warnings = grown;
	s->warnings[s->nwarnings++] = line;
	return 0;
}

static struct npukb_jrun *find_run(struct ctx *c, const char *id, int *rc)
{
	struct npukb_jset *s = c->set;
	struct npukb_jrun *r, *grown;
	size_t i;
	*rc = 0;
	for (i = 0; i < s->nruns; i++)
		if (strcmp(s->runs[i].run_id, id) == 0) {
			r = &s->runs[i];
			goto source;
		}
	grown = realloc(s->runs, (s->nruns + 1) * sizeof(*grown));
	if (!grown)
		goto oom;
	s->runs = grown;
	r = &s->runs[s->nruns];
	memset(r, 0, sizeof(*r));
	if (!(r->run_id = strdup(id)))
		goto oom;
	s->nruns++;
source:
	if (r->nsources == 0 || strcmp(r->sources[r->nsources - 1], c->path) != 0) {
		char **src;
		for (i = 0; i < r->nsources; i++)
			if (strcmp(r->sources[i], c->path) == 0)
				return r;
		unsigned char *ended;
		src = realloc(r->sources, (r->nsources + 1) * sizeof(*src));
		if (!src)
			goto oom;
		r->sources = src;
		ended = realloc(r->ended, r->nsources + 1);
		if (!ended)
			goto oom;
		r->ended = ended;
		r->ended[r->nsources] = 0;
		if (!(r->sources[r->nsources] = strdup(c->path)))
			goto oom;
		r->nsources++;
	}
	return r;
oom:
	*rc = -ENOMEM;
	return NULL;
}

/* Field key as an optional string: 0 and *out (NULL when absent or null),
 * or -1 when it has another type. */
static int opt_str(const struct jobj *o, const char *key, const char **out)
{
	const struct jfield *f = get(o, key);
	*out = NULL;
	if (!f || f->kind == J_NULL)
		return 0;
	if (f->kind != J_STR)
		return -1;
	*out = f->str;
	return 0;
}

/* A header field: set once per run; shards of one run must agree. */
static int header_field(struct ctx *c, struct npukb_jrun *r, char **slot,
			const struct jobj *o, const char *key, int must_agree)
{
	const char *v;
	if (opt_str(o, key, &v) != 0)
		return bad(c, "\"%s\" must be a string", key);
	if (!v)
		return 0;
	if (*slot) {
		if (must_agree && strcmp(*slot, v) != 0)
			return bad(c, "run %s: %s \"%s\" here but \"%s\" in an earlier record",
				   r->run_id, key, v, *slot);
		return 0;
	}
	if (!(*slot = strdup(v)))
		return -ENOMEM;
	return 0;
}

static int figure(const struct jobj *o, const char *key, double *out);

/* A count in the header: a non-negative number, kept from the first
 * header of the run that has it. */
static int header_count(struct ctx *c, const struct jobj *o, const char *key, int had,
			double *slot)
{
	double v;
	int got = figure(o, key, &v);
	if (got == 0)
		return 0;
	if (got < 0 || !(v >= 0) || isinf(v))
		return bad(c, "\"%s\" must be a non-negative number", key);
	if (!had)
		*slot = v;
	return 0;
}

static int take_run(struct ctx *c, const struct jobj *o)
{
	const char *id;
	struct npukb_jrun *r;
	int rc;
	if (opt_str(o, "run", &id) != 0 || !id || !*id)
		return bad(c, "a run record needs a \"run\" id");
	if (!(r = find_run(c, id, &rc)))
		return rc;
	if ((rc = header_field(c, r, &r->backend, o, "backend", 1)) != 0 ||
	    (rc = header_field(c, r, &r->soc, o, "soc", 1)) != 0 ||
	    (rc = header_field(c, r, &r->toolchain, o, "toolchain", 0)) != 0 ||
	    (rc = header_field(c, r, &r->started, o, "started", 0)) != 0 ||
	    (rc = header_field(c, r, &r->host, o, "host", 0)) != 0 ||
	    (rc = header_field(c, r, &r->sandbox, o, "sandbox", 0)) != 0 ||
	    (rc = header_field(c, r, &r->npukb, o, "npukb", 0)) != 0 ||
	    (rc = header_field(c, r, &r->label, o, "label", 0)) != 0 ||
	    (rc = header_field(c, r, &r->shard, o, "shard", 0)) != 0 ||
	    (rc = header_count(c, o, "units", r->has_shard_units, &r->shard_units)) != 0 ||
	    (rc = header_count(c, o, "units_total", r->has_shard_units, &r->shard_units_total)) != 0)
		return rc;
	r->has_shard_units = r->has_shard_units || (get(o, "units") && get(o, "units_total"));
	{
		double seeds = 0, base = 0, level = 0, strict = 0;
		int hs = figure(o, "seeds", &seeds), hb = figure(o, "base_seed", &base);
		int hl = figure(o, "level", &level), hst = figure(o, "strict", &strict);
		if (hs < 0 || hb < 0 || hl < 0 || hst < 0)
			return bad(c, "\"seeds\", \"base_seed\", \"level\" and \"strict\" must be numbers");
		if (hst == 1 && strict != 0)
			r->strict = 1;
		if (hs == 1 && hb == 1 && !r->has_seeds) {
			r->has_seeds = 1;
			r->nseeds = seeds >= 0 && seeds < 1e9 ? (unsigned)seeds : 0;
			r->base_seed = base;
		}
		if (hl == 1 && level >= 0 && level <= 9)
			r->level = (int)level;
	}
	free(c->header_run);
	if (!(c->header_run = strdup(id)))
		return -ENOMEM;
	return 0;
}

static int stage_from(const char *s, enum npukb_stage_id *out)
{
	enum npukb_stage_id all[] = { NPUKB_STAGE_COMPILE, NPUKB_STAGE_CORRECTNESS,
				      NPUKB_STAGE_PERFORMANCE, NPUKB_STAGE_CLASSIFY };
	size_t i;
	for (i = 0; i < 4; i++)
		if (strcmp(s, npukb_stage_name(all[i])) == 0) {
			*out = all[i];
			return 0;
		}
	return -1;
}

static int outcome_from(const char *s, enum npukb_outcome *out)
{
	enum npukb_outcome all[] = { NPUKB_PASS, NPUKB_FAIL, NPUKB_SKIPPED };
	size_t i;
	for (i = 0; i < 3; i++)
		if (strcmp(s, npukb_outcome_name(all[i])) == 0) {
			*out = all[i];
			return 0;
		}
	return -1;
}

/* A timing figure: a number, or one of the strings journal.c writes for
 * values JSON cannot hold. 1 = finite number in *out, 0 = absent or not
 * finite, -1 = wrong type. */
static int timing(const struct jobj *o, const char *key, double *out)
{
	const struct jfield *f = get(o, key);
	if (!f || f->kind == J_NULL)
		return 0;
	if (f->kind == J_NUM) {
		*out = f->num;
		return isfinite(f->num) ? 1 : 0;
	}
	if (f->kind == J_STR && (strcmp(f->str, "nan") == 0 || strcmp(f->str, "inf") == 0 ||
				 strcmp(f->str, "-inf") == 0))
		return 0;
	return -1;
}

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* A recorded figure: a number, or the string journal.c writes for NaN and
 * infinities. 1 = present (in *out), 0 = absent, -1 = wrong type. */
static int figure(const struct jobj *o, const char *key, double *out)
{
	const struct jfield *f = get(o, key);
	if (!f || f->kind == J_NULL)
		return 0;
	if (f->kind == J_NUM) {
		*out = f->num;
		return 1;
	}
	if (f->kind == J_STR && (strcmp(f->str, "nan") == 0 || strcmp(f->str, "-nan") == 0)) {
		*out = NAN;
		return 1;
	}
	if (f->kind == J_STR && (strcmp(f->str, "inf") == 0 || strcmp(f->str, "-inf") == 0)) {
		*out = f->str[0] == '-' ? -INFINITY : INFINITY;
		return 1;
	}
	return -1;
}

/* The mismatch figures, all or none. */
static int error_stats(struct ctx *c, const struct jobj *o, struct npukb_jverdict *v)
{
	double bad_count = 0, first = 0;
	int n = 0, r;
	r = figure(o, "max_abs_err", &v->max_abs_err);
	n += r == 1;
	if (r >= 0 && (r = figure(o, "max_rel_err", &v->max_rel_err)) >= 0)
		n += r == 1;
	if (r >= 0 && (r = figure(o, "bad_count", &bad_count)) >= 0)
		n += r == 1;
	if (r >= 0 && (r = figure(o, "first_bad_index", &first)) >= 0)
		n += r == 1;
	if (r >= 0 && (r = figure(o, "expected_at_first", &v->expected_at_first)) >= 0)
		n += r == 1;
	if (r >= 0 && (r = figure(o, "actual_at_first", &v->actual_at_first)) >= 0)
		n += r == 1;
	if (r < 0 || (n != 0 && n != 6))
		return bad(c, "the mismatch figures (max_abs_err ... actual_at_first) must be "
			      "numbers, all six or none");
	v->has_error_stats = n == 6;
	v->bad_count = (long long)bad_count;
	v->first_bad_index = (long long)first;
	return 0;
}

static void jverdict_free(struct npukb_jverdict *v)
{
	free(v->task);
	free(v->sample);
	free(v->case_id);
	free(v->category);
	free(v->rule);
	free(v->message);
	free(v->flags);
	free(v->defects);
	free(v->details);
}

static int take_verdict(struct ctx *c, const struct jobj *o)
{
	const char *id, *task, *sample, *case_id, *stage, *outcome, *cat, *rule;
	const char *message, *flags, *details, *defects;
	struct npukb_jverdict v;
	struct npukb_jrun *r;
	int rc, tc, tt;

	memset(&v, 0, sizeof(v));
	if (opt_str(o, "run", &id) != 0)
		return bad(c, "\"run\" must be a string");
	if (!id)
		id = c->header_run;
	if (!id || !*id)
		return bad(c, "a verdict without a run id and no run record before it");
	if (opt_str(o, "task", &task) != 0 || !task || !*task)
		return bad(c, "a verdict needs a \"task\" string");
	if (opt_str(o, "sample", &sample) != 0 || !sample || !*sample)
		return bad(c, "a verdict needs a \"sample\" string");
	if (opt_str(o, "case", &case_id) != 0)
		return bad(c, "\"case\" must be a string or null");
	if (opt_str(o, "stage", &stage) != 0 || !stage || stage_from(stage, &v.stage) != 0)
		return bad(c, "\"stage\" must be compile, correctness, performance or classify");
	if (opt_str(o, "outcome", &outcome) != 0 || !outcome ||
	    outcome_from(outcome, &v.outcome) != 0)
		return bad(c, "\"outcome\" must be pass, fail or skipped");
	if (opt_str(o, "category", &cat) != 0)
		return bad(c, "\"category\" must be a string or null");
	if (opt_str(o, "rule", &rule) != 0)
		return bad(c, "\"rule\" must be a string or null");
	if (opt_str(o, "message", &message) != 0 || opt_str(o, "flags", &flags) != 0 ||
	    opt_str(o, "details", &details) != 0 || opt_str(o, "defects", &defects) != 0)
		return bad(c, "\"message\", \"flags\", \"defects\" and \"details\" must be strings or null");
	if (figure(o, "wall_seconds", &v.wall_seconds) < 0)
		return bad(c, "\"wall_seconds\" must be a number");
	if ((rc = error_stats(c, o, &v)) != 0)
		return rc;
	tc = timing(o, "cycles", &v.cycles);
	tt = timing(o, "time_us", &v.time_us);
	if (tc < 0 || tt < 0)
		return bad(c, "\"cycles\" and \"time_us\" must be numbers");
	v.has_timing = tc == 1 && tt == 1;
	if (!v.has_timing)
		v.cycles = v.time_us = 0;

	if (!(r = find_run(c, id, &rc)))
		return rc;
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 64;
		struct npukb_jverdict *grown = realloc(r->v, cap * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		r->v = grown;
		r->cap = cap;
	}
	v.task = strdup(task);
	v.sample = strdup(sample);
	v.case_id = dup_or_null(case_id);
	v.category = dup_or_null(cat);
	v.rule = dup_or_null(rule);
	v.message = dup_or_null(message);
	v.flags = dup_or_null(flags);
	v.defects = dup_or_null(defects);
	v.details = dup_or_null(details);
	if (!v.task || !v.sample || (case_id && !v.case_id) || (cat && !v.category) ||
	    (rule && !v.rule) || (message && !v.message) || (flags && !v.flags) ||
	    (defects && !v.defects) || (details && !v.details)) {
		jverdict_free(&v);
		return -ENOMEM;
	}
	r->v[r->n++] = v;
	return 0;
}

static int same(const char *a, const char *b)
{
	return a && b && strcmp(a, b) == 0;
}

/* A unit record closes the batch of its unit's verdicts. */
static int take_unit(struct ctx *c, const struct jobj *o)
{
	const char *id, *task, *sample, *cases, *descs, *sdir, *model, *sha;
	const struct jfield *answer = get(o, "answer");
	struct npukb_jrun *r;
	struct npukb_jwork w, *grown;
	double index = 0, n = 0;
	size_t i;
	int rc;

	if (opt_str(o, "run", &id) != 0 || !id || !*id)
		return bad(c, "a unit record needs a \"run\" string");
	if (opt_str(o, "task", &task) != 0 || !task || !*task ||
	    opt_str(o, "sample", &sample) != 0 || !sample || !*sample)
		return bad(c, "a unit record needs \"task\" and \"sample\" strings");
	if (opt_str(o, "cases", &cases) != 0 || !cases)
		return bad(c, "a unit record needs a \"cases\" string");
	if (opt_str(o, "case_descs", &descs) != 0 || opt_str(o, "sample_dir", &sdir) != 0 ||
	    opt_str(o, "model", &model) != 0 || opt_str(o, "response_sha256", &sha) != 0)
		return bad(c, "\"case_descs\", \"sample_dir\", \"model\" and "
			      "\"response_sha256\" must be strings");
	if (figure(o, "verdicts", &n) != 1 || !(n >= 0 && n < 1e12) ||
	    figure(o, "index", &index) != 1 || !(index >= 0 && index < 1e12))
		return bad(c, "a unit record needs \"verdicts\" and \"index\" counts");
	if (answer && answer->kind != J_BOOL)
		return bad(c, "\"answer\" must be true or false");
	if (!(r = find_run(c, id, &rc)))
		return rc;
	memset(&w, 0, sizeof(w));
	w.nverdicts = (size_t)n;
	w.index = (size_t)index;
	w.is_answer = answer && answer->num != 0;
	/* the batch is one write: its verdicts are the last ones read */
	if (w.nverdicts > r->n)
		return bad(c, "the unit record counts %zu verdicts; fewer precede it", w.nverdicts);
	w.first = r->n - w.nverdicts;
	for (i = w.first; i < r->n; i++)
		if (!same(r->v[i].task, task) || !same(r->v[i].sample, sample))
			return bad(c, "the unit record of %s %s follows a verdict of %s %s", task,
				   sample, r->v[i].task, r->v[i].sample);
	grown = realloc(r->units, (r->nunits + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	r->units = grown;
	w.task = strdup(task);
	w.sample = strdup(sample);
	w.cases = strdup(cases);
	w.case_descs = descs ? strdup(descs) : NULL;
	w.sample_dir = sdir ? strdup(sdir) : NULL;
	w.model = model ? strdup(model) : NULL;
	w.response_sha256 = sha ? strdup(sha) : NULL;
	if (!w.task || !w.sample || !w.cases || (descs && !w.case_descs) ||
	    (sdir && !w.sample_dir) || (model && !w.model) || (sha && !w.response_sha256)) {
		free(w.model);
		free(w.response_sha256);
		free(w.sample_dir);
		free(w.task);
		free(w.sample);
		free(w.cases);
		free(w.case_descs);
		return -ENOMEM;
	}
	r->units[r->nunits++] = w;
	return 0;
}

/* The end-of-run record: the file's run judged everything it selected. */
static int take_end(struct ctx *c, const struct jobj *o)
{
	const char *id;
	struct npukb_jrun *r;
	double n = 0, secs = 0;
	size_t i;
	int rc;
	if (opt_str(o, "run", &id) != 0 || !id || !*id)
		return bad(c, "an end-of-run record needs a \"run\" string");
	if (figure(o, "verdicts", &n) != 1 || !(n >= 0))
		return bad(c, "an end-of-run record needs a \"verdicts\" count");
	if (!(r = find_run(c, id, &rc)))
		return rc;
	if (figure(o, "seconds", &secs) == 1 && secs >= 0)
		r->seconds = secs;
	for (i = 0; i < r->nsources; i++)
		if (strcmp(r->sources[i], c->path) == 0)
			r->ended[i] = 1;
	return 0;
}

static int take_record(struct ctx *c, const struct jobj *o)
{
	const char *type;
	if (opt_str(o, "type", &type) != 0 || !type)
		return bad(c, "a record needs a \"type\" string");
	if (strcmp(type, "run") == 0)
		return take_run(c, o);
	if (strcmp(type, "verdict") == 0)
		return take_verdict(c, o);
	if (strcmp(type, "end") == 0)
		return take_end(c, o);
	if (strcmp(type, "unit") == 0)
		return take_unit(c, o);
	return bad(c, "unknown record type \"%s\"", type);
}

/* A killed run leaves an unfinished record; a resumed run appends to the
 * same file, so the next record may follow the torn bytes on one line.
 * Returns the offset of a complete record after torn bytes, or 0. */
static size_t resumed_after_torn(const char *line, struct jobj *o)
{
	const char *p = line + strlen(line);
	while (p > line + 1) {
		struct parser ps;
		p--;
		if (*p != '{' || strncmp(p, "{\"type\":", 8) != 0)
			continue;
		if (parse_line(p, o, &ps) == 0)
			return (size_t)(p - line);
		jobj_clear(o);
	}
	return 0;
}

int npukb_journal_read(struct npukb_jset *set, const char *path, char *err,
		       size_t errlen)
{
	struct ctx c;
	struct jobj *o;
	FILE *f;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int rc = 0;

	if (errlen)
		err[0] = '\0';
	memset(&c, 0, sizeof(c));
	c.set = set;
	c.path = path;
	c.err = err;
	c.errlen = errlen;
	f = fopen(path, "re");
	if (!f) {
		int e = errno;
		snprintf(err, errlen, "%s: cannot open the journal: %s", path, strerror(e));
		return -e;
	}
	o = calloc(1, sizeof(*o));
	if (!o) {
		fclose(f);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	while ((len = getline(&line, &cap, f)) >= 0) {
		struct parser ps;
		int terminated = len > 0 && line[len - 1] == '\n';
		size_t at;
		c.line++;
		if ((size_t)len != strlen(line)) {
			rc = bad(&c, "NUL byte in the line");
			break;
		}
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (strspn(line, " \t") == (size_t)len)
			continue; /* blank lines carry nothing */
		rc = parse_line(line, o, &ps);
		if (rc == -ENOMEM) {
			jobj_clear(o);
			snprintf(err, errlen, "out of memory");
			break;
		}
		if (rc != 0) {
			char why[160];
			jobj_clear(o);
			snprintf(why, sizeof(why), "%s", ps.why ? ps.why : "invalid JSON");
			if (!terminated) {
				/* journal.c ends every record with its newline, so an
				 * unterminated last line is a record cut short */
				rc = warn(&c, "torn last line skipped (%s at byte %zu): "
					      "the run was killed while writing",
					  why, ps.col + 1);
				break;
			}
			if ((at = resumed_after_torn(line, o)) != 0) {
				rc = warn(&c, "torn record (%zu bytes) before a resumed run's "
					      "record: skipped the torn part",
					  at);
				if (rc == 0)
					rc = take_record(&c, o);
				jobj_clear(o);
				if (rc != 0)
					break;
				continue;
			}
			rc = bad(&c, "invalid JSON: %s at byte %zu", why, ps.col + 1);
			break;
		}
		rc = take_record(&c, o);
		jobj_clear(o);
		if (rc != 0)
			break;
	}
	if (rc == 0 && ferror(f)) {
		int e = errno ? errno : EIO;
		snprintf(err, errlen, "%s: read error: %s", path, strerror(e));
		rc = -e;
	}
	if (rc == -ENOMEM && err[0] == '\0')
		snprintf(err, errlen, "out of memory");
	free(line);
	free(o);
	free(c.header_run);
	fclose(f);
	return rc;
}

int npukb_jrun_complete(const struct npukb_jrun *r)
{
	size_t i;
	for (i = 0; i < r->nsources; i++)
		if (!r->ended[i])
			return 0;
	return r->nsources > 0;
}

int npukb_jset_warn_incomplete(struct npukb_jset *set)
{
	size_t i, k;
	for (i = 0; i < set->nruns; i++) {
		const struct npukb_jrun *r = &set->runs[i];
		for (k = 0; k < r->nsources; k++) {
			struct ctx c;
			int rc;
			if (r->ended[k])
				continue;
			memset(&c, 0, sizeof(c));
			c.set = set;
			c.path = r->sources[k];
			c.line = 0;
			rc = warn(&c, "run %s is incomplete (no end-of-run record: killed, or "
				      "still running): its figures cover only what it judged",
				  r->run_id);
			if (rc)
				return rc;
		}
	}
	return 0;
}

void npukb_jset_free(struct npukb_jset *set)
{
	size_t i, j;
	for (i = 0; i < set->nruns; i++) {
		struct npukb_jrun *r = &set->runs[i];
		for (j = 0; j < r->n; j++)
			jverdict_free(&r->v[j]);
		for (j = 0; j < r->nsources; j++)
			free(r->sources[j]);
		for (j = 0; j < r->nunits; j++) {
			free(r->units[j].task);
			free(r->units[j].sample);
			free(r->units[j].cases);
			free(r->units[j].case_descs);
			free(r->units[j].sample_dir);
			free(r->units[j].model);
			free(r->units[j].response_sha256);
		}
		free(r->units);
		free(r->host);
		free(r->sandbox);
		free(r->npukb);
		free(r->label);
		free(r->sources);
		free(r->ended);
		free(r->v);
		free(r->run_id);
		free(r->backend);
		free(r->soc);
		free(r->toolchain);
		free(r->started);
		free(r->shard);
	}
	for (i = 0; i < set->nwarnings; i++)
		free(set->warnings[i]);
	free(set->warnings);
	free(set->runs);
	memset(set, 0, sizeof(*set));
}
