/* results_xml.c - results.xml through libxml2's writer: every string from
 * a sample (compiler output, messages) is cleaned to valid XML text and
 * escaped by the writer; numbers are written locale-independently. */
#include "config.h"
#include "results_xml.h"
#include "xml_file.h"

#include "diag_loc.h"
#include "machine.h"
#include "metrics_xml.h"

#include <npukb/sandbox.h>
#include <npukb/util.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <libxml/xmlwriter.h>

/* A page with megabytes of template errors helps nobody. */
#define MAX_TEXT (256 * 1024)

static int attr_num(xmlTextWriterPtr w, const char *name, double v, int precision)
{
	char buf[64];
	npukb_fmt_double(buf, sizeof(buf), v, precision);
	return npukb_xml_attr(w, name, buf);
}

static int attr_ull(xmlTextWriterPtr w, const char *name, unsigned long long v)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "%llu", v);
	return npukb_xml_attr(w, name, buf);
}

static int attr_ll(xmlTextWriterPtr w, const char *name, long long v)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "%lld", v);
	return npukb_xml_attr(w, name, buf);
}

static int start(xmlTextWriterPtr w, const char *name)
{
	return xmlTextWriterStartElement(w, BAD_CAST name) < 0 ? -1 : 0;
}

static int end(xmlTextWriterPtr w)
{
	return xmlTextWriterEndElement(w) < 0 ? -1 : 0;
}

/* <name>text</name>, nothing for NULL or "". */
static int text_elem(xmlTextWriterPtr w, const char *name, const char *text)
{
	if (!text || !*text)
		return 0;
	return start(w, name) || npukb_xml_text(w, text, MAX_TEXT) || end(w) ? -1 : 0;
}

/* One stage verdict; outcome 0 means the stage did not run: no element. */
static int verdict(xmlTextWriterPtr w, const char *name, const struct npukb_verdict *v)
{
	if (v->outcome == 0)
		return 0;
	if (start(w, name) || npukb_xml_attr(w, "outcome", npukb_outcome_name(v->outcome)) ||
	    npukb_xml_attr(w, "category", v->category) || npukb_xml_attr(w, "rule", v->rule) ||
	    npukb_xml_attr(w, "flags", v->flags) || attr_num(w, "wall-seconds", v->wall_seconds, 4))
		return -1;
	if (v->has_timing && (attr_num(w, "cycles", v->cycles, 15) ||
			      attr_num(w, "time-us", v->time_us, 6)))
		return -1;
	if (text_elem(w, "message", v->message))
		return -1;
	if (v->has_error_stats) {
		if (start(w, "errors") || attr_num(w, "max-abs", v->max_abs_err, 6) ||
		    attr_num(w, "max-rel", v->max_rel_err, 6) ||
		    attr_ll(w, "bad-count", v->bad_count) ||
		    attr_ll(w, "first-index", v->first_bad_index) ||
		    attr_num(w, "expected", v->expected_at_first, 9) ||
		    attr_num(w, "actual", v->actual_at_first, 9) || end(w))
			return -1;
	}
	if (text_elem(w, "defects", v->defects) || text_elem(w, "details", v->details))
		return -1;
	return end(w);
}

/* "level2/Norm/RmsNorm": level 2, category Norm, name RmsNorm. */
static void split_id(const char *id, int *level, char *category, size_t clen,
		     const char **name)
{
	const char *a = strchr(id, '/'), *b = strrchr(id, '/');
	*level = 0;
	if (strncmp(id, "level", 5) == 0)
		*level = atoi(id + 5);
	category[0] = '\0';
	if (a && b && b > a) {
		size_t n = (size_t)(b - a - 1);
		if (n >= clen)
			n = clen - 1;
		memcpy(category, a + 1, n);
		category[n] = '\0';
	}
	*name = b ? b + 1 : id;
}

/* A file name for the sample's page, unique by its index. */
static void page_name(char *buf, size_t len, size_t index, const char *task,
		      const char *sample)
{
	size_t off = (size_t)snprintf(buf, len, "sample-%04zu-", index);
	const char *s;
	for (s = task; *s && off + 1 < len; s++)
		buf[off++] = (*s == '/') ? '-' : *s;
	if (off + 2 < len)
		buf[off++] = '-';
	for (s = sample; *s && off + 1 < len; s++)
		buf[off++] = *s;
	buf[off] = '\0';
	for (s = buf; *s; s++) {
		char c = *s;
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '-' || c == '_' || c == '.'))
			buf[s - buf] = '_';
	}
	if (off + 6 > len)
		off = len - 6;
	snprintf(buf + off, len - off, ".html");
}

static int write_sample(xmlTextWriterPtr w, const struct npukb_sample_result *s, size_t index)
{
	char page[256];
	size_t j;
	page_name(page, sizeof(page), index, s->task_id, s->sample_id);
	if (start(w, "sample") || npukb_xml_attr(w, "id", s->sample_id) ||
	    npukb_xml_attr(w, "answer", s->is_answer ? "true" : "false") ||
	    npukb_xml_attr(w, "model", s->model) ||
	    npukb_xml_attr(w, "response-sha256", s->response_sha256) ||
	    npukb_xml_attr(w, "page", page) ||
	    npukb_xml_attr(w, "dir", s->sample_dir)) /* the report shows its source */
		return -1;
	if (verdict(w, "compile", &s->compile) ||
	    verdict(w, "compile-classify", &s->compile_classify))
		return -1;
	for (j = 0; j < s->ncases; j++) {
		const struct npukb_case_result *c = &s->cases[j];
		const char *cat, *rule;
		const struct npukb_verdict *v = npukb_case_outcome(s, j, &cat, &rule);
		char at[1024];
		long line = 0;
		int located = npukb_verdict_sample_location(v, s->sample_dir, at, sizeof(at),
							    &line) == 0;
		if (start(w, "case") || npukb_xml_attr(w, "id", c->case_id ? c->case_id : "?") ||
		    npukb_xml_attr(w, "desc", c->desc) ||
		    npukb_xml_attr(w, "outcome", npukb_outcome_name(v->outcome)) ||
		    npukb_xml_attr(w, "stage", npukb_stage_name(v->stage)) ||
		    npukb_xml_attr(w, "category", cat) ||
		    npukb_xml_attr(w, "rule", rule) ||
		    /* where in the sample it failed (diag_loc.h) */
		    npukb_xml_attr(w, "at-file", located ? at : NULL) ||
		    (located && attr_ll(w, "at-line", line)))
			return -1;
		if (verdict(w, "correctness", &c->correctness) ||
		    verdict(w, "performance", &c->performance) ||
		    verdict(w, "classify", &c->classify) || end(w))
			return -1;
	}
	return end(w);
}

static int write_provenance(xmlTextWriterPtr w, const struct npukb_results *r,
			    const struct npukb_run_info *info)
{
	struct npukb_machine m;
	char stamp[32], now[32];
	struct tm tm;
	time_t t = time(NULL);

	npukb_machine_probe(&m);
	gmtime_r(&r->started, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
	gmtime_r(&t, &tm);
	strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (start(w, "provenance") || start(w, "npukb") || npukb_xml_attr(w, "version", PACKAGE_VERSION) ||
	    end(w))
		return -1;
	if (start(w, "backend") || npukb_xml_attr(w, "name", r->backend) ||
	    npukb_xml_attr(w, "identity", r->backend_identity) || end(w))
		return -1;
	if (start(w, "soc") || npukb_xml_attr(w, "name", r->soc) || end(w))
		return -1;
	/* Written by the run that judged: whether samples were sandboxed. */
	if (start(w, "sandbox") ||
	    npukb_xml_attr(w, "mode", info->sandbox ? info->sandbox
						    : npukb_sandbox_unsafe() ? "none (--unsafe-no-sandbox)"
									     : "namespaces+seccomp") ||
	    end(w))
		return -1;
	if (start(w, "seeds") || attr_ull(w, "count", info->nseeds) ||
	    attr_ull(w, "base", info->base_seed) || end(w))
		return -1;
	if (start(w, "selection") || attr_ll(w, "level", info->level) || end(w))
		return -1;
	if (start(w, "machine") || npukb_xml_attr(w, "host", r->hostname) ||
	    npukb_xml_attr(w, "os", m.os) ||
	    npukb_xml_attr(w, "cpu-model", m.cpu_model[0] ? m.cpu_model : NULL) ||
	    attr_ull(w, "packages", m.packages) || attr_ull(w, "cores", m.cores) ||
	    attr_ull(w, "pus", m.pus) || attr_ull(w, "memory-bytes", m.memory_bytes) ||
	    attr_num(w, "memory-gib", (double)m.memory_bytes / (1024.0 * 1024.0 * 1024.0), 4) ||
	    end(w))
		return -1;
	if (start(w, "date") || npukb_xml_attr(w, "started", stamp) || npukb_xml_attr(w, "written", now) ||
	    attr_num(w, "wall-seconds", r->seconds, 4) || end(w))
		return -1;
	return end(w);
}

static int write_doc(xmlTextWriterPtr w, const struct npukb_results *r,
		     const struct npukb_run_info *info, const struct npukb_run_metrics *m)
{
	struct npukb_tally t;
	size_t i, j, index = 0;

	npukb_results_tally(r, &t);
	if (xmlTextWriterStartDocument(w, NULL, "UTF-8", NULL) < 0 || start(w, "run") ||
	    npukb_xml_attr(w, "id", r->run_id) || npukb_xml_attr(w, "label", info->label) ||
	    npukb_xml_attr(w, "format", "1"))
		return -1;
	if (write_provenance(w, r, info))
		return -1;
	if (start(w, "totals") || attr_ull(w, "units", t.total) ||
	    attr_ull(w, "passed", t.passed) || attr_ull(w, "failed", t.failed) ||
	    attr_ull(w, "skipped", t.skipped) || attr_ull(w, "samples", r->n) || end(w))
		return -1;
	if (m && npukb_metrics_xml_write(w, m))
		return -1;
	/* one <task> per task, in the order tasks first appear */
	for (i = 0; i < r->n; i++) {
		char category[128];
		const char *name;
		int level, seen = 0;
		for (j = 0; j < i && !seen; j++)
			seen = strcmp(r->items[j].task_id, r->items[i].task_id) == 0;
		if (seen)
			continue;
		split_id(r->items[i].task_id, &level, category, sizeof(category), &name);
		if (start(w, "task") || npukb_xml_attr(w, "id", r->items[i].task_id) ||
		    attr_ll(w, "level", level) || npukb_xml_attr(w, "category", category) ||
		    npukb_xml_attr(w, "name", name))
			return -1;
		for (j = i; j < r->n; j++)
			if (strcmp(r->items[j].task_id, r->items[i].task_id) == 0 &&
			    write_sample(w, &r->items[j], index++))
				return -1;
		if (end(w))
			return -1;
	}
	if (end(w) || xmlTextWriterEndDocument(w) < 0)
		return -1;
	return 0;
}

int npukb_results_xml_write(const struct npukb_results *r, const struct npukb_run_info *info,
			    const char *path, char *err, size_t errlen)
{
	struct npukb_xml_file f;
	struct npukb_run_metrics metrics;
	const struct npukb_run_metrics *m = info->metrics;
	int rc;

	/* first, so that a bad journal is reported as such */
	if (!m && info->journal) {
		rc = npukb_metrics_from_journal(info->journal, &metrics, err, errlen);
		if (rc)
			return rc;
		m = &metrics;
	}
	rc = npukb_xml_file_open(&f, path, err, errlen);
	if (rc == 0) {
		rc = write_doc(f.w, r, info, m);
		rc = npukb_xml_file_close(&f, rc == 0, "the results", err, errlen);
	}
	if (m == &metrics)
		npukb_run_metrics_free(&metrics);
	return rc;
}
