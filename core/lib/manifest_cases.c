/* manifest_cases.c - a manifest's cases: shapes, dtypes, attribute values
 * and list members per case, resolved against the task's declarations, and
 * the checks that evaluate every tiling and distribution expression for
 * every case (manifest_private.h). */
#include "manifest_private.h"

#include <npukb/dtype.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Parses "48 128 512" (empty: a scalar). Returns 0, or -1 after reporting. */
static int parse_dims(struct loader *L, xmlNodePtr n, const char *cid,
		      const char *tensor, const char *text, struct npukb_shape *s)
{
	const char *p = text;
	uint64_t numel = 1;

	memset(s, 0, sizeof(*s));
	for (;;) {
		const char *tok;
		size_t len = 0;
		uint64_t v = 0;
		int ok = 1;

		while (is_space(*p))
			p++;
		if (!*p)
			return 0;
		tok = p;
		while (p[len] && !is_space(p[len]))
			len++;
		p += len;
		for (size_t k = 0; k < len && ok; k++) {
			if (tok[k] < '0' || tok[k] > '9' || v > ((uint64_t)INT64_MAX - 9) / 10)
				ok = 0;
			else
				v = v * 10 + (uint64_t)(tok[k] - '0');
		}
		if (!ok || v == 0) {
			fail(L, n, "case '%s': dimension '%.*s' of tensor '%s' is not a positive integer",
			     cid, (int)(len > 40 ? 40 : len), tok, tensor);
			return -1;
		}
		if (s->rank == NPUKB_MAX_DIMS) {
			fail(L, n, "case '%s': tensor '%s' has more than %d dimensions", cid,
			     tensor, NPUKB_MAX_DIMS);
			return -1;
		}
		if (v > (uint64_t)INT64_MAX / numel) {
			fail(L, n, "case '%s': tensor '%s' has too many elements", cid, tensor);
			return -1;
		}
		numel *= v;
		s->dims[s->rank++] = (int64_t)v;
	}
}

/* A list's member shapes: "32 64 64; 32 64 64". */
static void parse_members(struct loader *L, xmlNodePtr n, const char *cid,
			  struct npukb_named_shape *ns, char *text)
{
	size_t count = 1, k = 0;
	char *p = text, *semi;

	for (const char *q = text; *q; q++)
		count += *q == ';';
	ns->members = alloc_array(L, count, sizeof(*ns->members));
	if (!ns->members)
		return;
	for (;;) {
		semi = strchr(p, ';');
		if (semi)
			*semi = '\0';
		if (parse_dims(L, n, cid, ns->tensor, p, &ns->members[k]) < 0)
			return;
		if (ns->members[k].rank == 0) {
			fail(L, n, "case '%s': member %zu of list '%s' has no dimensions", cid, k,
			     ns->tensor);
			return;
		}
		ns->nmembers = ++k;
		if (!semi)
			break;
		p = semi + 1;
	}
}

static int check_attr_value(struct loader *L, xmlNodePtr n, const char *cid,
			    const struct npukb_attr_decl *a, const char *v)
{
	long long ll;
	double dv;
	const char *type = a->type ? a->type : "string";
	int ok = 1;

	if (strcmp(type, "int") == 0)
		ok = parse_ll(v, &ll) == 0;
	else if (strcmp(type, "float") == 0)
		ok = parse_double(v, &dv) == 0;
	else if (strcmp(type, "bool") == 0)
		ok = strcmp(v, "true") == 0 || strcmp(v, "false") == 0 ||
		     strcmp(v, "1") == 0 || strcmp(v, "0") == 0;
	else if (strcmp(type, "dtype") == 0)
		ok = npukb_dtype_from_name(v) != NPUKB_DT_INVALID;
	else if (strcmp(type, "list") == 0)
		ok = npukb_attr_list_parse(v, NULL, 0) >= 0;
	if (!ok)
		fail(L, n, "case '%s': attribute '%s' = '%s' is not a valid %s", cid,
		     a->name, v, type);
	return ok ? 0 : -1;
}

/* Builds case c from node n; returns the number of problems found. */
static int build_case(struct loader *L, xmlNodePtr n, struct npukb_case *c)
{
	const struct npukb_task *t = L->t;
	size_t before = L->d->n + L->d->dropped;
	const char *cid;
	char *dtype;
	xmlNodePtr s;
	size_t i;

	c->line = (int)line_of(n);
	c->id = need_attr(L, n, "id");
	cid = c->id ? c->id : "?";
	dtype = get_attr(L, n, "dtype");
	if (dtype) {
		c->dtype = npukb_dtype_from_name(dtype);
		if (c->dtype == NPUKB_DT_INVALID)
			fail(L, n, "case '%s': unknown dtype '%s'", cid, dtype);
		free(dtype);
	} else {
		for (i = 0; i < t->ntensors; i++) {
			if (t->tensors[i].dtype && strcmp(t->tensors[i].dtype, "$dtype") == 0) {
				fail(L, n, "case '%s' has no dtype, but tensor '%s' has dtype $dtype",
				     cid, t->tensors[i].name);
				break;
			}
		}
	}

	c->shapes = alloc_array(L, count_children(n, "shape"), sizeof(*c->shapes));
	i = 0;
	FOR_EACH_CHILD(s, n, "shape") {
		struct npukb_named_shape *ns;
		char *text;

		if (!c->shapes)
			break;
		ns = &c->shapes[i];
		ns->tensor = need_attr(L, s, "tensor");
		c->nshapes = ++i;
		if (!ns->tensor)
			continue;
		if (npukb_task_tensor_index(t, ns->tensor) < 0) {
			fail(L, s, "case '%s': shape for unknown tensor '%s'", cid, ns->tensor);
			continue;
		}
		for (size_t j = 0; j + 1 < i; j++)
			if (c->shapes[j].tensor && strcmp(c->shapes[j].tensor, ns->tensor) == 0)
				fail(L, s, "case '%s': second shape for tensor '%s'", cid,
				     ns->tensor);
		text = get_text(L, s, 0);
		if (text && npukb_task_tensor(t, ns->tensor)->is_list)
			parse_members(L, s, cid, ns, text);
		else if (text)
			parse_dims(L, s, cid, ns->tensor, text, &ns->shape);
		free(text);
	}

	c->absent = alloc_array(L, count_children(n, "absent"), sizeof(*c->absent));
	i = 0;
	FOR_EACH_CHILD(s, n, "absent") {
		const struct npukb_tensor_decl *td;
		char *name;

		if (!c->absent)
			break;
		name = need_attr(L, s, "tensor");
		if (!name)
			continue;
		c->absent[i] = name;
		c->nabsent = ++i;
		td = npukb_task_tensor(t, name);
		if (!td)
			fail(L, s, "case '%s': absent tensor '%s' is not declared", cid, name);
		else if (!td->is_optional)
			fail(L, s, "case '%s': tensor '%s' is not optional (optional=\"true\"), so it cannot be absent",
			     cid, name);
		for (size_t j = 0; j + 1 < i; j++)
			if (strcmp(c->absent[j], name) == 0)
				fail(L, s, "case '%s': tensor '%s' is absent twice", cid, name);
		for (size_t j = 0; j < c->nshapes; j++)
			if (c->shapes[j].tensor && strcmp(c->shapes[j].tensor, name) == 0)
				fail(L, s, "case '%s': tensor '%s' is absent but has a shape", cid, name);
	}

	build_golden(L, n, c);
	c->attrs = alloc_array(L, count_children(n, "attr"), sizeof(*c->attrs));
	i = 0;
	FOR_EACH_CHILD(s, n, "attr") {
		struct npukb_attr_value *av;
		const struct npukb_attr_decl *a;

		if (!c->attrs)
			break;
		av = &c->attrs[i];
		av->name = need_attr(L, s, "name");
		av->value = get_text(L, s, 0);
		c->nattrs = ++i;
		if (!av->name || !av->value)
			continue;
		a = find_attr_decl(t, av->name);
		if (!a) {
			fail(L, s, "case '%s': attribute '%s' is not declared in <attributes>",
			     cid, av->name);
			continue;
		}
		for (size_t j = 0; j + 1 < i; j++)
			if (c->attrs[j].name && strcmp(c->attrs[j].name, av->name) == 0)
				fail(L, s, "case '%s': second value for attribute '%s'", cid,
				     av->name);
		check_attr_value(L, s, cid, a, av->value);
	}
	for (i = 0; i < t->nattrs; i++)
		if (t->attrs[i].name && !npukb_case_attr(c, t->attrs[i].name))
			fail(L, n, "case '%s' gives no value for attribute '%s'", cid,
			     t->attrs[i].name);
	for (i = 0; i < t->ntensors; i++) {
		const struct npukb_tensor_decl *td = &t->tensors[i];
		int given = 0;

		if (!td->name || td->shape_of || npukb_case_tensor_absent(c, td->name))
			continue;
		for (size_t j = 0; j < c->nshapes; j++)
			if (c->shapes[j].tensor && strcmp(c->shapes[j].tensor, td->name) == 0)
				given = 1;
		if (!given)
			fail(L, n, "case '%s' gives no shape for %s '%s'", cid,
			     td->is_output ? "output" : "input", td->name);
	}
	return (int)(L->d->n + L->d->dropped - before);
}

/* Resolves every tensor of a well-formed case, as consumers will. */
static int resolve_case(struct loader *L, xmlNodePtr n, const struct npukb_case *c)
{
	const struct npukb_task *t = L->t;
	char why[512];
	int bad = 0;

	for (size_t i = 0; i < t->ntensors; i++) {
		struct npukb_shape s;
		enum npukb_dtype dt;

		if (npukb_case_tensor_absent(c, t->tensors[i].name))
			continue;
		if (npukb_case_tensor_dtype(t, c, t->tensors[i].name, &dt, why,
					    sizeof(why)) < 0 ||
		    npukb_case_tensor_shape(t, c, t->tensors[i].name, &s, why,
					    sizeof(why)) < 0) {
			fail(L, n, "case '%s': %s", c->id, why);
			bad = 1;
		}
	}
	return bad;
}

void build_cases(struct loader *L, xmlNodePtr root, unsigned char **badp)
{
	struct npukb_task *t = L->t;
	xmlNodePtr list = first_child(root, "cases"), n;
	unsigned char *bad;
	size_t count = count_children(list, "case"), i = 0;

	*badp = NULL;
	if (count == 0) {
		fail(L, list ? list : root, "the manifest has no cases");
		return;
	}
	t->cases = alloc_array(L, count, sizeof(*t->cases));
	bad = alloc_array(L, count, 1);
	*badp = bad;
	if (!t->cases || !bad)
		return;
	FOR_EACH_CHILD(n, list, "case") {
		struct npukb_case *c = &t->cases[i];

		t->ncases = ++i;
		bad[i - 1] = build_case(L, n, c) > 0;
		if (!c->id)
			continue;
		for (size_t j = 0; j + 1 < i; j++)
			if (t->cases[j].id && strcmp(t->cases[j].id, c->id) == 0)
				fail(L, n, "duplicate case id '%s' (first on line %d)", c->id,
				     t->cases[j].line);
	}
}

/* Distribution bounds written as expressions must evaluate in every case,
 * to a non-empty range. One report per tensor. */
static void check_dist_exprs(struct loader *L, const unsigned char *bad)
{
	const struct npukb_task *t = L->t;

	for (size_t i = 0; i < t->ntensors; i++) {
		const struct npukb_tensor_decl *td = &t->tensors[i];

		if (!td->dist.a_expr && !td->dist.b_expr && !td->dist.count_expr)
			continue;
		for (size_t k = 0; k < t->ncases; k++) {
			const struct npukb_case *c = &t->cases[k];
			char why[512];
			int64_t a = 0, b = 0;
			int rc = 0;

			if (bad[k])
				continue;
			/* A derived input's count: a number of elements. */
			if (td->dist.count_expr) {
				rc = npukb_tiling_eval(t, c, td->dist.count_expr, &a, why, sizeof(why));
				if (rc < 0 || a < 0) {
					diag_add(L->d, L->path, td->line,
						 "input '%s': derive count (case '%s'): %s", td->name,
						 c->id, rc < 0 ? why : "negative");
					break;
				}
				continue;
			}
			if (td->dist.a_expr)
				rc = npukb_tiling_eval(t, c, td->dist.a_expr, &a, why, sizeof(why));
			if (rc == 0 && td->dist.b_expr)
				rc = npukb_tiling_eval(t, c, td->dist.b_expr, &b, why, sizeof(why));
			if (rc < 0) {
				diag_add(L->d, L->path, td->line,
					 "input '%s': distribution bound (case '%s'): %s", td->name,
					 c->id, why);
				break;
			}
			if (td->dist.kind == NPUKB_DIST_SLICES ? b < 1 : a > b) {
				diag_add(L->d, L->path, td->line,
					 "input '%s': distribution range is empty in case '%s' (a = %lld, b = %lld)",
					 td->name, c->id, (long long)a, (long long)b);
				break;
			}
		}
	}
}

/* Evaluates field f (a tiling field or a scalar parameter: what) over
 * every good case; one report at n for the first case that fails. */
static void check_field(struct loader *L, xmlNodePtr n, const struct npukb_tiling_field *f,
			const char *what, const unsigned char *bad)
{
	const struct npukb_task *t = L->t;

	if (!f->name || !f->expr)
		return;
	/* One report per field: every case would repeat it. */
	for (size_t k = 0; k < t->ncases; k++) {
		const struct npukb_case *c = &t->cases[k];
		char why[512];
		const char *range = NULL;
		int64_t v = 0;
		double fv;

		if (bad[k])
			continue;
		if (f->type == NPUKB_DT_FLOAT32
			    ? npukb_tiling_eval_float(t, c, f->expr, &fv, why, sizeof(why)) < 0
			    : npukb_tiling_eval(t, c, f->expr, &v, why, sizeof(why)) < 0) {
			fail(L, n, "%s '%s' (case '%s'): %s", what, f->name, c->id, why);
			break;
		}
		if (f->type == NPUKB_DT_INT32 && f->is_unsigned && (v < 0 || v > (int64_t)UINT32_MAX))
			range = "uint32";
		else if (f->type == NPUKB_DT_INT32 && !f->is_unsigned && (v < INT32_MIN || v > INT32_MAX))
			range = "int32";
		else if (f->type == NPUKB_DT_INT64 && f->is_unsigned && v < 0)
			range = "uint64";
		if (range) {
			fail(L, n, "%s '%s' (case '%s'): value %lld of '%s' does not fit %s", what, f->name,
			     c->id, (long long)v, f->expr, range);
			break;
		}
	}
}

void check_cases_and_tiling(struct loader *L, xmlNodePtr root, unsigned char *bad)
{
	const struct npukb_task *t = L->t;
	xmlNodePtr n, tiling = first_child(root, "tiling");
	size_t i = 0;

	FOR_EACH_CHILD(n, first_child(root, "cases"), "case") {
		if (i < t->ncases && !bad[i])
			bad[i] = (unsigned char)resolve_case(L, n, &t->cases[i]);
		if (i < t->ncases && !bad[i])
			bad[i] = (unsigned char)check_golden(L, n, &t->cases[i]);
		i++;
	}
	check_dist_exprs(L, bad);
	i = 0;
	FOR_EACH_CHILD(n, tiling, "field") {
		if (i >= t->ntiling)
			break;
		check_field(L, n, &t->tiling[i++], "tiling field", bad);
	}
	i = 0;
	FOR_EACH_CHILD(n, first_child(root, "kernel"), "param") {
		if (i >= t->nparams)
			break;
		if (t->params[i].scalar)
			check_field(L, n, t->params[i].scalar, "scalar parameter", bad);
		i++;
	}
}
