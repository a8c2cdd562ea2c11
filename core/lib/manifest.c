/* manifest.c - task manifests: read, validate, check, build (the entry
 * points and the task's declarations; the XML layer is manifest_xml.c, the
 * cases manifest_cases.c, what they share manifest_private.h).
 *
 * Three layers of checking, each reporting "file:line: what is wrong":
 *   1. well-formedness (libxml2's parser; no network, DTDs are refused),
 *   2. structure and lexical form (the RELAX NG schema, levels/schema/task.rng),
 *   3. meaning: names that must refer to each other, uniqueness, dtype names,
 *      shapes, and every tiling expression evaluated for every case.
 * A layer runs only when the one before passed, so that one mistake does not
 * come back as a cascade of confusing ones; within a layer as many problems
 * as possible are collected.
 *
 * libxml2 reports through handlers; while a load runs, this thread's handlers
 * point into a collector (struct diag) and are restored afterwards, so the
 * library never prints. */
#include "derive.h"
#include "manifest_private.h"

#include <npukb/dtype.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- building the task -------------------------------------------------- */

/* Names that tiling expressions or dtype references give a meaning of
 * their own as plain names; attributes may not take them. Function names
 * (dim, numel, rank, min, max, ceil_div, prod, count) are free: a name
 * followed by '(' is the function, alone it is the attribute (SwiGlu's and
 * GeGluV2's operators have an attribute called dim). */
static int is_reserved_name(const char *s)
{
	static const char *const words[] = { "blockdim", "dtype" };

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strcmp(s, words[i]) == 0)
			return 1;
	return 0;
}

const struct npukb_attr_decl *find_attr_decl(const struct npukb_task *t, const char *name)
{
	for (size_t i = 0; i < t->nattrs; i++)
		if (t->attrs[i].name && strcmp(t->attrs[i].name, name) == 0)
			return &t->attrs[i];
	return NULL;
}

static void build_root(struct loader *L, xmlNodePtr root)
{
	struct npukb_task *t = L->t;
	char *level = need_attr(L, root, "level");
	long long lv = 0;
	xmlNodePtr n;

	t->id = need_attr(L, root, "id");
	t->category = need_attr(L, root, "category");
	t->name = need_attr(L, root, "name");
	if (level && (parse_ll(level, &lv) < 0 || lv < 1 || lv > 9))
		fail(L, root, "level '%s' is not a number from 1 to 9", level);
	t->level = (int)lv;
	free(level);
	if (t->id && t->category && t->name && t->level > 0) {
		char want[512];

		snprintf(want, sizeof(want), "level%d/%s/%s", t->level, t->category,
			 t->name);
		if (strcmp(want, t->id) != 0)
			fail(L, root, "task id '%s' does not match level, category and name: expected '%s'",
			     t->id, want);
	}
	n = first_child(root, "summary");
	if (n)
		t->summary = get_text(L, n, 1);
	n = first_child(root, "reference");
	if (n) {
		t->reference = need_attr(L, n, "function");
		t->reference_plugin = get_attr(L, n, "plugin");
		t->reference_line = (int)line_of(n);
	}
	n = first_child(root, "lint");
	if (n) {
		t->lint_allow = need_attr(L, n, "allow");
		t->lint_why = need_attr(L, n, "why");
	}
	n = first_child(root, "tolerance");
	t->tolerance.atol = -1.0;
	t->tolerance.rtol = -1.0;
	if (n) {
		static const char *const tol_attr[2] = { "atol", "rtol" };
		double *tol_val[2] = { &t->tolerance.atol, &t->tolerance.rtol };

		t->tolerance.rule = need_attr(L, n, "rule");
		for (int i = 0; i < 2; i++) {
			char *v = get_attr(L, n, tol_attr[i]);

			if (v && (parse_double(v, tol_val[i]) < 0 || !(*tol_val[i] >= 0)))
				fail(L, n, "tolerance %s '%s' is not a non-negative number",
				     tol_attr[i], v);
			free(v);
		}
	}
}

static void build_attrs(struct loader *L, xmlNodePtr root)
{
	struct npukb_task *t = L->t;
	xmlNodePtr list = first_child(root, "attributes"), n;
	size_t i = 0;

	t->attrs = alloc_array(L, count_children(list, "attr"), sizeof(*t->attrs));
	if (!t->attrs)
		return;
	FOR_EACH_CHILD(n, list, "attr") {
		struct npukb_attr_decl *a = &t->attrs[i];

		a->name = need_attr(L, n, "name");
		a->type = need_attr(L, n, "type");
		t->nattrs = ++i;
		if (!a->name)
			continue;
		if (is_reserved_name(a->name))
			fail(L, n, "attribute name '%s' is reserved", a->name);
		for (size_t j = 0; j + 1 < i; j++)
			if (t->attrs[j].name && strcmp(t->attrs[j].name, a->name) == 0)
				fail(L, n, "duplicate attribute '%s'", a->name);
	}
}

/* kind="attr": the tensor holds the case's value of a numeric attribute. */
static void build_attr_dist(struct loader *L, xmlNodePtr n, struct npukb_tensor_decl *td)
{
	const struct npukb_attr_decl *a;

	td->dist.kind = NPUKB_DIST_ATTR;
	td->dist.attr = need_attr(L, n, "attr");
	if (!td->dist.attr)
		return;
	a = find_attr_decl(L->t, td->dist.attr);
	if (!a)
		fail(L, n, "input '%s': distribution attr '%s' names no declared attribute",
		     td->name ? td->name : "?", td->dist.attr);
	else if (!a->type || (strcmp(a->type, "int") != 0 && strcmp(a->type, "float") != 0 &&
			       strcmp(a->type, "bool") != 0 && strcmp(a->type, "list") != 0))
		fail(L, n, "input '%s': distribution attr '%s' has type %s, not int, float, bool or list",
		     td->name ? td->name : "?", td->dist.attr, a->type ? a->type : "?");
}

/* Optional special="p": share of elements replaced by inf/NaN/zero/denormal. */
static void build_special(struct loader *L, xmlNodePtr n, struct npukb_tensor_decl *td)
{
	char *sp = get_attr(L, n, "special");

	if (sp && (parse_double(sp, &td->dist.special) < 0 ||
		   !(td->dist.special >= 0 && td->dist.special <= 1)))
		fail(L, n, "distribution: special share '%s' is not in [0, 1]", sp);
	free(sp);
}

/* Optional plant-nonfinite="attr": a bool attribute saying whether the case
 * holds non-finite values (NonFiniteCheckOp's contains_non_finite). */
static void build_plant(struct loader *L, xmlNodePtr n, struct npukb_tensor_decl *td)
{
	const struct npukb_attr_decl *a;

	td->dist.plant_nonfinite = get_attr(L, n, "plant-nonfinite");
	if (!td->dist.plant_nonfinite)
		return;
	a = find_attr_decl(L->t, td->dist.plant_nonfinite);
	if (!a)
		fail(L, n, "input '%s': plant-nonfinite '%s' names no declared attribute",
		     td->name ? td->name : "?", td->dist.plant_nonfinite);
	else if (!a->type || strcmp(a->type, "bool") != 0)
		fail(L, n, "input '%s': plant-nonfinite '%s' has type %s, not bool",
		     td->name ? td->name : "?", a->name, a->type ? a->type : "?");
}

/* kind="derived": a function of derive.h, with what it needs: the input
 * it reads (declared before this one, never absent), a count expression,
 * literal bounds a..b. */
static void build_derived_dist(struct loader *L, xmlNodePtr n, struct npukb_tensor_decl *td)
{
	const struct npukb_task *t = L->t;
	const struct npukb_derive_fn *fn;
	const char *name = td->name ? td->name : "?";
	char *a = get_attr(L, n, "a"), *b = get_attr(L, n, "b");

	td->dist.kind = NPUKB_DIST_DERIVED;
	td->dist.derive_fn = need_attr(L, n, "fn");
	td->dist.from = get_attr(L, n, "from");
	td->dist.count_expr = get_attr(L, n, "count");
	fn = npukb_derive_find(td->dist.derive_fn);
	if (!fn) {
		if (td->dist.derive_fn)
			fail(L, n, "input '%s': unknown derive function '%s'", name, td->dist.derive_fn);
		goto out;
	}
	if (fn->needs_from != (td->dist.from != NULL))
		fail(L, n, "input '%s': derive function '%s' %s", name, fn->name,
		     fn->needs_from ? "needs from=\"<input>\"" : "reads no input (no from)");
	if (fn->needs_count != (td->dist.count_expr != NULL))
		fail(L, n, "input '%s': derive function '%s' %s", name, fn->name,
		     fn->needs_count ? "needs count=\"<expression>\"" : "takes no count");
	if (fn->needs_bounds && (!a || !b || parse_double(a, &td->dist.a) < 0 ||
				 parse_double(b, &td->dist.b) < 0 || td->dist.a > td->dist.b))
		fail(L, n, "input '%s': derive function '%s' needs numbers a <= b", name, fn->name);
	if (td->dist.from) {
		/* Inputs are made in declaration order: the source comes first. */
		size_t j, self = (size_t)(td - t->tensors);
		for (j = 0; j < self; j++)
			if (t->tensors[j].name && strcmp(t->tensors[j].name, td->dist.from) == 0)
				break;
		if (j == self)
			fail(L, n, "input '%s': from '%s' names no input declared before it", name,
			     td->dist.from);
		else if (t->tensors[j].is_output && !t->tensors[j].is_inout)
			fail(L, n, "input '%s': from '%s' is an output", name, td->dist.from);
		else if (t->tensors[j].is_optional)
			fail(L, n, "input '%s': from '%s' is optional; a derived input needs its source",
			     name, td->dist.from);
	}
out:
	free(a);
	free(b);
}

static void build_dist(struct loader *L, xmlNodePtr in, struct npukb_tensor_decl *td)
{
	xmlNodePtr n = first_child(in, "distribution");
	char *kind, *a, *b;

	if (!n) {
		fail(L, in, "input '%s' has no <distribution>", td->name ? td->name : "?");
		return;
	}
	kind = need_attr(L, n, "kind");
	if (kind && strcmp(kind, "attr") == 0) {
		build_attr_dist(L, n, td);
		free(kind);
		return;
	}
	if (kind && strcmp(kind, "derived") == 0) {
		build_derived_dist(L, n, td);
		free(kind);
		return;
	}
	if (kind && strcmp(kind, "slices") == 0) {
		td->dist.kind = NPUKB_DIST_SLICES;
		td->dist.b_expr = need_attr(L, n, "b");
		free(kind);
		return;
	}
	a = need_attr(L, n, "a");
	b = get_attr(L, n, "b");
	if (!kind || !a)
		goto out;
	build_special(L, n, td);
	build_plant(L, n, td);
	if (strcmp(kind, "uniform") == 0)
		td->dist.kind = NPUKB_DIST_UNIFORM;
	else if (strcmp(kind, "normal") == 0)
		td->dist.kind = NPUKB_DIST_NORMAL;
	else if (strcmp(kind, "integer") == 0)
		td->dist.kind = NPUKB_DIST_INTEGER;
	else if (strcmp(kind, "bool") == 0)
		td->dist.kind = NPUKB_DIST_BOOL;
	else {
		fail(L, n, "unknown distribution kind '%s'", kind);
		goto out;
	}
	/* Integer bounds may be expressions over the case (an index bounded
	 * by the dimension it indexes); they are checked per case. */
	if (td->dist.kind == NPUKB_DIST_INTEGER && b &&
	    (parse_double(a, &td->dist.a) < 0 || parse_double(b, &td->dist.b) < 0)) {
		td->dist.a_expr = dup_str(L, a);
		td->dist.b_expr = dup_str(L, b);
		goto out;
	}
	if (parse_double(a, &td->dist.a) < 0 || td->dist.a != td->dist.a) {
		fail(L, n, "distribution parameter a '%s' is not a number", a);
		goto out;
	}
	if (td->dist.kind == NPUKB_DIST_BOOL) {
		if (!(td->dist.a >= 0 && td->dist.a <= 1))
			fail(L, n, "bool distribution: probability %s is not in [0, 1]", a);
		goto out;
	}
	if (!b) {
		fail(L, n, "%s distribution needs b", kind);
		goto out;
	}
	if (parse_double(b, &td->dist.b) < 0 || td->dist.b != td->dist.b) {
		fail(L, n, "distribution parameter b '%s' is not a number", b);
		goto out;
	}
	switch (td->dist.kind) {
	case NPUKB_DIST_UNIFORM:
		if (td->dist.a > td->dist.b)
			fail(L, n, "uniform distribution: a (%s) is greater than b (%s)", a, b);
		break;
	case NPUKB_DIST_NORMAL:
		if (!(td->dist.b > 0))
			fail(L, n, "normal distribution: stddev b (%s) must be positive", b);
		break;
	case NPUKB_DIST_INTEGER:
		if (td->dist.a != (double)(long long)td->dist.a ||
		    td->dist.b != (double)(long long)td->dist.b)
			fail(L, n, "integer distribution: bounds %s and %s must be integers", a, b);
		else if (td->dist.a > td->dist.b)
			fail(L, n, "integer distribution: a (%s) is greater than b (%s)", a, b);
		break;
	default:
		break;
	}
out:
	free(kind);
	free(a);
	free(b);
}

static void check_tensor_dtype(struct loader *L, xmlNodePtr n,
			       const struct npukb_tensor_decl *td)
{
	const struct npukb_attr_decl *a;

	if (td->dtype[0] != '$') {
		if (npukb_dtype_from_name(td->dtype) == NPUKB_DT_INVALID)
			fail(L, n, "tensor '%s': unknown dtype '%s'", td->name, td->dtype);
		return;
	}
	if (strcmp(td->dtype, "$dtype") == 0)
		return;
	a = find_attr_decl(L->t, td->dtype + 1);
	if (!a)
		fail(L, n, "tensor '%s': dtype '%s' names no declared attribute (use '$dtype' for the case's dtype)",
		     td->name, td->dtype);
	else if (!a->type || strcmp(a->type, "dtype") != 0)
		fail(L, n, "tensor '%s': dtype '%s' names attribute '%s' of type %s, not dtype",
		     td->name, td->dtype, a->name, a->type ? a->type : "?");
}

static void build_tensors(struct loader *L, xmlNodePtr root)
{
	struct npukb_task *t = L->t;
	xmlNodePtr list = first_child(root, "tensors"), n;
	size_t count = 0, i = 0;

	for (n = list ? list->children : NULL; n; n = n->next)
		if (is_elem(n, "input") || is_elem(n, "output") || is_elem(n, "inout"))
			count++;
	t->tensors = alloc_array(L, count, sizeof(*t->tensors));
	if (!t->tensors)
		return;
	for (n = list->children; n; n = n->next) {
		struct npukb_tensor_decl *td;

		char *list_attr;

		if (!is_elem(n, "input") && !is_elem(n, "output") && !is_elem(n, "inout"))
			continue;
		td = &t->tensors[i];
		td->is_inout = is_elem(n, "inout");
		td->is_output = is_elem(n, "output") || td->is_inout;
		list_attr = get_attr(L, n, "list");
		td->is_list = list_attr && strcmp(list_attr, "true") == 0;
		free(list_attr);
		list_attr = get_attr(L, n, "optional");
		td->is_optional = list_attr && strcmp(list_attr, "true") == 0;
		free(list_attr);
		td->line = (int)line_of(n);
		td->name = need_attr(L, n, "name");
		td->dtype = need_attr(L, n, "dtype");
		td->shape_of = get_attr(L, n, "shape-of");
		t->ntensors = ++i;
		if (!td->name)
			continue;
		for (size_t j = 0; j + 1 < i; j++)
			if (t->tensors[j].name && strcmp(t->tensors[j].name, td->name) == 0)
				fail(L, n, "duplicate tensor name '%s' (first declared on line %d)",
				     td->name, t->tensors[j].line);
		if (td->dtype)
			check_tensor_dtype(L, n, td);
		if (td->is_optional && td->is_output)
			fail(L, n, "%s '%s' cannot be optional: only an input can be absent",
			     td->is_inout ? "in-place tensor" : "output", td->name);
		if (!td->is_output || td->is_inout)
			build_dist(L, n, td);
	}
}

/* shape-of must name a tensor and must end, following the chain, at a
 * tensor whose shape each case gives. */
static void check_shape_of(struct loader *L)
{
	const struct npukb_task *t = L->t;

	for (size_t i = 0; i < t->ntensors; i++) {
		const struct npukb_tensor_decl *td = &t->tensors[i];
		int cur, in_cycle = 0, lowest = (int)i;
		char chain[512];
		size_t used;

		if (!td->name || !td->shape_of)
			continue;
		if (npukb_task_tensor_index(t, td->shape_of) < 0) {
			diag_add(L->d, L->path, td->line,
				 "tensor '%s': shape-of names unknown tensor '%s'",
				 td->name, td->shape_of);
			continue;
		}
		if (strcmp(td->shape_of, td->name) == 0) {
			diag_add(L->d, L->path, td->line,
				 "tensor '%s' has shape-of itself", td->name);
			continue;
		}
		/* A list's members copy another list's (ForeachXxx's y those of
		 * x); a plain tensor cannot take a list's flat buffer shape. */
		if (td->is_list != t->tensors[npukb_task_tensor_index(t, td->shape_of)].is_list) {
			diag_add(L->d, L->path, td->line,
				 td->is_list ? "list '%s' has shape-of '%s', which is not a list"
					     : "tensor '%s' has shape-of list '%s'; only a list can",
				 td->name, td->shape_of);
			continue;
		}
		cur = npukb_task_tensor_index(t, td->shape_of);
		for (size_t hops = 0; cur >= 0 && hops < t->ntensors; hops++) {
			if ((size_t)cur == i) {
				in_cycle = 1;
				break;
			}
			if (cur < lowest)
				lowest = cur;
			cur = t->tensors[cur].shape_of
				      ? npukb_task_tensor_index(t, t->tensors[cur].shape_of)
				      : -1;
		}
		/* Report a loop once, at its first tensor. */
		if (!in_cycle || lowest != (int)i)
			continue;
		used = (size_t)snprintf(chain, sizeof(chain), "%s", td->name);
		cur = npukb_task_tensor_index(t, td->shape_of);
		while (used < sizeof(chain)) {
			used += (size_t)snprintf(chain + used, sizeof(chain) - used, " -> %s",
						 t->tensors[cur].name);
			if ((size_t)cur == i)
				break;
			cur = npukb_task_tensor_index(t, t->tensors[cur].shape_of);
		}
		diag_add(L->d, L->path, td->line, "shape-of loop: %s", chain);
	}
}

static int param_seen(const struct npukb_task *t, size_t before, const char *name)
{
	for (size_t j = 0; j < before; j++)
		if (t->params[j].name && strcmp(t->params[j].name, name) == 0)
			return 1;
	return 0;
}


/* A tiling field's or scalar parameter's type and value from n's type and
 * value attributes (what names the element in messages). */
static void read_field(struct loader *L, xmlNodePtr n, struct npukb_tiling_field *f, const char *what)
{
	char *type = need_attr(L, n, "type");

	f->expr = need_attr(L, n, "value");
	if (type && strcmp(type, "uint32") == 0) {
		f->type = NPUKB_DT_INT32;
		f->is_unsigned = 1;
	} else if (type && strcmp(type, "int32") == 0) {
		f->type = NPUKB_DT_INT32;
	} else if (type && strcmp(type, "uint64") == 0) {
		f->type = NPUKB_DT_INT64;
		f->is_unsigned = 1;
	} else if (type && strcmp(type, "int64") == 0) {
		f->type = NPUKB_DT_INT64;
	} else if (type && strcmp(type, "float32") == 0) {
		f->type = NPUKB_DT_FLOAT32;
	} else if (type) {
		fail(L, n, "%s type '%s' is not one of uint32, int32, uint64, int64, float32", what, type);
	}
	free(type);
}

static void build_params(struct loader *L, xmlNodePtr root, int has_tiling_elem)
{
	static const char *const role_names[] = { "", "input", "output", "workspace",
						  "tiling", "inout", "scalar" };
	struct npukb_task *t = L->t;
	xmlNodePtr kernel = first_child(root, "kernel"), n, tiling_param = NULL;
	size_t i = 0;

	if (!kernel)
		return;
	t->kernel_name = need_attr(L, kernel, "name");
	t->params = alloc_array(L, count_children(kernel, "param"), sizeof(*t->params));
	if (!t->params)
		return;
	FOR_EACH_CHILD(n, kernel, "param") {
		struct npukb_param *p = &t->params[i];
		char *role = need_attr(L, n, "role");
		const struct npukb_tensor_decl *td;

		p->name = need_attr(L, n, "name");
		p->tensor = get_attr(L, n, "tensor");
		if (!p->tensor && p->name)
			p->tensor = dup_str(L, p->name);
		t->nparams = ++i;
		if (role && strcmp(role, "input") == 0)
			p->role = NPUKB_PARAM_INPUT;
		else if (role && strcmp(role, "output") == 0)
			p->role = NPUKB_PARAM_OUTPUT;
		else if (role && strcmp(role, "workspace") == 0)
			p->role = NPUKB_PARAM_WORKSPACE;
		else if (role && strcmp(role, "tiling") == 0)
			p->role = NPUKB_PARAM_TILING;
		else if (role && strcmp(role, "inout") == 0)
			p->role = NPUKB_PARAM_INOUT;
		else if (role && strcmp(role, "scalar") == 0)
			p->role = NPUKB_PARAM_SCALAR;
		else if (role)
			fail(L, n, "parameter role '%s' is not input, output, inout, workspace, tiling or scalar",
			     role);
		free(role);
		if (!p->name || !p->role)
			continue;
		if (p->role == NPUKB_PARAM_SCALAR) {
			/* Passed by value: no tensor, a type and a value. */
			p->scalar = alloc_array(L, 1, sizeof(*p->scalar));
			if (!p->scalar)
				continue;
			p->scalar->name = dup_str(L, p->name);
			read_field(L, n, p->scalar, "scalar parameter");
		} else if (xmlHasProp(n, BAD_CAST "type") || xmlHasProp(n, BAD_CAST "value")) {
			fail(L, n, "kernel parameter '%s' has a type or value but role %s (only a scalar has)",
			     p->name, role_names[p->role]);
		}
		if (param_seen(t, i - 1, p->name)) {
			fail(L, n, "duplicate kernel parameter '%s'", p->name);
			continue;
		}
		if (!p->tensor)
			continue;
		/* Only an in-place tensor may be passed twice (CANN's var and
		 * varOut). */
		for (size_t j = 0; j + 1 < i; j++)
			if (t->params[j].tensor && strcmp(t->params[j].tensor, p->tensor) == 0 &&
			    (p->role != NPUKB_PARAM_INOUT || t->params[j].role != NPUKB_PARAM_INOUT))
				fail(L, n, "kernel parameters '%s' and '%s' carry the same tensor '%s'",
				     t->params[j].name, p->name, p->tensor);
		td = npukb_task_tensor(t, p->tensor);
		switch (p->role) {
		case NPUKB_PARAM_INOUT:
			if (!td)
				fail(L, n, "kernel parameter '%s' (inout) names no declared tensor",
				     p->name);
			else if (!td->is_inout)
				fail(L, n, "kernel parameter '%s' has role inout but '%s' is declared as an %s",
				     p->name, p->tensor, td->is_output ? "output" : "input");
			break;
		case NPUKB_PARAM_INPUT:
		case NPUKB_PARAM_OUTPUT:
			if (!td)
				fail(L, n, "kernel parameter '%s' (%s) names no declared tensor",
				     p->name, role_names[p->role]);
			else if (td->is_inout)
				fail(L, n, "kernel parameter '%s' has role %s but '%s' is declared as inout",
				     p->name, role_names[p->role], p->tensor);
			else if (td->is_output != (p->role == NPUKB_PARAM_OUTPUT))
				fail(L, n, "kernel parameter '%s' has role %s but '%s' is declared as an %s",
				     p->name, role_names[p->role], p->tensor,
				     td->is_output ? "output" : "input");
			break;
		case NPUKB_PARAM_SCALAR:
			if (td)
				fail(L, n, "kernel parameter '%s' has role scalar but is the name of a tensor",
				     p->name);
			break;
		case NPUKB_PARAM_WORKSPACE:
		case NPUKB_PARAM_TILING:
			if (td)
				fail(L, n, "kernel parameter '%s' has role %s but is the name of a tensor",
				     p->name, role_names[p->role]);
			for (size_t j = 0; j + 1 < i; j++)
				if (t->params[j].role == p->role)
					fail(L, n, "second %s parameter '%s'",
					     role_names[p->role], p->name);
			if (p->role == NPUKB_PARAM_TILING)
				tiling_param = n;
			break;
		}
	}
	/* Every tensor travels as exactly one GM_ADDR parameter. */
	for (size_t k = 0; k < t->ntensors; k++) {
		const struct npukb_tensor_decl *td = &t->tensors[k];
		int found = 0;

		for (size_t j = 0; j < t->nparams; j++)
			if (t->params[j].tensor && td->name &&
			    strcmp(t->params[j].tensor, td->name) == 0)
				found = 1;
		if (td->name && !found)
			diag_add(L->d, L->path, td->line,
				 "tensor '%s' is not a parameter of kernel '%s'", td->name,
				 t->kernel_name ? t->kernel_name : "?");
	}
	if (tiling_param && !has_tiling_elem)
		fail(L, tiling_param,
		     "the kernel takes a tiling parameter but the manifest has no <tiling>");
}

/* <launch block-dim="N"/>: the blocks of a kernel that takes no tiling. */
static void build_launch(struct loader *L, xmlNodePtr root)
{
	xmlNodePtr launch = first_child(root, "launch");
	char *bd;
	long long v = 0;

	if (!launch)
		return;
	bd = need_attr(L, launch, "block-dim");
	if (bd && (parse_ll(bd, &v) < 0 || v < 1 || v > 65535))
		fail(L, launch, "block-dim '%s' is not a number from 1 to 65535", bd);
	else
		L->t->block_dim = (int)v;
	free(bd);
}

static void build_tiling(struct loader *L, xmlNodePtr root, int has_tiling_param)
{
	struct npukb_task *t = L->t;
	xmlNodePtr tiling = first_child(root, "tiling"), n;
	char *bd;
	long long v = 0;
	size_t i = 0;

	if (!tiling)
		return;
	if (!has_tiling_param)
		fail(L, tiling, "<tiling> is given but the kernel has no parameter with role tiling");
	t->tiling_struct = need_attr(L, tiling, "struct");
	bd = need_attr(L, tiling, "block-dim");
	if (bd && (parse_ll(bd, &v) < 0 || v < 1 || v > 65535))
		fail(L, tiling, "block-dim '%s' is not a number from 1 to 65535", bd);
	else
		t->block_dim = (int)v;
	free(bd);
	t->tiling = alloc_array(L, count_children(tiling, "field"), sizeof(*t->tiling));
	if (!t->tiling)
		return;
	FOR_EACH_CHILD(n, tiling, "field") {
		struct npukb_tiling_field *f = &t->tiling[i];

		f->name = need_attr(L, n, "name");
		t->ntiling = ++i;
		read_field(L, n, f, "tiling field");
		if (!f->name)
			continue;
		for (size_t j = 0; j + 1 < i; j++)
			if (t->tiling[j].name && strcmp(t->tiling[j].name, f->name) == 0)
				fail(L, n, "duplicate tiling field '%s'", f->name);
	}
}

static void set_paths(struct loader *L, const char *path)
{
	struct npukb_task *t = L->t;
	char *real = realpath(path, NULL);
	char *slash;

	t->manifest_path = real ? real : dup_str(L, path);
	if (!t->manifest_path)
		return;
	slash = strrchr(t->manifest_path, '/');
	if (!slash)
		t->dir = dup_str(L, ".");
	else if (slash == t->manifest_path)
		t->dir = dup_str(L, "/");
	else {
		t->dir = malloc((size_t)(slash - t->manifest_path) + 1);
		if (!t->dir) {
			L->oom = 1;
			return;
		}
		memcpy(t->dir, t->manifest_path, (size_t)(slash - t->manifest_path));
		t->dir[slash - t->manifest_path] = '\0';
	}
}

/* Checks meaning and builds the task; problems go to L->d. */
static void build_task(struct loader *L, xmlDocPtr doc, const char *path)
{
	xmlNodePtr root = xmlDocGetRootElement(doc);
	unsigned char *bad = NULL;
	int has_tiling_param = 0;
	size_t decl_problems;

	set_paths(L, path);
	build_root(L, root);
	build_attrs(L, root);
	build_tensors(L, root);
	check_shape_of(L);
	build_params(L, root, first_child(root, "tiling") != NULL);
	for (size_t i = 0; i < L->t->nparams; i++)
		if (L->t->params[i].role == NPUKB_PARAM_TILING)
			has_tiling_param = 1;
	build_tiling(L, root, has_tiling_param);
	build_launch(L, root);
	decl_problems = L->d->n + L->d->dropped;
	build_cases(L, root, &bad);
	/* Evaluating cases against broken declarations would only repeat
	 * what is already reported. */
	if (decl_problems == 0 && bad && !L->oom)
		check_cases_and_tiling(L, root, bad);
	free(bad);
}

static int finish(struct diag *d, int rc, char *err, size_t errlen)
{
	if (rc == -ENOMEM || d->oom) {
		if (err && errlen)
			snprintf(err, errlen, "%s: out of memory", d->path);
		rc = -ENOMEM;
	} else if (rc < 0) {
		diag_render(d, err, errlen);
	} else if (err && errlen) {
		err[0] = '\0';
	}
	diag_free(d);
	return rc;
}

int npukb_manifest_load(const char *path, const char *schema_path,
			struct npukb_task **out, char *err, size_t errlen)
{
	struct diag d;
	struct xml_handlers saved;
	struct loader L;
	xmlRelaxNGPtr schema = NULL;
	xmlDocPtr doc = NULL;
	int rc;

	if (out)
		*out = NULL;
	if (!path || !schema_path || !out) {
		if (err && errlen)
			snprintf(err, errlen, "manifest load: %s missing",
				 !path ? "manifest path" : !schema_path ? "schema path" : "result");
		return -EINVAL;
	}
	manifest_xml_init();
	memset(&d, 0, sizeof(d));
	d.path = path;
	memset(&L, 0, sizeof(L));
	L.d = &d;
	L.path = path;
	handlers_push(&saved, &d);

	rc = read_xml(path, &d, &doc);
	if (rc < 0)
		goto out;
	if (!xmlDocGetRootElement(doc)) {
		diag_add(&d, path, 0, "malformed XML: no root element");
		rc = -EINVAL;
		goto out;
	}
	d.path = schema_path;
	rc = compile_schema(schema_path, &d, &schema);
	d.path = path;
	if (rc < 0)
		goto out;
	rc = validate(doc, schema, &d);
	if (rc < 0)
		goto out;

	L.t = calloc(1, sizeof(*L.t));
	if (!L.t) {
		rc = -ENOMEM;
		goto out;
	}
	build_task(&L, doc, path);
	if (L.oom)
		rc = -ENOMEM;
	else if (d.n > 0 || d.dropped > 0)
		rc = -EINVAL;
out:
	handlers_pop(&saved);
	xmlRelaxNGFree(schema);
	xmlFreeDoc(doc);
	if (rc == 0)
		*out = L.t;
	else
		npukb_task_free(L.t);
	return finish(&d, rc, err, errlen);
}

int npukb_manifest_schema_check(const char *schema_path, char *err, size_t errlen)
{
	struct diag d;
	struct xml_handlers saved;
	xmlRelaxNGPtr schema = NULL;
	int rc;

	if (!schema_path) {
		if (err && errlen)
			snprintf(err, errlen, "schema check: schema path missing");
		return -EINVAL;
	}
	manifest_xml_init();
	memset(&d, 0, sizeof(d));
	d.path = schema_path;
	handlers_push(&saved, &d);
	rc = compile_schema(schema_path, &d, &schema);
	handlers_pop(&saved);
	xmlRelaxNGFree(schema);
	return finish(&d, rc, err, errlen);
}
