/* test_list_inputs.c - the inputs of the tasks with in-place tensors, tensor
 * lists and case-bounded indices (Sscal, NonFiniteCheckOp, GatherV3,
 * ScatterList) and with derived inputs (CoalesceSparse), prepared from the
 * shipped manifests: list layout, in-place data, index ranges, planted
 * non-finite values, the expressions and attribute lists they are built
 * from, and inputs derived from others. */
#include <criterion/criterion.h>

#include <npukb/case_data.h>
#include "derive.h"
#include "manifest.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct npukb_task *task;
static char workdir[64];

static void load(const char *id)
{
	char path[PATH_MAX], schema[PATH_MAX], err[4096];
	const char *src = getenv("NPUKB_SRCDIR");

	src = src && *src ? src : ".";
	snprintf(path, sizeof(path), "%s/levels/%s/task.xml", src, id);
	snprintf(schema, sizeof(schema), "%s/levels/schema/task.rng", src);
	cr_assert_eq(npukb_manifest_load(path, schema, &task, err, sizeof(err)), 0, "%s", err);
	snprintf(workdir, sizeof(workdir), "/tmp/npukb-lists-XXXXXX");
	cr_assert_not_null(mkdtemp(workdir));
}

static void unload(void)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", workdir);
	cr_expect_eq(system(cmd), 0);
	npukb_task_free(task);
	task = NULL;
}

static const struct npukb_case *kcase(const char *id)
{
	for (size_t i = 0; i < task->ncases; i++)
		if (strcmp(task->cases[i].id, id) == 0)
			return &task->cases[i];
	cr_assert_fail("no case %s", id);
	return NULL;
}

static void prepare(const char *cid, uint64_t seed, struct npukb_case_data *d)
{
	char err[4096];
	cr_assert_eq(npukb_case_data_prepare(task, kcase(cid), seed, workdir, d, err, sizeof(err)), 0,
		     "case %s: %s", cid, err);
}

static const struct npukb_case_tensor *tensor(const struct npukb_case_data *d, const char *name)
{
	for (size_t i = 0; i < d->ntensors; i++)
		if (strcmp(d->tensors[i].name, name) == 0)
			return &d->tensors[i];
	cr_assert_fail("no tensor %s", name);
	return NULL;
}

static int64_t i64(const struct npukb_case_tensor *t, size_t i)
{
	int64_t v;
	memcpy(&v, (const char *)t->data + 8 * i, 8);
	return v;
}

Test(list_inputs, scatter_list_layout_and_in_place_data, .fini = unload)
{
	struct npukb_case_data d;
	const struct npukb_case_tensor *var, *ind, *mask;
	size_t inout_args = 0;

	load("level1/Index/ScatterList");
	prepare("3", 7, &d);
	var = tensor(&d, "var");
	ind = tensor(&d, "indice");
	mask = tensor(&d, "mask");
	cr_assert(var->is_output && var->is_inout);
	cr_assert_eq(var->nmembers, 3);
	for (size_t m = 0; m < 3; m++) {
		cr_expect_eq(var->member_offsets[m] * 2 % NPUKB_LIST_ALIGN, 0, "member %zu", m);
		cr_expect_eq(npukb_shape_numel(&var->members[m]), 32u * 64 * 64);
	}
	cr_expect_eq(var->member_offsets[1], 32u * 64 * 64, "32 x 64 x 64 halves are 512-byte multiples");
	cr_expect_eq(var->numel, 3u * 32 * 64 * 64);
	/* generated, not poisoned; the reference left the masked-off member alone */
	for (size_t i = 0; i < var->numel; i += 997)
		cr_assert(!npukb_is_poison(var->dtype, var->data, i), "var[%zu] is poison", i);
	cr_expect_eq(memcmp((const char *)var->data + 2 * var->member_offsets[2],
			    (const char *)var->expected + 2 * var->member_offsets[2], 2u * 32 * 64 * 64),
		     0, "mask 0: member 2 expected unchanged");
	cr_expect_neq(memcmp(var->data, var->expected, 2u * 32 * 64 * 64), 0, "member 0 is updated");
	/* mask from the case's list attribute; (start, len) rows inside dim 64 */
	cr_expect(((uint8_t *)mask->data)[0] == 1 && ((uint8_t *)mask->data)[1] == 1 &&
		  ((uint8_t *)mask->data)[2] == 0);
	for (size_t i = 0; i < 3; i++) {
		int64_t start = i64(ind, 2 * i), len = i64(ind, 2 * i + 1);
		cr_expect(len >= 1 && start >= 0 && start + len <= 64, "row %zu: (%lld, %lld)", i,
			  (long long)start, (long long)len);
	}
	/* var and varOut: the same tensor, as two in-place arguments */
	for (size_t i = 0; i < d.nargs; i++)
		if (d.args[i].role == NPUKB_PARAM_INOUT) {
			inout_args++;
			cr_expect_eq(d.args[i].tensor, var);
			cr_expect_str_eq(d.args[i].path, var->path);
		}
	cr_expect_eq(inout_args, 2);
	cr_expect_null(npukb_case_data_mutated_input(&d), "an in-place tensor is not a mutated input");
	npukb_case_data_free(&d);
}

Test(list_inputs, slices_cover_every_length, .fini = unload)
{
	int seen_len[5] = { 0 };

	load("level1/Index/ScatterList");
	/* case 5: one [5, 3, 4] tensor, axis -1: U = 4 */
	for (uint64_t seed = 1; seed <= 64; seed++) {
		struct npukb_case_data d;
		const struct npukb_case_tensor *ind;
		int64_t start, len;
		prepare("5", seed, &d);
		ind = tensor(&d, "indice");
		start = i64(ind, 0);
		len = i64(ind, 1);
		cr_assert(len >= 1 && len <= 4 && start >= 0 && start + len <= 4);
		seen_len[len] = 1;
		npukb_case_data_free(&d);
	}
	cr_expect(seen_len[1] && seen_len[2] && seen_len[3] && seen_len[4]);
}

Test(list_inputs, gather_indices_are_bounded_by_the_case, .fini = unload)
{
	int high = 0;

	load("level1/Index/GatherV3");
	for (uint64_t seed = 1; seed <= 4; seed++) {
		struct npukb_case_data d;
		const struct npukb_case_tensor *idx, *axis;
		/* case 2: x [32, 64], axis 1: indices in 0..63 */
		prepare("2", seed, &d);
		idx = tensor(&d, "indices");
		axis = tensor(&d, "axis");
		cr_expect_eq(i64(axis, 0), 1);
		for (size_t i = 0; i < idx->numel; i++) {
			cr_assert(i64(idx, i) >= 0 && i64(idx, i) < 64);
			high |= i64(idx, i) >= 32;
		}
		npukb_case_data_free(&d);
		/* case 3: x [1, 32, 64], axis 0: only index 0 exists */
		prepare("3", seed, &d);
		idx = tensor(&d, "indices");
		for (size_t i = 0; i < idx->numel; i++)
			cr_assert_eq(i64(idx, i), 0);
		npukb_case_data_free(&d);
	}
	cr_expect(high, "indices spread over the whole axis");
}

static size_t count_nonfinite(const struct npukb_case_tensor *t, size_t m)
{
	size_t n = 0, first = t->member_offsets[m], len = npukb_shape_numel(&t->members[m]);
	for (size_t i = 0; i < len; i++)
		n += !isfinite(npukb_load_as_double(t->dtype, t->data, first + i));
	return n;
}

Test(list_inputs, nonfinite_values_are_planted_only_when_the_case_says, .fini = unload)
{
	int member_hit[2] = { 0, 0 };

	load("level1/Condition/NonFiniteCheckOp");
	for (uint64_t seed = 1; seed <= 16; seed++) {
		struct npukb_case_data d;
		const struct npukb_case_tensor *x, *flag;
		size_t a, b;

		prepare("6", seed, &d); /* [1000], [100], contains_non_finite */
		x = tensor(&d, "tensor_list");
		flag = tensor(&d, "found_flag");
		a = count_nonfinite(x, 0);
		b = count_nonfinite(x, 1);
		cr_assert(a + b >= 1 && a + b <= 3, "seed %llu: %zu + %zu planted",
			  (unsigned long long)seed, a, b);
		cr_assert(a == 0 || b == 0, "one member holds them");
		member_hit[0] |= a > 0;
		member_hit[1] |= b > 0;
		cr_expect_eq(((float *)flag->expected)[0], 1.0f);
		npukb_case_data_free(&d);

		prepare("7", seed, &d); /* [5,5,5,5], [6,6], float16, none */
		x = tensor(&d, "tensor_list");
		cr_assert_eq(count_nonfinite(x, 0) + count_nonfinite(x, 1), 0);
		cr_expect_eq(((float *)tensor(&d, "found_flag")->expected)[0], 0.0f);
		npukb_case_data_free(&d);
	}
	cr_expect(member_hit[0] && member_hit[1], "the seed chooses the member");
}

Test(list_inputs, expressions_over_lists_and_dims, .fini = unload)
{
	int64_t v;
	char err[512];
	double vals[4];

	load("level1/Index/ScatterList");
	/* case 0: var [32, 512, 128], updates [1, 32, 512, 128], axis -2 */
	cr_assert_eq(npukb_tiling_eval(task, kcase("0"), "count(var)", &v, err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(v, 1);
	cr_assert_eq(npukb_tiling_eval(task, kcase("3"), "count(var)", &v, err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(v, 3);
	cr_assert_eq(npukb_tiling_eval(task, kcase("0"), "prod(updates, 1, axis)", &v, err, sizeof(err)), 0);
	cr_expect_eq(v, 32);
	cr_assert_eq(npukb_tiling_eval(task, kcase("0"), "prod(updates, 0, rank(updates))", &v, err,
				       sizeof(err)), 0);
	cr_expect_eq(v, 32 * 512 * 128);
	cr_assert_eq(npukb_tiling_eval(task, kcase("0"), "prod(updates, 2, 2)", &v, err, sizeof(err)), 0);
	cr_expect_eq(v, 1, "an empty product is 1");
	cr_expect_lt(npukb_tiling_eval(task, kcase("0"), "prod(updates, 0, 5)", &v, err, sizeof(err)), 0);
	cr_expect_not_null(strstr(err, "out of range"), "%s", err);
	cr_expect_lt(npukb_tiling_eval(task, kcase("0"), "dim(var, 0)", &v, err, sizeof(err)), 0);
	cr_expect_not_null(strstr(err, "tensor list"), "%s", err);
	cr_assert_eq(npukb_tiling_eval(task, kcase("0"), "count(updates)", &v, err, sizeof(err)), 0);
	cr_expect_eq(v, 1, "a plain tensor counts as one");

	cr_expect_eq(npukb_attr_list_parse("[True, True, False]", vals, 4), 3);
	cr_expect(vals[0] == 1 && vals[1] == 1 && vals[2] == 0);
	cr_expect_eq(npukb_attr_list_parse("1,0 2.5", vals, 4), 3);
	cr_expect_eq(vals[2], 2.5);
	cr_expect_eq(npukb_attr_list_parse("", NULL, 0), 0);
	cr_expect_eq(npukb_attr_list_parse("[1, 2", NULL, 0), -1);
	cr_expect_eq(npukb_attr_list_parse("1 maybe", NULL, 0), -1);
	cr_expect_eq(npukb_attr_list_parse("[1] 2", NULL, 0), -1);
}

Test(list_inputs, sscal_alpha_is_packed_as_float, .fini = unload)
{
	struct npukb_case_data d;
	unsigned char buf[8];
	uint32_t n;
	float alpha;
	FILE *f;

	load("level1/Math/Sscal");
	prepare("2", 1, &d); /* n 16, alpha 0.5 */
	cr_assert_eq(d.tiling_bytes, 8);
	f = fopen(d.tiling_path, "rb");
	cr_assert_not_null(f);
	cr_assert_eq(fread(buf, 1, 8, f), 8);
	fclose(f);
	memcpy(&n, buf, 4);
	memcpy(&alpha, buf + 4, 4);
	cr_expect_eq(n, 16);
	cr_expect_eq(alpha, 0.5f);
	npukb_case_data_free(&d);
}

/* CoalesceSparse case 2: indices [64, 2] in [0, 9] with exactly 47 distinct
 * rows; unique_len their sorted distinct flat indices over the size
 * (max + 1 per column); unique_indices each row's position among them.
 * The draw differs between seeds. */
Test(list_inputs, coalesce_sparse_inputs_derive_from_indices, .fini = unload)
{
	int64_t first[128];

	load("level2/TensorMove/CoalesceSparse");
	for (uint64_t seed = 1; seed <= 4; seed++) {
		struct npukb_case_data d;
		const struct npukb_case_tensor *idx, *ul, *inv;
		int64_t size[2] = { 0, 0 }, flat[64];
		size_t distinct = 0, differs = 0;

		prepare("2", seed, &d);
		idx = tensor(&d, "indices");
		ul = tensor(&d, "unique_len");
		inv = tensor(&d, "unique_indices");
		cr_assert_eq(idx->numel, 128);
		cr_assert_eq(ul->numel, 47);
		cr_assert_eq(inv->numel, 64);
		for (size_t i = 0; i < 128; i++) {
			cr_assert(i64(idx, i) >= 0 && i64(idx, i) <= 9, "indices[%zu] = %lld", i,
				  (long long)i64(idx, i));
			if (i64(idx, i) + 1 > size[i % 2])
				size[i % 2] = i64(idx, i) + 1;
			if (seed == 1)
				first[i] = i64(idx, i);
			else
				differs += first[i] != i64(idx, i);
		}
		cr_expect(seed == 1 || differs > 0, "seed %llu draws seed 1's indices",
			  (unsigned long long)seed);
		for (size_t i = 0; i < 64; i++) {
			size_t j;
			flat[i] = i64(idx, 2 * i) * size[1] + i64(idx, 2 * i + 1);
			for (j = 0; j < i && flat[j] != flat[i]; j++)
				;
			distinct += j == i;
		}
		cr_expect_eq(distinct, 47);
		for (size_t u = 1; u < 47; u++)
			cr_expect_lt(i64(ul, u - 1), i64(ul, u), "unique_len not ascending at %zu", u);
		for (size_t i = 0; i < 64; i++) {
			cr_assert(i64(inv, i) >= 0 && i64(inv, i) < 47);
			cr_expect_eq(i64(ul, (size_t)i64(inv, i)), flat[i], "row %zu", i);
		}
		npukb_case_data_free(&d);
	}
}

/* The derive functions on hand-made tensors: int32 rows [4, 2] = (1, 0),
 * (0, 2), (1, 0), (0, 0) over the size (2, 3): flat 3, 2, 3, 0; unique
 * (0, 2, 3), inverse (2, 1, 2, 0); a unique_flat tensor of the wrong size
 * is refused, as are more distinct rows than the range holds. */
Test(list_inputs, derive_functions_by_hand)
{
	int32_t rows[8] = { 1, 0, 0, 2, 1, 0, 0, 0 };
	char name_idx[] = "idx", name_u[] = "u", name_v[] = "v", name_w[] = "w", name_r[] = "r";
	int64_t uniq[3], inv[4], big[4], drawn[6];
	const int64_t want_u[3] = { 0, 2, 3 }, want_inv[4] = { 2, 1, 2, 0 };
	struct npukb_case_tensor from = { .name = name_idx, .dtype = NPUKB_DT_INT32,
					  .shape = { .rank = 2, .dims = { 4, 2 } }, .numel = 8,
					  .data = rows };
	struct npukb_case_tensor u = { .name = name_u, .dtype = NPUKB_DT_INT64,
				       .shape = { .rank = 1, .dims = { 3 } }, .numel = 3, .data = uniq };
	struct npukb_case_tensor v = { .name = name_v, .dtype = NPUKB_DT_INT64,
				       .shape = { .rank = 1, .dims = { 4 } }, .numel = 4, .data = inv };
	struct npukb_case_tensor w = { .name = name_w, .dtype = NPUKB_DT_INT64,
				       .shape = { .rank = 1, .dims = { 4 } }, .numel = 4, .data = big };
	struct npukb_case_tensor r = { .name = name_r, .dtype = NPUKB_DT_INT64,
				       .shape = { .rank = 2, .dims = { 3, 2 } }, .numel = 6, .data = drawn };
	struct npukb_rng rng;
	struct npukb_derive_args g = { &from, &u, &rng, -1, 0, 0 };
	char err[512];

	npukb_rng_seed(&rng, 1, "0", "r");
	cr_assert_eq(npukb_derive_find("unique_flat")->fill(&g, err, sizeof(err)), 0, "%s", err);
	cr_expect_arr_eq(uniq, want_u, sizeof(want_u));
	g.dst = &v;
	cr_assert_eq(npukb_derive_find("unique_inverse")->fill(&g, err, sizeof(err)), 0, "%s", err);
	cr_expect_arr_eq(inv, want_inv, sizeof(want_inv));
	g.dst = &w;
	cr_expect_lt(npukb_derive_find("unique_flat")->fill(&g, err, sizeof(err)), 0);
	cr_expect(strstr(err, "3 distinct") != NULL, "%s", err);
	/* three rows of two integers in [0, 0]: one distinct row at most */
	g.from = NULL;
	g.dst = &r;
	g.count = 2;
	cr_expect_lt(npukb_derive_find("distinct_rows")->fill(&g, err, sizeof(err)), 0);
	/* in [0, 1] two distinct rows of three, each coordinate in range */
	g.b = 1;
	cr_assert_eq(npukb_derive_find("distinct_rows")->fill(&g, err, sizeof(err)), 0, "%s", err);
	for (size_t i = 0; i < 6; i++)
		cr_expect(drawn[i] == 0 || drawn[i] == 1);
	cr_expect((drawn[0] != drawn[2] || drawn[1] != drawn[3]) +
			  (drawn[0] != drawn[4] || drawn[1] != drawn[5]) +
			  (drawn[2] != drawn[4] || drawn[3] != drawn[5]) == 2,
		  "not exactly two distinct rows");
	cr_expect_null(npukb_derive_find("unique_sort"));
}

/* group_ends: sorted ends in [0, count], the last one count; group_ends_open
 * the same without forcing the last; both refuse a float tensor. Many
 * draws so that unsorted or out-of-range output would show. */
Test(list_inputs, derive_group_ends)
{
	char name[] = "group_list";
	int64_t ends[7];
	float fl[7];
	struct npukb_case_tensor t = { .name = name, .dtype = NPUKB_DT_INT64,
				       .shape = { .rank = 1, .dims = { 7 } }, .numel = 7, .data = ends };
	struct npukb_case_tensor f = t;
	struct npukb_rng rng;
	struct npukb_derive_args g = { NULL, &t, &rng, 20, 0, 0 };
	char err[512];
	int round, open_short = 0;
	size_t i;

	npukb_rng_seed(&rng, 3, "0", "group_list");
	for (round = 0; round < 200; round++) {
		int open = round % 2;
		cr_assert_eq(npukb_derive_find(open ? "group_ends_open" : "group_ends")
				     ->fill(&g, err, sizeof(err)),
			     0, "%s", err);
		for (i = 0; i < 7; i++) {
			cr_assert(ends[i] >= 0 && ends[i] <= 20, "end %lld", (long long)ends[i]);
			if (i)
				cr_assert_leq(ends[i - 1], ends[i]);
		}
		if (!open)
			cr_assert_eq(ends[6], 20);
		else if (ends[6] < 20)
			open_short++;
	}
	cr_expect_gt(open_short, 0, "group_ends_open always ended at count");
	f.dtype = NPUKB_DT_FLOAT32;
	f.data = fl;
	g.dst = &f;
	cr_expect_lt(npukb_derive_find("group_ends")->fill(&g, err, sizeof(err)), 0);
}

/* distinct_along_dim: float16 [3, 300, 2] in [1, 2) (1024 float16 values,
 * so 300 draws collide unless redrawn): every line along dim 1 distinct
 * and in range; a range with fewer values than the line is refused. */
Test(list_inputs, derive_distinct_along_dim)
{
	char name[] = "x";
	uint16_t h[3 * 300 * 2];
	struct npukb_case_tensor t = { .name = name, .dtype = NPUKB_DT_FLOAT16,
				       .shape = { .rank = 3, .dims = { 3, 300, 2 } }, .numel = 1800,
				       .data = h };
	struct npukb_rng rng;
	struct npukb_derive_args g = { NULL, &t, &rng, 1, 1.0, 2.0 };
	char err[512];
	size_t o, in, i, j;

	npukb_rng_seed(&rng, 5, "0", "x");
	cr_assert_eq(npukb_derive_find("distinct_along_dim")->fill(&g, err, sizeof(err)), 0, "%s", err);
	for (o = 0; o < 3; o++)
		for (in = 0; in < 2; in++)
			for (i = 0; i < 300; i++) {
				double v = npukb_load_as_double(t.dtype, h, o * 600 + i * 2 + in);
				cr_assert(v >= 1.0 && v <= 2.0, "%g", v);
				for (j = 0; j < i; j++)
					cr_assert_neq(v, npukb_load_as_double(t.dtype, h, o * 600 + j * 2 + in),
						      "line (%zu, %zu): %zu and %zu equal", o, in, i, j);
			}
	g.b = 1.01;
	cr_expect_lt(npukb_derive_find("distinct_along_dim")->fill(&g, err, sizeof(err)), 0);
	g.b = 2.0;
	g.count = 3;
	cr_expect_lt(npukb_derive_find("distinct_along_dim")->fill(&g, err, sizeof(err)), 0);
}
