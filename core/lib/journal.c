/* journal.c - JSON Lines journal. Each record ends with a newline, is
 * flushed and synced before the next stage starts; a torn last line is the
 * most a crash can leave, and readers skip it. */
#include "config.h"
#include "journal.h"

#include "text.h"

#include <npukb/sandbox.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int npukb_journal_open(struct npukb_journal *j, const char *path, const char *run_id,
		       char *err, size_t errlen)
{
	memset(j, 0, sizeof(*j));
	j->f = fopen(path, "ae");
	if (!j->f) {
		int e = errno;
		snprintf(err, errlen, "%s: cannot open the journal: %s", path, strerror(e));
		return -e;
	}
	j->path = strdup(path);
	j->run_id = strdup(run_id);
	if (!j->path || !j->run_id) {
		npukb_journal_close(j);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	return 0;
}

static int finish_record(struct npukb_journal *j)
{
	fputs("}\n", j->f);
	if (fflush(j->f) != 0 || ferror(j->f))
		return -EIO;
	/* fdatasync: the verdict survives a machine crash, not just ours */
	if (fdatasync(fileno(j->f)) != 0 && errno != EINVAL)
		return -errno;
	return 0;
}

static void field_str(FILE *f, const char *key, const char *value)
{
	fprintf(f, ",\"%s\":", key);
	if (value)
		npukb_json_string(f, value);
	else
		fputs("null", f);
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

int npukb_journal_begin(struct npukb_journal *j, const char *backend,
			const char *identity, const char *soc, unsigned nseeds,
			unsigned long long base_seed, const char *hostname)
{
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
	fputs("{\"type\":\"run\",\"run\":", j->f);
	npukb_json_string(j->f, j->run_id);
	field_str(j->f, "started", stamp);
	field_str(j->f, "backend", backend);
	field_str(j->f, "toolchain", identity);
	field_str(j->f, "soc", soc);
	fprintf(j->f, ",\"seeds\":%u,\"base_seed\":%llu", nseeds, base_seed);
	field_str(j->f, "host", hostname);
	field_str(j->f, "npukb", PACKAGE_VERSION);
	field_str(j->f, "sandbox", npukb_sandbox_unsafe() ? "none (--unsafe-no-sandbox)"
							 : "namespaces+seccomp");
	return finish_record(j);
}

int npukb_journal_append(struct npukb_journal *j, const char *task, const char *sample,
			 const char *case_id, const struct npukb_verdict *v)
{
	fputs("{\"type\":\"verdict\",\"run\":", j->f);
	npukb_json_string(j->f, j->run_id);
	field_str(j->f, "task", task);
	field_str(j->f, "sample", sample);
	field_str(j->f, "case", case_id);
	field_str(j->f, "stage", npukb_stage_name(v->stage));
	field_str(j->f, "outcome", npukb_outcome_name(v->outcome));
	field_str(j->f, "category", v->category);
	field_str(j->f, "rule", v->rule);
	field_str(j->f, "message", v->message);
	if (v->flags && *v->flags)
		field_str(j->f, "flags", v->flags);
	if (v->has_error_stats) {
		field_num(j->f, "max_abs_err", v->max_abs_err);
		field_num(j->f, "max_rel_err", v->max_rel_err);
		fprintf(j->f, ",\"bad_count\":%lld,\"first_bad_index\":%lld", v->bad_count,
			v->first_bad_index);
		field_num(j->f, "expected_at_first", v->expected_at_first);
		field_num(j->f, "actual_at_first", v->actual_at_first);
	}
	if (v->has_timing) {
		field_num(j->f, "cycles", v->cycles);
		field_num(j->f, "time_us", v->time_us);
	}
	field_num(j->f, "wall_seconds", v->wall_seconds);
	field_str(j->f, "details", v->details);
	return finish_record(j);
}

void npukb_journal_close(struct npukb_journal *j)
{
	if (j->f)
		fclose(j->f);
	free(j->path);
	free(j->run_id);
	memset(j, 0, sizeof(*j));
}
