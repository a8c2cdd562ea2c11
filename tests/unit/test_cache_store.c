/* test_cache_store.c - the cache's entries (cache_store.h): written whole
 * and read-only, never trusted when anything about them is off (removed
 * instead), the least recently used evicted first, refused where a sample
 * could see them; and the pieces the unit cache rests on: SHA-256 fed in
 * pieces, a unit's records detached from their run and attached to
 * another. */
#include <criterion/criterion.h>

#include "cache_store.h"
#include <npukb/util.h>
#include "fsutil.h"
#include "journal.h"
#include "sha256.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char root[] = "/tmp/npukb-cachestore-XXXXXX";
static const char key[] = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

static void setup(void)
{
	strcpy(root, "/tmp/npukb-cachestore-XXXXXX");
	cr_assert_not_null(mkdtemp(root));
}

static void teardown(void)
{
	char cmd[PATH_MAX];
	snprintf(cmd, sizeof cmd, "chmod -R u+w '%s'", root);
	if (system(cmd) != 0)
		cr_log_warn("chmod failed");
	npukb_rm_rf(root);
}

TestSuite(cache_store, .init = setup, .fini = teardown);

static void put_two(const char *k)
{
	struct npukb_cache_part p[2] = { { "hello\n", 6 }, { "world", 5 } };
	cr_assert_eq(npukb_cache_put(root, "units", k, p, 2), 0);
}

static void entry(char *path, size_t len, const char *k)
{
	snprintf(path, len, "%s/units/%.2s/%s", root, k, k);
}

Test(cache_store, round_trip_read_only)
{
	struct npukb_cache_blob b;
	char path[PATH_MAX];
	struct stat st;

	put_two(key);
	entry(path, sizeof path, key);
	cr_assert_eq(stat(path, &st), 0);
	cr_assert_eq(st.st_mode & 0777, 0444, "an entry is read-only (mode %o)", st.st_mode & 0777);
	cr_assert_eq(npukb_cache_get(root, "units", key, &b), 0);
	cr_assert_eq(b.nparts, 2);
	cr_assert_eq(b.len[0], 6);
	cr_assert_eq(memcmp(b.part[0], "hello\n", 6), 0);
	cr_assert_eq(b.len[1], 5);
	cr_assert_eq(memcmp(b.part[1], "world", 5), 0);
	npukb_cache_blob_free(&b);
	/* another kind, another key: no entry */
	cr_assert_eq(npukb_cache_get(root, "data", key, &b), -ENOENT);
	cr_assert_eq(npukb_cache_get(root, "units", "ab", &b), -ENOENT);
}

/* Rewrites the entry of key with sed expression expr, then makes it
 * read-only again. */
static void edit(const char *expr)
{
	char path[PATH_MAX], cmd[4 * PATH_MAX + 64];
	entry(path, sizeof path, key);
	snprintf(cmd, sizeof cmd, "chmod u+w '%s' && sed -i '%s' '%s' && chmod a-w '%s'", path, expr,
		 path, path);
	cr_assert_eq(system(cmd), 0);
}

static void untrusted(const char *why)
{
	struct npukb_cache_blob b;
	char path[PATH_MAX];
	entry(path, sizeof path, key);
	cr_assert_eq(npukb_cache_get(root, "units", key, &b), -EBADMSG, "%s: trusted", why);
	cr_assert_eq(access(path, F_OK), -1, "%s: not removed", why);
}

Test(cache_store, an_edited_entry_is_not_trusted)
{
	static const char *const edits[][2] = {
		{ "2s/^version .*/version 0.0.0-other/", "another version" },
		{ "$s/world/wOrld/", "a changed byte" },
		{ "4s/^key 00/key 01/", "another key" },
		{ "5s/^parts 2/parts 1/", "another part count" },
	};
	for (size_t i = 0; i < sizeof edits / sizeof *edits; i++) {
		put_two(key);
		edit(edits[i][0]);
		untrusted(edits[i][1]);
	}
}

Test(cache_store, a_cut_entry_is_not_trusted)
{
	char path[PATH_MAX];
	put_two(key);
	entry(path, sizeof path, key);
	cr_assert_eq(chmod(path, 0644), 0);
	cr_assert_eq(truncate(path, 40), 0);
	cr_assert_eq(chmod(path, 0444), 0);
	untrusted("a cut entry");
}

Test(cache_store, a_writable_entry_is_not_trusted)
{
	char path[PATH_MAX];
	put_two(key);
	entry(path, sizeof path, key);
	cr_assert_eq(chmod(path, 0644), 0);
	untrusted("a writable entry");
}

Test(cache_store, a_symlink_is_not_followed)
{
	char path[PATH_MAX], other[PATH_MAX];
	struct npukb_cache_blob b;
	const char *k2 = "ff112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

	/* a good entry of another key, and a link to it under key's name */
	put_two(k2);
	entry(other, sizeof other, k2);
	snprintf(path, sizeof path, "%s/units/%.2s", root, key);
	cr_assert_eq(npukb_mkdir_p(path, 0700), 0);
	entry(path, sizeof path, key);
	cr_assert_eq(symlink(other, path), 0);
	cr_assert_eq(npukb_cache_get(root, "units", key, &b), -EBADMSG);
	cr_assert_eq(npukb_cache_get(root, "units", k2, &b), 0, "the link's target was harmed");
	npukb_cache_blob_free(&b);
}

Test(cache_store, the_least_recently_used_go_first)
{
	char path[PATH_MAX], k[65];
	struct npukb_cache_blob b;
	struct timespec t[2];
	struct npukb_cache_part big = { NULL, 1000 };
	char *buf = calloc(1, 1000);

	big.data = buf;
	/* four entries of ~1100 bytes, made in the past, oldest first */
	for (int i = 0; i < 4; i++) {
		snprintf(k, sizeof k, "%02d%062d", i, 0);
		cr_assert_eq(npukb_cache_put(root, "data", k, &big, 1), 0);
		snprintf(path, sizeof path, "%s/data/%.2s/%s", root, k, k);
		t[0].tv_sec = t[1].tv_sec = 1000000 + i * 10;
		t[0].tv_nsec = t[1].tv_nsec = 0;
		cr_assert_eq(utimensat(AT_FDCWD, path, t, 0), 0);
	}
	/* verdicts older than all of them, but worth more per byte */
	put_two(key);
	entry(path, sizeof path, key);
	t[0].tv_sec = t[1].tv_sec = 1000;
	cr_assert_eq(utimensat(AT_FDCWD, path, t, 0), 0);
	/* entry 0 is used now: the last to go */
	snprintf(k, sizeof k, "%02d%062d", 0, 0);
	cr_assert_eq(npukb_cache_get(root, "data", k, &b), 0);
	npukb_cache_blob_free(&b);
	cr_assert_eq(npukb_cache_evict(root, 3000), 2, "down to 90%% of 3000 bytes");
	for (int i = 0; i < 4; i++) {
		snprintf(k, sizeof k, "%02d%062d", i, 0);
		snprintf(path, sizeof path, "%s/data/%.2s/%s", root, k, k);
		cr_assert_eq(access(path, F_OK) == 0, i == 0 || i == 3, "entry %d", i);
	}
	entry(path, sizeof path, key);
	cr_assert_eq(access(path, F_OK), 0, "a unit's verdicts went before case data");
	cr_assert_eq(npukb_cache_evict(root, 1 << 20), 0, "under the cap: nothing goes");
	free(buf);
}

Test(cache_store, the_cap)
{
	setenv("NPUKB_CACHE_MAX", "3M", 1);
	cr_assert_eq(npukb_cache_max_bytes(), 3u << 20);
	setenv("NPUKB_CACHE_MAX", "12345", 1);
	cr_assert_eq(npukb_cache_max_bytes(), 12345);
	setenv("NPUKB_CACHE_MAX", "lots", 1);
	cr_assert_eq(npukb_cache_max_bytes(), 4ull << 30);
	unsetenv("NPUKB_CACHE_MAX");
	cr_assert_eq(npukb_cache_max_bytes(), 4ull << 30);
}

Test(cache_store, refused_where_a_sample_sees_it)
{
	char c[PATH_MAX], why[512];

	snprintf(c, sizeof c, "%s/out/cache", root);
	cr_assert_neq(npukb_cache_guard(c, root, why, sizeof why), 0);
	cr_assert_neq(npukb_cache_guard("/usr/local/var/npukb", "/tmp/x", why, sizeof why), 0);
	cr_assert(strstr(why, "/usr"), "%s", why);
	snprintf(c, sizeof c, "%s/cache", root);
	setenv("NPUKB_SANDBOX_READ", root, 1);
	cr_assert_neq(npukb_cache_guard(c, "/tmp/elsewhere", why, sizeof why), 0);
	unsetenv("NPUKB_SANDBOX_READ");
	cr_assert_eq(npukb_cache_guard(c, "/tmp/elsewhere", why, sizeof why), 0, "%s", why);
}

Test(cache_store, sha256_in_pieces)
{
	char whole[65], pieces[65];
	struct npukb_sha256 c;
	char msg[300];

	for (size_t i = 0; i < sizeof msg; i++)
		msg[i] = (char)(i * 7 + 1);
	npukb_sha256_hex(msg, sizeof msg, whole);
	npukb_sha256_init(&c);
	npukb_sha256_update(&c, msg, 1);
	npukb_sha256_update(&c, msg + 1, 62);
	npukb_sha256_update(&c, msg + 63, 0);
	npukb_sha256_update(&c, msg + 63, 130);
	npukb_sha256_update(&c, msg + 193, sizeof msg - 193);
	npukb_sha256_final_hex(&c, pieces);
	cr_assert_str_eq(pieces, whole);
}

Test(cache_store, records_move_to_another_run)
{
	struct npukb_journal a, b;
	struct npukb_journal_batch from = { 0 }, to = { 0 };
	struct npukb_verdict v;
	char path[PATH_MAX], err[256], *text = NULL, *expect = NULL;
	size_t len = 0;

	snprintf(path, sizeof path, "%s/j.jsonl", root);
	cr_assert_eq(npukb_journal_open(&a, path, "run-A", err, sizeof err), 0);
	cr_assert_eq(npukb_journal_open(&b, path, "run-B", err, sizeof err), 0);
	npukb_verdict_init(&v, NPUKB_STAGE_COMPILE);
	npukb_verdict_fail(&v, "syntax", "it said \"run-A\"");
	cr_assert_eq(npukb_journal_batch_add(&from, &a, "t", "s", NULL, &v), 0);
	cr_assert_eq(npukb_journal_batch_add(&from, &a, "t", "s", "0", &v), 0);
	cr_assert_eq(npukb_journal_batch_detach(&a, &from, &text, &len), 0);
	cr_assert_null(memmem(text, len, "\"run\"", 5), "the run id stays behind");
	cr_assert_eq(npukb_journal_batch_attach(&to, &b, text, len, 2), 0);
	cr_assert_eq(to.nverdicts, 2);
	/* what run B would have written itself */
	{
		struct npukb_journal_batch own = { 0 };
		cr_assert_eq(npukb_journal_batch_add(&own, &b, "t", "s", NULL, &v), 0);
		cr_assert_eq(npukb_journal_batch_add(&own, &b, "t", "s", "0", &v), 0);
		expect = strndup(own.buf, own.len);
		npukb_journal_batch_free(&own);
	}
	cr_assert_eq(to.len, strlen(expect));
	cr_assert_eq(memcmp(to.buf, expect, to.len), 0);
	/* a count that does not match, or a line that is no record: refused,
	 * and the batch unchanged */
	cr_assert_eq(npukb_journal_batch_attach(&to, &b, text, len, 3), -EINVAL);
	cr_assert_eq(npukb_journal_batch_attach(&to, &b, "{\"x\":1}\n", 8, 1), -EINVAL);
	cr_assert_eq(to.nverdicts, 2);
	cr_assert_eq(to.len, strlen(expect));
	free(expect);
	free(text);
	npukb_verdict_clear(&v);
	npukb_journal_batch_free(&from);
	npukb_journal_batch_free(&to);
	npukb_journal_close(&a);
	npukb_journal_close(&b);
}
