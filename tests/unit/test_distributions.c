/* test_distributions.c - the input-distribution extensions: special values
 * (special="p": +-inf, NaN, +-0, denormals injected into a share p of the
 * elements) and attribute-valued scalar inputs (kind="attr"), from the
 * manifest through the loader to the generated case data. */
#include <criterion/criterion.h>

#include <npukb/case_data.h>
#include "inputs.h"
#include "manifest.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ERRLEN 8192

static void src_path(char *buf, size_t len, const char *rel)
{
	const char *root = getenv("NPUKB_SRCDIR");
	if (!root || !*root)
		root = ".";
	cr_assert_lt((size_t)snprintf(buf, len, "%s/%s", root, rel), len);
}

static int load(const char *rel, struct npukb_task **t, char *err)
{
	char path[PATH_MAX], schema[PATH_MAX];
	src_path(path, sizeof(path), rel);
	src_path(schema, sizeof(schema), "levels/schema/task.rng");
	return npukb_manifest_load(path, schema, t, err, ERRLEN);
}

/* err holds a line "...xml:<line>: ...what...". */
static void expect_line(const char *err, int line, const char *what)
{
	char needle[64];
	const char *p = err;
	int found = 0;
	snprintf(needle, sizeof(needle), ".xml:%d: ", line);
	while ((p = strstr(p, needle))) {
		const char *end = strchr(p, '\n');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char one[1024];
		snprintf(one, sizeof(one), "%.*s", (int)len, p);
		if (strstr(one, what))
			found = 1;
		p += len;
	}
	cr_expect(found, "expected \"%s...%s\" in:\n%s", needle, what, err);
}

Test(distributions, loader_reads_special_and_attr)
{
	char err[ERRLEN];
	struct npukb_task *t = NULL;
	const struct npukb_tensor_decl *x, *v;
	int rc = load("tests/data/manifests/valid_dist_ext.xml", &t, err);
	cr_assert_eq(rc, 0, "load failed (%d):\n%s", rc, err);
	x = npukb_task_tensor(t, "x");
	v = npukb_task_tensor(t, "value");
	cr_assert(x && v);
	cr_expect_eq(x->dist.kind, NPUKB_DIST_UNIFORM);
	cr_expect_eq(x->dist.special, 0.25);
	cr_expect_null(x->dist.attr);
	cr_expect_eq(v->dist.kind, NPUKB_DIST_ATTR);
	cr_expect_str_eq(v->dist.attr, "scale");
	cr_expect_eq(v->dist.special, 0.0);
	npukb_task_free(t);
}

Test(distributions, loader_rejects_bad_attr_sources)
{
	char err[ERRLEN];
	struct npukb_task *t = NULL;
	cr_assert_eq(load("tests/data/manifests/sem_dist_ext.xml", &t, err), -EINVAL);
	cr_expect_null(t);
	expect_line(err, 16, "distribution attr 'nosuch' names no declared attribute");
	expect_line(err, 19, "distribution attr 'mode' has type string, not int, float, bool or list");
}

Test(distributions, schema_rejects_special_above_one)
{
	char err[ERRLEN];
	struct npukb_task *t = NULL;
	cr_assert_eq(load("tests/data/manifests/schema_bad_special.xml", &t, err), -EINVAL);
	expect_line(err, 11, "schema violation");
}

static size_t count_specials(const float *v, size_t n, size_t kinds[6])
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		float f = v[i];
		int kind = -1;
		if (isinf(f))
			kind = f > 0 ? 0 : 1;
		else if (isnan(f))
			kind = 2;
		else if (f == 0.0f)
			kind = signbit(f) ? 4 : 3;
		else if (fpclassify(f) == FP_SUBNORMAL)
			kind = 5;
		if (kind >= 0) {
			kinds[kind]++;
			k++;
		}
	}
	return k;
}

Test(distributions, special_share_and_every_kind)
{
	struct npukb_dist d = { NPUKB_DIST_UNIFORM, 1.0, 2.0, 0.3, NULL, NULL, NULL, NULL, NULL, NULL, NULL };
	enum { N = 20000 };
	static float a[N], b[N];
	size_t kinds[6] = { 0 }, k;
	struct npukb_rng r;
	char err[256];

	npukb_rng_seed(&r, 7, "0", "x");
	cr_assert_eq(npukb_inputs_fill(NPUKB_DT_FLOAT32, a, N, &d, &r, err, sizeof(err)), 0);
	k = count_specials(a, N, kinds);
	/* 6000 expected; binomial sd ~65 */
	cr_expect(k > 5500 && k < 6500, "%zu special values", k);
	for (int i = 0; i < 6; i++)
		cr_expect_gt(kinds[i], 700, "kind %d appears %zu times", i, kinds[i]);
	for (size_t i = 0; i < N; i++)
		if (isfinite(a[i]) && a[i] != 0.0f && fpclassify(a[i]) != FP_SUBNORMAL)
			cr_assert(a[i] >= 1.0f && a[i] <= 2.0f, "a[%zu] = %g", i, a[i]);
	/* the same seed gives the same tensor, bit for bit */
	npukb_rng_seed(&r, 7, "0", "x");
	cr_assert_eq(npukb_inputs_fill(NPUKB_DT_FLOAT32, b, N, &d, &r, err, sizeof(err)), 0);
	cr_expect_eq(memcmp(a, b, sizeof(a)), 0);
}

Test(distributions, float16_denormal_and_no_specials_for_integers)
{
	struct npukb_dist d = { NPUKB_DIST_UNIFORM, -5.0, 5.0, 1.0, NULL, NULL, NULL, NULL, NULL, NULL, NULL };
	enum { N = 600 };
	uint16_t h[N];
	int32_t ints[N];
	size_t denormals = 0;
	struct npukb_rng r;
	char err[256];

	npukb_rng_seed(&r, 1, "c", "x");
	cr_assert_eq(npukb_inputs_fill(NPUKB_DT_FLOAT16, h, N, &d, &r, err, sizeof(err)), 0);
	for (size_t i = 0; i < N; i++) {
		unsigned exp = (h[i] >> 10) & 0x1F, mant = h[i] & 0x3FF;
		cr_expect(exp == 0x1F || exp == 0, "share 1: every element special, got 0x%04x", h[i]);
		if (exp == 0 && mant != 0)
			denormals++;
	}
	cr_expect_gt(denormals, 50, "fp16 denormals present (%zu)", denormals);
	/* integer dtypes have no special values: the draw is kept */
	npukb_rng_seed(&r, 1, "c", "x");
	cr_assert_eq(npukb_inputs_fill(NPUKB_DT_INT32, ints, N, &d, &r, err, sizeof(err)), 0);
	for (size_t i = 0; i < N; i++)
		cr_assert(ints[i] >= -5 && ints[i] <= 5, "ints[%zu] = %d", i, ints[i]);
}

Test(distributions, complex_fills_both_parts)
{
	struct npukb_dist d = { NPUKB_DIST_UNIFORM, -1.0, 1.0, 0.0, NULL, NULL, NULL, NULL, NULL, NULL, NULL };
	float c[2 * 256];
	size_t nonzero_im = 0;
	struct npukb_rng r;
	char err[256];
	npukb_rng_seed(&r, 3, "0", "x");
	cr_assert_eq(npukb_inputs_fill(NPUKB_DT_COMPLEX64, c, 256, &d, &r, err, sizeof(err)), 0);
	for (size_t i = 0; i < 256; i++) {
		cr_assert(c[2 * i] >= -1 && c[2 * i] <= 1);
		cr_assert(c[2 * i + 1] >= -1 && c[2 * i + 1] <= 1);
		nonzero_im += c[2 * i + 1] != 0.0f;
	}
	cr_expect_gt(nonzero_im, 250);
}

Test(distributions, attr_kind_needs_resolution)
{
	char attr[] = "scale";
	struct npukb_dist d = { NPUKB_DIST_ATTR, 0, 0, 0, attr, NULL, NULL, NULL, NULL, NULL, NULL };
	float v[1];
	struct npukb_rng r;
	char err[256];
	npukb_rng_seed(&r, 1, "0", "v");
	cr_expect_eq(npukb_inputs_fill(NPUKB_DT_FLOAT32, v, 1, &d, &r, err, sizeof(err)), -EINVAL);
	cr_expect(strstr(err, "scale") != NULL, "%s", err);
}

Test(distributions, case_data_fills_attr_inputs_and_specials)
{
	static const char *const files[] = { "x.bin", "value.bin", "y.bin", "tiling.bin" };
	char err[ERRLEN], workdir[] = "/tmp/npukb-dist-XXXXXX";
	struct npukb_task *t = NULL;
	struct npukb_case_data d;
	const struct npukb_case_tensor *x = NULL, *v = NULL, *y = NULL;
	size_t specials = 0;

	cr_assert_eq(load("tests/data/manifests/valid_dist_ext.xml", &t, err), 0, "%s", err);
	cr_assert_not_null(mkdtemp(workdir));
	cr_assert_eq(npukb_case_data_prepare(t, &t->cases[0], 5, workdir, &d, err, sizeof(err)), 0,
		     "%s", err);
	for (size_t i = 0; i < d.ntensors; i++) {
		if (strcmp(d.tensors[i].name, "x") == 0)
			x = &d.tensors[i];
		else if (strcmp(d.tensors[i].name, "value") == 0)
			v = &d.tensors[i];
		else
			y = &d.tensors[i];
	}
	cr_assert(x && v && y);
	cr_expect_eq(((const float *)v->data)[0], -1.25f, "value is the case's scale");
	for (size_t i = 0; i < x->numel; i++) {
		float xi = ((const float *)x->data)[i], yi = ((const float *)y->expected)[i];
		if (!isfinite(xi) || xi == 0.0f || fpclassify(xi) == FP_SUBNORMAL)
			specials++;
		if (isnan(xi))
			cr_expect(isnan(yi), "NaN * -1.25 is NaN");
		else if (isinf(xi))
			cr_expect(isinf(yi) && signbit(yi) != signbit(xi), "inf * -1.25 flips the sign");
		else
			cr_expect_eq(yi, (float)((double)xi * -1.25));
	}
	cr_expect(specials > 850 && specials < 1200, "%zu specials of 4096 (share 0.25)", specials);
	npukb_case_data_free(&d);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char p[PATH_MAX];
		snprintf(p, sizeof(p), "%s/%s", workdir, files[i]);
		unlink(p);
	}
	rmdir(workdir);
	npukb_task_free(t);
}
