/* test_util.c - the plugin toolkit (npukb/util.h) and the XML string
 * writer the report writers share (xml_file.h). */
#include <criterion/criterion.h>

#include <npukb/plugin.h>
#include <npukb/sandbox.h>
#include <npukb/util.h>

#include "manifest.h"
#include "xml_file.h"

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <libxml/xmlwriter.h>

/* ---- helpers ---------------------------------------------------------------- */

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void rm_tree(const char *dir)
{
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static char *temp_dir(void)
{
	static char dir[64];
	snprintf(dir, sizeof(dir), "/tmp/npukb-test-util-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	return dir;
}

static int is_dir_with_mode(const char *path, mode_t mode)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode) && (st.st_mode & 07777) == mode;
}

/* Switches LC_NUMERIC to a locale whose decimal point is a comma: an
 * installed one, else de_DE compiled with localedef into locdir (glibc
 * reads LOCPATH on every setlocale). 0 when there is none to be had. */
static int decimal_comma_locale(const char *locdir)
{
	char cmd[512];
	if (setlocale(LC_NUMERIC, "de_DE.UTF-8") || setlocale(LC_NUMERIC, "fr_FR.UTF-8"))
		return strcmp(localeconv()->decimal_point, ",") == 0;
	snprintf(cmd, sizeof(cmd), "localedef -i de_DE -f UTF-8 '%s/de_DE.UTF-8' >/dev/null 2>&1",
		 locdir);
	if (system(cmd) != 0)
		return 0;
	setenv("LOCPATH", locdir, 1);
	if (!setlocale(LC_NUMERIC, "de_DE.UTF-8"))
		return 0;
	return strcmp(localeconv()->decimal_point, ",") == 0;
}

/* ---- the defaults ------------------------------------------------------------ */

Test(util_defaults, five_seeds_as_design_md_says)
{
	cr_assert_eq(NPUKB_DEFAULT_SEEDS, 5u);
}

/* ---- the clock ---------------------------------------------------------------- */

Test(util_clock, is_the_monotonic_clock_in_seconds)
{
	struct timespec ts;
	double before, got, after;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	before = (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
	got = npukb_monotonic_seconds();
	clock_gettime(CLOCK_MONOTONIC, &ts);
	after = (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
	cr_assert(got >= before && got <= after, "%f not in [%f, %f]", got, before, after);
}

Test(util_clock, measures_a_sleep)
{
	struct timespec nap = { 0, 50 * 1000 * 1000 };
	double t0 = npukb_monotonic_seconds(), dt;

	while (nanosleep(&nap, &nap) != 0 && errno == EINTR)
		;
	dt = npukb_monotonic_seconds() - t0;
	cr_assert(dt >= 0.049 && dt < 5.0, "a 50 ms sleep took %f s", dt);
}

/* ---- mkdir -p ------------------------------------------------------------------- */

Test(util_mkdir_p, makes_every_missing_parent_with_the_mode)
{
	char *dir = temp_dir(), path[256], mid[256];

	umask(0);
	snprintf(path, sizeof(path), "%s/a/b/c", dir);
	snprintf(mid, sizeof(mid), "%s/a/b", dir);
	cr_assert_eq(npukb_mkdir_p(path, 0750), 0);
	cr_assert(is_dir_with_mode(path, 0750));
	cr_assert(is_dir_with_mode(mid, 0750));
	/* Again: a folder that exists is fine, and keeps its mode. */
	cr_assert_eq(npukb_mkdir_p(path, 0700), 0);
	cr_assert(is_dir_with_mode(path, 0750));
	/* A trailing slash and a doubled one change nothing. */
	snprintf(path, sizeof(path), "%s/x//y/", dir);
	cr_assert_eq(npukb_mkdir_p(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/x/y", dir);
	cr_assert(is_dir_with_mode(path, 0700));
	rm_tree(dir);
}

Test(util_mkdir_p, a_file_in_the_way_is_an_error)
{
	char *dir = temp_dir(), path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/file", dir);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fclose(f);
	/* The path itself is a file. */
	cr_assert_eq(npukb_mkdir_p(path, 0755), -ENOTDIR);
	/* A parent is a file. */
	snprintf(path, sizeof(path), "%s/file/sub", dir);
	cr_assert_eq(npukb_mkdir_p(path, 0755), -ENOTDIR);
	rm_tree(dir);
}

Test(util_mkdir_p, says_why_it_cannot)
{
	char *dir = temp_dir(), path[600];

	/* A name longer than any file system takes. */
	snprintf(path, sizeof(path), "%s/ok/%0300d/below", dir, 0);
	cr_assert_eq(npukb_mkdir_p(path, 0755), -ENAMETOOLONG);
	rm_tree(dir);
}

/* ---- numbers the C way ------------------------------------------------------------ */

Test(util_numbers, formats_like_percent_g)
{
	char buf[64];

	cr_assert_str_eq(npukb_fmt_double(buf, sizeof(buf), 0.5, 6), "0.5");
	cr_assert_str_eq(buf, "0.5", "returns buf");
	cr_assert_str_eq(npukb_fmt_double(buf, sizeof(buf), 1.25e-5, 6), "1.25e-05");
	cr_assert_str_eq(npukb_fmt_double(buf, sizeof(buf), 2.0 / 3.0, 3), "0.667");
	cr_assert_str_eq(npukb_fmt_double(buf, sizeof(buf), 2.0 / 3.0, 17), "0.66666666666666663");
	cr_assert_str_eq(npukb_fmt_double(buf, sizeof(buf), -1234567.0, 6), "-1.23457e+06");
	cr_assert_str_eq(npukb_fmt_double(buf, sizeof(buf), NAN, 6), "nan");
	cr_assert_str_eq(npukb_fmt_double(buf, sizeof(buf), -NAN, 6), "nan");
	cr_assert_str_eq(npukb_fmt_double(buf, sizeof(buf), INFINITY, 6), "inf");
	cr_assert_str_eq(npukb_fmt_double(buf, sizeof(buf), -INFINITY, 6), "-inf");
	/* Truncated, never overrun. */
	memset(buf, 'x', sizeof(buf));
	npukb_fmt_double(buf, 4, 3.14159, 6);
	cr_assert_str_eq(buf, "3.1");
	cr_assert_eq(buf[4], 'x');
}

Test(util_numbers, parses_like_strtod)
{
	char *end;

	cr_assert_eq(npukb_strtod("1.5", NULL), 1.5);
	cr_assert_eq(npukb_strtod("-2.5e-3xyz", &end), -2.5e-3);
	cr_assert_str_eq(end, "xyz");
	cr_assert_eq(npukb_strtod("1,5", &end), 1.0);
	cr_assert_str_eq(end, ",5");
	errno = 0;
	cr_assert(isinf(npukb_strtod("1e999", NULL)));
	cr_assert_eq(errno, ERANGE);
}

/* One test (localedef takes a second): both directions under a locale
 * whose decimal point is a comma. */
static struct npukb_task *load_muls(const struct npukb_case **case0)
{
	char path[PATH_MAX], schema[PATH_MAX], err[4096];
	const char *src = getenv("NPUKB_SRCDIR");
	struct npukb_task *t = NULL;
	size_t i;
	src = src && *src ? src : ".";
	snprintf(path, sizeof(path), "%s/levels/level1/Math/Muls/task.xml", src);
	snprintf(schema, sizeof(schema), "%s/levels/schema/task.rng", src);
	cr_assert_eq(npukb_manifest_load(path, schema, &t, err, sizeof(err)), 0, "%s", err);
	for (i = 0; i < t->ncases && strcmp(t->cases[i].id, "0") != 0; i++)
		;
	cr_assert_lt(i, t->ncases);
	*case0 = &t->cases[i];
	return t;
}

Test(util_numbers, ignore_a_decimal_comma_locale)
{
	const struct npukb_case *muls0;
	struct npukb_task *muls = load_muls(&muls0);
	char *dir = temp_dir(), buf[64], *end, err[512];
	double v = 0;
	int have = decimal_comma_locale(dir);

	if (!have) {
		npukb_task_free(muls);
		rm_tree(dir);
		cr_skip_test("no locale with a decimal comma could be had");
	}
	/* The process locale really does write commas... */
	snprintf(buf, sizeof(buf), "%.1f", 0.5);
	cr_assert_str_eq(buf, "0,5");
	/* ...and the toolkit does not. */
	cr_assert_str_eq(npukb_fmt_double(buf, sizeof(buf), 0.5, 6), "0.5");
	cr_assert_str_eq(npukb_fmt_double(buf, sizeof(buf), -1.25e-5, 6), "-1.25e-05");
	cr_assert_eq(npukb_strtod("0.25", &end), 0.25);
	cr_assert_str_eq(end, "");
	cr_assert_eq(npukb_strtod("0,25", &end), 0.0);
	cr_assert_str_eq(end, ",25");
	/* A manifest's float attribute (Muls: value 1.2) is the same number
	 * in every locale: strtod here would stop at the '.'. (The manifest
	 * was loaded before the locale changed: libxml2's schema types are
	 * not this test's subject.) */
	cr_assert_eq(npukb_tiling_eval_float(muls, muls0, "value", &v, err, sizeof(err)), 0, "%s",
		     err);
	cr_assert_eq(v, 1.2);
	npukb_task_free(muls);
	setlocale(LC_NUMERIC, "C");
	rm_tree(dir);
}

/* ---- a failed run's category ------------------------------------------------------ */

static const char *category(const char *backend_says, enum npukb_exit_kind kind, int code,
			    int limits)
{
	static char backend_copy[64];
	struct npukb_run_result r;

	memset(&r, 0, sizeof(r));
	if (backend_says) {
		snprintf(backend_copy, sizeof(backend_copy), "%s", backend_says);
		r.category = backend_copy;
	}
	r.proc.kind = kind;
	r.proc.exit_code = code;
	r.proc.limits_hit = limits;
	return npukb_run_category(&r);
}

Test(util_run_category, the_backend_knows_best)
{
	cr_assert_str_eq(category("ub-overflow", NPUKB_EXIT_NORMAL, 1, 0), "ub-overflow");
	cr_assert_str_eq(category("misaligned", NPUKB_EXIT_TIMEOUT, 0, 0), "misaligned");
	/* An empty name is no name. */
	cr_assert_str_eq(category("", NPUKB_EXIT_TIMEOUT, 0, 0), "timeout");
}

Test(util_run_category, else_the_process_fate)
{
	cr_assert_str_eq(category(NULL, NPUKB_EXIT_TIMEOUT, 0, 0), "timeout");
	cr_assert_str_eq(category(NULL, NPUKB_EXIT_TIMEOUT, 0, NPUKB_LIMIT_PROCESSES),
			 "resource-limit");
	cr_assert_str_eq(category(NULL, NPUKB_EXIT_CPU_LIMIT, 0, 0), "resource-limit");
	cr_assert_str_eq(category(NULL, NPUKB_EXIT_SIGNAL, 0, NPUKB_LIMIT_MEMORY),
			 "resource-limit");
	cr_assert_str_eq(category(NULL, NPUKB_EXIT_VIOLATION, 0, 0), "sandbox-violation");
	cr_assert_str_eq(category(NULL, NPUKB_EXIT_SIGNAL, 0, 0), "crash");
	cr_assert_str_eq(category(NULL, NPUKB_EXIT_NORMAL, 3, 0), "crash");
	/* A clean exit that did not finish the run is still a failure. */
	cr_assert_str_eq(category(NULL, NPUKB_EXIT_NORMAL, 0, 0), "crash");
}

/* ---- XML strings ------------------------------------------------------------------ */

/* Runs fn inside <r>...</r> on a memory writer; returns the document. */
static char *xml_of(int (*fn)(xmlTextWriterPtr w, const void *arg), const void *arg)
{
	xmlBufferPtr b = xmlBufferCreate();
	xmlTextWriterPtr w = xmlNewTextWriterMemory(b, 0);
	char *out;

	cr_assert_not_null(w);
	cr_assert_geq(xmlTextWriterStartDocument(w, NULL, "UTF-8", NULL), 0);
	cr_assert_geq(xmlTextWriterStartElement(w, BAD_CAST "r"), 0);
	cr_assert_eq(fn(w, arg), 0);
	cr_assert_geq(xmlTextWriterEndDocument(w), 0);
	xmlFreeTextWriter(w);
	out = strdup((const char *)xmlBufferContent(b));
	xmlBufferFree(b);
	return out;
}

static int write_attrs(xmlTextWriterPtr w, const void *arg)
{
	(void)arg;
	return npukb_xml_attr(w, "a", "x & y < z > \"q\" 'p'") ||
	       npukb_xml_attr(w, "none", NULL) ||
	       /* a forbidden control character and an invalid byte */
	       npukb_xml_attr(w, "b", "bell\a-\xff-end");
}

Test(util_xml, attributes_are_cleaned_and_escaped)
{
	char *doc = xml_of(write_attrs, NULL);

	cr_assert_not_null(strstr(doc, "a=\"x &amp; y &lt; z &gt; &quot;q&quot; 'p'\""), "%s", doc);
	cr_assert_null(strstr(doc, "none="), "a NULL value writes nothing: %s", doc);
	cr_assert_not_null(strstr(doc, "b=\"bell-\xef\xbf\xbd-end\""), "%s", doc);
	free(doc);
}

static int write_text(xmlTextWriterPtr w, const void *arg)
{
	return npukb_xml_text(w, NULL, 100) || npukb_xml_text(w, "", 100) ||
	       npukb_xml_text(w, arg, 100);
}

Test(util_xml, text_is_cleaned_and_escaped)
{
	char *doc = xml_of(write_text, "a<b & c>]]>\x01\n");

	cr_assert_not_null(strstr(doc, "<r>a&lt;b &amp; c&gt;]]&gt;\n</r>"), "%s", doc);
	free(doc);
}

Test(util_xml, nothing_for_no_text)
{
	char *doc = xml_of(write_text, "");

	cr_assert_not_null(strstr(doc, "<r/>"), "%s", doc);
	free(doc);
}

Test(util_xml, long_text_is_cut_with_a_marker)
{
	char text[301], *doc, *body, *close;

	memset(text, 'a', 300);
	text[300] = '\0';
	doc = xml_of(write_text, text);
	body = strstr(doc, "<r>");
	close = strstr(doc, "</r>");
	cr_assert(body && close);
	body += 3;
	/* 80 bytes of the text, then the marker. */
	cr_assert_eq((size_t)(close - body), 80 + strlen("\n[... truncated]\n"), "%s", doc);
	cr_assert_eq(strncmp(body + 80, "\n[... truncated]\n", 17), 0, "%s", doc);
	cr_assert_eq(body[79], 'a');
	free(doc);
	/* At the limit: whole. */
	text[100] = '\0';
	doc = xml_of(write_text, text);
	cr_assert_null(strstr(doc, "truncated"), "%s", doc);
	free(doc);
}

Test(util_xml, a_cut_never_splits_a_character)
{
	char text[301], *doc, *body;

	memset(text, 'a', 300);
	text[300] = '\0';
	/* U+00E9 (2 bytes) across byte 80, where a limit of 100 cuts. */
	memcpy(text + 79, "\xc3\xa9", 2);
	doc = xml_of(write_text, text);
	body = strstr(doc, "<r>");
	cr_assert_not_null(body);
	body += 3;
	cr_assert_eq(strncmp(body + 79, "\n[... truncated]\n</r>", 21), 0, "%s", doc);
	free(doc);
}
