/* test_results_xml.c - results.xml carries every verdict and the
 * provenance; the HTML report rendered from it by reports/html/run.xsl has
 * the right numbers, one page per sample, and no metrics section unless the
 * data has one; with the run's journal it carries the metrics of `npukb
 * report` and the page shows them. */
#include "config.h"

#include <criterion/criterion.h>

#include "report_html.h"
#include "results.h"
#include "results_xml.h"

#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/xpath.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[] = "/tmp/npukb-rxml-XXXXXX";

static void setup(void)
{
	cr_assert_not_null(mkdtemp(dir));
}

static void teardown(void)
{
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		cr_log_warn("could not remove %s", dir);
}

static const char *reports_dir(void)
{
	static char p[4096];
	const char *src = getenv("NPUKB_SRCDIR");
	snprintf(p, sizeof(p), "%s/reports", src ? src : ".");
	return p;
}

/* Two tasks on two levels: an answer that passes with cycles, a sample
 * with a mismatch (hostile text in its details), a sample that does not
 * compile (3 cases), a skipped one. */
static void make_results(struct npukb_results *r)
{
	struct npukb_sample_result *s;
	size_t i;
	memset(r, 0, sizeof(*r));
	r->run_id = strdup("RUN-1");
	r->backend = strdup("cpusim");
	r->backend_identity = strdup("g++ 12 & <friends>\nsecond line");
	r->soc = strdup("ascend910b2");
	r->hostname = strdup("box");
	r->started = 1700000000;
	r->seconds = 12.5;

	s = npukb_results_add(r, "level1/Math/AddCustom", "answer", 2);
	s->is_answer = 1;
	npukb_verdict_pass(&s->compile);
	for (i = 0; i < 2; i++) {
		s->cases[i].case_id = strdup(i ? "1" : "0");
		npukb_verdict_pass(&s->cases[i].correctness);
		npukb_verdict_pass(&s->cases[i].performance);
		s->cases[i].performance.has_timing = 1;
		s->cases[i].performance.cycles = 1000.0 * (double)(i + 1);
		s->cases[i].performance.time_us = 0.5;
	}
	npukb_verdict_add_flag(&s->cases[1].correctness, "suspect-speedup");

	s = npukb_results_add(r, "level1/Math/AddCustom", "bad/one", 2);
	npukb_verdict_pass(&s->compile);
	s->cases[0].case_id = strdup("0");
	npukb_verdict_pass(&s->cases[0].correctness);
	npukb_verdict_add_defects(&s->cases[0].correctness,
				  "queue-misuse: Add: first source is a queue's tensor after FreeTensor at k.cpp:9\n");
	s->cases[1].case_id = strdup("1");
	npukb_verdict_fail(&s->cases[1].correctness, "mismatch", "z differs");
	npukb_verdict_set_details(&s->cases[1].correctness, "</pre><script>alert(1)</script>\x01");
	s->cases[1].correctness.has_error_stats = 1;
	s->cases[1].correctness.max_abs_err = 2.5;
	s->cases[1].correctness.bad_count = 7;
	s->cases[1].correctness.first_bad_index = 3;
	npukb_verdict_fail(&s->cases[1].classify, "mismatch", "z differs");
	npukb_verdict_set_rule(&s->cases[1].classify, "builtin:mismatch");

	s = npukb_results_add(r, "level2/Norm/RmsNorm", "broken", 3);
	npukb_verdict_fail(&s->compile, "other-compile", "error: no matching function");
	npukb_verdict_fail(&s->compile_classify, "api-signature", "no matching function");
	npukb_verdict_set_rule(&s->compile_classify, "no-matching-overload");
	for (i = 0; i < 3; i++)
		s->cases[i].case_id = strdup(i == 0 ? "a" : i == 1 ? "b" : "c");

	s = npukb_results_add(r, "level2/Norm/RmsNorm", "answer", 1);
	s->is_answer = 1;
	npukb_verdict_skip(&s->compile, "CANN toolkit not found");
	s->cases[0].case_id = strdup("a");
}

static char *xstr(xmlDocPtr doc, const char *expr)
{
	xmlXPathContextPtr ctx = xmlXPathNewContext(doc);
	xmlXPathObjectPtr o = xmlXPathEvalExpression(BAD_CAST expr, ctx);
	char *v = o ? (char *)xmlXPathCastToString(o) : NULL;
	xmlXPathFreeObject(o);
	xmlXPathFreeContext(ctx);
	cr_assert_not_null(v, "%s", expr);
	return v;
}

static void expect(xmlDocPtr doc, const char *expr, const char *want)
{
	char *got = xstr(doc, expr);
	cr_expect_str_eq(got, want, "%s: got '%s', want '%s'", expr, got, want);
	xmlFree(got);
}

static void write_xml(char *path, size_t len)
{
	struct npukb_results r;
	struct npukb_run_info info = { .nseeds = 5, .base_seed = 7, .level = 0 };
	char err[512] = "";
	make_results(&r);
	snprintf(path, len, "%s/results.xml", dir);
	cr_assert_eq(npukb_results_xml_write(&r, &info, path, err, sizeof(err)), 0, "%s", err);
	npukb_results_free(&r);
}

Test(results_xml, carries_provenance_and_every_verdict, .init = setup, .fini = teardown)
{
	char path[512];
	xmlDocPtr doc;
	write_xml(path, sizeof(path));
	doc = xmlReadFile(path, NULL, XML_PARSE_NONET);
	cr_assert_not_null(doc, "results.xml is not well-formed");
	expect(doc, "string(/run/@id)", "RUN-1");
	expect(doc, "string(/run/provenance/npukb/@version)", PACKAGE_VERSION);
	expect(doc, "string(/run/provenance/backend/@identity)", "g++ 12 & <friends>\nsecond line");
	expect(doc, "string(/run/provenance/soc/@name)", "ascend910b2");
	expect(doc, "string(/run/provenance/seeds/@count)", "5");
	expect(doc, "string(/run/provenance/seeds/@base)", "7");
	expect(doc, "string(/run/provenance/date/@started)", "2023-11-14T22:13:20Z");
	expect(doc, "boolean(/run/provenance/machine/@cores > 0)", "true");
	expect(doc, "boolean(/run/provenance/machine/@memory-bytes > 0)", "true");
	expect(doc, "string(/run/totals/@units)", "8");
	expect(doc, "string(/run/totals/@passed)", "3");
	expect(doc, "string(/run/totals/@failed)", "4");
	expect(doc, "string(/run/totals/@skipped)", "1");
	expect(doc, "count(/run/task)", "2");
	expect(doc, "string(/run/task[2]/@level)", "2");
	expect(doc, "string(/run/task[2]/@category)", "Norm");
	expect(doc, "string(/run/task[2]/@name)", "RmsNorm");
	/* a failed case: deciding outcome, classify rule, figures, details */
	expect(doc, "string(//sample[@id='bad/one']/case[2]/@category)", "mismatch");
	expect(doc, "string(//sample[@id='bad/one']/case[2]/@rule)", "builtin:mismatch");
	expect(doc, "string(//sample[@id='bad/one']/case[2]/correctness/errors/@bad-count)", "7");
	expect(doc, "string(//sample[@id='bad/one']/case[2]/correctness/errors/@max-abs)", "2.5");
	/* the forbidden control character is gone, the markup is text */
	expect(doc, "string(//sample[@id='bad/one']/case[2]/correctness/details)",
	       "</pre><script>alert(1)</script>");
	/* a failed compile decides every case, with the classified category */
	expect(doc, "count(//sample[@id='broken']/case[@outcome='fail' and @stage='compile'])", "3");
	expect(doc, "string(//sample[@id='broken']/case[1]/@category)", "api-signature");
	expect(doc, "string(//sample[@id='broken']/compile-classify/@rule)", "no-matching-overload");
	expect(doc, "string(//sample[@id='answer'][1]/case[2]/performance/@cycles)", "2000");
	/* suspicion flags stay beside the verdict */
	expect(doc, "string(//sample[@id='answer'][1]/case[2]/correctness/@flags)", "suspect-speedup");
	/* defects too, with a passing outcome */
	expect(doc, "string(//sample[@id='bad/one']/case[1]/@outcome)", "pass");
	expect(doc, "string(//sample[@id='bad/one']/case[1]/correctness/defects)",
	       "queue-misuse: Add: first source is a queue's tensor after FreeTensor at k.cpp:9\n");
	expect(doc, "count(//sample[@id='answer']//defects)", "0");
	/* page names are unique and tame */
	expect(doc, "string(//sample[@id='bad/one']/@page)",
	       "sample-0001-level1-Math-AddCustom-bad_one.html");
	xmlFreeDoc(doc);
}

static xmlDocPtr read_html(const char *path)
{
	xmlDocPtr d = htmlReadFile(path, "UTF-8",
				   HTML_PARSE_NONET | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING);
	cr_assert_not_null(d, "%s: cannot parse", path);
	return d;
}

Test(report_html, index_and_pages_from_the_data, .init = setup, .fini = teardown)
{
	char path[512], err[2048] = "", page[1024];
	xmlDocPtr doc;
	struct stat st;
	write_xml(path, sizeof(path));
	cr_assert_eq(npukb_report_html_render(path, reports_dir(), dir, err, sizeof(err)), 0, "%s",
		     err);
	snprintf(page, sizeof(page), "%s/report/style.css", dir);
	cr_assert_eq(stat(page, &st), 0, "style.css not copied");
	snprintf(page, sizeof(page), "%s/report/index.html", dir);
	doc = read_html(page);
	expect(doc, "string(//*[@data-k='level1-samples'])", "2");
	expect(doc, "string(//*[@data-k='level1-compiled'])", "2");
	expect(doc, "string(//*[@data-k='level1-correct'])", "1");
	expect(doc, "string(//*[@data-k='level2-compiled'])", "0");
	expect(doc, "string(//*[@data-k='all-units'])", "8");
	expect(doc, "string(//*[@data-k='all-passed'])", "3");
	expect(doc, "string(//*[@data-k='all-failed'])", "4");
	expect(doc, "string(//*[@data-k='all-skipped'])", "1");
	/* a failed compile counts once in the breakdown, not once per case */
	expect(doc, "normalize-space(//*[@data-k='fail-api-signature'])", "api-signature 1");
	expect(doc, "normalize-space(//*[@data-k='fail-mismatch'])", "mismatch 1");
	expect(doc, "count(//*[local-name()='svg'])", "2");
	expect(doc, "string(//*[@data-k='npukb-version'])", PACKAGE_VERSION);
	/* first line of a multi-line identity */
	expect(doc, "string(//*[@data-k='toolchain'])", "g++ 12 & <friends>");
	/* no metrics in the data: no metrics section, no invented numbers */
	expect(doc, "count(//*[@id='metrics'])", "0");
	expect(doc, "count(//a[contains(@href, 'sample-')])", "4");
	expect(doc, "count(//tr[@data-sample='answer']//span[contains(@class, 'suspect')])", "1");
	/* a sample with a defect is tagged in the index, its page lists it */
	expect(doc, "count(//tr[@data-sample='bad/one']//span[contains(@class, 'defect')])", "1");
	expect(doc, "count(//tr[@data-sample='answer']//span[contains(@class, 'defect')])", "0");
	xmlFreeDoc(doc);

	snprintf(page, sizeof(page), "%s/report/sample-0001-level1-Math-AddCustom-bad_one.html",
		 dir);
	doc = read_html(page);
	expect(doc, "string(//pre[@class='details'])", "</pre><script>alert(1)</script>");
	expect(doc, "count(//script)", "0");
	expect(doc, "string(//code[@class='rule'])", "builtin:mismatch");
	expect(doc, "string(//pre[@class='defects'])",
	       "queue-misuse: Add: first source is a queue's tensor after FreeTensor at k.cpp:9\n");
	expect(doc, "string(//*[@data-k='soc'])", "ascend910b2");
	expect(doc, "string(//a[1]/@href)", "index.html");
	xmlFreeDoc(doc);
	snprintf(page, sizeof(page), "%s/report/sample-0002-level2-Norm-RmsNorm-broken.html", dir);
	doc = read_html(page);
	expect(doc, "string(//code[@class='rule'])", "no-matching-overload");
	xmlFreeDoc(doc);
}

/* A journal written by hand: level1/A/B has an answer (1000 cycles), a
 * sample twice as fast and one that does not compile; level2/C/D has a
 * sample with a mismatch. Level 3 is absent. */
static void write_journal(char *path, size_t len)
{
	static const char *const lines[] = {
		"{\"type\":\"run\",\"run\":\"J-1\",\"backend\":\"cpusim\",\"soc\":\"s\"}",
		"{\"type\":\"verdict\",\"run\":\"J-1\",\"task\":\"level1/A/B\",\"sample\":\"answer\",\"case\":null,\"stage\":\"compile\",\"outcome\":\"pass\"}",
		"{\"type\":\"verdict\",\"run\":\"J-1\",\"task\":\"level1/A/B\",\"sample\":\"answer\",\"case\":\"0\",\"stage\":\"correctness\",\"outcome\":\"pass\"}",
		"{\"type\":\"verdict\",\"run\":\"J-1\",\"task\":\"level1/A/B\",\"sample\":\"answer\",\"case\":\"0\",\"stage\":\"performance\",\"outcome\":\"pass\",\"cycles\":1000,\"time_us\":1}",
		"{\"type\":\"verdict\",\"run\":\"J-1\",\"task\":\"level1/A/B\",\"sample\":\"fast\",\"case\":null,\"stage\":\"compile\",\"outcome\":\"pass\"}",
		"{\"type\":\"verdict\",\"run\":\"J-1\",\"task\":\"level1/A/B\",\"sample\":\"fast\",\"case\":\"0\",\"stage\":\"correctness\",\"outcome\":\"pass\",\"defects\":\"ub-overflow: InitBuffer past the UB at k.cpp:3\\n\"}",
		"{\"type\":\"verdict\",\"run\":\"J-1\",\"task\":\"level1/A/B\",\"sample\":\"fast\",\"case\":\"0\",\"stage\":\"performance\",\"outcome\":\"pass\",\"cycles\":500,\"time_us\":0.5}",
		"{\"type\":\"verdict\",\"run\":\"J-1\",\"task\":\"level1/A/B\",\"sample\":\"broken\",\"case\":null,\"stage\":\"compile\",\"outcome\":\"fail\",\"category\":\"api-signature\"}",
		"{\"type\":\"verdict\",\"run\":\"J-1\",\"task\":\"level2/C/D\",\"sample\":\"wrong\",\"case\":null,\"stage\":\"compile\",\"outcome\":\"pass\"}",
		"{\"type\":\"verdict\",\"run\":\"J-1\",\"task\":\"level2/C/D\",\"sample\":\"wrong\",\"case\":\"0\",\"stage\":\"correctness\",\"outcome\":\"fail\",\"category\":\"mismatch\"}",
	};
	FILE *f;
	size_t i;
	snprintf(path, len, "%s/journal.jsonl", dir);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		fprintf(f, "%s\n", lines[i]);
	cr_assert_eq(fclose(f), 0);
}

Test(results_xml, metrics_from_the_runs_journal, .init = setup, .fini = teardown)
{
	struct npukb_results r;
	struct npukb_run_info info = { .nseeds = 1, .base_seed = 1, .level = 0 };
	char journal[512], path[512], err[2048] = "", page[1024];
	xmlDocPtr doc;

	write_journal(journal, sizeof(journal));
	info.journal = journal;
	make_results(&r);
	snprintf(path, sizeof(path), "%s/results.xml", dir);
	cr_assert_eq(npukb_results_xml_write(&r, &info, path, err, sizeof(err)), 0, "%s", err);
	npukb_results_free(&r);
	doc = xmlReadFile(path, NULL, XML_PARSE_NONET);
	cr_assert_not_null(doc);
	expect(doc, "string(/run/metrics/@run)", "J-1");
	/* "fast" is correct, with a defect listed: correct, not clean */
	expect(doc, "string(/run/metrics/aggregate[@name='level1']/@correct)", "1");
	expect(doc, "string(/run/metrics/aggregate[@name='level1']/@clean)", "0");
	expect(doc, "string(/run/metrics/aggregate[@name='overall']/@clean)", "0");
	expect(doc, "string(/run/metrics/aggregate[@name='level1']/compile[@k='1']/@value)", "0.5");
	expect(doc, "string(/run/metrics/aggregate[@name='level1']/correct[@k='1']/@value)", "0.5");
	expect(doc, "string(/run/metrics/aggregate[@name='level1']/compile[@k='5']/@available)",
	       "false");
	expect(doc, "string(/run/metrics/aggregate[@name='overall']/compile[@k='1']/@value)", "0.75");
	expect(doc, "string(/run/metrics/aggregate[@name='overall']/correct[@k='1']/@value)", "0.25");
	expect(doc, "string(/run/metrics/aggregate[@name='level1']/fast[@p='1']/@value)", "1");
	/* exactly 2x is not faster than 2x */
	expect(doc, "string(/run/metrics/aggregate[@name='level1']/fast[@p='2']/@value)", "0");
	expect(doc, "string(/run/metrics/aggregate[@name='level1']/geomean-speedup/@value)", "2");
	expect(doc, "string(/run/metrics/aggregate[@name='level2']/geomean-speedup/@available)",
	       "false");
	/* (0.2 * 1 + 0.3 * 0) / 0.5 */
	expect(doc, "string(/run/metrics/fast0-weighted-score/@value)", "0.4");
	expect(doc, "string(/run/metrics/fast0-weighted-score/@levels-missing)", "level3");
	/* NPUKernelBench's score: 0.2 * L1 + 0.3 * L2 with the level's own
	 * case pass shares, coverage beside */
	expect(doc, "count(/run/metrics/npukernelbench-score/level)", "3");
	/* level1/A/B: fast 1 of 1 case, broken none: 0.5; level2/C/D: 0 */
	expect(doc, "string(/run/metrics/npukernelbench-score/@value)", "0.1");
	expect(doc, "string(/run/metrics/npukernelbench-score/level[@name='level1']/@value)", "0.5");
	expect(doc, "string(/run/metrics/npukernelbench-score/level[@name='level1']/@tasks-judged)",
	       "1");
	expect(doc, "string(/run/metrics/npukernelbench-score/level[@name='level3']/@available)",
	       "false");
	expect(doc, "string(/run/metrics/aggregate[@name='overall']/category[@name='mismatch']/@share)",
	       "0.5");
	expect(doc, "count(/run/metrics/speedups/speedup)", "1");
	expect(doc, "string(/run/metrics/speedups/speedup/@value)", "2");
	xmlFreeDoc(doc);

	cr_assert_eq(npukb_report_html_render(path, reports_dir(), dir, err, sizeof(err)), 0, "%s",
		     err);
	snprintf(page, sizeof(page), "%s/report/index.html", dir);
	doc = read_html(page);
	expect(doc, "count(//*[@id='metrics'])", "1");
	expect(doc, "normalize-space(//*[@data-k='m-level1-correct'])", "1");
	expect(doc, "normalize-space(//*[@data-k='m-level1-clean'])", "0");
	/* shares as percentages, speedups with an x; the raw value in data-v */
	expect(doc, "normalize-space(//*[@data-k='m-overall-compile-1'])", "75.0%");
	expect(doc, "string(//*[@data-k='m-overall-compile-1']/@data-v)", "0.75");
	expect(doc, "normalize-space(//*[@data-k='m-overall-compile-5'])", "n<k");
	expect(doc, "normalize-space(//*[@data-k='m-level2-speedup'])", "n/a");
	expect(doc, "normalize-space(//*[@data-k='m-level1-speedup'])", "2.00x");
	expect(doc, "string(//*[@data-k='m-level1-speedup']/@data-v)", "2");
	expect(doc, "normalize-space(//*[@data-k='m-fast0-weighted-score'])", "40.0%");
	expect(doc, "normalize-space(//*[@data-k='m-npukernelbench-score'])", "10.0%");
	expect(doc, "string(//*[@data-k='m-npukernelbench-score']/@data-v)", "0.1");
	/* the old name is not shown beside the new ones */
	expect(doc, "count(//*[@data-k='m-weighted-score'])", "0");
	expect(doc, "normalize-space(//*[@data-k='m-fast0-weighted-score-levels-missing'])",
	       "(missing: level3)");
	expect(doc, "normalize-space(//*[@data-k='m-overall-share-api-signature'])", "50.0%");
	/* the speedup 2 lands in the 1.5-2 bin */
	expect(doc, "string(//*[@data-k='m-speedup-chart']//*[@data-bin='4']/@data-n)", "1");
	expect(doc, "count(//*[local-name()='svg'])", "3");
	xmlFreeDoc(doc);
}

Test(results_xml, a_bad_journal_is_an_error, .init = setup, .fini = teardown)
{
	struct npukb_results r;
	struct npukb_run_info info = { .nseeds = 1, .base_seed = 1, .level = 0 };
	char path[512], err[2048] = "";
	struct stat st;
	info.journal = "/nonexistent/journal.jsonl";
	make_results(&r);
	snprintf(path, sizeof(path), "%s/results.xml", dir);
	cr_assert_lt(npukb_results_xml_write(&r, &info, path, err, sizeof(err)), 0);
	npukb_results_free(&r);
	cr_assert(strstr(err, "journal") != NULL, "err: %s", err);
	cr_assert_neq(stat(path, &st), 0, "results.xml written despite the error");
}

Test(report_html, a_broken_template_is_an_error_not_a_crash, .init = setup, .fini = teardown)
{
	char path[512], tdir[600], err[2048] = "";
	FILE *f;
	write_xml(path, sizeof(path));
	snprintf(tdir, sizeof(tdir), "%s/tpl", dir);
	cr_assert_eq(mkdir(tdir, 0755), 0);
	snprintf(tdir, sizeof(tdir), "%s/tpl/html", dir);
	cr_assert_eq(mkdir(tdir, 0755), 0);
	snprintf(tdir, sizeof(tdir), "%s/tpl/html/run.xsl", dir);
	f = fopen(tdir, "w");
	cr_assert_not_null(f);
	fputs("<xsl:stylesheet version='1.0' xmlns:xsl='http://www.w3.org/1999/XSL/Transform'>"
	      "<xsl:template match='/'><xsl:value-of select='(((('/></xsl:template>"
	      "</xsl:stylesheet>",
	      f);
	fclose(f);
	snprintf(tdir, sizeof(tdir), "%s/tpl", dir);
	cr_assert_lt(npukb_report_html_render(path, tdir, dir, err, sizeof(err)), 0);
	cr_assert(strstr(err, "run.xsl") != NULL, "err: %s", err);
}

Test(report_html, templates_cannot_write_outside_the_report, .init = setup, .fini = teardown)
{
	char path[512], tdir[600], err[2048] = "", escaped[600];
	FILE *f;
	struct stat st;
	write_xml(path, sizeof(path));
	snprintf(tdir, sizeof(tdir), "%s/tpl", dir);
	cr_assert_eq(mkdir(tdir, 0755), 0);
	snprintf(tdir, sizeof(tdir), "%s/tpl/html", dir);
	cr_assert_eq(mkdir(tdir, 0755), 0);
	snprintf(tdir, sizeof(tdir), "%s/tpl/html/run.xsl", dir);
	f = fopen(tdir, "w");
	cr_assert_not_null(f);
	fputs("<xsl:stylesheet version='1.0' xmlns:xsl='http://www.w3.org/1999/XSL/Transform'"
	      " xmlns:exsl='http://exslt.org/common' extension-element-prefixes='exsl'>"
	      "<xsl:template match='/'><p/><exsl:document href='../escaped.html'><p/>"
	      "</exsl:document></xsl:template></xsl:stylesheet>",
	      f);
	fclose(f);
	snprintf(tdir, sizeof(tdir), "%s/tpl", dir);
	cr_assert_lt(npukb_report_html_render(path, tdir, dir, err, sizeof(err)), 0);
	snprintf(escaped, sizeof(escaped), "%s/escaped.html", dir);
	cr_assert_neq(stat(escaped, &st), 0, "the template wrote outside report/");
}
