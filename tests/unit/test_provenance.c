/* test_provenance.c - a sample folder's response.json (written by `npukb
 * import`): model and response hash read back; the file is untrusted, so
 * every bad form is ignored with a note naming the file, never a crash. */
#include <criterion/criterion.h>

#include "samples.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64];
static const char *sha = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

static void setup(void)
{
	char path[128];
	FILE *f;
	snprintf(dir, sizeof(dir), "/tmp/npukb-prov-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/kernel.cpp", dir);
	cr_assert_not_null(f = fopen(path, "w"));
	fputs("// k\n", f);
	fclose(f);
}

static void teardown(void)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	cr_assert_eq(system(cmd), 0);
}

TestSuite(provenance, .init = setup, .fini = teardown);

static void write_response(const void *data, size_t len)
{
	char path[128];
	FILE *f;
	snprintf(path, sizeof(path), "%s/response.json", dir);
	unlink(path);
	cr_assert_not_null(f = fopen(path, "w"));
	cr_assert_eq(fwrite(data, 1, len, f), len);
	fclose(f);
}

static void load(struct npukb_sample_entry *s)
{
	char err[256] = "";
	cr_assert_eq(npukb_sample_load(dir, NULL, s, err, sizeof(err)), 0, "%s", err);
}

Test(provenance, read_back)
{
	struct npukb_sample_entry s;
	char text[512];
	int n = snprintf(text, sizeof(text),
			 "{\"task\":\"level1/Math/AddCustom\",\"model\":\"m \\u00e9 7b\",\"sample\":\"0\","
			 "\"source\":\"r.jsonl\",\"line\":3,\"response_sha256\":\"%s\","
			 "\"response_bytes\":10,\"form\":\"fenced\"}\n", sha);
	write_response(text, (size_t)n);
	load(&s);
	cr_assert_str_eq(s.model, "m \xc3\xa9 7b");
	cr_assert_str_eq(s.response_sha256, sha);
	cr_assert_null(s.note);
	npukb_sample_free(&s);
}

Test(provenance, no_file_no_note)
{
	struct npukb_sample_entry s;
	load(&s);
	cr_assert_null(s.model);
	cr_assert_null(s.response_sha256);
	cr_assert_null(s.note);
	npukb_sample_free(&s);
}

/* Each bad form: no model, no hash, a note naming the file. */
static void bad(const void *data, size_t len, const char *why)
{
	struct npukb_sample_entry s;
	write_response(data, len);
	load(&s);
	cr_assert_null(s.model, "%s", why);
	cr_assert_null(s.response_sha256, "%s", why);
	cr_assert_not_null(s.note, "%s: no note", why);
	cr_assert_not_null(strstr(s.note, "response.json: "), "%s: %s", why, s.note);
	cr_assert_not_null(strstr(s.note, why), "want '%s' in '%s'", why, s.note);
	npukb_sample_free(&s);
}

#define BAD(text, why) bad(text, strlen(text), why)

Test(provenance, junk_is_ignored_with_a_note)
{
	char *big = malloc(70000);
	char bin[] = { '{', '"', 'm', 0, 'x', '"', '}' };
	char path[128], target[128];
	cr_assert_not_null(big);
	memset(big, ' ', 70000);
	bad(big, 70000, "larger than 64 KiB");
	free(big);
	BAD("", "not one JSON object");
	BAD("not json", "not one JSON object");
	BAD("{\"model\":\"m\"} {\"x\":1}", "not one JSON object");
	bad(bin, sizeof(bin), "NUL byte");
	BAD("{\"model\":7,\"response_sha256\":[1]}", "no usable \"model\" or");
	BAD("{\"model\":\"a\\u0001b\"}", "no usable \"model\" or");
	BAD("{\"model\":\"\",\"response_sha256\":\"abc\"}", "no usable");
	/* a symlink, even to a good file, and a folder */
	snprintf(target, sizeof(target), "%s/good.json", dir);
	snprintf(path, sizeof(path), "%s/response.json", dir);
	{
		FILE *f = fopen(target, "w");
		cr_assert_not_null(f);
		fprintf(f, "{\"model\":\"m\",\"response_sha256\":\"%s\"}\n", sha);
		fclose(f);
	}
	unlink(path);
	cr_assert_eq(symlink(target, path), 0);
	{
		struct npukb_sample_entry s;
		load(&s);
		cr_assert_null(s.model);
		cr_assert_not_null(s.note);
		cr_assert_not_null(strstr(s.note, "symlink"), "%s", s.note);
		npukb_sample_free(&s);
	}
	unlink(path);
	cr_assert_eq(mkdir(path, 0700), 0);
	{
		struct npukb_sample_entry s;
		load(&s);
		cr_assert_null(s.model);
		cr_assert_not_null(s.note);
		cr_assert_not_null(strstr(s.note, "not a regular file"), "%s", s.note);
		npukb_sample_free(&s);
	}
}

/* One usable field is kept; the other's absence is noted. */
Test(provenance, partial)
{
	static const char partial[] = "{\"model\":\"m\",\"response_sha256\":\"XYZ\"}";
	struct npukb_sample_entry s;
	write_response(partial, strlen(partial));
	load(&s);
	cr_assert_str_eq(s.model, "m");
	cr_assert_null(s.response_sha256);
	cr_assert_not_null(s.note);
	cr_assert_not_null(strstr(s.note, "no usable \"response_sha256\""), "%s", s.note);
	npukb_sample_free(&s);
}
