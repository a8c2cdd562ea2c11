/* test_report_source.c - a failing sample's page shows its own source:
 * only regular files under its folder (a symlink to a secret is not
 * followed), hostile text escaped, bytes that are not UTF-8 replaced and
 * control characters dropped, big files cut at the cap; a passing sample's
 * page shows none. The failing line (@at-file, @at-line) is marked and the
 * mismatch's "bad by position" line becomes a plot whose bars match the
 * counts. Rendered through npukb_report_html_render and the real
 * reports/html templates from a hand-written results.xml. */
#include "config.h"

#include <criterion/criterion.h>

#include "report_html.h"
#include "report_source.h"

#include <libxml/HTMLparser.h>
#include <libxml/xpath.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char tmp[] = "/tmp/npukb-rsrc-XXXXXX";

static void setup(void)
{
	cr_assert_not_null(mkdtemp(tmp));
}

static void teardown(void)
{
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	if (system(cmd) != 0)
		cr_log_warn("could not remove %s", tmp);
}

static void put(const char *rel, const char *text, size_t len)
{
	char path[512];
	FILE *f;
	snprintf(path, sizeof(path), "%s/%s", tmp, rel);
	f = fopen(path, "w");
	cr_assert_not_null(f, "%s", path);
	cr_assert_eq(fwrite(text, 1, len, f), len);
	cr_assert_eq(fclose(f), 0);
}

static char *query(xmlDocPtr doc, const char *expr)
{
	xmlXPathContextPtr c = xmlXPathNewContext(doc);
	xmlXPathObjectPtr o = xmlXPathEvalExpression(BAD_CAST expr, c);
	char *s;
	cr_assert_not_null(o, "bad XPath %s", expr);
	s = (char *)xmlXPathCastToString(o);
	xmlXPathFreeObject(o);
	xmlXPathFreeContext(c);
	return s;
}

static void want(xmlDocPtr doc, const char *expr, const char *value)
{
	char *got = query(doc, expr);
	cr_expect_str_eq(got, value, "%s: got '%s', want '%s'", expr, got, value);
	xmlFree(got);
}

/* the sample folder, results.xml naming it, the rendered sample page */
static xmlDocPtr render(void)
{
	static const char hostile[] = "#include <x.h>\n"
				      "int a; // </td></tr><script>alert(1)</script>\n"
				      "int b = 1 + \xff\x01;\n"
				      "return &amp; 0;\n";
	char path[512], xml[2048], err[2048] = "", page[600];
	const char *src = getenv("NPUKB_SRCDIR");
	char *big = malloc(NPUKB_SOURCE_FILE_MAX + 100);
	xmlDocPtr doc;
	int n;
	cr_assert_not_null(big);
	snprintf(path, sizeof(path), "%s/s", tmp);
	cr_assert_eq(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/s/sub", tmp);
	cr_assert_eq(mkdir(path, 0755), 0);
	put("s/kernel.cpp", hostile, sizeof(hostile) - 1);
	put("s/sub/util.h", "int u;\n", 7);
	put("s/.hidden", "hidden\n", 7);
	memset(big, 'x', NPUKB_SOURCE_FILE_MAX + 100);
	big[40] = '\n';
	put("s/big.txt", big, NPUKB_SOURCE_FILE_MAX + 100);
	free(big);
	put("secret", "TOP SECRET\n", 11);
	snprintf(path, sizeof(path), "%s/secret", tmp);
	snprintf(xml, sizeof(xml), "%s/s/leak.cpp", tmp);
	cr_assert_eq(symlink(path, xml), 0);

	n = snprintf(xml, sizeof(xml),
		     "<run id='R'><task id='level1/M/T' level='1' category='M' name='T'>"
		     "<sample id='s' answer='false' page='s.html' dir='%s/s'>"
		     "<compile outcome='pass' wall-seconds='1'/>"
		     "<case id='0' outcome='fail' stage='correctness' category='mismatch' "
		     "at-file='kernel.cpp' at-line='3'>"
		     "<correctness outcome='fail' category='mismatch' wall-seconds='1'>"
		     "<message>mismatch</message><details>output z\n"
		     "bad by position (4 bins over 40 elements): 0 10 0 3\nend</details>"
		     "</correctness></case></sample>"
		     "<sample id='ok' answer='false' page='ok.html' dir='%s/s'>"
		     "<compile outcome='pass' wall-seconds='1'/>"
		     "<case id='0' outcome='pass' stage='correctness'/></sample></task></run>",
		     tmp, tmp);
	cr_assert_lt((size_t)n, sizeof(xml));
	put("results.xml", xml, (size_t)n);
	snprintf(path, sizeof(path), "%s/results.xml", tmp);
	snprintf(page, sizeof(page), "%s/reports", src ? src : ".");
	cr_assert_eq(npukb_report_html_render(path, page, tmp, err, sizeof(err)), 0, "%s", err);
	snprintf(page, sizeof(page), "%s/report/s.html", tmp);
	doc = htmlReadFile(page, "UTF-8", HTML_PARSE_NONET | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING);
	cr_assert_not_null(doc, "%s", page);
	return doc;
}

Test(report_source, the_source_with_its_failing_line, .init = setup, .fini = teardown)
{
	xmlDocPtr doc = render();
	/* sorted, hidden and symlinked files left out, subfolders in */
	want(doc, "count(//section[@id='source']//details)", "3");
	want(doc, "string(//details[1]/@data-path)", "big.txt");
	want(doc, "string(//details[2]/@data-path)", "kernel.cpp");
	want(doc, "string(//details[3]/@data-path)", "sub/util.h");
	want(doc, "count(//details[contains(@data-path, 'leak') or contains(@data-path, 'hidden')])",
	     "0");
	want(doc, "count(//*[contains(text(), 'TOP SECRET')])", "0");
	/* every line, in order; the hostile one is text, not markup */
	want(doc, "count(//details[2]//tr)", "4");
	want(doc, "string(//details[2]//tr[2]/td[@class='code'])",
	     "int a; // </td></tr><script>alert(1)</script>");
	want(doc, "count(//script)", "0");
	want(doc, "string(//details[2]//tr[4]/td[@class='code'])", "return &amp; 0;");
	want(doc, "string(//details[2]//tr[3]/td[@class='code'])", "int b = 1 + \xef\xbf\xbd;");
	/* the failing line marked, the header links to it */
	want(doc, "count(//tr[@class='marked'])", "1");
	want(doc, "string(//tr[@class='marked']/@id)", "L2-3");
	want(doc, "string(//tr[@class='marked']/td[@class='ln'])", "3");
	want(doc, "string(//a[@data-k='at']/@href)", "#L2-3");
	want(doc, "string(//a[@data-k='at'])", "kernel.cpp:3");
	/* the big file: its first line whole, the rest cut at the cap */
	want(doc, "count(//details[1]//tr)", "2");
	want(doc, "string-length(//details[1]//tr[2]/td[@class='code'])", "65495");
	xmlFreeDoc(doc);
}

/* what a passing sample holds reaches no report */
Test(report_source, no_source_for_a_passing_sample, .init = setup, .fini = teardown)
{
	char page[600];
	xmlDocPtr doc = render(), ok;
	snprintf(page, sizeof(page), "%s/report/ok.html", tmp);
	ok = htmlReadFile(page, "UTF-8", HTML_PARSE_NONET | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING);
	cr_assert_not_null(ok, "%s", page);
	want(ok, "count(//section[@id='source'])", "1");
	want(ok, "count(//section[@id='source']//details)", "0");
	want(ok, "count(//*[contains(text(), 'alert(1)')])", "0");
	want(doc, "count(//section[@id='source']//details)", "3");
	xmlFreeDoc(ok);
	xmlFreeDoc(doc);
	/* the data the templates get: no source read for the passing sample */
	snprintf(page, sizeof(page), "%s/results.xml", tmp);
	doc = xmlReadFile(page, NULL, XML_PARSE_NONET);
	cr_assert_not_null(doc);
	cr_assert_eq(npukb_report_sources_attach(doc), 0);
	want(doc, "count(//sample[@id='s']/source/file)", "3");
	want(doc, "count(//sample[@id='ok']/source)", "0");
	xmlFreeDoc(doc);
}

Test(report_source, the_bad_elements_plot, .init = setup, .fini = teardown)
{
	xmlDocPtr doc = render();
	want(doc, "count(//*[@data-k='bad-plot'])", "1");
	want(doc, "string(//*[@data-k='bad-plot']/@data-elements)", "40");
	/* bars only where bad elements are; height 2 + 38 x the bad share */
	want(doc, "count(//*[@data-k='bad-plot']//*[@data-bin])", "2");
	want(doc, "string(//*[@data-k='bad-plot']//*[@data-bin='1']/@data-n)", "10");
	want(doc, "string(//*[@data-k='bad-plot']//*[@data-bin='1']/@height)", "40");
	want(doc, "string(//*[@data-k='bad-plot']//*[@data-bin='3']/@data-n)", "3");
	want(doc, "string(//*[@data-k='bad-plot']//*[@data-bin='3']/@height)", "13");
	want(doc, "string(//*[@data-k='bad-plot']//*[@data-bin='3']/@x)", "18");
	xmlFreeDoc(doc);
}
