/* junit.c - write JUnit XML through libxml2's writer, so every name,
 * message and diagnostic is escaped correctly (no hand-rolled escaping,
 * no CDATA pitfalls) and numbers are formatted locale-independently. */
#include "junit.h"

#include "xml_file.h"

#include <npukb/util.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <libxml/xmlwriter.h>

/* Diagnostics can be megabytes of template errors; CI pages choke on that. */
#define MAX_BODY 65536

static int attr_num(xmlTextWriterPtr w, const char *name, double v)
{
	char buf[64];
	npukb_fmt_double(buf, sizeof(buf), v < 0 || v != v ? 0.0 : v, 6);
	/* xs:decimal has no exponent form */
	if (strchr(buf, 'e'))
		snprintf(buf, sizeof(buf), "%.0f", v);
	return npukb_xml_attr(w, name, buf);
}

static int attr_int(xmlTextWriterPtr w, const char *name, long long v)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "%lld", v);
	return npukb_xml_attr(w, name, buf);
}

static int body(xmlTextWriterPtr w, const char *text)
{
	return npukb_xml_text(w, text, MAX_BODY);
}

static int property(xmlTextWriterPtr w, const char *name, const char *value)
{
	if (xmlTextWriterStartElement(w, BAD_CAST "property") < 0)
		return -1;
	if (npukb_xml_attr(w, "name", name) || npukb_xml_attr(w, "value", value ? value : ""))
		return -1;
	return xmlTextWriterEndElement(w) < 0 ? -1 : 0;
}

/* "level1/Math/AddCustom" -> package "level1.Math", name "AddCustom" */
static void split_task(const char *id, char *pkg, size_t plen, const char **name)
{
	const char *slash = strrchr(id, '/');
	size_t i, n = slash ? (size_t)(slash - id) : 0;
	*name = slash ? slash + 1 : id;
	if (n >= plen)
		n = plen - 1;
	for (i = 0; i < n; i++)
		pkg[i] = id[i] == '/' ? '.' : id[i];
	pkg[n] = '\0';
	if (n == 0)
		snprintf(pkg, plen, "npukb");
}

static double case_time(const struct npukb_sample_result *s, size_t i)
{
	/* the build is shared by all cases: it has its own test case */
	return s->cases[i].correctness.wall_seconds + s->cases[i].performance.wall_seconds;
}

/* Digits to pad numeric case ids of s to: those of its case count, or of
 * its longest numeric id, so that names sort in case order. */
static int id_width(const struct npukb_sample_result *s)
{
	size_t i, n;
	int w = 1;
	for (n = s->ncases; n >= 10; n /= 10)
		w++;
	for (i = 0; i < s->ncases; i++) {
		const char *id = s->cases[i].case_id ? s->cases[i].case_id : "";
		size_t len = strlen(id);
		if (len && strspn(id, "0123456789") == len && (int)len > w)
			w = (int)len;
	}
	return w;
}

void npukb_junit_case_name(const struct npukb_sample_result *s, size_t i, char *buf,
			   size_t len)
{
	const char *id = s->cases[i].case_id ? s->cases[i].case_id : "?";
	const char *desc = s->cases[i].desc;
	size_t idlen = strlen(id);
	int pad = 0;
	if (idlen && strspn(id, "0123456789") == idlen)
		pad = id_width(s) - (int)idlen;
	snprintf(buf, len, "case-%.*s%s%s%s", pad > 0 ? pad : 0, "000000000000000000000", id,
		 desc && *desc ? " " : "", desc && *desc ? desc : "");
}

static int skipped(xmlTextWriterPtr w, const struct npukb_verdict *v)
{
	if (xmlTextWriterStartElement(w, BAD_CAST "skipped") < 0 ||
	    npukb_xml_attr(w, "message", v->message ? v->message : "skipped"))
		return -1;
	return xmlTextWriterEndElement(w) < 0 ? -1 : 0;
}

/* "<pkg>.<task>.<sample>", the sample's dots and spaces made '_'. */
static void class_name(char *buf, size_t len, const char *pkg, const char *tname,
		       const char *sample)
{
	size_t k;
	snprintf(buf, len, "%s.%s.%s", pkg, tname, sample);
	for (k = strlen(pkg) + strlen(tname) + 2; k < len && buf[k]; k++)
		if (buf[k] == '.' || buf[k] == ' ')
			buf[k] = '_';
}

/* 1 when s's build gets a test case of its own (it has a compile verdict). */
static int has_build(const struct npukb_sample_result *s)
{
	return s->compile.outcome == NPUKB_PASS || s->compile.outcome == NPUKB_FAIL ||
	       s->compile.outcome == NPUKB_SKIPPED;
}

/* The sample's build, with its own time: "build". */
static int write_build(xmlTextWriterPtr w, const struct npukb_sample_result *s,
		       const char *pkg, const char *tname)
{
	char classname[512], msg[1024];
	const struct npukb_verdict *v = &s->compile, *cls = &s->compile_classify;
	int classified = cls->outcome == NPUKB_FAIL && cls->category;
	const char *cat = classified ? cls->category : v->category;

	class_name(classname, sizeof(classname), pkg, tname, s->sample_id);
	if (xmlTextWriterStartElement(w, BAD_CAST "testcase") < 0 || npukb_xml_attr(w, "name", "build") ||
	    npukb_xml_attr(w, "classname", classname) || attr_num(w, "time", v->wall_seconds))
		return -1;
	if (v->outcome == NPUKB_SKIPPED) {
		if (skipped(w, v))
			return -1;
	} else if (v->outcome == NPUKB_FAIL) {
		snprintf(msg, sizeof(msg), "compile: %s", v->message ? v->message : "");
		if (xmlTextWriterStartElement(w, BAD_CAST "failure") < 0 ||
		    npukb_xml_attr(w, "type", cat ? cat : "other-compile") ||
		    npukb_xml_attr(w, "message", msg))
			return -1;
		if (classified && cls->rule && body(w, "classified by rule ") == 0 &&
		    body(w, cls->rule) == 0)
			body(w, "\n");
		if (body(w, v->details) || xmlTextWriterEndElement(w) < 0)
			return -1;
	}
	return xmlTextWriterEndElement(w) < 0 ? -1 : 0;
}

static int write_case(xmlTextWriterPtr w, const struct npukb_sample_result *s, size_t i,
		      const char *pkg, const char *tname)
{
	char classname[512], name[256], msg[1024];
	const char *cat, *rule, *p;
	const struct npukb_verdict *v = npukb_case_outcome(s, i, &cat, &rule);

	class_name(classname, sizeof(classname), pkg, tname, s->sample_id);
	npukb_junit_case_name(s, i, name, sizeof(name));
	if (xmlTextWriterStartElement(w, BAD_CAST "testcase") < 0 || npukb_xml_attr(w, "name", name) ||
	    npukb_xml_attr(w, "classname", classname) || attr_num(w, "time", case_time(s, i)))
		return -1;
	if (v->outcome == NPUKB_SKIPPED) {
		if (skipped(w, v))
			return -1;
	} else if (v->outcome == NPUKB_FAIL) {
		int internal = cat && strcmp(cat, "internal-error") == 0;
		p = v->message ? v->message : "";
		snprintf(msg, sizeof(msg), "%s: %s", npukb_stage_name(v->stage), p);
		if (xmlTextWriterStartElement(w, BAD_CAST(internal ? "error" : "failure")) < 0 ||
		    npukb_xml_attr(w, "type", cat ? cat : "other") || npukb_xml_attr(w, "message", msg))
			return -1;
		if (rule && body(w, "classified by rule ") == 0 && body(w, rule) == 0)
			body(w, "\n");
		if (s->cases[i].correctness.flags && body(w, "flags: ") == 0 &&
		    body(w, s->cases[i].correctness.flags) == 0)
			body(w, "\n");
		if (s->cases[i].correctness.defects && body(w, "defects:\n") == 0)
			body(w, s->cases[i].correctness.defects);
		if (body(w, v->details) || xmlTextWriterEndElement(w) < 0)
			return -1;
	}
	return xmlTextWriterEndElement(w) < 0 ? -1 : 0;
}

/* Suite property "npukb.KIND.SAMPLE.case-ID" = value, when value is set. */
static int case_property(xmlTextWriterPtr w, const struct npukb_sample_result *s, size_t j,
			 const char *kind, const char *value)
{
	char name[512];
	if (!value)
		return 0;
	snprintf(name, sizeof(name), "npukb.%s.%s.case-%s", kind, s->sample_id,
		 s->cases[j].case_id ? s->cases[j].case_id : "?");
	return property(w, name, value);
}

static int write_suite(xmlTextWriterPtr w, const struct npukb_results *r, const char *task,
		       int id, const char *stamp)
{
	char pkg[256];
	const char *tname;
	size_t i, j, tests = 0, failures = 0, errors = 0, skipped = 0;
	double secs = 0;

	for (i = 0; i < r->n; i++) {
		const struct npukb_sample_result *s = &r->items[i];
		if (strcmp(s->task_id, task) != 0)
			continue;
		if (has_build(s)) {
			tests++;
			secs += s->compile.wall_seconds;
			skipped += s->compile.outcome == NPUKB_SKIPPED;
			failures += s->compile.outcome == NPUKB_FAIL;
		}
		for (j = 0; j < s->ncases; j++) {
			const char *cat, *rule;
			const struct npukb_verdict *v = npukb_case_outcome(s, j, &cat, &rule);
			tests++;
			secs += case_time(s, j);
			if (v->outcome == NPUKB_SKIPPED)
				skipped++;
			else if (v->outcome == NPUKB_FAIL) {
				if (cat && strcmp(cat, "internal-error") == 0)
					errors++;
				else
					failures++;
			}
		}
	}
	split_task(task, pkg, sizeof(pkg), &tname);
	if (xmlTextWriterStartElement(w, BAD_CAST "testsuite") < 0 || npukb_xml_attr(w, "name", tname) ||
	    npukb_xml_attr(w, "package", pkg) || attr_int(w, "id", id) ||
	    npukb_xml_attr(w, "timestamp", stamp) ||
	    npukb_xml_attr(w, "hostname", r->hostname && r->hostname[0] ? r->hostname : "localhost") ||
	    attr_int(w, "tests", (long long)tests) || attr_int(w, "failures", (long long)failures) ||
	    attr_int(w, "errors", (long long)errors) || attr_int(w, "skipped", (long long)skipped) ||
	    attr_num(w, "time", secs))
		return -1;
	if (xmlTextWriterStartElement(w, BAD_CAST "properties") < 0 ||
	    property(w, "npukb.task", task) || property(w, "npukb.backend", r->backend) ||
	    property(w, "npukb.toolchain", r->backend_identity) ||
	    property(w, "npukb.soc", r->soc) || property(w, "npukb.run", r->run_id))
		return -1;
	/* testcase elements have no properties in this schema: suspicion
	 * flags and defects (which a passing case can carry too) are listed
	 * here. */
	for (i = 0; i < r->n; i++) {
		const struct npukb_sample_result *s = &r->items[i];
		if (strcmp(s->task_id, task) != 0)
			continue;
		for (j = 0; j < s->ncases; j++)
			if (case_property(w, s, j, "flags", s->cases[j].correctness.flags) ||
			    case_property(w, s, j, "defects", s->cases[j].correctness.defects))
				return -1;
	}
	if (xmlTextWriterEndElement(w) < 0)
		return -1;
	for (i = 0; i < r->n; i++) {
		if (strcmp(r->items[i].task_id, task) != 0)
			continue;
		if (has_build(&r->items[i]) && write_build(w, &r->items[i], pkg, tname))
			return -1;
		for (j = 0; j < r->items[i].ncases; j++)
			if (write_case(w, &r->items[i], j, pkg, tname))
				return -1;
	}
	if (xmlTextWriterWriteElement(w, BAD_CAST "system-out", BAD_CAST "") < 0 ||
	    xmlTextWriterWriteElement(w, BAD_CAST "system-err", BAD_CAST "") < 0)
		return -1;
	return xmlTextWriterEndElement(w) < 0 ? -1 : 0;
}

int npukb_junit_write(const struct npukb_results *r, const char *path,
		      char *err, size_t errlen)
{
	struct npukb_xml_file f;
	xmlTextWriterPtr w;
	char stamp[32];
	struct tm tm;
	size_t i, j;
	int rc, id = 0;

	/* the schema's timestamp has no time zone: write UTC, say so nowhere else */
	gmtime_r(&r->started, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%S", &tm);
	rc = npukb_xml_file_open(&f, path, err, errlen);
	if (rc)
		return rc;
	w = f.w;
	if (xmlTextWriterStartDocument(w, NULL, "UTF-8", NULL) < 0 ||
	    xmlTextWriterStartElement(w, BAD_CAST "testsuites") < 0)
		rc = -1;
	/* one suite per task, in the order tasks first appear */
	for (i = 0; i < r->n && rc == 0; i++) {
		int seen = 0;
		for (j = 0; j < i; j++)
			if (strcmp(r->items[j].task_id, r->items[i].task_id) == 0)
				seen = 1;
		if (!seen)
			rc = write_suite(w, r, r->items[i].task_id, id++, stamp);
	}
	if (rc == 0 && (xmlTextWriterEndElement(w) < 0 || xmlTextWriterEndDocument(w) < 0))
		rc = -1;
	return npukb_xml_file_close(&f, rc == 0, "the JUnit report", err, errlen);
}
