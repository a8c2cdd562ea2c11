/* journal_resume.c - find the whole part of a journal to resume. */
#include "journal_resume.h"
#include "json_line.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *str_of(const struct jobj *o, const char *key)
{
	const struct jfield *f = get(o, key);
	return f && f->kind == J_STR ? f->str : NULL;
}

static int num_of(const struct jobj *o, const char *key, double *out)
{
	const struct jfield *f = get(o, key);
	if (!f || f->kind != J_NUM)
		return 0;
	*out = f->num;
	return 1;
}

static int set_str(char **slot, const char *v)
{
	free(*slot);
	*slot = v ? strdup(v) : NULL;
	return v && !*slot ? -ENOMEM : 0;
}

static void drop_done(struct npukb_journal_resume *r)
{
	while (r->ndone)
		free(r->done[--r->ndone]);
}

/* A run header starts the run to resume: what came before is another run's. */
static int take_header(struct npukb_journal_resume *r, const struct jobj *o)
{
	const char *id = str_of(o, "run");
	if (!id || !*id)
		return -EINVAL;
	drop_done(r);
	r->nverdicts = 0;
	r->has_run = 1;
	r->has_seeds = num_of(o, "seeds", &r->nseeds) && num_of(o, "base_seed", &r->base_seed);
	{
		/* "level" came with unit records: an older journal has no
		 * unit records to tell its whole units by */
		double level;
		r->has_units = num_of(o, "level", &level);
	}
	{
		double strict = 0;
		r->strict = num_of(o, "strict", &strict) && strict != 0;
	}
	if (set_str(&r->run_id, id) || set_str(&r->npukb, str_of(o, "npukb")) ||
	    set_str(&r->backend, str_of(o, "backend")) || set_str(&r->soc, str_of(o, "soc")) ||
	    set_str(&r->shard, str_of(o, "shard")))
		return -ENOMEM;
	return 0;
}

static int take_unit(struct npukb_journal_resume *r, const struct jobj *o, size_t *cap)
{
	const char *id = str_of(o, "run"), *task = str_of(o, "task"), *sample = str_of(o, "sample");
	double n = 0;
	char *key;
	if (!id || !task || !sample || !num_of(o, "verdicts", &n) || n < 0)
		return -EINVAL;
	if (!r->has_run || strcmp(id, r->run_id) != 0)
		return 0; /* another run's unit (or one without a header): not ours */
	if (r->ndone == *cap) {
		size_t c = *cap ? *cap * 2 : 64;
		char **grown = realloc(r->done, c * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		r->done = grown;
		*cap = c;
	}
	if (asprintf(&key, "%s\n%s", task, sample) < 0)
		return -ENOMEM;
	r->done[r->ndone++] = key;
	r->nverdicts += (size_t)n;
	return 0;
}

static int cmp_key(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int npukb_journal_resume_scan(const char *path, struct npukb_journal_resume *out, char *err,
			      size_t errlen)
{
	FILE *f;
	struct jobj *o;
	char *line = NULL;
	size_t cap = 0, done_cap = 0;
	unsigned long lineno = 0;
	off_t at = 0;
	ssize_t len;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	f = fopen(path, "re");
	if (!f) {
		rc = -errno;
		snprintf(err, errlen, "%s: cannot open the journal: %s", path, strerror(-rc));
		return rc;
	}
	o = calloc(1, sizeof(*o));
	if (!o) {
		fclose(f);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	while ((len = getline(&line, &cap, f)) >= 0) {
		struct parser ps;
		const char *type;
		lineno++;
		at += len;
		/* an unterminated last line is a record cut short: not whole */
		if (len == 0 || line[len - 1] != '\n' || (size_t)len != strlen(line))
			break;
		if (parse_line(line, o, &ps) != 0) {
			jobj_clear(o);
			/* torn bytes (a kill mid-write) followed by a later write:
			 * whatever follows is not whole either */
			break;
		}
		type = str_of(o, "type");
		if (type && strcmp(type, "run") == 0)
			rc = take_header(out, o);
		else if (type && strcmp(type, "unit") == 0)
			rc = take_unit(out, o, &done_cap);
		else {
			jobj_clear(o);
			continue; /* verdicts and end records count only once closed */
		}
		jobj_clear(o);
		if (rc == -EINVAL) {
			snprintf(err, errlen, "%s:%lu: a run or unit record without its fields", path,
				 lineno);
			break;
		}
		if (rc)
			break;
		out->keep = at;
	}
	if (rc == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	if (rc == 0 && ferror(f)) {
		rc = -EIO;
		snprintf(err, errlen, "%s: read error", path);
	}
	if (rc == 0)
		qsort(out->done, out->ndone, sizeof(*out->done), cmp_key);
	free(line);
	free(o);
	fclose(f);
	return rc;
}

int npukb_journal_resume_done(const struct npukb_journal_resume *r, const char *task,
			      const char *sample)
{
	char *key;
	int found;
	if (r->ndone == 0 || asprintf(&key, "%s\n%s", task, sample) < 0)
		return 0;
	found = bsearch(&key, r->done, r->ndone, sizeof(*r->done), cmp_key) != NULL;
	free(key);
	return found;
}

void npukb_journal_resume_free(struct npukb_journal_resume *r)
{
	drop_done(r);
	free(r->done);
	free(r->run_id);
	free(r->npukb);
	free(r->backend);
	free(r->soc);
	free(r->shard);
	memset(r, 0, sizeof(*r));
}
