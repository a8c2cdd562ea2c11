/* test_harness_cache.c - cpusim's harness cache: the key covers everything
 * the object depends on (a change of any of it is a miss), entries round
 * trip, and only a plain non-empty file of ours is ever taken from it. */
#include <criterion/criterion.h>

#include "../../plugins/cpusim/harness_cache.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[64];

static void write_file(const char *rel, const char *text)
{
	char path[256];
	FILE *f;
	snprintf(path, sizeof path, "%s/%s", root, rel);
	f = fopen(path, "w");
	cr_assert_not_null(f, "%s", path);
	fputs(text, f);
	fclose(f);
}

static void setup(void)
{
	char path[256];
	strcpy(root, "/tmp/npukb-hcache-XXXXXX");
	cr_assert_not_null(mkdtemp(root));
	snprintf(path, sizeof path, "%s/include", root);
	cr_assert_eq(mkdir(path, 0755), 0);
	snprintf(path, sizeof path, "%s/include/sub", root);
	cr_assert_eq(mkdir(path, 0755), 0);
	write_file("harness.cpp", "int main() { return 0; }\n");
	write_file("gm_buffers.cpp", "int g() { return 0; }\n");
	write_file("include/runtime.h", "struct State { int a; };\n");
	write_file("include/sub/vec.h", "inline int v() { return 1; }\n");
}

static void teardown(void)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	cr_expect_eq(system(cmd), 0);
}

static void key_of(const char *version, const char *const *argv, char *key)
{
	char src[256], src2[256], inc[256], err[256] = "";
	const char *const sources[] = { src, src2, NULL };
	snprintf(src, sizeof src, "%s/harness.cpp", root);
	snprintf(src2, sizeof src2, "%s/gm_buffers.cpp", root);
	snprintf(inc, sizeof inc, "%s/include", root);
	cr_assert_eq(harness_cache_key(version, argv, sources, inc, key, 40, err, sizeof err), 0, "%s",
		     err);
	cr_assert_eq(strlen(key), 32);
}

TestSuite(harness_cache, .init = setup, .fini = teardown);

Test(harness_cache, key_changes_with_everything_the_object_depends_on)
{
	static const char *const argv[] = { "sh", "-O2", "-c", "harness.cpp", NULL };
	static const char *const argv_o3[] = { "sh", "-O3", "-c", "harness.cpp", NULL };
	static const char *const argv_cc[] = { "true", "-O2", "-c", "harness.cpp", NULL };
	char base[40], again[40], k[40];

	key_of("0.1", argv, base);
	key_of("0.1", argv, again);
	cr_expect_str_eq(again, base, "the same inputs give another key");
	key_of("0.2", argv, k);
	cr_expect_str_neq(k, base, "another cpusim version");
	key_of("0.1", argv_o3, k);
	cr_expect_str_neq(k, base, "another flag");
	key_of("0.1", argv_cc, k);
	cr_expect_str_neq(k, base, "another compiler");
	write_file("include/sub/vec.h", "inline int v() { return 2; }\n");
	key_of("0.1", argv, k);
	cr_expect_str_neq(k, base, "a header below the include folder changed");
	write_file("include/sub/vec.h", "inline int v() { return 1; }\n");
	key_of("0.1", argv, k);
	cr_expect_str_eq(k, base, "the header is back as it was");
	write_file("include/new.h", "\n");
	key_of("0.1", argv, k);
	cr_expect_str_neq(k, base, "a header was added");
	unlink(strcat(strcpy((char[256]){ 0 }, root), "/include/new.h"));
	write_file("harness.cpp", "int main() { return 1; }\n");
	key_of("0.1", argv, k);
	cr_expect_str_neq(k, base, "the harness source changed");
	write_file("harness.cpp", "int main() { return 0; }\n");
	key_of("0.1", argv, k);
	cr_expect_str_eq(k, base, "the harness source is back as it was");
	write_file("gm_buffers.cpp", "int g() { return 1; }\n");
	key_of("0.1", argv, k);
	cr_expect_str_neq(k, base, "the harness's second source changed");
}

Test(harness_cache, a_missing_compiler_is_an_error)
{
	static const char *const argv[] = { "npukb-no-such-compiler", "-c", NULL };
	char key[40], src[256], inc[256], err[256] = "";
	const char *const sources[] = { src, NULL };
	snprintf(src, sizeof src, "%s/harness.cpp", root);
	snprintf(inc, sizeof inc, "%s/include", root);
	cr_expect_lt(harness_cache_key("0.1", argv, sources, inc, key, sizeof key, err, sizeof err), 0);
	cr_expect_not_null(strstr(err, "npukb-no-such-compiler"), "%s", err);
}

Test(harness_cache, entries_round_trip_and_only_plain_files_count)
{
	char cache[256], obj[256], out[256], entry[300], buf[64] = "";
	FILE *f;

	snprintf(cache, sizeof cache, "%s/cache/deeper", root);
	snprintf(obj, sizeof obj, "%s/harness.cpp", root);
	snprintf(out, sizeof out, "%s/got.o", root);
	cr_expect_eq(harness_cache_get(cache, "00ff", out), -ENOENT, "an empty cache has no entry");
	cr_assert_eq(harness_cache_put(cache, "00ff", obj), 0, "the cache folder is created on demand");
	cr_assert_eq(harness_cache_get(cache, "00ff", out), 0);
	f = fopen(out, "r");
	cr_assert_not_null(f);
	cr_expect_not_null(fgets(buf, sizeof buf, f));
	fclose(f);
	cr_expect_str_eq(buf, "int main() { return 0; }\n");

	/* A symlink or an empty file planted in the cache is not an entry. */
	snprintf(entry, sizeof entry, "%s/cpusim-harness/11aa.o", cache);
	cr_assert_eq(symlink(obj, entry), 0);
	cr_expect_eq(harness_cache_get(cache, "11aa", out), -EINVAL);
	snprintf(entry, sizeof entry, "%s/cpusim-harness/22bb.o", cache);
	f = fopen(entry, "w");
	cr_assert_not_null(f);
	fclose(f);
	cr_expect_eq(harness_cache_get(cache, "22bb", out), -EINVAL);
}
