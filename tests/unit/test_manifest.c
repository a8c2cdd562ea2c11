/* test_manifest.c - the manifest loader (core/lib/manifest.c): the real
 * AddCustom manifest, every layer of error reporting with its line numbers
 * (fixtures under tests/data/manifests/), and tiling expressions.
 *
 * Paths are relative to the source tree root, taken from NPUKB_SRCDIR
 * ("." when unset). */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <criterion/redirect.h>

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/globals.h>
#include <libxml/parser.h>

#include "manifest.h"

#define ERRLEN 8192

static void src_path(char *buf, size_t len, const char *rel)
{
	const char *root = getenv("NPUKB_SRCDIR");

	if (!root || !*root)
		root = ".";
	cr_assert_lt((size_t)snprintf(buf, len, "%s/%s", root, rel), len);
}

static int load(const char *rel, struct npukb_task **t, char *err, size_t errlen)
{
	char path[PATH_MAX], schema[PATH_MAX];

	src_path(path, sizeof(path), rel);
	src_path(schema, sizeof(schema), "levels/schema/task.rng");
	return npukb_manifest_load(path, schema, t, err, errlen);
}

static size_t count_lines(const char *s)
{
	size_t n = *s ? 1 : 0;

	for (; *s; s++)
		if (*s == '\n')
			n++;
	return n;
}

/* Asserts that err holds a line "<path>:<line>: ..." that mentions what. */
static void assert_problem(const char *err, const char *rel, int line, const char *what)
{
	char path[PATH_MAX], prefix[PATH_MAX + 32];
	const char *p = err;
	int found = 0;

	src_path(path, sizeof(path), rel);
	snprintf(prefix, sizeof(prefix), "%s:%d: ", path, line);
	while (*p && !found) {
		const char *end = strchr(p, '\n');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char one[2048];

		snprintf(one, sizeof(one), "%.*s", (int)len, p);
		if (strncmp(one, prefix, strlen(prefix)) == 0 && strstr(one, what))
			found = 1;
		p += len + (end ? 1 : 0);
	}
	cr_assert(found, "expected a problem \"%s...%s\" in:\n%s", prefix, what, err);
}

/* libxml2 keeps global tables (dictionaries, RELAX NG types) alive; free
 * them so that valgrind shows only what the code under test leaked. */
static void xml_fini(void)
{
	xmlCleanupParser();
}

TestSuite(manifest, .fini = xml_fini, .timeout = 30);

/* ---- the real AddCustom manifest --------------------------------------- */

Test(manifest, addcustom_loads)
{
	static const int64_t dims[5][3] = {
		{ 48, 128, 512 }, { 96, 64, 1024 }, { 32, 32, 768 }, { 48, 32, 4096 }, { 48, 8192, 0 },
	};
	static const int ranks[5] = { 3, 3, 3, 3, 2 };
	static const char *const pnames[5] = { "x", "y", "z", "workspace", "tiling" };
	static const enum npukb_param_role proles[5] = {
		NPUKB_PARAM_INPUT, NPUKB_PARAM_INPUT, NPUKB_PARAM_OUTPUT,
		NPUKB_PARAM_WORKSPACE, NPUKB_PARAM_TILING,
	};
	char err[ERRLEN];
	struct npukb_task *t = NULL;
	const struct npukb_tensor_decl *x, *y, *z;
	int rc = load("levels/level1/Math/AddCustom/task.xml", &t, err, sizeof(err));

	cr_assert_eq(rc, 0, "load failed (%d):\n%s", rc, err);
	cr_assert_not_null(t);
	cr_expect_str_eq(t->id, "level1/Math/AddCustom");
	cr_expect_eq(t->level, 1);
	cr_expect_str_eq(t->category, "Math");
	cr_expect_str_eq(t->name, "AddCustom");
	cr_expect_not_null(t->summary);
	cr_expect_str_eq(t->kernel_name, "add_custom");
	cr_expect_not_null(strstr(t->manifest_path, "levels/level1/Math/AddCustom/task.xml"));
	cr_expect_eq(t->manifest_path[0], '/', "manifest_path should be absolute: %s",
		     t->manifest_path);
	cr_expect_not_null(strstr(t->dir, "levels/level1/Math/AddCustom"));
	cr_expect_eq(strlen(t->dir) + strlen("/task.xml"), strlen(t->manifest_path));

	cr_assert_eq(t->nparams, 5);
	for (int i = 0; i < 5; i++) {
		cr_expect_str_eq(t->params[i].name, pnames[i]);
		cr_expect_eq(t->params[i].role, proles[i], "param %d", i);
	}

	cr_assert_eq(t->ntensors, 3);
	x = npukb_task_tensor(t, "x");
	y = npukb_task_tensor(t, "y");
	z = npukb_task_tensor(t, "z");
	cr_assert(x && y && z);
	cr_expect(!x->is_output && !y->is_output && z->is_output);
	cr_expect_null(x->shape_of);
	cr_expect_str_eq(y->shape_of, "x");
	cr_expect_str_eq(z->shape_of, "x");
	cr_expect_str_eq(x->dtype, "$dtype");
	/* Signed inputs: all-positive data hides operand mix-ups. */
	for (int i = 0; i < 2; i++) {
		const struct npukb_tensor_decl *in = i ? y : x;

		cr_expect_eq(in->dist.kind, NPUKB_DIST_UNIFORM);
		cr_expect_eq(in->dist.a, -100.0);
		cr_expect_eq(in->dist.b, 100.0);
	}
	cr_expect_eq(t->nattrs, 0);

	cr_expect_str_eq(t->tiling_struct, "AddCustomTilingData");
	cr_expect_eq(t->block_dim, 48);
	cr_assert_eq(t->ntiling, 2);
	cr_expect_str_eq(t->tiling[0].name, "totalLength");
	cr_expect_str_eq(t->tiling[0].expr, "numel(x)");
	cr_expect_eq(t->tiling[0].type, NPUKB_DT_INT32);
	cr_expect_eq(t->tiling[0].is_unsigned, 1);
	cr_expect_str_eq(t->tiling[1].name, "tileNum");
	cr_expect_eq(t->tiling[1].type, NPUKB_DT_INT32);
	cr_expect_eq(t->tiling[1].is_unsigned, 1);

	cr_expect_str_eq(t->tolerance.rule, "default");
	cr_expect_lt(t->tolerance.atol, 0.0);
	cr_expect_lt(t->tolerance.rtol, 0.0);
	cr_expect_str_eq(t->reference, "add");

	cr_assert_eq(t->ncases, 5);
	for (size_t i = 0; i < 5; i++) {
		const struct npukb_case *c = &t->cases[i];
		char id[8];
		int64_t numel = 1, v;

		snprintf(id, sizeof(id), "%zu", i);
		cr_expect_str_eq(c->id, id);
		cr_expect_eq(c->dtype, NPUKB_DT_FLOAT16, "case %zu", i);
		cr_expect_gt(c->line, 0);
		for (int k = 0; k < ranks[i]; k++)
			numel *= dims[i][k];
		for (int k = 0; k < 3; k++) {
			struct npukb_shape s;
			enum npukb_dtype dt;

			cr_assert_eq(npukb_case_tensor_shape(t, c, pnames[k], &s, err,
							     sizeof(err)), 0, "%s", err);
			cr_assert_eq(s.rank, ranks[i], "case %zu tensor %s", i, pnames[k]);
			for (int d = 0; d < ranks[i]; d++)
				cr_expect_eq(s.dims[d], dims[i][d]);
			cr_expect_eq(npukb_shape_numel(&s), (size_t)numel);
			cr_assert_eq(npukb_case_tensor_dtype(t, c, pnames[k], &dt, err,
							     sizeof(err)), 0, "%s", err);
			cr_expect_eq(dt, NPUKB_DT_FLOAT16);
		}
		cr_assert_eq(npukb_tiling_eval(t, c, t->tiling[0].expr, &v, err, sizeof(err)),
			     0, "%s", err);
		cr_expect_eq(v, numel);
		cr_assert_eq(npukb_tiling_eval(t, c, t->tiling[1].expr, &v, err, sizeof(err)),
			     0, "%s", err);
		cr_expect_eq(v, 8);
	}
	npukb_task_free(t);
}

/* <launch>: the blocks of a kernel without a tiling parameter; a scalar
 * parameter's type and value expression. */
Test(manifest, launch_and_scalar_parameter)
{
	char err[ERRLEN];
	struct npukb_task *t = NULL;
	const struct npukb_param *p;
	int rc = load("tests/data/manifests/valid_launch.xml", &t, err, sizeof(err));

	cr_assert_eq(rc, 0, "load failed (%d):\n%s", rc, err);
	cr_expect_eq(t->block_dim, 8);
	cr_expect_null(t->tiling_struct);
	cr_assert_eq(t->nparams, 4);
	p = &t->params[3];
	cr_expect_eq(p->role, NPUKB_PARAM_SCALAR);
	cr_assert_not_null(p->scalar);
	cr_expect_str_eq(p->scalar->name, "totalLength");
	cr_expect_str_eq(p->scalar->expr, "numel(x)");
	cr_expect_eq(p->scalar->type, NPUKB_DT_INT32);
	cr_expect_eq(p->scalar->is_unsigned, 1);
	for (size_t i = 0; i < 3; i++)
		cr_expect_null(t->params[i].scalar);
	npukb_task_free(t);
}

Test(manifest, attributes_and_dtype_references)
{
	char err[ERRLEN];
	struct npukb_task *t = NULL;
	const struct npukb_case *small, *big;
	const struct npukb_tensor_decl *flag;
	struct npukb_shape s;
	enum npukb_dtype dt;
	int64_t v;
	int rc = load("tests/data/manifests/valid_attrs.xml", &t, err, sizeof(err));

	cr_assert_eq(rc, 0, "load failed (%d):\n%s", rc, err);
	/* Inner white space of the summary collapses to single spaces. */
	cr_expect_str_eq(t->summary, "y = cast(x * scale, dst_type); flag is a scalar.");
	cr_assert_eq(t->nattrs, 3);
	cr_expect_str_eq(t->attrs[1].name, "dst_type");
	cr_expect_str_eq(t->attrs[1].type, "dtype");
	cr_expect_eq(t->nparams, 4);
	cr_expect_eq(npukb_task_tensor_index(t, "flag"), 1);
	flag = npukb_task_tensor(t, "flag");
	cr_assert_not_null(flag);
	cr_expect_str_eq(flag->dtype, "bool");
	cr_expect_eq(flag->dist.kind, NPUKB_DIST_BOOL);
	cr_expect_eq(flag->dist.a, 0.25);
	cr_expect_eq(npukb_task_tensor(t, "x")->dist.kind, NPUKB_DIST_NORMAL);
	cr_expect_eq(npukb_task_tensor(t, "x")->dist.b, 2.5);
	cr_expect_str_eq(t->tolerance.rule, "rel-max1");
	cr_expect_eq(t->tolerance.atol, 0.5);
	cr_expect_eq(t->tolerance.rtol, 1e-2);
	cr_expect_eq(t->tiling[0].type, NPUKB_DT_INT32);
	cr_expect_eq(t->tiling[0].is_unsigned, 0);
	cr_expect_eq(t->tiling[1].type, NPUKB_DT_INT64);
	cr_expect_eq(t->tiling[1].is_unsigned, 1);
	cr_expect_eq(t->tiling[2].type, NPUKB_DT_INT64);
	cr_expect_eq(t->tiling[2].is_unsigned, 0);

	cr_assert_eq(t->ncases, 2);
	small = &t->cases[0];
	big = &t->cases[1];
	cr_expect_str_eq(npukb_case_attr(small, "scale"), "1.5");
	cr_expect_str_eq(npukb_case_attr(big, "tile"), "64");
	cr_expect_null(npukb_case_attr(big, "nothing"));
	cr_expect_eq(big->dtype, NPUKB_DT_BFLOAT16); /* written "bf16" */

	/* y's dtype comes from the dst_type attribute of each case. */
	cr_assert_eq(npukb_case_tensor_dtype(t, small, "y", &dt, err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(dt, NPUKB_DT_FLOAT32);
	cr_assert_eq(npukb_case_tensor_dtype(t, big, "y", &dt, err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(dt, NPUKB_DT_INT8);
	cr_assert_eq(npukb_case_tensor_dtype(t, big, "flag", &dt, err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(dt, NPUKB_DT_BOOL);

	/* An empty shape is a scalar: rank 0, one element. */
	cr_assert_eq(npukb_case_tensor_shape(t, small, "flag", &s, err, sizeof(err)), 0);
	cr_expect_eq(s.rank, 0);
	cr_expect_eq(npukb_shape_numel(&s), 1);

	cr_assert_eq(npukb_tiling_eval(t, big, t->tiling[1].expr, &v, err, sizeof(err)), 0,
		     "%s", err);
	cr_expect_eq(v, 2); /* ceil(4000 / (64 * 40)) */
	cr_assert_eq(npukb_tiling_eval(t, small, t->tiling[2].expr, &v, err, sizeof(err)), 0);
	cr_expect_eq(v, 16);
	npukb_task_free(t);
}

Test(manifest, success_clears_err)
{
	char err[64];
	struct npukb_task *t = NULL;

	strcpy(err, "stale");
	cr_assert_eq(load("tests/data/manifests/valid_minimal.xml", &t, err, sizeof(err)), 0);
	cr_expect_str_empty(err);
	npukb_task_free(t);
}

/* ---- problems, with their lines ---------------------------------------- */

/* Criterion hands parameters to tests in other processes by copying the
 * array, so parameters hold their strings, not pointers. */
struct problem {
	char file[64]; /* under tests/data/manifests/ */
	int line;
	char what[160];
};

ParameterizedTestParameters(manifest, reports_problem_at_line)
{
	static struct problem problems[] = {
		/* malformed XML */
		{ "malformed_unquoted.xml", 7, "malformed XML: " },
		{ "doctype.xml", 3, "DOCTYPE declarations are not allowed" },
		/* schema violations */
		{ "schema_bad_role.xml", 9, "schema violation: " },
		{ "schema_no_kernel_name.xml", 5, "schema violation: " },
		/* meaning */
		{ "sem_param_unknown_tensor.xml", 7,
		  "kernel parameter 'w' (input) names no declared tensor" },
		{ "sem_param_unknown_tensor.xml", 16,
		  "tensor 'y' is not a parameter of kernel 'add_custom'" },
		{ "sem_role_mismatch.xml", 8,
		  "kernel parameter 'z' has role input but 'z' is declared as an output" },
		{ "sem_no_tiling.xml", 10, "the manifest has no <tiling>" },
		{ "sem_duplicate_tensor.xml", 16,
		  "duplicate tensor name 'x' (first declared on line 13)" },
		{ "sem_shape_of_unknown.xml", 16,
		  "tensor 'y': shape-of names unknown tensor 'q'" },
		{ "sem_shape_of_loop.xml", 13, "shape-of loop: x -> y -> x" },
		{ "sem_case_missing_shape.xml", 31, "case '1' gives no shape for input 'x'" },
		{ "sem_unknown_dtype.xml", 19, "tensor 'z': unknown dtype 'float17'" },
		{ "sem_unknown_dtype.xml", 31, "case '1': unknown dtype 'float99'" },
		{ "sem_bad_dims.xml", 29, "dimension '0' of tensor 'x' is not a positive integer" },
		{ "sem_bad_dims.xml", 32,
		  "dimension '-8192' of tensor 'x' is not a positive integer" },
		{ "sem_undeclared_attr.xml", 30,
		  "case '0': attribute 'alpha' is not declared in <attributes>" },
		{ "sem_bad_tiling_expr.xml", 22,
		  "tiling field 'totalLength' (case '0'): 'numel(x', column 8: expected ')'" },
		{ "sem_bad_tiling_expr.xml", 23,
		  "tiling field 'tileNum' (case '0'): 'tiles * 2', column 1: unknown name 'tiles'" },
		{ "sem_tiling_range.xml", 22,
		  "tiling field 'totalLength' (case '1'): value 4294967296 of 'numel(x)' does not fit uint32" },
		{ "sem_duplicate_case.xml", 31, "duplicate case id '0' (first on line 28)" },
		{ "sem_id_mismatch.xml", 3,
		  "task id 'level2/Math/AddCustom' does not match level, category and name: expected 'level1/Math/AddCustom'" },
		{ "sem_attrs.xml", 27, "attribute name 'blockdim' is reserved" },
		{ "sem_attrs.xml", 43, "case 'small': attribute 'tile' = '8.5' is not a valid int" },
		{ "sem_attrs.xml", 45, "case 'big' has no dtype, but tensor 'x' has dtype $dtype" },
		{ "sem_attrs.xml", 45, "case 'big' gives no value for attribute 'dst_type'" },
		{ "sem_inout_decl.xml", 6,
		  "kernel parameter 'x' has role inout but 'x' is declared as an input" },
		{ "sem_inout_decl.xml", 9, "kernel parameters 'y' and 'y2' carry the same tensor 'y'" },
		{ "sem_inout_decl.xml", 21,
		  "list 'z' has shape-of 'x', which is not a list" },
		{ "sem_list_cases.xml", 13,
		  "input 'idx': distribution range is empty in case '0' (a = 0, b = -1)" },
		{ "sem_list_cases.xml", 22,
		  "numel(var): 'var' is a tensor list; use count(var), or the shapes of another tensor" },
		{ "sem_list_cases.xml", 32, "case '1': member 1 of list 'var' has no dimensions" },
		/* derived inputs: the source first, each function's parameters */
		{ "sem_derived.xml", 16, "input 'inv': from 'idx' names no input declared before it" },
		{ "sem_derived.xml", 19, "derive function 'distinct_rows' needs count=" },
		{ "sem_derived.xml", 22, "derive function 'unique_flat' takes no count" },
		{ "sem_derived.xml", 25, "input 'w': unknown derive function 'unique_sort'" },
		{ "sem_optional.xml", 27,
		  "case '0': tensor 'x' is not optional (optional=\"true\"), so it cannot be absent" },
		{ "sem_optional.xml", 31, "case '1': tensor 'bias' is absent twice" },
		{ "sem_optional.xml", 35, "case '2': tensor 'bias' is absent but has a shape" },
		{ "sem_optional.xml", 37,
		  "case '3': tensor 'y' has the shape of 'bias', which case '3' leaves out" },
		/* scalar parameters (issue 21) */
		{ "sem_scalar.xml", 6,
		  "kernel parameter 'x' has a type or value but role input (only a scalar has)" },
		{ "sem_scalar.xml", 9, "<param> has no attribute 'value'" },
		{ "sem_scalar_range.xml", 9,
		  "scalar parameter 'big' (case '1'): value 39321600000 of 'numel(x) * 100000' does not fit int32" },
	};

	return cr_make_param_array(struct problem, problems,
				   sizeof(problems) / sizeof(problems[0]));
}

ParameterizedTest(struct problem *p, manifest, reports_problem_at_line)
{
	static struct npukb_task dummy;
	char rel[256], err[ERRLEN];
	struct npukb_task *t = &dummy; /* the loader must reset it */

	snprintf(rel, sizeof(rel), "tests/data/manifests/%s", p->file);
	cr_assert_eq(load(rel, &t, err, sizeof(err)), -EINVAL, "%s loaded:\n%s", rel, err);
	cr_expect_null(t);
	assert_problem(err, rel, p->line, p->what);
}

/* Each fixture has exactly the problems it was written with: the loader
 * does not bury the real one in follow-up noise. */
ParameterizedTestParameters(manifest, problem_count)
{
	static struct problem counts[] = {
		{ "schema_bad_role.xml", 1, "" },
		{ "sem_param_unknown_tensor.xml", 2, "" },
		{ "sem_shape_of_loop.xml", 1, "" },
		{ "sem_case_missing_shape.xml", 1, "" },
		{ "sem_unknown_dtype.xml", 2, "" },
		{ "sem_bad_dims.xml", 2, "" },
		{ "sem_bad_tiling_expr.xml", 2, "" },
		{ "sem_duplicate_case.xml", 1, "" },
		{ "sem_attrs.xml", 4, "" },
		{ "sem_inout_decl.xml", 3, "" },
		{ "sem_list_cases.xml", 3, "" },
		{ "sem_derived.xml", 4, "" },
		{ "sem_scalar.xml", 2, "" },
		{ "sem_scalar_range.xml", 1, "" },
	};

	return cr_make_param_array(struct problem, counts, sizeof(counts) / sizeof(counts[0]));
}

ParameterizedTest(struct problem *p, manifest, problem_count)
{
	char rel[256], err[ERRLEN];
	struct npukb_task *t = NULL;

	snprintf(rel, sizeof(rel), "tests/data/manifests/%s", p->file);
	cr_assert_eq(load(rel, &t, err, sizeof(err)), -EINVAL);
	cr_expect_eq(count_lines(err), (size_t)p->line, "%s:\n%s", rel, err);
}

Test(manifest, collects_independent_problems_in_line_order)
{
	static const char rel[] = "tests/data/manifests/sem_many.xml";
	char err[ERRLEN];
	struct npukb_task *t = NULL;
	const char *a, *b, *c;

	cr_assert_eq(load(rel, &t, err, sizeof(err)), -EINVAL);
	assert_problem(err, rel, 9, "duplicate kernel parameter 'x'");
	assert_problem(err, rel, 29, "dimension 'five' of tensor 'x'");
	assert_problem(err, rel, 31, "duplicate case id '0'");
	cr_expect_eq(count_lines(err), 3, "%s", err);
	a = strstr(err, ":9: ");
	b = strstr(err, ":29: ");
	c = strstr(err, ":31: ");
	cr_assert(a && b && c);
	cr_expect(a < b && b < c, "not in line order:\n%s", err);
}

Test(manifest, caps_the_number_of_problems)
{
	static const char rel[] = "tests/data/manifests/sem_too_many.xml";
	char err[ERRLEN], path[PATH_MAX], tail[PATH_MAX + 64];
	struct npukb_task *t = NULL;

	cr_assert_eq(load(rel, &t, err, sizeof(err)), -EINVAL);
	cr_expect_eq(count_lines(err), NPUKB_MANIFEST_MAX_ERRORS + 1, "%s", err);
	assert_problem(err, rel, 29, "case '0': dimension 'x'");
	assert_problem(err, rel, 29 + 3 * 19, "case '19': dimension 'x'");
	cr_expect_null(strstr(err, "case '20'"));
	src_path(path, sizeof(path), rel);
	snprintf(tail, sizeof(tail), "\n%s: 5 more problems not shown", path);
	cr_expect_not_null(strstr(err, tail), "%s", err);
}

Test(manifest, small_error_buffer_is_truncated_safely)
{
	char err[16];
	struct npukb_task *t = NULL;

	memset(err, 'X', sizeof(err));
	cr_assert_eq(load("tests/data/manifests/sem_too_many.xml", &t, err, sizeof(err)),
		     -EINVAL);
	cr_expect_eq(strnlen(err, sizeof(err)), sizeof(err) - 1);
	cr_assert_eq(load("tests/data/manifests/sem_too_many.xml", &t, NULL, 0), -EINVAL);
}

Test(manifest, missing_files)
{
	char err[ERRLEN], schema[PATH_MAX];
	struct npukb_task *t = NULL;

	cr_expect_eq(load("tests/data/manifests/no-such-file.xml", &t, err, sizeof(err)),
		     -ENOENT);
	cr_expect_not_null(strstr(err, "no-such-file.xml: cannot open: "), "%s", err);
	cr_expect_null(t);

	src_path(schema, sizeof(schema), "tests/data/manifests/valid_minimal.xml");
	cr_expect_eq(npukb_manifest_load(schema, "/nonexistent/task.rng", &t, err, sizeof(err)),
		     -ENOENT);
	cr_expect_not_null(strstr(err, "/nonexistent/task.rng: cannot open"), "%s", err);
	cr_expect_eq(npukb_manifest_load(NULL, schema, &t, err, sizeof(err)), -EINVAL);
	cr_expect_eq(npukb_manifest_load(schema, NULL, &t, err, sizeof(err)), -EINVAL);
	cr_expect_eq(load("tests/data/manifests", &t, err, sizeof(err)), -EINVAL);
	cr_expect_not_null(strstr(err, "not a regular file"), "%s", err);
}

Test(manifest, schema_check)
{
	char err[ERRLEN], path[PATH_MAX], manifest[PATH_MAX];
	struct npukb_task *t = NULL;

	src_path(path, sizeof(path), "levels/schema/task.rng");
	cr_expect_eq(npukb_manifest_schema_check(path, err, sizeof(err)), 0, "%s", err);

	src_path(path, sizeof(path), "tests/data/manifests/bad_schema.rng");
	cr_expect_eq(npukb_manifest_schema_check(path, err, sizeof(err)), -EINVAL);
	assert_problem(err, "tests/data/manifests/bad_schema.rng", 5, "bad schema: ");

	/* A broken schema is reported against the schema file. */
	src_path(manifest, sizeof(manifest), "tests/data/manifests/valid_minimal.xml");
	cr_expect_eq(npukb_manifest_load(manifest, path, &t, err, sizeof(err)), -EINVAL);
	assert_problem(err, "tests/data/manifests/bad_schema.rng", 5, "bad schema: ");
	cr_expect_null(t);
}

static void capture_stderr(void)
{
	cr_redirect_stderr();
}

static int my_handler_calls;

#if LIBXML_VERSION >= 21200
static void my_handler(void *ctx, const xmlError *e)
#else
static void my_handler(void *ctx, xmlError *e)
#endif
{
	(void)ctx;
	(void)e;
	my_handler_calls++;
}

/* The library never prints, and leaves the caller's libxml2 handlers as
 * they were. */
Test(manifest, silent_and_restores_handlers, .init = capture_stderr, .fini = xml_fini)
{
	static const char *const files[] = {
		"malformed_unquoted.xml", "schema_bad_role.xml", "sem_many.xml",
		"doctype.xml", "valid_minimal.xml",
	};
	char rel[256], err[ERRLEN];
	int sentinel;

	xmlSetStructuredErrorFunc(&sentinel, my_handler);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct npukb_task *t = NULL;

		snprintf(rel, sizeof(rel), "tests/data/manifests/%s", files[i]);
		load(rel, &t, err, sizeof(err));
		npukb_task_free(t);
	}
	cr_expect_eq(my_handler_calls, 0);
	cr_expect(xmlStructuredError == my_handler);
	cr_expect(xmlStructuredErrorContext == &sentinel);
	xmlSetStructuredErrorFunc(NULL, NULL);
	fflush(stderr);
	cr_expect_stderr_eq_str("");
}

/* ---- tiling expressions -------------------------------------------------
 * Evaluated against valid_attrs.xml's case "big": x is [4, 1000], flag a
 * scalar, tile = 64, scale = -2e-3 (a float), blockdim = 40. */

struct expr_case {
	char expr[64];
	int64_t value; /* when err is empty */
	char err[96];  /* expected part of the message, or empty */
};

ParameterizedTestParameters(manifest, tiling_expression)
{
	static struct expr_case cases[] = {
		/* precedence and associativity */
		{ "1+2*3", 7, "" },
		{ "(1+2)*3", 9, "" },
		{ "10-4-3", 3, "" },
		{ "100/7/2", 7, "" },
		{ "2*3%4", 2, "" },
		{ "1+8/2*3-1", 12, "" },
		{ "-2*3", -6, "" },
		{ "2*-3", -6, "" },
		{ "--5", 5, "" },
		{ "+4", 4, "" },
		{ "-(2+3)*2", -10, "" },
		{ "  1 +\t2\n", 3, "" },
		{ "9223372036854775807", INT64_MAX, "" },
		/* C division and remainder truncate toward zero */
		{ "-7/2", -3, "" },
		{ "-7%3", -1, "" },
		{ "7%-3", 1, "" },
		/* functions and names */
		{ "numel(x)", 4000, "" },
		{ "numel( x )", 4000, "" },
		{ "numel(y)", 4000, "" },
		{ "numel(flag)", 1, "" },
		{ "rank(x)", 2, "" },
		{ "rank(flag)", 0, "" },
		{ "dim(x, 0)", 4, "" },
		{ "dim(x, 1)", 1000, "" },
		{ "dim(x, -1)", 1000, "" },
		{ "dim(x, -2)", 4, "" },
		{ "dim(x, rank(x) - 1)", 1000, "" },
		{ "blockdim", 40, "" },
		{ "tile", 64, "" },
		{ "tile * blockdim", 2560, "" },
		{ "ceil_div(numel(x), blockdim)", 100, "" },
		{ "ceil_div(4001, 40)", 101, "" },
		{ "ceil_div(4000, 40)", 100, "" },
		{ "ceil_div(-7, 2)", -3, "" },
		{ "ceil_div(7, -2)", -3, "" },
		{ "ceil_div(-7, -2)", 4, "" },
		{ "min(3, tile)", 3, "" },
		{ "max(3, tile)", 64, "" },
		{ "min(-1, -2)", -2, "" },
		{ "max(min(numel(x), 100), 7) * 2", 200, "" },
		/* errors */
		{ "1/0", 0, "column 2: division by zero" },
		{ "5 % (tile - 64)", 0, "division by zero" },
		{ "ceil_div(1, 0)", 0, "division by zero" },
		{ "foo", 0, "column 1: unknown name 'foo'" },
		{ "1 + foo", 0, "column 5: unknown name 'foo'" },
		{ "x", 0, "'x' is a tensor" },
		{ "numel(q)", 0, "no tensor named 'q'" },
		{ "numel(2)", 0, "numel() takes a tensor name" },
		{ "bar(1)", 0, "unknown function 'bar'" },
		{ "scale", 0, "attribute 'scale' has type float" },
		{ "1 2", 0, "column 3: unexpected '2' after the end of the expression" },
		{ "3)", 0, "unexpected ')' after the end" },
		{ "numel(x) tile", 0, "unexpected 'tile' after the end" },
		{ "numel(x", 0, "expected ')' but found the end of the expression" },
		{ "(1+2", 0, "expected ')'" },
		{ "min(1)", 0, "expected ','" },
		{ "", 0, "expected a number, a name or '(' but found the end" },
		{ "1 +", 0, "expected a number" },
		{ "*3", 0, "column 1: expected a number" },
		{ "12abc", 0, "malformed number" },
		{ "9223372036854775808", 0, "number too large" },
		{ "9223372036854775807 + 1", 0, "integer overflow" },
		{ "-9223372036854775807 - 2", 0, "integer overflow" },
		{ "4611686018427387904 * 2", 0, "integer overflow" },
		{ "(-9223372036854775807 - 1) / -1", 0, "integer overflow" },
		{ "-(-9223372036854775807 - 1)", 0, "integer overflow" },
		{ "dim(x, 2)", 0, "index 2 is out of range for rank 2" },
		{ "dim(x, -3)", 0, "out of range" },
		{ "dim(flag, 0)", 0, "out of range for rank 0" },
	};

	return cr_make_param_array(struct expr_case, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(struct expr_case *ec, manifest, tiling_expression)
{
	char err[ERRLEN];
	struct npukb_task *t = NULL;
	int64_t v = 12345;
	int rc;

	cr_assert_eq(load("tests/data/manifests/valid_attrs.xml", &t, err, sizeof(err)), 0,
		     "%s", err);
	cr_assert_str_eq(t->cases[1].id, "big");
	err[0] = '\0';
	rc = npukb_tiling_eval(t, &t->cases[1], ec->expr, &v, err, sizeof(err));
	if (!ec->err[0]) {
		cr_expect_eq(rc, 0, "'%s': %s", ec->expr, err);
		cr_expect_eq(v, ec->value, "'%s' = %lld, expected %lld", ec->expr,
			     (long long)v, (long long)ec->value);
	} else {
		cr_expect_eq(rc, -EINVAL, "'%s' evaluated to %lld", ec->expr, (long long)v);
		cr_expect_eq(v, 12345, "result written on failure");
		cr_expect_not_null(strstr(err, ec->err), "'%s': got \"%s\", expected \"%s\"",
				   ec->expr, err, ec->err);
	}
	npukb_task_free(t);
}

Test(manifest, tiling_expression_depth_is_bounded)
{
	char err[ERRLEN], expr[4096];
	struct npukb_task *t = NULL;
	int64_t v;
	size_t n = 1000, k = 0;

	cr_assert_eq(load("tests/data/manifests/valid_attrs.xml", &t, err, sizeof(err)), 0);
	for (size_t i = 0; i < n; i++)
		expr[k++] = '(';
	expr[k++] = '1';
	for (size_t i = 0; i < n; i++)
		expr[k++] = ')';
	expr[k] = '\0';
	cr_expect_eq(npukb_tiling_eval(t, &t->cases[1], expr, &v, err, sizeof(err)), -EINVAL);
	cr_expect_not_null(strstr(err, "nested too deeply"), "%s", err);

	k = 0;
	for (size_t i = 0; i < n; i++)
		expr[k++] = '-';
	expr[k++] = '1';
	expr[k] = '\0';
	cr_expect_eq(npukb_tiling_eval(t, &t->cases[1], expr, &v, err, sizeof(err)), -EINVAL);

	/* Moderate nesting is fine. */
	strcpy(expr, "((((((((((1))))))))))+----2");
	cr_expect_eq(npukb_tiling_eval(t, &t->cases[1], expr, &v, err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(v, 3);
	npukb_task_free(t);
}
