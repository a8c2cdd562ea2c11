/* test_task.c - queries of the task model (core/lib/task.c) on tasks built
 * by hand, including ones no valid manifest could produce (cycles, missing
 * shapes), which consumers must survive with an error, not a crash. */
#include <criterion/criterion.h>

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <npukb/task.h>

static char *xstrdup(const char *s)
{
	char *p = strdup(s);

	cr_assert_not_null(p);
	return p;
}

/* Tensors a, b, c (outputs none): a's shape per case, b shape-of a,
 * c shape-of b; one case with a = [2, 3] and dtype float32. */
static struct npukb_task *make_task(void)
{
	struct npukb_task *t = calloc(1, sizeof(*t));
	static const char *const names[] = { "a", "b", "c" };

	cr_assert_not_null(t);
	t->id = xstrdup("level1/Test/Chain");
	t->ntensors = 3;
	t->tensors = calloc(3, sizeof(*t->tensors));
	cr_assert_not_null(t->tensors);
	for (int i = 0; i < 3; i++) {
		t->tensors[i].name = xstrdup(names[i]);
		t->tensors[i].dtype = xstrdup(i == 2 ? "int32" : "$dtype");
		if (i > 0)
			t->tensors[i].shape_of = xstrdup(names[i - 1]);
	}
	t->block_dim = 8;
	t->ncases = 1;
	t->cases = calloc(1, sizeof(*t->cases));
	cr_assert_not_null(t->cases);
	t->cases[0].id = xstrdup("c0");
	t->cases[0].dtype = NPUKB_DT_FLOAT32;
	t->cases[0].nshapes = 1;
	t->cases[0].shapes = calloc(1, sizeof(*t->cases[0].shapes));
	cr_assert_not_null(t->cases[0].shapes);
	t->cases[0].shapes[0].tensor = xstrdup("a");
	t->cases[0].shapes[0].shape.rank = 2;
	t->cases[0].shapes[0].shape.dims[0] = 2;
	t->cases[0].shapes[0].shape.dims[1] = 3;
	return t;
}

Test(task, free_is_null_safe)
{
	npukb_task_free(NULL);
}

Test(task, shape_numel)
{
	struct npukb_shape s = { 0 };

	cr_expect_eq(npukb_shape_numel(&s), 1);
	s.rank = 3;
	s.dims[0] = 2;
	s.dims[1] = 3;
	s.dims[2] = 4;
	cr_expect_eq(npukb_shape_numel(&s), 24);
	s.dims[1] = 0;
	cr_expect_eq(npukb_shape_numel(&s), 0);
	s.dims[1] = -3;
	cr_expect_eq(npukb_shape_numel(&s), 0);
	s.rank = 2;
	s.dims[0] = INT64_MAX;
	s.dims[1] = INT64_MAX;
	cr_expect_eq(npukb_shape_numel(&s), SIZE_MAX, "overflow must saturate, not wrap");
	s.rank = NPUKB_MAX_DIMS + 1;
	cr_expect_eq(npukb_shape_numel(&s), 0);
	cr_expect_eq(npukb_shape_numel(NULL), 0);
}

Test(task, lookups)
{
	struct npukb_task *t = make_task();

	cr_expect_eq(npukb_task_tensor_index(t, "a"), 0);
	cr_expect_eq(npukb_task_tensor_index(t, "c"), 2);
	cr_expect_eq(npukb_task_tensor_index(t, "zz"), -1);
	cr_expect_eq(npukb_task_tensor_index(t, NULL), -1);
	cr_expect_eq(npukb_task_tensor_index(NULL, "a"), -1);
	cr_expect_eq(npukb_task_tensor(t, "b"), &t->tensors[1]);
	cr_expect_null(npukb_task_tensor(t, "zz"));
	cr_expect_null(npukb_case_attr(&t->cases[0], "alpha"));
	cr_expect_null(npukb_case_attr(NULL, "alpha"));
	npukb_task_free(t);
}

Test(task, shape_follows_chain_and_prefers_explicit)
{
	struct npukb_task *t = make_task();
	struct npukb_case *c = &t->cases[0];
	struct npukb_named_shape *ns;
	struct npukb_shape s;
	char err[256];

	cr_assert_eq(npukb_case_tensor_shape(t, c, "c", &s, err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(s.rank, 2);
	cr_expect_eq(s.dims[0], 2);
	cr_expect_eq(s.dims[1], 3);

	/* An explicit shape for b wins over its shape-of, and c follows b. */
	ns = realloc(c->shapes, 2 * sizeof(*ns));
	cr_assert_not_null(ns);
	c->shapes = ns;
	memset(&c->shapes[1], 0, sizeof(c->shapes[1]));
	c->shapes[1].tensor = xstrdup("b");
	c->shapes[1].shape.rank = 1;
	c->shapes[1].shape.dims[0] = 7;
	c->nshapes = 2;
	cr_assert_eq(npukb_case_tensor_shape(t, c, "c", &s, err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(s.rank, 1);
	cr_expect_eq(s.dims[0], 7);

	cr_expect_eq(npukb_case_tensor_shape(t, c, "nope", &s, err, sizeof(err)), -ENOENT);
	cr_expect_not_null(strstr(err, "no tensor named 'nope'"), "%s", err);
	npukb_task_free(t);
}

Test(task, shape_errors)
{
	struct npukb_task *t = make_task();
	struct npukb_case *c = &t->cases[0];
	struct npukb_shape s;
	char err[256];

	/* No shape given for a: b and c cannot be resolved either. */
	free(c->shapes[0].tensor);
	c->shapes[0].tensor = xstrdup("unrelated");
	cr_expect_eq(npukb_case_tensor_shape(t, c, "c", &s, err, sizeof(err)), -EINVAL);
	cr_expect_not_null(strstr(err, "case 'c0' gives no shape for tensor 'a' (needed for 'c')"),
			   "%s", err);

	/* A loop a -> c -> b -> a never reaches a shape. */
	t->tensors[0].shape_of = xstrdup("c");
	cr_expect_eq(npukb_case_tensor_shape(t, c, "b", &s, err, sizeof(err)), -ELOOP);
	cr_expect_not_null(strstr(err, "loops"), "%s", err);

	/* shape-of naming no tensor. */
	free(t->tensors[0].shape_of);
	t->tensors[0].shape_of = xstrdup("ghost");
	cr_expect_eq(npukb_case_tensor_shape(t, c, "a", &s, err, sizeof(err)), -ENOENT);
	cr_expect_not_null(strstr(err, "'ghost', which is not a tensor"), "%s", err);

	/* No case at all. */
	cr_expect_eq(npukb_case_tensor_shape(t, NULL, "c", &s, err, sizeof(err)), -ENOENT);
	npukb_task_free(t);
}

Test(task, dtype_resolution)
{
	struct npukb_task *t = make_task();
	struct npukb_case *c = &t->cases[0];
	enum npukb_dtype dt = NPUKB_DT_INVALID;
	char err[256];

	cr_assert_eq(npukb_case_tensor_dtype(t, c, "a", &dt, err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(dt, NPUKB_DT_FLOAT32);
	cr_assert_eq(npukb_case_tensor_dtype(t, c, "c", &dt, err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(dt, NPUKB_DT_INT32);

	c->dtype = NPUKB_DT_INVALID;
	cr_expect_eq(npukb_case_tensor_dtype(t, c, "a", &dt, err, sizeof(err)), -EINVAL);
	cr_expect_not_null(strstr(err, "$dtype"), "%s", err);
	cr_expect_eq(npukb_case_tensor_dtype(t, NULL, "a", &dt, err, sizeof(err)), -EINVAL);

	free(t->tensors[2].dtype);
	t->tensors[2].dtype = xstrdup("float17");
	cr_expect_eq(npukb_case_tensor_dtype(t, c, "c", &dt, err, sizeof(err)), -EINVAL);
	cr_expect_not_null(strstr(err, "unknown dtype 'float17'"), "%s", err);

	free(t->tensors[2].dtype);
	t->tensors[2].dtype = xstrdup("$dst");
	cr_expect_eq(npukb_case_tensor_dtype(t, c, "c", &dt, err, sizeof(err)), -EINVAL);
	cr_expect_not_null(strstr(err, "attribute 'dst'"), "%s", err);
	c->nattrs = 1;
	c->attrs = calloc(1, sizeof(*c->attrs));
	cr_assert_not_null(c->attrs);
	c->attrs[0].name = xstrdup("dst");
	c->attrs[0].value = xstrdup("int8");
	cr_assert_eq(npukb_case_tensor_dtype(t, c, "c", &dt, err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(dt, NPUKB_DT_INT8);
	cr_expect_str_eq(npukb_case_attr(c, "dst"), "int8");

	cr_expect_eq(npukb_case_tensor_dtype(t, c, "nope", &dt, err, sizeof(err)), -ENOENT);
	npukb_task_free(t);
}

Test(task, tiling_eval_without_case_data)
{
	struct npukb_task *t = make_task();
	char err[256];
	int64_t v = 0;

	/* Expressions that need no case still work without one... */
	cr_expect_eq(npukb_tiling_eval(t, NULL, "blockdim * 2", &v, err, sizeof(err)), 0);
	cr_expect_eq(v, 16);
	/* ...and those that do fail cleanly. */
	cr_expect_lt(npukb_tiling_eval(t, NULL, "numel(a)", &v, err, sizeof(err)), 0);
	cr_expect_eq(npukb_tiling_eval(t, &t->cases[0], "numel(c) + rank(b)", &v, err,
				       sizeof(err)), 0, "%s", err);
	cr_expect_eq(v, 8);
	cr_expect_eq(npukb_tiling_eval(NULL, NULL, "1", &v, err, sizeof(err)), -EINVAL);
	cr_expect_eq(npukb_tiling_eval(t, NULL, NULL, &v, err, sizeof(err)), -EINVAL);
	/* A NULL error buffer is allowed. */
	cr_expect_eq(npukb_tiling_eval(t, NULL, "1/0", &v, NULL, 0), -EINVAL);
	npukb_task_free(t);
}

/* An attribute may be called like a function (dim): followed by '(' the
 * name is the function, alone it is the attribute. */
Test(task, attribute_named_like_a_function)
{
	struct npukb_task *t = make_task();
	char err[256];
	int64_t v = 0;

	t->nattrs = 1;
	t->attrs = calloc(1, sizeof(*t->attrs));
	cr_assert_not_null(t->attrs);
	t->attrs[0].name = xstrdup("dim");
	t->attrs[0].type = xstrdup("int");
	t->cases[0].nattrs = 1;
	t->cases[0].attrs = calloc(1, sizeof(*t->cases[0].attrs));
	cr_assert_not_null(t->cases[0].attrs);
	t->cases[0].attrs[0].name = xstrdup("dim");
	t->cases[0].attrs[0].value = xstrdup("-1");
	cr_expect_eq(npukb_tiling_eval(t, &t->cases[0], "dim * 100 + dim(a, 1)", &v, err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(v, -97);
	npukb_task_free(t);
}

/* A bool attribute is 1 or 0 in an expression (a flag in a tiling struct,
 * ApplyAdamWV2's amsgrad); a float one is refused. */
Test(task, bool_attribute_is_one_or_zero)
{
	struct npukb_task *t = make_task();
	char err[256];
	int64_t v = -1;

	t->nattrs = 2;
	t->attrs = calloc(2, sizeof(*t->attrs));
	cr_assert_not_null(t->attrs);
	t->attrs[0].name = xstrdup("flag");
	t->attrs[0].type = xstrdup("bool");
	t->attrs[1].name = xstrdup("rate");
	t->attrs[1].type = xstrdup("float");
	t->cases[0].nattrs = 2;
	t->cases[0].attrs = calloc(2, sizeof(*t->cases[0].attrs));
	cr_assert_not_null(t->cases[0].attrs);
	t->cases[0].attrs[0].name = xstrdup("flag");
	t->cases[0].attrs[0].value = xstrdup("true");
	t->cases[0].attrs[1].name = xstrdup("rate");
	t->cases[0].attrs[1].value = xstrdup("0.5");
	cr_expect_eq(npukb_tiling_eval(t, &t->cases[0], "flag * 10 + 1", &v, err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(v, 11);
	free(t->cases[0].attrs[0].value);
	t->cases[0].attrs[0].value = xstrdup("false");
	cr_expect_eq(npukb_tiling_eval(t, &t->cases[0], "flag * 10 + 1", &v, err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(v, 1);
	cr_expect_lt(npukb_tiling_eval(t, &t->cases[0], "rate", &v, err, sizeof(err)), 0);
	cr_expect_not_null(strstr(err, "only int and bool attributes"), "%s", err);
	npukb_task_free(t);
}
