/* journal.c - JSON Lines journal. Each record is a line ending with its
 * newline; a run's unit (its verdicts, then the unit record) is one
 * write() under an flock, synced before the next unit starts. A torn last
 * line is the most a crash can leave: readers skip it, --resume cuts it. */
#include "config.h"
#include "journal.h"

#include "text.h"

#include <npukb/sandbox.h>
#include <npukb/util.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

/* A message is one line; anything longer is not a message. */
#define MESSAGE_MAX 1024u

int npukb_journal_open(struct npukb_journal *j, const char *path, const char *run_id,
		       char *err, size_t errlen)
{
	memset(j, 0, sizeof(*j));
	j->fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (j->fd < 0) {
		int e = errno;
		snprintf(err, errlen, "%s: cannot open the journal: %s", path, strerror(e));
		return -e;
	}
	j->path = strdup(path);
	j->run_id = strdup(run_id);
	if (!j->path || !j->run_id) {
		close(j->fd);
		free(j->path);
		j->path = NULL;
		npukb_journal_close(j);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	return 0;
}

/* One record in memory. */
struct rec {
	FILE *f;
	char *buf;
	size_t len;
};

static int rec_open(struct rec *r)
{
	r->buf = NULL;
	r->len = 0;
	r->f = open_memstream(&r->buf, &r->len);
	return r->f ? 0 : -ENOMEM;
}

static void rec_drop(struct rec *r)
{
	if (r->f)
		fclose(r->f);
	free(r->buf);
	memset(r, 0, sizeof(*r));
}

/* Closes the record's stream: r->buf and r->len hold it whole. */
static int fclose_rec(struct rec *r)
{
	int rc = fclose(r->f) != 0 ? -ENOMEM : 0;
	r->f = NULL;
	return rc;
}

int npukb_journal_reopen(struct npukb_journal *j)
{
	int fd = open(j->path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (j->fd >= 0)
		close(j->fd);
	j->fd = fd;
	return 0;
}

/* Writes len bytes with one write() under an exclusive flock (workers of
 * one run share the file), then syncs. */
static int write_locked(struct npukb_journal *j, const char *buf, size_t len)
{
	ssize_t n;
	int rc = 0;
	while (flock(j->fd, LOCK_EX) != 0)
		if (errno != EINTR)
			return -errno;
	n = write(j->fd, buf, len);
	if (n < 0)
		rc = -errno;
	else if ((size_t)n != len)
		rc = -ENOSPC; /* a short write on a regular file: the disk is full */
	/* fdatasync: the verdict survives a machine crash, not just ours */
	else if (fdatasync(j->fd) != 0 && errno != EINVAL)
		rc = -errno;
	flock(j->fd, LOCK_UN);
	return rc;
}

/* Ends the record and writes it. */
static int rec_write(struct npukb_journal *j, struct rec *r)
{
	int rc;
	fputs("}\n", r->f);
	rc = fclose_rec(r);
	if (rc == 0)
		rc = write_locked(j, r->buf, r->len);
	rec_drop(r);
	return rc;
}

static void field_str(FILE *f, const char *key, const char *value)
{
	fprintf(f, ",\"%s\":", key);
	if (value)
		npukb_json_string(f, value);
	else
		fputs("null", f);
}

/* A string field cut to max bytes (at a UTF-8 boundary), with a note. */
static int field_capped(FILE *f, const char *key, const char *value, size_t max,
			const char *why)
{
	size_t len = value ? strlen(value) : 0, keep = max;
	char *s;
	if (len <= max) {
		field_str(f, key, value);
		return 0;
	}
	while (keep > 0 && ((unsigned char)value[keep] & 0xc0) == 0x80)
		keep--;
	if (asprintf(&s, "%.*s\n[... %zu bytes cut: %s]", (int)keep, value, len - keep, why) < 0)
		return -ENOMEM;
	field_str(f, key, s);
	free(s);
	return 0;
}

static void field_num(FILE *f, const char *key, double v)
{
	char buf[64];
	npukb_fmt_double(buf, sizeof(buf), v, 17);
	/* JSON has no NaN/Inf: write them as strings */
	if (strcmp(buf, "nan") == 0 || strstr(buf, "inf"))
		fprintf(f, ",\"%s\":\"%s\"", key, buf);
	else
		fprintf(f, ",\"%s\":%s", key, buf);
}

static void utc_stamp(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

int npukb_journal_write_header(struct npukb_journal *j, const struct npukb_journal_header *h)
{
	struct rec r;
	char stamp[32];
	if (rec_open(&r) != 0)
		return -ENOMEM;
	utc_stamp(stamp, sizeof(stamp));
	fputs("{\"type\":\"run\",\"run\":", r.f);
	npukb_json_string(r.f, j->run_id);
	field_str(r.f, "started", h->started ? h->started : stamp);
	field_capped(r.f, "backend", h->backend, MESSAGE_MAX, "too long");
	field_capped(r.f, "toolchain", h->identity, MESSAGE_MAX, "too long");
	field_capped(r.f, "soc", h->soc, MESSAGE_MAX, "too long");
	fprintf(r.f, ",\"seeds\":%u,\"base_seed\":%llu,\"level\":%d", h->nseeds, h->base_seed,
		j->level);
	if (h->strict)
		fputs(",\"strict\":1", r.f);
	field_capped(r.f, "host", h->hostname, MESSAGE_MAX, "too long");
	if (j->label && *j->label)
		field_capped(r.f, "label", j->label, MESSAGE_MAX, "a label is one line");
	field_str(r.f, "npukb", h->npukb ? h->npukb : PACKAGE_VERSION);
	field_str(r.f, "sandbox", h->sandbox ? h->sandbox
			   : npukb_sandbox_unsafe() ? "none (--unsafe-no-sandbox)"
						    : "namespaces+seccomp");
	if (h->shard_count)
		fprintf(r.f, ",\"shard\":\"%u/%u\",\"units\":%zu,\"units_total\":%zu",
			h->shard_index, h->shard_count, h->units, h->units_total);
	return rec_write(j, &r);
}

int npukb_journal_begin(struct npukb_journal *j, const char *backend,
			const char *identity, const char *soc, unsigned nseeds,
			unsigned long long base_seed, const char *hostname)
{
	struct npukb_journal_header h;
	memset(&h, 0, sizeof(h));
	h.backend = backend;
	h.identity = identity;
	h.soc = soc;
	h.nseeds = nseeds;
	h.base_seed = base_seed;
	h.hostname = hostname;
	return npukb_journal_write_header(j, &h);
}

/* Everything of a verdict record but its details, which come last. */
static void verdict_fields(FILE *f, const struct npukb_journal *j, const char *task,
			   const char *sample, const char *case_id, const struct npukb_verdict *v)
{
	fputs("{\"type\":\"verdict\",\"run\":", f);
	npukb_json_string(f, j->run_id);
	field_capped(f, "task", task, MESSAGE_MAX, "too long");
	field_capped(f, "sample", sample, MESSAGE_MAX, "too long");
	field_capped(f, "case", case_id, MESSAGE_MAX, "too long");
	field_str(f, "stage", npukb_stage_name(v->stage));
	field_str(f, "outcome", npukb_outcome_name(v->outcome));
	field_capped(f, "category", v->category, MESSAGE_MAX, "too long");
	field_capped(f, "rule", v->rule, MESSAGE_MAX, "too long");
	field_capped(f, "message", v->message, MESSAGE_MAX, "a message is one line");
	if (v->flags && *v->flags)
		field_capped(f, "flags", v->flags, MESSAGE_MAX, "too long");
	/* at most DEFECTS_MAX lines of a few hundred bytes each (cpusim) */
	if (v->defects && *v->defects)
		field_capped(f, "defects", v->defects, 4 * MESSAGE_MAX, "too long");
	if (v->has_error_stats) {
		field_num(f, "max_abs_err", v->max_abs_err);
		field_num(f, "max_rel_err", v->max_rel_err);
		fprintf(f, ",\"bad_count\":%lld,\"first_bad_index\":%lld", v->bad_count,
			v->first_bad_index);
		field_num(f, "expected_at_first", v->expected_at_first);
		field_num(f, "actual_at_first", v->actual_at_first);
	}
	if (v->has_timing) {
		field_num(f, "cycles", v->cycles);
		field_num(f, "time_us", v->time_us);
	}
	field_num(f, "wall_seconds", v->wall_seconds);
}

/* A verdict record, whole, in r (opened here; the caller drops it). */
static int render_verdict(const struct npukb_journal *j, const char *task, const char *sample,
			  const char *case_id, const struct npukb_verdict *v, struct rec *r)
{
	size_t head, budget;
	int rc;

	/* the record without its details tells how much room they have */
	if (rec_open(r) != 0)
		return -ENOMEM;
	verdict_fields(r->f, j, task, sample, case_id, v);
	if (fflush(r->f) != 0)
		return -ENOMEM;
	head = r->len;
	budget = v->details ? strlen(v->details) : 0;
	if (budget) {
		/* escaped, the details may not fit: then keep what fits even
		 * if every byte were escaped as \u00XX (6 bytes), with room
		 * for the key, the note of the cut and the closing brace */
		struct rec probe;
		if (rec_open(&probe) != 0)
			return -ENOMEM;
		field_str(probe.f, "details", v->details);
		fflush(probe.f);
		if (head + probe.len + 2 > NPUKB_JOURNAL_RECORD_MAX)
			budget = head + 160 < NPUKB_JOURNAL_RECORD_MAX
					 ? (NPUKB_JOURNAL_RECORD_MAX - head - 160) / 6
					 : 0;
		rec_drop(&probe);
	}
	rc = field_capped(r->f, "details", v->details, budget,
			  "the journal keeps at most 64 KiB of a record");
	if (rc)
		return rc;
	fputs("}\n", r->f);
	return fclose_rec(r);
}

int npukb_journal_append(struct npukb_journal *j, const char *task, const char *sample,
			 const char *case_id, const struct npukb_verdict *v)
{
	struct rec r;
	int rc = render_verdict(j, task, sample, case_id, v, &r);
	if (rc == 0)
		rc = write_locked(j, r.buf, r.len);
	rec_drop(&r);
	if (rc == 0)
		j->nverdicts++;
	return rc;
}

/* ---- a unit's records, written together ---------------------------------- */

static int batch_put(struct npukb_journal_batch *b, const char *bytes, size_t len)
{
	if (b->len + len > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		char *grown;
		while (cap < b->len + len)
			cap *= 2;
		grown = realloc(b->buf, cap);
		if (!grown)
			return -ENOMEM;
		b->buf = grown;
		b->cap = cap;
	}
	memcpy(b->buf + b->len, bytes, len);
	b->len += len;
	return 0;
}

int npukb_journal_batch_add(struct npukb_journal_batch *b, const struct npukb_journal *j,
			    const char *task, const char *sample, const char *case_id,
			    const struct npukb_verdict *v)
{
	struct rec r;
	int rc = render_verdict(j, task, sample, case_id, v, &r);
	if (rc == 0)
		rc = batch_put(b, r.buf, r.len);
	rec_drop(&r);
	if (rc == 0)
		b->nverdicts++;
	return rc;
}

int npukb_journal_batch_commit(struct npukb_journal *j, struct npukb_journal_batch *b,
			       const struct npukb_journal_unit *u)
{
	struct rec r;
	size_t i;
	int rc;

	if (rec_open(&r) != 0)
		return -ENOMEM;
	fputs("{\"type\":\"unit\",\"run\":", r.f);
	npukb_json_string(r.f, j->run_id);
	field_capped(r.f, "task", u->task, MESSAGE_MAX, "too long");
	field_capped(r.f, "sample", u->sample, MESSAGE_MAX, "too long");
	fprintf(r.f, ",\"index\":%zu,\"answer\":%s,\"verdicts\":%zu,\"cases\":\"", u->index,
		u->is_answer ? "true" : "false", b->nverdicts);
	/* manifests restrict case ids to [A-Za-z0-9_.-]: a space separates
	 * them unambiguously and nothing needs escaping */
	for (i = 0; i < u->ncases; i++) {
		if (strspn(u->case_ids[i], "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
					   "0123456789_.-") != strlen(u->case_ids[i])) {
			rec_drop(&r);
			return -EINVAL;
		}
		fprintf(r.f, "%s%s", i ? " " : "", u->case_ids[i]);
	}
	fputs("\"", r.f);
	if (u->case_descs)
		field_capped(r.f, "case_descs", u->case_descs, 8192, "too long");
	if (u->sample_dir && strlen(u->sample_dir) <= 4096)
		field_str(r.f, "sample_dir", u->sample_dir);
	if (u->model)
		field_capped(r.f, "model", u->model, 256, "too long");
	if (u->response_sha256)
		field_capped(r.f, "response_sha256", u->response_sha256, 64, "too long");
	fputs("}\n", r.f);
	rc = fclose_rec(&r);
	if (rc == 0 && r.len > NPUKB_JOURNAL_RECORD_MAX)
		rc = -E2BIG;
	if (rc == 0)
		rc = batch_put(b, r.buf, r.len);
	rec_drop(&r);
	/* one write: a kill leaves all of the unit or (after the reader's
	 * or --resume's cleanup of a torn tail) none of it */
	if (rc == 0)
		rc = write_locked(j, b->buf, b->len);
	if (rc == 0)
		j->nverdicts += b->nverdicts;
	b->len = 0;
	b->nverdicts = 0;
	return rc;
}

/* What starts every verdict record of j's run (verdict_fields). */
static int record_prefix(const struct npukb_journal *j, struct rec *r)
{
	if (rec_open(r) != 0)
		return -ENOMEM;
	fputs("{\"type\":\"verdict\",\"run\":", r->f);
	npukb_json_string(r->f, j->run_id);
	return fclose_rec(r);
}

int npukb_journal_batch_detach(const struct npukb_journal *j, const struct npukb_journal_batch *b,
			       char **out, size_t *outlen)
{
	struct rec pre;
	const char *p = b->buf, *end = b->buf + b->len;
	char *text = malloc(b->len + 1), *w = text;
	size_t n = 0;
	int rc = record_prefix(j, &pre);

	while (rc == 0 && text && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl || (size_t)(nl - p) < pre.len || memcmp(p, pre.buf, pre.len) != 0) {
			rc = -EINVAL;
			break;
		}
		memcpy(w, p + pre.len, (size_t)(nl + 1 - p) - pre.len);
		w += (size_t)(nl + 1 - p) - pre.len;
		p = nl + 1;
		n++;
	}
	rec_drop(&pre);
	if (!text || rc || n != b->nverdicts) {
		free(text);
		return !text ? -ENOMEM : rc ? rc : -EINVAL;
	}
	*out = text;
	*outlen = (size_t)(w - text);
	return 0;
}

int npukb_journal_batch_attach(struct npukb_journal_batch *b, const struct npukb_journal *j,
			       const char *text, size_t len, size_t nverdicts)
{
	struct rec pre;
	const char *p = text, *end = text + len;
	size_t n = 0, start = b->len, nstart = b->nverdicts;
	int rc = record_prefix(j, &pre);

	while (rc == 0 && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		/* each detached record is the rest of one line: ,"task":...} */
		if (!nl || nl - p < 10 || strncmp(p, ",\"task\":", 8) != 0 || nl[-1] != '}' ||
		    memchr(p, '\0', (size_t)(nl - p))) {
			rc = -EINVAL;
			break;
		}
		rc = batch_put(b, pre.buf, pre.len);
		if (rc == 0)
			rc = batch_put(b, p, (size_t)(nl + 1 - p));
		p = nl + 1;
		n++;
	}
	rec_drop(&pre);
	if (rc == 0 && n != nverdicts)
		rc = -EINVAL;
	if (rc) {
		b->len = start; /* nothing of a bad text stays */
		return rc;
	}
	b->nverdicts = nstart + n;
	return 0;
}

void npukb_journal_batch_free(struct npukb_journal_batch *b)
{
	free(b->buf);
	memset(b, 0, sizeof(*b));
}

int npukb_journal_end(struct npukb_journal *j)
{
	struct rec r;
	char stamp[32];
	if (rec_open(&r) != 0)
		return -ENOMEM;
	utc_stamp(stamp, sizeof(stamp));
	fputs("{\"type\":\"end\",\"run\":", r.f);
	npukb_json_string(r.f, j->run_id);
	field_str(r.f, "finished", stamp);
	fprintf(r.f, ",\"verdicts\":%zu", j->nverdicts);
	field_num(r.f, "seconds", j->seconds);
	return rec_write(j, &r);
}

void npukb_journal_close(struct npukb_journal *j)
{
	if (j->path && j->fd >= 0)
		close(j->fd);
	free(j->path);
	free(j->run_id);
	memset(j, 0, sizeof(*j));
	j->fd = -1;
}
