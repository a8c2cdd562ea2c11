/* test_case_data.c - seeded inputs, reference outputs, poison, tiling
 * packing and mutation detection of one (case, seed). */
#include <criterion/criterion.h>

#include <npukb/case_data.h>
#include <npukb/util.h>
#include "fsutil.h"
#include "tensor_pool.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char n_x[] = "x", n_y[] = "y", n_z[] = "z", n_ws[] = "workspace", n_t[] = "tiling";
static char dt_case[] = "$dtype", x_ref[] = "x", f_total[] = "totalLength",
	    f_tiles[] = "tileNum", e_total[] = "numel(x)", e_tiles[] = "8", f_big[] = "bytes",
	    e_big[] = "numel(x) * 2", ref_add[] = "add", id0[] = "0", path[] = "task.xml",
	    rule[] = "default";

static struct npukb_param params[] = {
	{ n_x, NPUKB_PARAM_INPUT, NULL, NULL }, { n_y, NPUKB_PARAM_INPUT, NULL, NULL }, { n_z, NPUKB_PARAM_OUTPUT, NULL, NULL },
	{ n_ws, NPUKB_PARAM_WORKSPACE, NULL, NULL }, { n_t, NPUKB_PARAM_TILING, NULL, NULL },
};
static struct npukb_tensor_decl tensors[] = {
	{ n_x, 0, dt_case, NULL, { NPUKB_DIST_UNIFORM, -100, 100, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL }, 0, 0, 0, 0 },
	{ n_y, 0, dt_case, x_ref, { NPUKB_DIST_UNIFORM, -100, 100, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL }, 0, 0, 0, 0 },
	{ n_z, 1, dt_case, x_ref, { 0, 0, 0, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL }, 0, 0, 0, 0 },
};
static struct npukb_tiling_field fields[] = {
	{ f_total, NPUKB_DT_INT32, 1, e_total },
	{ f_tiles, NPUKB_DT_INT32, 1, e_tiles },
	{ f_big, NPUKB_DT_INT64, 0, e_big },
};
static struct npukb_named_shape shapes[] = { { x_ref, { 2, { 4, 40 } }, 0, NULL } };
static struct npukb_case kcase = { id0, NPUKB_DT_FLOAT16, 1, shapes, 0, NULL, 1, 0, NULL, 0, NULL };
static struct npukb_task task;
static char workdir[] = "/tmp/npukb-casedata-XXXXXX";

static void setup(void)
{
	memset(&task, 0, sizeof(task));
	task.manifest_path = path;
	task.nparams = 5;
	task.params = params;
	task.ntensors = 3;
	task.tensors = tensors;
	task.block_dim = 8;
	task.ntiling = 3;
	task.tiling = fields;
	task.tolerance.rule = rule;
	task.reference = ref_add;
	task.ncases = 1;
	task.cases = &kcase;
	strcpy(workdir, "/tmp/npukb-casedata-XXXXXX");
	cr_assert_not_null(mkdtemp(workdir));
}

static void teardown(void)
{
	npukb_rm_rf(workdir);
}

TestSuite(case_data, .init = setup, .fini = teardown);

Test(case_data, layout_reference_and_poison)
{
	struct npukb_case_data d;
	char err[256] = "";
	size_t i;
	uint32_t tiling[4];
	int64_t big;
	FILE *f;
	int negative = 0;

	cr_assert_eq(npukb_case_data_prepare(&task, &kcase, 7, workdir, &d, err, sizeof(err)), 0,
		     "%s", err);
	cr_assert_eq(d.ntensors, 3);
	cr_assert_eq(d.tensors[0].numel, 160);
	cr_assert_eq(d.tensors[0].bytes, 320);
	cr_assert_eq(d.block_dim, 8);
	/* x + y, rounded once to fp16; inputs signed and inside the range */
	for (i = 0; i < 160; i++) {
		double x = npukb_load_as_double(NPUKB_DT_FLOAT16, d.tensors[0].data, i);
		double y = npukb_load_as_double(NPUKB_DT_FLOAT16, d.tensors[1].data, i);
		double z = npukb_load_as_double(NPUKB_DT_FLOAT16, d.tensors[2].expected, i);
		cr_assert(x >= -100 && x <= 100);
		negative += x < 0;
		cr_assert_eq(npukb_f64_to_f16(x + y), npukb_f64_to_f16(z));
		cr_assert(npukb_is_poison(NPUKB_DT_FLOAT16, d.tensors[2].data, i),
			  "output %zu not poisoned", i);
	}
	cr_assert(negative > 20 && negative < 140, "inputs should be signed: %d negative", negative);
	/* kernel arguments in parameter order */
	cr_assert_eq(d.nargs, 5);
	cr_assert_str_eq(d.args[0].path, d.tensors[0].path);
	cr_assert_str_eq(d.args[2].path, d.tensors[2].path);
	cr_assert_eq(d.args[3].role, NPUKB_PARAM_WORKSPACE);
	cr_assert_str_eq(d.args[4].path, d.tiling_path);
	/* uint32, uint32, int64: natural alignment, 16 bytes */
	cr_assert_eq(d.tiling_bytes, 16);
	f = fopen(d.tiling_path, "rb");
	cr_assert_not_null(f);
	cr_assert_eq(fread(tiling, 1, 16, f), 16);
	fclose(f);
	cr_assert_eq(tiling[0], 160);
	cr_assert_eq(tiling[1], 8);
	memcpy(&big, &tiling[2], 8);
	cr_assert_eq(big, 320);
	npukb_case_data_free(&d);
}

Test(case_data, seeds_are_reproducible_and_distinct)
{
	struct npukb_case_data a, b;
	char err[256] = "";
	void *copy;
	cr_assert_eq(npukb_case_data_prepare(&task, &kcase, 1, workdir, &a, err, sizeof(err)), 0);
	copy = malloc(a.tensors[0].bytes);
	memcpy(copy, a.tensors[0].data, a.tensors[0].bytes);
	npukb_case_data_free(&a);
	cr_assert_eq(npukb_case_data_prepare(&task, &kcase, 1, workdir, &b, err, sizeof(err)), 0);
	cr_assert_eq(memcmp(copy, b.tensors[0].data, b.tensors[0].bytes), 0);
	/* x and y are independent streams */
	cr_assert_neq(memcmp(b.tensors[0].data, b.tensors[1].data, b.tensors[0].bytes), 0);
	npukb_case_data_free(&b);
	cr_assert_eq(npukb_case_data_prepare(&task, &kcase, 2, workdir, &b, err, sizeof(err)), 0);
	cr_assert_neq(memcmp(copy, b.tensors[0].data, b.tensors[0].bytes), 0);
	npukb_case_data_free(&b);
	free(copy);
}

/* With the pool on, a discarded seed's files are the next seed's, and
 * what the next seed holds is exactly what a fresh file would hold. */
static void *dup_bytes(const void *p, size_t n)
{
	void *c = malloc(n);
	cr_assert_not_null(c);
	memcpy(c, p, n);
	return c;
}

static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;
	cr_assert_not_null(d, "%s", dir);
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	return n;
}

/* Some file of dir, opened, and its inode number. */
static int open_one(const char *dir, ino_t *ino)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	struct stat st;
	int fd = -1;
	cr_assert_not_null(d);
	while (fd < 0 && (e = readdir(d)))
		if (e->d_name[0] != '.')
			fd = openat(dirfd(d), e->d_name, O_RDONLY);
	closedir(d);
	cr_assert_geq(fd, 0);
	cr_assert_eq(fstat(fd, &st), 0);
	*ino = st.st_ino;
	return fd;
}

Test(case_data, pooled_seeds_hold_what_fresh_files_hold)
{
	struct npukb_case_data a, b, fresh;
	char err[256] = "", d1[4200], d2[4200], d3[4200];
	void *copy[3], *expected;
	char pool[4300];
	int kept, same = 0;
	ino_t kept_ino;
	size_t i;

	snprintf(d1, sizeof d1, "%s/s1", workdir);
	snprintf(d2, sizeof d2, "%s/s2", workdir);
	snprintf(d3, sizeof d3, "%s/s3", workdir);
	cr_assert_eq(npukb_mkdir_p(d1, 0700) | npukb_mkdir_p(d2, 0700) | npukb_mkdir_p(d3, 0700), 0);
	cr_assert_eq(npukb_tensor_pool_open(workdir), 0);
	cr_assert_eq(npukb_case_data_prepare(&task, &kcase, 1, d1, &a, err, sizeof(err)), 0, "%s", err);
	/* the kernel wrote its output */
	memset(a.tensors[2].data, 0, a.tensors[2].bytes);
	npukb_case_data_discard(&a);
	cr_expect_eq(count_entries(d1), 0, "seed 1's folder is emptied");
	snprintf(pool, sizeof pool, "%s/.tensor-pool-%ld", workdir, (long)getpid());
	cr_expect_eq(count_entries(pool), 3, "the pool keeps seed 1's three tensor files");
	/* held open, a kept file's inode number cannot go to a new file */
	kept = open_one(pool, &kept_ino);
	cr_assert_eq(npukb_case_data_prepare(&task, &kcase, 2, d2, &b, err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(count_entries(pool), 0, "seed 2 took them all");
	for (i = 0; i < 3; i++) {
		struct stat st;
		cr_assert_eq(stat(b.tensors[i].path, &st), 0);
		same += st.st_ino == kept_ino;
	}
	cr_expect_eq(same, 1, "seed 2 holds the kept file");
	close(kept);
	for (i = 0; i < 3; i++)
		copy[i] = dup_bytes(b.tensors[i].data, b.tensors[i].bytes);
	expected = dup_bytes(b.tensors[2].expected, b.tensors[2].bytes);
	npukb_case_data_discard(&b);
	npukb_tensor_pool_close();

	cr_assert_eq(npukb_case_data_prepare(&task, &kcase, 2, d3, &fresh, err, sizeof(err)), 0);
	for (i = 0; i < 3; i++)
		cr_expect_eq(memcmp(copy[i], fresh.tensors[i].data, fresh.tensors[i].bytes), 0,
			     "tensor %zu differs from a fresh file's", i);
	cr_expect_eq(memcmp(expected, fresh.tensors[2].expected, fresh.tensors[2].bytes), 0);
	cr_expect(npukb_is_poison(fresh.tensors[2].dtype, copy[2], 0), "the output is poisoned again");
	npukb_case_data_discard(&fresh);
	for (i = 0; i < 3; i++)
		free(copy[i]);
	free(expected);
}

Test(case_data, mutation_and_outputs_are_seen_through_the_files)
{
	struct npukb_case_data d;
	char err[256] = "";
	FILE *f;
	uint16_t one = 0x3C00;
	cr_assert_eq(npukb_case_data_prepare(&task, &kcase, 3, workdir, &d, err, sizeof(err)), 0);
	cr_assert_null(npukb_case_data_mutated_input(&d));
	/* a backend writes through the file, as a separate process would */
	f = fopen(d.tensors[1].path, "r+b");
	cr_assert_not_null(f);
	fseek(f, 10, SEEK_SET);
	fwrite(&one, 2, 1, f);
	fclose(f);
	f = fopen(d.tensors[2].path, "r+b");
	fwrite(&one, 2, 1, f);
	fclose(f);
	cr_assert_str_eq(npukb_case_data_mutated_input(&d), "y");
	cr_assert_eq(npukb_case_data_load_outputs(&d, err, sizeof(err)), 0);
	cr_assert_eq(((uint16_t *)d.tensors[2].data)[0], 0x3C00);
	cr_assert(npukb_is_poison(NPUKB_DT_FLOAT16, d.tensors[2].data, 1));
	npukb_case_data_free(&d);
}

Test(case_data, unknown_reference_is_an_error)
{
	struct npukb_case_data d;
	char err[256] = "", bad[] = "no-such-op";
	task.reference = bad;
	cr_assert_lt(npukb_case_data_prepare(&task, &kcase, 3, workdir, &d, err, sizeof(err)), 0);
	cr_assert_not_null(strstr(err, "no-such-op"), "%s", err);
}

Test(case_data, tiling_value_out_of_range_is_an_error)
{
	struct npukb_case_data d;
	char err[256] = "", neg[] = "0 - numel(x)";
	fields[0].expr = neg;
	cr_assert_lt(npukb_case_data_prepare(&task, &kcase, 3, workdir, &d, err, sizeof(err)), 0);
	cr_assert_not_null(strstr(err, "totalLength"), "%s", err);
	fields[0].expr = e_total;
}

Test(case_data, poison_patterns)
{
	float f32[3];
	uint8_t b[3];
	int32_t i32[2];
	npukb_poison_fill(NPUKB_DT_FLOAT32, f32, 3);
	cr_assert(isnan(f32[0]));
	cr_assert(npukb_is_poison(NPUKB_DT_FLOAT32, f32, 2));
	f32[1] = NAN; /* a NaN the kernel computed is not the poison */
	cr_assert_not(npukb_is_poison(NPUKB_DT_FLOAT32, f32, 1));
	npukb_poison_fill(NPUKB_DT_BOOL, b, 3);
	cr_assert(b[0] != 0 && b[0] != 1);
	npukb_poison_fill(NPUKB_DT_INT32, i32, 2);
	cr_assert(npukb_is_poison(NPUKB_DT_INT32, i32, 1));
	i32[1] = 0;
	cr_assert_not(npukb_is_poison(NPUKB_DT_INT32, i32, 1));
}

/* The word-at-a-time fill poisons every element of every dtype, whatever
 * the count, and not a byte past the buffer. */
Test(case_data, poison_fill_every_dtype_and_count)
{
	static const enum npukb_dtype dts[] = {
		NPUKB_DT_FLOAT16, NPUKB_DT_BFLOAT16, NPUKB_DT_FLOAT32, NPUKB_DT_FLOAT64,
		NPUKB_DT_INT8, NPUKB_DT_UINT8, NPUKB_DT_INT16, NPUKB_DT_INT32, NPUKB_DT_INT64,
		NPUKB_DT_BOOL, NPUKB_DT_COMPLEX64,
	};
	unsigned char buf[8 * 16 + 1];
	for (size_t d = 0; d < sizeof(dts) / sizeof(dts[0]); d++) {
		size_t size = npukb_dtype_size(dts[d]);
		for (size_t n = 0; n <= 13; n++) {
			memset(buf, 0x11, sizeof(buf));
			npukb_poison_fill(dts[d], buf, n);
			for (size_t i = 0; i < n; i++)
				cr_assert(npukb_is_poison(dts[d], buf, i), "%s n=%zu i=%zu",
					  npukb_dtype_name(dts[d]), n, i);
			cr_assert_eq(buf[n * size], 0x11, "%s n=%zu: wrote past the end",
				     npukb_dtype_name(dts[d]), n);
		}
	}
}

Test(case_data, tiling_struct_source_matches_the_packing)
{
	char *src = NULL, name[] = "AddCustomTilingData";
	task.tiling_struct = name;
	cr_assert_eq(npukb_tiling_struct_source(&task, &src), 0);
	cr_assert_not_null(strstr(src, "struct AddCustomTilingData {\n"
				       "    uint32_t totalLength;\n"
				       "    uint32_t tileNum;\n"
				       "    int64_t bytes;\n"
				       "};"), "%s", src);
	free(src);
	task.tiling_struct = NULL;
	cr_assert_eq(npukb_tiling_struct_source(&task, &src), -ENOENT);
}

Test(case_data, case_seeds_are_stable_and_distinct)
{
	static char id1[] = "1";
	struct npukb_case other = kcase;
	task.id = id1;
	cr_assert_eq(npukb_case_seed(&task, &kcase, 1, 0), npukb_case_seed(&task, &kcase, 1, 0));
	cr_assert_neq(npukb_case_seed(&task, &kcase, 1, 0), npukb_case_seed(&task, &kcase, 1, 1));
	other.id = id1;
	cr_assert_neq(npukb_case_seed(&task, &kcase, 1, 0), npukb_case_seed(&task, &other, 1, 0));
	cr_assert_neq(npukb_case_seed(&task, &kcase, 2, 0), npukb_case_seed(&task, &kcase, 1, 0));
}

/* Only a range (uniform, integer) can be empty: a bool's a is a probability
 * and a normal's a mean, whatever b holds. */
Test(case_data, bool_and_normal_inputs_are_not_ranges)
{
	struct npukb_case_data d;
	char err[256] = "";
	size_t i;
	int ones = 0;
	double sum = 0;

	tensors[0].dist.kind = NPUKB_DIST_BOOL;
	tensors[0].dist.a = 0.5;
	tensors[0].dist.b = 0;
	tensors[1].dist.kind = NPUKB_DIST_NORMAL;
	tensors[1].dist.a = 5;
	tensors[1].dist.b = 1;
	cr_assert_eq(npukb_case_data_prepare(&task, &kcase, 3, workdir, &d, err, sizeof(err)), 0, "%s", err);
	for (i = 0; i < 160; i++) {
		double x = npukb_load_as_double(NPUKB_DT_FLOAT16, d.tensors[0].data, i);
		cr_assert(x == 0 || x == 1, "bool element %zu is %g", i, x);
		ones += x == 1;
		sum += npukb_load_as_double(NPUKB_DT_FLOAT16, d.tensors[1].data, i);
	}
	cr_expect(ones > 40 && ones < 120, "%d of 160 true at p = 0.5", ones);
	cr_expect(sum / 160 > 4.5 && sum / 160 < 5.5, "mean %g, not near 5", sum / 160);
	npukb_case_data_free(&d);
}

Test(case_data, an_empty_uniform_range_is_an_error)
{
	struct npukb_case_data d;
	char err[256] = "";

	tensors[0].dist.a = 1;
	tensors[0].dist.b = 0;
	cr_assert_eq(npukb_case_data_prepare(&task, &kcase, 3, workdir, &d, err, sizeof(err)), -EINVAL);
	cr_assert(strstr(err, "empty range") != NULL, "%s", err);
}

/* npukb_content_hash, the mutation check's hash: any one changed byte, at
 * any position of buffers of every length up to 100 bytes (every lane and
 * the word and byte tails), and any one changed 8-byte word of a 1 MiB
 * buffer changes it; so do the length and appended zeros; and it is a
 * function of the content only (an unaligned copy hashes the same). */
Test(case_data, content_hash_sees_every_single_change)
{
	unsigned char buf[101], *big = malloc((1 << 20) + 8);
	uint64_t x = 0x9E3779B97F4A7C15ull;

	cr_assert_not_null(big);
	for (size_t i = 0; i < sizeof buf; i++)
		buf[i] = (unsigned char)(i * 37 + 11);
	for (size_t len = 0; len <= 100; len++) {
		uint64_t h = npukb_content_hash(buf, len);
		cr_assert_neq(h, npukb_content_hash(buf, len + 1), "length %zu vs %zu", len, len + 1);
		for (size_t i = 0; i < len; i++) {
			for (unsigned bit = 0; bit < 8; bit++) {
				buf[i] ^= (unsigned char)(1u << bit);
				cr_assert_neq(npukb_content_hash(buf, len), h, "len %zu byte %zu bit %u", len,
					      i, bit);
				buf[i] ^= (unsigned char)(1u << bit);
			}
		}
		cr_assert_eq(npukb_content_hash(buf, len), h);
	}
	for (size_t i = 0; i < (1 << 20); i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		big[i] = (unsigned char)x;
	}
	{
		uint64_t h = npukb_content_hash(big, 1 << 20), w, v;
		for (size_t i = 0; i < (1 << 20); i += 8 * 97) {
			memcpy(&w, big + i, 8);
			v = w ^ (x | 1);
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			memcpy(big + i, &v, 8);
			cr_assert_neq(npukb_content_hash(big, 1 << 20), h, "word at %zu", i);
			memcpy(big + i, &w, 8);
		}
		memmove(big + 1, big, 1 << 20);
		cr_assert_eq(npukb_content_hash(big + 1, 1 << 20), h, "unaligned copy");
		memset(big, 0, 64);
		cr_assert_neq(npukb_content_hash(big, 32), npukb_content_hash(big, 64), "zeros appended");
	}
	free(big);
}

/* npukb_content_hash as first written (lanes in an array): the cache's
 * checksums on disk are its values, so a faster form must give the same. */
static uint64_t content_hash_as_defined(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint64_t h[4] = { 0x9E3779B97F4A7C15ull, 0xC2B2AE3D27D4EB4Full, 0x165667B19E3779F9ull,
			  0x27D4EB2F165667C5ull };
	uint64_t r = len;
	size_t i = 0;
	int l;
	for (; i + 32 <= len; i += 32)
		for (l = 0; l < 4; l++) {
			uint64_t w;
			memcpy(&w, p + i + 8 * (size_t)l, 8);
			h[l] = (h[l] ^ w) * 0xFF51AFD7ED558CCDull;
			h[l] ^= h[l] >> 32;
		}
	for (l = 0; i + 8 <= len; i += 8, l++) {
		uint64_t w;
		memcpy(&w, p + i, 8);
		h[l] = (h[l] ^ w) * 0xFF51AFD7ED558CCDull;
		h[l] ^= h[l] >> 32;
	}
	for (; i < len; i++)
		h[3] = (h[3] ^ p[i]) * 0x100000001B3ull;
	/* splitmix64's finaliser of the length, then of each lane */
	for (l = -1; l < 4; l++) {
		uint64_t z = l < 0 ? r : r ^ h[l];
		z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
		z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
		r = z ^ (z >> 31);
	}
	return r;
}

Test(case_data, content_hash_keeps_its_values)
{
	size_t n = (1 << 20) + 77;
	unsigned char *b = malloc(n);
	uint64_t x = 88172645463325252ull;
	cr_assert_not_null(b);
	for (size_t i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		b[i] = (unsigned char)x;
	}
	for (size_t len = 0; len <= 300; len++)
		for (size_t off = 0; off < 8; off += 3)
			cr_assert_eq(npukb_content_hash(b + off, len), content_hash_as_defined(b + off, len),
				     "length %zu at offset %zu", len, off);
	cr_assert_eq(npukb_content_hash(b + 5, n - 5), content_hash_as_defined(b + 5, n - 5));
	free(b);
}

/* The performance stage's preparation: the kernel gets the same argument
 * files (inputs, poisoned output, tiling) as under
 * npukb_case_data_prepare, but no expected buffer is made, and an unknown
 * reference is no error since none is called. */
Test(case_data, prepare_args_gives_the_same_files_without_the_reference)
{
	struct npukb_case_data full, args;
	char err[256] = "", dir2[4096];
	void *files[3];
	size_t i;

	cr_assert_eq(npukb_case_data_prepare(&task, &kcase, 5, workdir, &full, err, sizeof(err)), 0,
		     "%s", err);
	for (i = 0; i < 3; i++) {
		files[i] = malloc(full.tensors[i].bytes);
		memcpy(files[i], full.tensors[i].data, full.tensors[i].bytes);
	}
	snprintf(dir2, sizeof dir2, "%s/args", workdir);
	cr_assert_eq(npukb_mkdir_p(dir2, 0700), 0);
	cr_assert_eq(npukb_case_data_prepare_args(&task, &kcase, 5, dir2, &args, err, sizeof(err)), 0,
		     "%s", err);
	cr_assert_eq(args.ntensors, full.ntensors);
	for (i = 0; i < 3; i++) {
		cr_assert_eq(args.tensors[i].bytes, full.tensors[i].bytes);
		cr_assert_eq(memcmp(args.tensors[i].data, files[i], args.tensors[i].bytes), 0,
			     "tensor %zu differs", i);
		cr_assert_null(args.tensors[i].expected);
		free(files[i]);
	}
	cr_assert_eq(args.nargs, full.nargs);
	cr_assert_eq(args.tiling_bytes, full.tiling_bytes);
	npukb_case_data_free(&args);
	npukb_case_data_free(&full);

	task.reference = rule; /* "default": no such reference function */
	cr_assert_eq(npukb_case_data_prepare_args(&task, &kcase, 5, dir2, &args, err, sizeof(err)), 0,
		     "%s", err);
	npukb_case_data_free(&args);
}

/* npukb_poison_find walks the poisoned elements exactly as a loop of
 * npukb_is_poison does, for every dtype: over poisoned buffers with
 * elements overwritten by other values, by near-misses (part of an
 * element's pattern: one float of a complex, three of four 0xA5 bytes)
 * and by whole blocks of written values, from odd starts. */
Test(case_data, poison_find_matches_the_element_test)
{
	enum { N = 3001 };
	unsigned char *buf = malloc(8 * N);
	uint64_t x = 0x2545F4914F6CDD1Dull;

	cr_assert_not_null(buf);
	for (int dt = NPUKB_DT_INVALID + 1; dt < NPUKB_DT_COUNT_; dt++) {
		size_t size = npukb_dtype_size((enum npukb_dtype)dt);
		for (int density = 0; density < 3; density++) {
			npukb_poison_fill((enum npukb_dtype)dt, buf, N);
			for (size_t i = 0; i < N; i++) {
				x ^= x << 13;
				x ^= x >> 7;
				x ^= x << 17;
				/* density 0: a few written; 1: about half; 2: all
				 * but a few poisoned elements */
				if ((density == 0 && x % 50 == 0) || (density == 1 && (x & 1)) ||
				    (density == 2 && x % 700 != 0)) {
					if (x & 2)
						memset(buf + i * size, (int)(x >> 8), size);
					else
						buf[i * size + (x >> 16) % size] ^= 0x10; /* near miss */
				}
			}
			for (size_t begin = 0; begin < 3; begin++) {
				size_t i = begin, want;
				for (;;) {
					for (want = i; want < N; want++)
						if (npukb_is_poison((enum npukb_dtype)dt, buf, want))
							break;
					size_t got = npukb_poison_find((enum npukb_dtype)dt, buf, i, N);
					cr_assert_eq(got, want, "%s density %d: from %zu found %zu, want %zu",
						     npukb_dtype_name((enum npukb_dtype)dt), density, i, got,
						     want);
					if (got == N)
						break;
					i = got + 1;
				}
			}
		}
	}
	free(buf);
}
