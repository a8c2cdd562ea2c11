/* test_data_cache.c - a case's inputs and expected outputs shared between
 * samples and runs (data_cache.h): the same bytes with and without the
 * cache, a private copy for every (case, seed) so a kernel that writes its
 * inputs is caught and spoils nothing shared, a corrupt entry replaced,
 * and the key following the manifest and the seed. */
#include <criterion/criterion.h>

#include <npukb/case_data.h>
#include <npukb/task.h>
#include <npukb/util.h>
#include "data_cache.h"
#include "fsutil.h"
#include "manifest.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[] = "/tmp/npukb-datacache-XXXXXX";
static char cache[PATH_MAX], out[PATH_MAX];
static struct npukb_task *task;

static void src_path(char *buf, size_t len, const char *rel)
{
	const char *r = getenv("NPUKB_SRCDIR");
	cr_assert_lt((size_t)snprintf(buf, len, "%s/%s", r && *r ? r : ".", rel), len);
}

static void load_task(const char *manifest)
{
	char schema[PATH_MAX], err[4096] = "";
	src_path(schema, sizeof schema, "levels/schema/task.rng");
	cr_assert_eq(npukb_manifest_load(manifest, schema, &task, err, sizeof err), 0, "%s", err);
}

static void setup(void)
{
	char path[PATH_MAX];
	strcpy(root, "/tmp/npukb-datacache-XXXXXX");
	cr_assert_not_null(mkdtemp(root));
	snprintf(cache, sizeof cache, "%s/cache", root);
	snprintf(out, sizeof out, "%s/out", root);
	src_path(path, sizeof path, "levels/level1/Math/AddCustom/task.xml");
	load_task(path);
}

static void teardown(void)
{
	npukb_data_cache_end();
	npukb_task_free(task);
	npukb_rm_rf(root);
}

/* Case 4 of AddCustom (48 x 8192 fp16), seed value s, laid out in a
 * fresh folder named name. */
static void prepare(const char *name, uint64_t seed, struct npukb_case_data *d)
{
	char dir[PATH_MAX], err[1024] = "";
	snprintf(dir, sizeof dir, "%s/%s", root, name);
	cr_assert_eq(npukb_mkdir_p(dir, 0700), 0);
	cr_assert_eq(npukb_case_data_prepare(task, &task->cases[4], seed, dir, d, err, sizeof err),
		     0, "%s", err);
}

/* How many files `find ARGS -type f` lists. */
static size_t count_files(const char *find_args)
{
	char cmd[PATH_MAX + 128];
	unsigned long n = 0;
	FILE *f;
	snprintf(cmd, sizeof cmd, "find %s -type f 2>/dev/null | wc -l", find_args);
	f = popen(cmd, "r");
	cr_assert_not_null(f);
	cr_assert_eq(fscanf(f, "%lu", &n), 1);
	pclose(f);
	return n;
}

static size_t entries(void)
{
	char args[PATH_MAX + 16];
	snprintf(args, sizeof args, "'%s/data'", cache);
	return count_files(args);
}

/* Every tensor of a and b holds the same bytes, and every expected
 * output the same values. */
static void same_data(const struct npukb_case_data *a, const struct npukb_case_data *b)
{
	cr_assert_eq(a->ntensors, b->ntensors);
	for (size_t i = 0; i < a->ntensors; i++) {
		const struct npukb_case_tensor *x = &a->tensors[i], *y = &b->tensors[i];
		cr_assert_eq(x->bytes, y->bytes);
		cr_assert_eq(memcmp(x->data, y->data, x->bytes), 0, "tensor %s differs", x->name);
		if (x->expected)
			cr_assert_eq(memcmp(x->expected, y->expected, x->bytes), 0,
				     "expected %s differs", x->name);
		cr_assert_eq(x->hash, y->hash);
	}
}

TestSuite(data_cache, .init = setup, .fini = teardown, .timeout = 60);

Test(data_cache, same_bytes_with_and_without_the_cache)
{
	struct npukb_case_data plain, cold, warm;

	prepare("plain", 11, &plain); /* no cache begun: generated */
	cr_assert_eq(npukb_data_cache_begin(cache, out), 0);
	prepare("cold", 11, &cold);
	cr_assert_eq(entries(), 1, "the first preparation keeps one entry");
	prepare("warm", 11, &warm);
	cr_assert_eq(entries(), 1);
	same_data(&plain, &cold);
	same_data(&plain, &warm);
	npukb_case_data_free(&plain);
	npukb_case_data_free(&cold);
	npukb_case_data_free(&warm);
}

Test(data_cache, a_kernel_writes_its_own_copy_only)
{
	struct npukb_case_data a, b, c;

	cr_assert_eq(npukb_data_cache_begin(cache, out), 0);
	prepare("a", 5, &a);
	prepare("b", 5, &b);
	/* the kernel of b writes an input: caught, and a and c unharmed */
	((unsigned char *)b.tensors[0].data)[17] ^= 0x40;
	cr_assert_str_eq(npukb_case_data_mutated_input(&b), "x");
	cr_assert_null(npukb_case_data_mutated_input(&a));
	cr_assert_neq(strcmp(a.tensors[0].path, b.tensors[0].path), 0);
	prepare("c", 5, &c);
	same_data(&a, &c);
	npukb_case_data_free(&a);
	npukb_case_data_free(&b);
	npukb_case_data_free(&c);
}

Test(data_cache, the_key_follows_the_seed_and_the_manifest)
{
	struct npukb_case_data a, b, c;
	char copy[PATH_MAX], from[PATH_MAX], cmd[3 * PATH_MAX];

	cr_assert_eq(npukb_data_cache_begin(cache, out), 0);
	prepare("a", 1, &a);
	prepare("b", 2, &b);
	cr_assert_eq(entries(), 2, "another seed is another entry");
	cr_assert_neq(memcmp(a.tensors[0].data, b.tensors[0].data, a.tensors[0].bytes), 0);
	/* the same task from an edited manifest (a new input range) */
	src_path(from, sizeof from, "levels/level1/Math/AddCustom/task.xml");
	snprintf(copy, sizeof copy, "%s/task.xml", root);
	snprintf(cmd, sizeof cmd, "sed 's/a=\"-100\"/a=\"-50\"/' '%s' >'%s'", from, copy);
	cr_assert_eq(system(cmd), 0);
	npukb_task_free(task);
	load_task(copy);
	prepare("c", 1, &c);
	cr_assert_eq(entries(), 3, "an edited manifest is another entry");
	npukb_case_data_free(&a);
	npukb_case_data_free(&b);
	npukb_case_data_free(&c);
}

Test(data_cache, a_corrupt_entry_is_replaced)
{
	struct npukb_case_data a, b;
	char cmd[PATH_MAX + 200];

	cr_assert_eq(npukb_data_cache_begin(cache, out), 0);
	prepare("a", 3, &a);
	cr_assert_eq(entries(), 1);
	/* one byte of the last part (an expected output) flipped */
	snprintf(cmd, sizeof cmd,
		 "f=$(find '%s/data' -type f) && chmod u+w \"$f\" && "
		 "printf 'Q' | dd of=\"$f\" bs=1 seek=$(($(stat -c %%s \"$f\") - 3)) conv=notrunc "
		 "2>/dev/null && chmod a-w \"$f\"",
		 cache);
	cr_assert_eq(system(cmd), 0);
	prepare("b", 3, &b);
	same_data(&a, &b);
	cr_assert_eq(entries(), 1, "the corrupt entry was replaced by a good one");
	npukb_case_data_free(&a);
	npukb_case_data_free(&b);
}

Test(data_cache, no_cache_shares_through_the_runs_own_folder)
{
	struct npukb_case_data a, b;
	char **names = NULL;
	size_t n = 0;

	cr_assert_eq(npukb_data_cache_begin(NULL, out), 0);
	prepare("a", 9, &a);
	prepare("b", 9, &b);
	same_data(&a, &b);
	cr_assert(!npukb_is_dir(cache), "--no-cache wrote the cache");
	npukb_data_cache_end();
	cr_assert_eq(npukb_list_subdirs(out, &names, &n), 0);
	cr_assert_eq(n, 0, "the run's own folder is left behind");
	npukb_free_names(names, n);
	npukb_case_data_free(&a);
	npukb_case_data_free(&b);
}

/* The files of the run's own folder (with --no-cache). */
static size_t private_entries(void)
{
	char args[PATH_MAX + 64];
	snprintf(args, sizeof args, "'%s' -path '*/.npukb-shared-*/data/*'", out);
	return count_files(args);
}

Test(data_cache, a_task_judged_once_keeps_nothing_in_the_runs_own_folder)
{
	struct npukb_case_data a;
	const char *other = "level1/Math/SomethingElse";

	cr_assert_eq(npukb_data_cache_begin(NULL, out), 0);
	cr_assert_eq(npukb_data_cache_plan(&other, 1, 0), 0);
	prepare("a", 9, &a);
	cr_assert_eq(private_entries(), 0, "data no other unit reads was written");
	npukb_case_data_free(&a);
	/* the same run with two samples of the task: kept for the second */
	cr_assert_eq(npukb_data_cache_plan((const char *const *)&task->id, 1, 0), 0);
	prepare("b", 9, &a);
	cr_assert_eq(private_entries(), 1);
	npukb_case_data_free(&a);
}

Test(data_cache, a_lasting_cache_keeps_a_run_it_can_hold)
{
	struct npukb_case_data a;

	setenv("NPUKB_CACHE_MAX", "64M", 1);
	cr_assert_eq(npukb_data_cache_begin(cache, out), 0);
	/* other tasks' data (none shared) within half the cap: kept for later runs */
	cr_assert_eq(npukb_data_cache_plan(NULL, 0, 16u << 20), 0);
	prepare("a", 1, &a);
	cr_assert_eq(entries(), 1);
	npukb_case_data_free(&a);
	/* a run whose data the cache cannot hold would evict its own
	 * entries before a later run reads them: nothing is written */
	cr_assert_eq(npukb_data_cache_plan(NULL, 0, 48u << 20), 0);
	prepare("b", 2, &a);
	cr_assert_eq(entries(), 1);
	npukb_case_data_free(&a);
	/* but a task the run judges twice shares within the run */
	cr_assert_eq(npukb_data_cache_plan((const char *const *)&task->id, 1, 48u << 20), 0);
	prepare("c", 3, &a);
	cr_assert_eq(entries(), 2);
	npukb_case_data_free(&a);
	unsetenv("NPUKB_CACHE_MAX");
}
