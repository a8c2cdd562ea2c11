/* test_junit.c - the JUnit writer: valid against the Ant/Jenkins schema,
 * counts right, hostile text escaped. */
#include <criterion/criterion.h>

#include "junit.h"
#include "results.h"

#include <libxml/parser.h>
#include <libxml/xmlschemas.h>
#include <libxml/xpath.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <signal.h>
#include <sys/resource.h>

static const char *xsd_path(void)
{
	const char *p = getenv("NPUKB_JUNIT_XSD");
	if (p && access(p, R_OK) == 0)
		return p;
	if (getenv("NPUKB_REQUIRE_JUNIT_XSD"))
		cr_assert_fail("JUnit.xsd not found (NPUKB_JUNIT_XSD=%s)", p ? p : "");
	return NULL;
}

static void silent(void *ctx, const char *msg, ...)
{
	(void)ctx;
	(void)msg;
}

static int validate(const char *xml, const char *xsd)
{
	xmlSchemaParserCtxtPtr pc = xmlSchemaNewParserCtxt(xsd);
	xmlSchemaPtr schema = xmlSchemaParse(pc);
	xmlSchemaValidCtxtPtr vc;
	int rc;
	cr_assert_not_null(schema, "cannot parse %s", xsd);
	vc = xmlSchemaNewValidCtxt(schema);
	rc = xmlSchemaValidateFile(vc, xml, 0);
	xmlSchemaFreeValidCtxt(vc);
	xmlSchemaFree(schema);
	xmlSchemaFreeParserCtxt(pc);
	return rc;
}

static double xpath_num(xmlDocPtr doc, const char *expr)
{
	xmlXPathContextPtr ctx = xmlXPathNewContext(doc);
	xmlXPathObjectPtr o = xmlXPathEvalExpression(BAD_CAST expr, ctx);
	double v = o ? xmlXPathCastToNumber(o) : -1;
	xmlXPathFreeObject(o);
	xmlXPathFreeContext(ctx);
	return v;
}

static char *xpath_str(xmlDocPtr doc, const char *expr)
{
	xmlXPathContextPtr ctx = xmlXPathNewContext(doc);
	xmlXPathObjectPtr o = xmlXPathEvalExpression(BAD_CAST expr, ctx);
	xmlChar *s = o ? xmlXPathCastToString(o) : NULL;
	char *out = strdup(s ? (const char *)s : "");
	xmlFree(s);
	xmlXPathFreeObject(o);
	xmlXPathFreeContext(ctx);
	return out;
}

static void make_results(struct npukb_results *r)
{
	struct npukb_sample_result *s;
	memset(r, 0, sizeof(*r));
	r->run_id = strdup("test-run");
	r->backend = strdup("cpusim");
	r->backend_identity = strdup("g++ 12");
	r->soc = strdup("ascend910b2");
	r->hostname = strdup("host");
	r->started = 1700000000;

	s = npukb_results_add(r, "level1/Math/AddCustom", "answer", 2);
	npukb_verdict_pass(&s->compile);
	s->cases[0].case_id = strdup("0");
	s->cases[1].case_id = strdup("1");
	npukb_verdict_pass(&s->cases[0].correctness);
	npukb_verdict_pass(&s->cases[1].correctness);
	/* a defect beside a pass */
	npukb_verdict_add_defects(&s->cases[1].correctness, "ub-overflow: InitBuffer past the UB at a.cpp:7\n");

	/* compile failure: every case fails with the classified category */
	s = npukb_results_add(r, "level1/Math/AddCustom", "bad\"<sample>", 2);
	npukb_verdict_fail(&s->compile, "other-compile", "error: no matching function");
	npukb_verdict_set_details(&s->compile,
				  "a.cpp:3: error: ]]> <tag> & \x01 \xff\xfe invalid utf-8");
	npukb_verdict_fail(&s->compile_classify, "api-signature", "classified");
	npukb_verdict_set_rule(&s->compile_classify, "gcc-no-matching");
	s->cases[0].case_id = strdup("0");
	s->cases[1].case_id = strdup("1");

	s = npukb_results_add(r, "level1/Math/AddCustom", "wrong", 2);
	npukb_verdict_pass(&s->compile);
	s->cases[0].case_id = strdup("0");
	s->cases[1].case_id = strdup("1");
	npukb_verdict_fail(&s->cases[0].correctness, "mismatch", "mismatch in z");
	/* and beside a failure */
	npukb_verdict_add_defects(&s->cases[0].correctness, "queue-misuse: use after FreeTensor at w.cpp:5\n");
	npukb_verdict_skip(&s->cases[1].correctness, "backend not usable");
}

/* Writes r's JUnit to path, validates it against the schema when there is
 * one, and parses it. */
static xmlDocPtr write_valid(const struct npukb_results *r, const char *path)
{
	char err[256] = "";
	const char *xsd;
	cr_assert_eq(npukb_junit_write(r, path, err, sizeof(err)), 0, "%s", err);
	xsd = xsd_path();
	if (xsd) {
		xmlSetGenericErrorFunc(NULL, silent);
		cr_assert_eq(validate(path, xsd), 0, "%s does not validate against %s", path, xsd);
	}
	return xmlReadFile(path, NULL, XML_PARSE_NONET);
}

Test(junit, valid_counts_and_escaping)
{
	struct npukb_results r;
	char path[] = "/tmp/npukb-junit-XXXXXX";
	xmlDocPtr doc;
	char *s;
	int fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	close(fd);
	make_results(&r);
	doc = write_valid(&r, path);
	cr_assert_not_null(doc, "not well-formed");
	cr_assert_eq(xpath_num(doc, "count(//testsuite)"), 1);
	/* 3 samples: a build and 2 cases each */
	cr_assert_eq(xpath_num(doc, "count(//testcase)"), 9);
	cr_assert_eq(xpath_num(doc, "number(//testsuite/@tests)"), 9);
	cr_assert_eq(xpath_num(doc, "count(//testcase[@name='build'])"), 3);
	cr_assert_eq(xpath_num(doc, "number(//testsuite/@failures)"), 4);
	cr_assert_eq(xpath_num(doc, "count(//testcase[@name='build'][failure])"), 1);
	cr_assert_eq(xpath_num(doc, "number(//testsuite/@skipped)"), 1);
	cr_assert_eq(xpath_num(doc, "count(//failure[@type='api-signature'])"), 3);
	cr_assert_eq(xpath_num(doc, "count(//failure[@type='mismatch'])"), 1);
	/* defects: a suite property per case, and in a failure's body */
	s = xpath_str(doc, "string(//property[@name='npukb.defects.answer.case-1']/@value)");
	cr_assert_str_eq(s, "ub-overflow: InitBuffer past the UB at a.cpp:7\n");
	free(s);
	cr_assert_eq(xpath_num(doc, "count(//property[starts-with(@name, 'npukb.defects.')])"), 2);
	cr_assert_eq(xpath_num(doc, "count(//testcase[failure])"), 4, "a defect alone fails nothing");
	s = xpath_str(doc, "string(//failure[@type='mismatch']/text())");
	cr_assert_not_null(strstr(s, "defects:\nqueue-misuse: use after FreeTensor at w.cpp:5"), "body: %s", s);
	free(s);
	s = xpath_str(doc, "string(//testsuite/@package)");
	cr_assert_str_eq(s, "level1.Math");
	free(s);
	s = xpath_str(doc, "string(//failure[@type='api-signature']/text())");
	cr_assert_not_null(strstr(s, "]]> <tag> &"), "body: %s", s);
	cr_assert_not_null(strstr(s, "gcc-no-matching"), "rule named: %s", s);
	free(s);
	s = xpath_str(doc, "string(//testcase[failure[@type='api-signature']][1]/@classname)");
	cr_assert_str_eq(s, "level1.Math.AddCustom.bad\"<sample>");
	free(s);
	xmlFreeDoc(doc);
	npukb_results_free(&r);
	unlink(path);
}

/* Case names sort in case order and say what the case is; the build's time
 * is its own test case's, not the first case's. */
Test(junit, case_names_and_build_time)
{
	struct npukb_results r;
	struct npukb_sample_result *s;
	char path[] = "/tmp/npukb-junit-XXXXXX", name[128], *got;
	xmlDocPtr doc;
	size_t i;
	int fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	close(fd);
	memset(&r, 0, sizeof(r));
	r.run_id = strdup("run");
	r.backend = strdup("cpusim");
	r.soc = strdup("ascend910b2");
	s = npukb_results_add(&r, "level1/Math/AddCustom", "s1", 12);
	npukb_verdict_pass(&s->compile);
	s->compile.wall_seconds = 7.5;
	for (i = 0; i < 12; i++) {
		snprintf(name, sizeof(name), "%zu", i);
		s->cases[i].case_id = strdup(name);
		npukb_verdict_pass(&s->cases[i].correctness);
		s->cases[i].correctness.wall_seconds = 0.25;
	}
	s->cases[3].desc = strdup("float16 48x128x512");
	npukb_junit_case_name(s, 3, name, sizeof(name));
	cr_assert_str_eq(name, "case-03 float16 48x128x512");
	npukb_junit_case_name(s, 11, name, sizeof(name));
	cr_assert_str_eq(name, "case-11");
	/* a non-numeric id is left as it is; a long numeric one sets the width */
	free(s->cases[11].case_id);
	s->cases[11].case_id = strdup("c7");
	npukb_junit_case_name(s, 11, name, sizeof(name));
	cr_assert_str_eq(name, "case-c7");
	free(s->cases[10].case_id);
	s->cases[10].case_id = strdup("1000");
	npukb_junit_case_name(s, 2, name, sizeof(name));
	cr_assert_str_eq(name, "case-0002");

	doc = write_valid(&r, path);
	cr_assert_not_null(doc);
	cr_assert_eq(xpath_num(doc, "number(//testcase[@name='build']/@time)"), 7.5);
	cr_assert_eq(xpath_num(doc, "number(//testcase[@name='case-0000']/@time)"), 0.25);
	cr_assert_eq(xpath_num(doc, "number(//testsuite/@time)"), 7.5 + 12 * 0.25);
	got = xpath_str(doc, "string(//testcase[2]/@name)");
	cr_assert_str_eq(got, "case-0000", "the build comes first, then the cases");
	free(got);
	got = xpath_str(doc, "string(//testcase[5]/@name)");
	cr_assert_str_eq(got, "case-0003 float16 48x128x512");
	free(got);
	xmlFreeDoc(doc);
	npukb_results_free(&r);
	unlink(path);
}

Test(junit, unwritable_path_is_an_error)
{
	struct npukb_results r;
	char err[256] = "";
	make_results(&r);
	cr_assert_neq(npukb_junit_write(&r, "/nonexistent-dir/x/junit.xml", err, sizeof(err)), 0);
	cr_assert_not_null(strstr(err, "junit.xml"), "%s", err);
	npukb_results_free(&r);
}

/* A write refused at the very end (a full disk: the writer's last buffer
 * reaches the file only when it is closed) is an error, and the old report
 * stays whole: a cut file never replaces it. RLIMIT_FSIZE stands in for the
 * full disk (the test runs in a process of its own). */
Test(junit, a_write_failing_at_the_end_keeps_the_old_file)
{
	struct npukb_results r;
	char dir[] = "/tmp/npukb-junit-full-XXXXXX", path[64], err[256] = "", *before, *after;
	struct rlimit lim = { 256, 256 };
	size_t n1 = 0, n2 = 0;
	FILE *f;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/junit.xml", dir);
	make_results(&r);
	cr_assert_eq(npukb_junit_write(&r, path, err, sizeof(err)), 0, "%s", err);
	f = fopen(path, "r");
	cr_assert_not_null(f);
	before = calloc(1, 1 << 16);
	n1 = fread(before, 1, (1 << 16) - 1, f);
	fclose(f);
	cr_assert_gt(n1, 256, "the report is smaller than the limit: %zu bytes", n1);

	signal(SIGXFSZ, SIG_IGN);
	cr_assert_eq(setrlimit(RLIMIT_FSIZE, &lim), 0);
	cr_assert_neq(npukb_junit_write(&r, path, err, sizeof(err)), 0, "a cut write passed as whole");
	cr_assert_not_null(strstr(err, "junit.xml"), "%s", err);

	f = fopen(path, "r");
	cr_assert_not_null(f);
	after = calloc(1, 1 << 16);
	n2 = fread(after, 1, (1 << 16) - 1, f);
	fclose(f);
	cr_assert_eq(n2, n1, "the old report was replaced (%zu bytes, was %zu)", n2, n1);
	cr_assert_eq(memcmp(before, after, n1), 0, "the old report was changed");
	snprintf(err, sizeof(err), "%s.tmp", path);
	cr_assert_neq(access(err, F_OK), 0, "the cut temporary file was left behind");
	unlink(path);
	rmdir(dir);
	free(before);
	free(after);
	npukb_results_free(&r);
}
