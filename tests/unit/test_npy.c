/* test_npy.c - .npy files written by npukb_npy_write() read back with the
 * header NumPy expects. */
#include <criterion/criterion.h>

#include <npukb/npy.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[] = "/tmp/npukb-npy-XXXXXX";

static void setup(void)
{
	cr_assert_not_null(mkdtemp(dir));
}

static void teardown(void)
{
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	cr_expect_eq(system(cmd), 0);
}

TestSuite(npy, .init = setup, .fini = teardown);

static struct npukb_shape shape_of(int rank, const int64_t *dims)
{
	struct npukb_shape s;
	memset(&s, 0, sizeof(s));
	s.rank = rank;
	memcpy(s.dims, dims, (size_t)rank * sizeof(dims[0]));
	return s;
}

/* The raw header text (after magic, version and length). */
static char *raw_header(const char *path)
{
	unsigned char pre[10];
	FILE *f = fopen(path, "rb");
	size_t len;
	char *h;
	cr_assert_not_null(f);
	cr_assert_eq(fread(pre, 1, 10, f), 10);
	len = (size_t)pre[8] | (size_t)pre[9] << 8;
	h = calloc(1, len + 1);
	cr_assert_eq(fread(h, 1, len, f), len);
	fclose(f);
	return h;
}

static long file_size(const char *path)
{
	struct stat sb;
	cr_assert_eq(stat(path, &sb), 0);
	return (long)sb.st_size;
}

Test(npy, float16_matrix_round_trips)
{
	static const int64_t dims[] = { 2, 3 };
	struct npukb_shape s = shape_of(2, dims);
	uint16_t v[6] = { 0x3c00, 0x4000, 0x4200, 0x4400, 0x4500, 0x4600 };
	struct npukb_npy_header h;
	char path[256], err[256], *raw;
	unsigned char back[12];
	FILE *f;

	snprintf(path, sizeof(path), "%s/x.npy", dir);
	cr_assert_eq(npukb_npy_write(path, NPUKB_DT_FLOAT16, &s, v, 6, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(npukb_npy_read_header(path, &h, err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(h.major, 1);
	cr_expect_eq(h.minor, 0);
	cr_expect_str_eq(h.descr, "<f2");
	cr_expect_eq(h.fortran_order, 0);
	cr_assert_eq(h.rank, 2);
	cr_expect_eq(h.dims[0], 2);
	cr_expect_eq(h.dims[1], 3);
	cr_expect_eq(h.data_offset % 64, 0, "data at %zu", h.data_offset);
	cr_expect_eq(file_size(path), (long)h.data_offset + 12);

	raw = raw_header(path);
	cr_expect_not_null(strstr(raw, "'shape': (2, 3)"), "%s", raw);
	cr_expect_eq(raw[strlen(raw) - 1], '\n');
	free(raw);

	f = fopen(path, "rb");
	cr_assert_not_null(f);
	cr_assert_eq(fseek(f, (long)h.data_offset, SEEK_SET), 0);
	cr_assert_eq(fread(back, 1, 12, f), 12);
	fclose(f);
	cr_expect_eq(memcmp(back, v, 12), 0);
}

Test(npy, vector_keeps_the_one_tuple_comma)
{
	static const int64_t dims[] = { 5 };
	struct npukb_shape s = shape_of(1, dims);
	int32_t v[5] = { 1, -2, 3, -4, 5 };
	struct npukb_npy_header h;
	char path[256], err[256], *raw;

	snprintf(path, sizeof(path), "%s/v.npy", dir);
	cr_assert_eq(npukb_npy_write(path, NPUKB_DT_INT32, &s, v, 5, err, sizeof(err)), 0, "%s", err);
	raw = raw_header(path);
	cr_expect_not_null(strstr(raw, "'shape': (5,)"), "%s", raw);
	cr_expect_not_null(strstr(raw, "'descr': '<i4'"), "%s", raw);
	free(raw);
	cr_assert_eq(npukb_npy_read_header(path, &h, err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(h.rank, 1);
	cr_expect_eq(h.dims[0], 5);
	cr_expect_eq(file_size(path), (long)h.data_offset + 20);
}

Test(npy, scalar_has_an_empty_shape)
{
	struct npukb_shape s = shape_of(0, NULL);
	double v = 2.5;
	struct npukb_npy_header h;
	char path[256], err[256], *raw;

	snprintf(path, sizeof(path), "%s/s.npy", dir);
	cr_assert_eq(npukb_npy_write(path, NPUKB_DT_FLOAT64, &s, &v, 1, err, sizeof(err)), 0, "%s", err);
	raw = raw_header(path);
	cr_expect_not_null(strstr(raw, "'shape': ()"), "%s", raw);
	free(raw);
	cr_assert_eq(npukb_npy_read_header(path, &h, err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(h.rank, 0);
	cr_expect_str_eq(h.descr, "<f8");
}

Test(npy, descr_for_every_dtype)
{
	cr_expect_str_eq(npukb_npy_descr(NPUKB_DT_FLOAT16), "<f2");
	cr_expect_str_eq(npukb_npy_descr(NPUKB_DT_FLOAT32), "<f4");
	cr_expect_str_eq(npukb_npy_descr(NPUKB_DT_FLOAT64), "<f8");
	cr_expect_str_eq(npukb_npy_descr(NPUKB_DT_BFLOAT16), "<f4");
	cr_expect_str_eq(npukb_npy_descr(NPUKB_DT_INT8), "|i1");
	cr_expect_str_eq(npukb_npy_descr(NPUKB_DT_UINT8), "|u1");
	cr_expect_str_eq(npukb_npy_descr(NPUKB_DT_INT16), "<i2");
	cr_expect_str_eq(npukb_npy_descr(NPUKB_DT_INT32), "<i4");
	cr_expect_str_eq(npukb_npy_descr(NPUKB_DT_INT64), "<i8");
	cr_expect_str_eq(npukb_npy_descr(NPUKB_DT_BOOL), "|b1");
	cr_expect_str_eq(npukb_npy_descr(NPUKB_DT_COMPLEX64), "<c8");
	cr_expect_null(npukb_npy_descr(NPUKB_DT_INVALID));
}

Test(npy, bfloat16_is_widened_exactly)
{
	static const int64_t dims[] = { 2 };
	struct npukb_shape s = shape_of(1, dims);
	uint16_t v[2] = { 0x3fc0, 0xc040 }; /* 1.5, -3.0 */
	struct npukb_npy_header h;
	char path[256], err[256];
	float back[2];
	FILE *f;

	snprintf(path, sizeof(path), "%s/b.npy", dir);
	cr_assert_eq(npukb_npy_write(path, NPUKB_DT_BFLOAT16, &s, v, 2, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(npukb_npy_read_header(path, &h, err, sizeof(err)), 0, "%s", err);
	cr_expect_str_eq(h.descr, "<f4");
	cr_expect_eq(file_size(path), (long)h.data_offset + 8);
	f = fopen(path, "rb");
	cr_assert_not_null(f);
	cr_assert_eq(fseek(f, (long)h.data_offset, SEEK_SET), 0);
	cr_assert_eq(fread(back, sizeof(float), 2, f), 2);
	fclose(f);
	cr_expect_eq(back[0], 1.5f);
	cr_expect_eq(back[1], -3.0f);
}

Test(npy, bool_and_complex_sizes)
{
	static const int64_t d3[] = { 3 };
	struct npukb_shape s = shape_of(1, d3);
	unsigned char b[3] = { 1, 0, 1 };
	float c[6] = { 1, 2, 3, 4, 5, 6 };
	struct npukb_npy_header h;
	char path[256], err[256];

	snprintf(path, sizeof(path), "%s/m.npy", dir);
	cr_assert_eq(npukb_npy_write(path, NPUKB_DT_BOOL, &s, b, 3, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(npukb_npy_read_header(path, &h, err, sizeof(err)), 0, "%s", err);
	cr_expect_str_eq(h.descr, "|b1");
	cr_expect_eq(file_size(path), (long)h.data_offset + 3);
	snprintf(path, sizeof(path), "%s/c.npy", dir);
	cr_assert_eq(npukb_npy_write(path, NPUKB_DT_COMPLEX64, &s, c, 3, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(npukb_npy_read_header(path, &h, err, sizeof(err)), 0, "%s", err);
	cr_expect_str_eq(h.descr, "<c8");
	cr_expect_eq(file_size(path), (long)h.data_offset + 24);
}

Test(npy, refuses_a_shape_that_does_not_match)
{
	static const int64_t dims[] = { 2, 2 };
	struct npukb_shape s = shape_of(2, dims);
	float v[3] = { 0 };
	char path[256], err[256] = "";
	snprintf(path, sizeof(path), "%s/bad.npy", dir);
	cr_expect_eq(npukb_npy_write(path, NPUKB_DT_FLOAT32, &s, v, 3, err, sizeof(err)), -EINVAL);
	cr_expect_neq(err[0], '\0');
	cr_expect_neq(access(path, F_OK), 0);
}

Test(npy, rejects_a_file_that_is_not_npy)
{
	struct npukb_npy_header h;
	char path[256], err[256] = "";
	FILE *f;
	snprintf(path, sizeof(path), "%s/junk.npy", dir);
	f = fopen(path, "wb");
	cr_assert_not_null(f);
	fputs("PK\003\004 not numpy at all", f);
	fclose(f);
	cr_expect_eq(npukb_npy_read_header(path, &h, err, sizeof(err)), -EINVAL);
	cr_expect_not_null(strstr(err, "magic"), "%s", err);
}
