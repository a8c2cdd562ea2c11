/* journal_read.c - the reader of run journals.
 *
 * A journal line is one flat JSON object (journal.c writes it). The parser
 * here is strict JSON (RFC 8259) for one object per line; nested values are
 * checked and ignored so newer writers can add fields. Numbers are read in
 * the C locale whatever the process locale is. */
#include "journal_read.h"

#include <npukb/util.h>

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum jkind { J_NULL, J_BOOL, J_NUM, J_STR, J_NESTED };

struct jfield {
	char *key;
	enum jkind kind;
	char *str;
	double num;
};

/* Journal records have under twenty fields; the cap only bounds a hostile
 * line. */
#define MAX_FIELDS 128
#define MAX_DEPTH 32

struct jobj {
	size_t n;
	struct jfield f[MAX_FIELDS];
};

struct parser {
	const char *p;
	const char *why; /* static text: what was wrong */
	size_t col;      /* where (0-based byte offset) */
	const char *start;
};

static void jobj_clear(struct jobj *o)
{
	size_t i;
	for (i = 0; i < o->n; i++) {
		free(o->f[i].key);
		free(o->f[i].str);
	}
	o->n = 0;
}

static int fail(struct parser *ps, const char *why)
{
	if (!ps->why) {
		ps->why = why;
		ps->col = (size_t)(ps->p - ps->start);
	}
	return -1;
}

static void skip_ws(struct parser *ps)
{
	while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')
		ps->p++;
}

static int hex4(const char *s, unsigned *out)
{
	unsigned v = 0;
	int i;
	for (i = 0; i < 4; i++) {
		char c = s[i];
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

static char *put_utf8(char *o, unsigned cp)
{
	if (cp < 0x80) {
		*o++ = (char)cp;
	} else if (cp < 0x800) {
		*o++ = (char)(0xC0 | (cp >> 6));
		*o++ = (char)(0x80 | (cp & 0x3F));
	} else if (cp < 0x10000) {
		*o++ = (char)(0xE0 | (cp >> 12));
		*o++ = (char)(0x80 | ((cp >> 6) & 0x3F));
		*o++ = (char)(0x80 | (cp & 0x3F));
	} else {
		*o++ = (char)(0xF0 | (cp >> 18));
		*o++ = (char)(0x80 | ((cp >> 12) & 0x3F));
		*o++ = (char)(0x80 | ((cp >> 6) & 0x3F));
		*o++ = (char)(0x80 | (cp & 0x3F));
	}
	return o;
}

/* A string literal at ps->p; *out gets a malloc'd copy when out != NULL.
 * Returns 0, -1 on bad syntax (ps->why), -ENOMEM. */
static int parse_string(struct parser *ps, char **out)
{
	const char *s = ps->p + 1;
	size_t len = 0;
	char *buf, *o;
	/* first pass: find the end and validate; escapes never grow */
	while (*s != '"') {
		if (*s == '\0')
			return fail(ps, "unterminated string");
		if ((unsigned char)*s < 0x20) {
			ps->p = s;
			return fail(ps, "control character in a string");
		}
		if (*s == '\\') {
			s++;
			if (*s == 'u') {
				unsigned u;
				if (hex4(s + 1, &u) != 0) {
					ps->p = s;
					return fail(ps, "bad \\u escape");
				}
				s += 4;
			} else if (!strchr("\"\\/bfnrt", *s) || *s == '\0') {
				ps->p = s;
				return fail(ps, "bad escape in a string");
			}
		}
		s++;
		len++;
	}
	buf = malloc((size_t)(s - ps->p) + 1);
	if (!buf)
		return -ENOMEM;
	o = buf;
	for (s = ps->p + 1; *s != '"'; s++) {
		unsigned cp, lo;
		if (*s != '\\') {
			*o++ = *s;
			continue;
		}
		s++;
		switch (*s) {
		case 'b': *o++ = '\b'; break;
		case 'f': *o++ = '\f'; break;
		case 'n': *o++ = '\n'; break;
		case 'r': *o++ = '\r'; break;
		case 't': *o++ = '\t'; break;
		case 'u':
			hex4(s + 1, &cp);
			s += 4;
			if (cp >= 0xD800 && cp <= 0xDBFF && s[1] == '\\' && s[2] == 'u' &&
			    hex4(s + 3, &lo) == 0 && lo >= 0xDC00 && lo <= 0xDFFF) {
				cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
				s += 6;
			} else if (cp >= 0xD800 && cp <= 0xDFFF) {
				cp = 0xFFFD; /* a lone surrogate is not text */
			}
			if (cp == 0)
				cp = 0xFFFD; /* keep C strings whole */
			o = put_utf8(o, cp);
			break;
		default: *o++ = *s; break;
		}
	}
	*o = '\0';
	(void)len;
	ps->p = s + 1;
	if (out)
		*out = buf;
	else
		free(buf);
	return 0;
}

static int parse_number(struct parser *ps, double *out)
{
	const char *s = ps->p, *b = s;
	char buf[128];
	if (*s == '-')
		s++;
	if (*s == '0')
		s++;
	else if (*s >= '1' && *s <= '9')
		while (*s >= '0' && *s <= '9')
			s++;
	else
		return fail(ps, "bad number");
	if (*s == '.') {
		s++;
		if (!(*s >= '0' && *s <= '9')) {
			ps->p = s;
			return fail(ps, "bad number");
		}
		while (*s >= '0' && *s <= '9')
			s++;
	}
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (!(*s >= '0' && *s <= '9')) {
			ps->p = s;
			return fail(ps, "bad number");
		}
		while (*s >= '0' && *s <= '9')
			s++;
	}
	if ((size_t)(s - b) >= sizeof(buf))
		return fail(ps, "number too long");
	memcpy(buf, b, (size_t)(s - b));
	buf[s - b] = '\0';
	*out = npukb_strtod(buf, NULL);
	ps->p = s;
	return 0;
}

static int parse_value(struct parser *ps, struct jfield *f, int depth);

/* An object or array below the top level: validated, then dropped. */
static int skip_container(struct parser *ps, int depth)
{
	char close = *ps->p == '{' ? '}' : ']';
	int is_obj = close == '}';
	if (depth > MAX_DEPTH)
		return fail(ps, "nested too deep");
	ps->p++;
	skip_ws(ps);
	if (*ps->p == close) {
		ps->p++;
		return 0;
	}
	for (;;) {
		struct jfield tmp;
		int rc;
		memset(&tmp, 0, sizeof(tmp));
		if (is_obj) {
			if (*ps->p != '"')
				return fail(ps, "expected a key");
			if ((rc = parse_string(ps, NULL)) != 0)
				return rc;
			skip_ws(ps);
			if (*ps->p != ':')
				return fail(ps, "expected ':'");
			ps->p++;
			skip_ws(ps);
		}
		rc = parse_value(ps, &tmp, depth + 1);
		free(tmp.str);
		if (rc != 0)
			return rc;
		skip_ws(ps);
		if (*ps->p == ',') {
			ps->p++;
			skip_ws(ps);
			continue;
		}
		if (*ps->p == close) {
			ps->p++;
			return 0;
		}
		return fail(ps, is_obj ? "expected ',' or '}'" : "expected ',' or ']'");
	}
}

static int parse_value(struct parser *ps, struct jfield *f, int depth)
{
	const char *s = ps->p;
	if (*s == '"') {
		f->kind = J_STR;
		return parse_string(ps, &f->str);
	}
	if (*s == '{' || *s == '[') {
		f->kind = J_NESTED;
		return skip_container(ps, depth);
	}
	if (strncmp(s, "null", 4) == 0) {
		f->kind = J_NULL;
		ps->p += 4;
		return 0;
	}
	if (strncmp(s, "true", 4) == 0 || strncmp(s, "false", 5) == 0) {
		f->kind = J_BOOL;
		f->num = *s == 't';
		ps->p += *s == 't' ? 4 : 5;
		return 0;
	}
	if (*s == '-' || (*s >= '0' && *s <= '9')) {
		f->kind = J_NUM;
		return parse_number(ps, &f->num);
	}
	return fail(ps, "expected a value");
}

/* One line holding exactly one object. Returns 0, -1 (syntax), -ENOMEM. */
static int parse_line(const char *line, struct jobj *o, struct parser *ps)
{
	int rc;
	memset(ps, 0, sizeof(*ps));
	ps->p = ps->start = line;
	o->n = 0;
	skip_ws(ps);
	if (*ps->p != '{')
		return fail(ps, "a record must be a JSON object");
	ps->p++;
	skip_ws(ps);
	if (*ps->p == '}') {
		ps->p++;
	} else {
		for (;;) {
			struct jfield *f;
			size_t i;
			if (*ps->p != '"')
				return fail(ps, "expected a key");
			if (o->n == MAX_FIELDS)
				return fail(ps, "too many fields");
			f = &o->f[o->n];
			memset(f, 0, sizeof(*f));
			if ((rc = parse_string(ps, &f->key)) != 0)
				return rc;
			o->n++;
			for (i = 0; i + 1 < o->n; i++)
				if (strcmp(o->f[i].key, f->key) == 0)
					return fail(ps, "duplicate key");
			skip_ws(ps);
			if (*ps->p != ':')
				return fail(ps, "expected ':'");
			ps->p++;
			skip_ws(ps);
			if ((rc = parse_value(ps, f, 1)) != 0)
				return rc;
			skip_ws(ps);
			if (*ps->p == ',') {
				ps->p++;
				skip_ws(ps);
				continue;
			}
			if (*ps->p == '}') {
				ps->p++;
				break;
			}
			return fail(ps, "expected ',' or '}'");
		}
	}
	skip_ws(ps);
	if (*ps->p != '\0')
		return fail(ps, "text after the object");
	return 0;
}

static const struct jfield *get(const struct jobj *o, const char *key)
{
	size_t i;
	for (i = 0; i < o->n; i++)
		if (strcmp(o->f[i].key, key) == 0)
			return &o->f[i];
	return NULL;
}

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
	    (rc = header_field(c, r, &r->started, o, "started", 0)) != 0)
		return rc;
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
	free(v->details);
}

static int take_verdict(struct ctx *c, const struct jobj *o)
{
	const char *id, *task, *sample, *case_id, *stage, *outcome, *cat, *rule;
	const char *message, *flags, *details;
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
	    opt_str(o, "details", &details) != 0)
		return bad(c, "\"message\", \"flags\" and \"details\" must be strings or null");
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
	v.details = dup_or_null(details);
	if (!v.task || !v.sample || (case_id && !v.case_id) || (cat && !v.category) ||
	    (rule && !v.rule) || (message && !v.message) || (flags && !v.flags) ||
	    (details && !v.details)) {
		jverdict_free(&v);
		return -ENOMEM;
	}
	r->v[r->n++] = v;
	return 0;
}

/* The end-of-run record: the file's run judged everything it selected. */
static int take_end(struct ctx *c, const struct jobj *o)
{
	const char *id;
	struct npukb_jrun *r;
	double n = 0;
	size_t i;
	int rc;
	if (opt_str(o, "run", &id) != 0 || !id || !*id)
		return bad(c, "an end-of-run record needs a \"run\" string");
	if (figure(o, "verdicts", &n) != 1 || !(n >= 0))
		return bad(c, "an end-of-run record needs a \"verdicts\" count");
	if (!(r = find_run(c, id, &rc)))
		return rc;
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
		free(r->sources);
		free(r->ended);
		free(r->v);
		free(r->run_id);
		free(r->backend);
		free(r->soc);
		free(r->toolchain);
		free(r->started);
	}
	for (i = 0; i < set->nwarnings; i++)
		free(set->warnings[i]);
	free(set->warnings);
	free(set->runs);
	memset(set, 0, sizeof(*set));
}
