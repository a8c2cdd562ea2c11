/* task.c - queries on the task model (npukb/task.h): lookups, the dtype and
 * shape a tensor has in a case. The evaluator of tiling expressions is
 * tiling_expr.c. */
#include "task_private.h"

#include <npukb/util.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || errlen == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

size_t npukb_shape_numel(const struct npukb_shape *s)
{
	size_t n = 1;

	if (!s || s->rank < 0 || s->rank > NPUKB_MAX_DIMS)
		return 0;
	for (int i = 0; i < s->rank; i++) {
		if (s->dims[i] <= 0)
			return 0;
		/* Saturate rather than wrap: a wrapped count would size
		 * buffers too small. The loader rejects such shapes. */
		if ((uint64_t)s->dims[i] > SIZE_MAX / n)
			return SIZE_MAX;
		n *= (size_t)s->dims[i];
	}
	return n;
}

static void free_case(struct npukb_case *c)
{
	free(c->id);
	for (size_t i = 0; i < c->nshapes; i++) {
		free(c->shapes[i].tensor);
		free(c->shapes[i].members);
	}
	free(c->shapes);
	for (size_t i = 0; i < c->nattrs; i++) {
		free(c->attrs[i].name);
		free(c->attrs[i].value);
	}
	free(c->attrs);
	for (size_t i = 0; i < c->nabsent; i++)
		free(c->absent[i]);
	free(c->absent);
	for (size_t i = 0; i < c->ngolden; i++) {
		free(c->golden[i].tensor);
		free(c->golden[i].path);
	}
	free(c->golden);
}

void npukb_task_free(struct npukb_task *t)
{
	if (!t)
		return;
	free(t->id);
	free(t->category);
	free(t->name);
	free(t->summary);
	free(t->dir);
	free(t->manifest_path);
	free(t->kernel_name);
	for (size_t i = 0; i < t->nparams; i++) {
		free(t->params[i].name);
		free(t->params[i].tensor);
		if (t->params[i].scalar) {
			free(t->params[i].scalar->name);
			free(t->params[i].scalar->expr);
			free(t->params[i].scalar);
		}
	}
	free(t->params);
	for (size_t i = 0; i < t->ntensors; i++) {
		free(t->tensors[i].name);
		free(t->tensors[i].dtype);
		free(t->tensors[i].shape_of);
		free(t->tensors[i].dist.attr);
		free(t->tensors[i].dist.a_expr);
		free(t->tensors[i].dist.b_expr);
		free(t->tensors[i].dist.plant_nonfinite);
		free(t->tensors[i].dist.derive_fn);
		free(t->tensors[i].dist.from);
		free(t->tensors[i].dist.count_expr);
	}
	free(t->tensors);
	for (size_t i = 0; i < t->nattrs; i++) {
		free(t->attrs[i].name);
		free(t->attrs[i].type);
	}
	free(t->attrs);
	free(t->tiling_struct);
	for (size_t i = 0; i < t->ntiling; i++) {
		free(t->tiling[i].name);
		free(t->tiling[i].expr);
	}
	free(t->tiling);
	free(t->tolerance.rule);
	free(t->reference);
	free(t->reference_plugin);
	free(t->lint_allow);
	free(t->lint_why);
	for (size_t i = 0; i < t->ncases; i++)
		free_case(&t->cases[i]);
	free(t->cases);
	free(t);
}

int npukb_task_tensor_index(const struct npukb_task *t, const char *name)
{
	if (!t || !name)
		return -1;
	for (size_t i = 0; i < t->ntensors; i++)
		if (t->tensors[i].name && strcmp(t->tensors[i].name, name) == 0)
			return (int)i;
	return -1;
}

const struct npukb_tensor_decl *npukb_task_tensor(const struct npukb_task *t,
						  const char *name)
{
	int i = npukb_task_tensor_index(t, name);

	return i < 0 ? NULL : &t->tensors[i];
}

const char *npukb_case_attr(const struct npukb_case *c, const char *name)
{
	if (!c || !name)
		return NULL;
	for (size_t i = 0; i < c->nattrs; i++)
		if (c->attrs[i].name && strcmp(c->attrs[i].name, name) == 0)
			return c->attrs[i].value;
	return NULL;
}

long npukb_attr_list_parse(const char *text, double *out, size_t max)
{
	const char *p = text;
	long n = 0;
	int open = 0;

	if (!p)
		return -1;
	while (*p == ' ' || *p == '\t' || *p == '\n')
		p++;
	if (*p == '[') {
		open = 1;
		p++;
	}
	for (;;) {
		char tok[64];
		size_t len = 0;
		double v;
		char *end;

		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == ',')
			p++;
		if (*p == ']' && open) {
			open = 0;
			p++;
			while (*p == ' ' || *p == '\t' || *p == '\n')
				p++;
			return *p ? -1 : n;
		}
		if (!*p)
			return open ? -1 : n;
		while (p[len] && p[len] != ' ' && p[len] != '\t' && p[len] != '\n' &&
		       p[len] != ',' && p[len] != ']')
			len++;
		if (len >= sizeof(tok))
			return -1;
		memcpy(tok, p, len);
		tok[len] = '\0';
		p += len;
		if (strcmp(tok, "true") == 0 || strcmp(tok, "True") == 0) {
			v = 1;
		} else if (strcmp(tok, "false") == 0 || strcmp(tok, "False") == 0) {
			v = 0;
		} else {
			v = npukb_strtod(tok, &end);
			if (end == tok || *end || v != v)
				return -1;
		}
		if (out && (size_t)n < max)
			out[n] = v;
		n++;
	}
}

const char *case_id(const struct npukb_case *c)
{
	return c && c->id ? c->id : "(none)";
}

int npukb_case_tensor_dtype(const struct npukb_task *t, const struct npukb_case *c,
			    const char *name, enum npukb_dtype *out,
			    char *err, size_t errlen)
{
	const struct npukb_tensor_decl *d = npukb_task_tensor(t, name);
	enum npukb_dtype dt;

	if (!d) {
		set_err(err, errlen, "no tensor named '%s'", name ? name : "(null)");
		return -ENOENT;
	}
	if (!d->dtype) {
		set_err(err, errlen, "tensor '%s' has no dtype", d->name);
		return -EINVAL;
	}
	if (d->dtype[0] != '$') {
		dt = npukb_dtype_from_name(d->dtype);
		if (dt == NPUKB_DT_INVALID) {
			set_err(err, errlen, "tensor '%s': unknown dtype '%s'",
				d->name, d->dtype);
			return -EINVAL;
		}
		*out = dt;
		return 0;
	}
	if (strcmp(d->dtype, "$dtype") == 0) {
		if (!c || c->dtype <= NPUKB_DT_INVALID || c->dtype >= NPUKB_DT_COUNT_) {
			set_err(err, errlen,
				"tensor '%s' has dtype $dtype but case '%s' has no valid dtype",
				d->name, case_id(c));
			return -EINVAL;
		}
		*out = c->dtype;
		return 0;
	}
	/* "$attr": the value of a dtype-valued attribute of the case. */
	{
		const char *v = npukb_case_attr(c, d->dtype + 1);

		if (!v) {
			set_err(err, errlen,
				"tensor '%s' takes its dtype from attribute '%s', which case '%s' does not give",
				d->name, d->dtype + 1, case_id(c));
			return -EINVAL;
		}
		dt = npukb_dtype_from_name(v);
		if (dt == NPUKB_DT_INVALID) {
			set_err(err, errlen,
				"tensor '%s': attribute '%s' of case '%s' is '%s', not a dtype",
				d->name, d->dtype + 1, case_id(c), v);
			return -EINVAL;
		}
		*out = dt;
		return 0;
	}
}

static const struct npukb_named_shape *case_named_shape(const struct npukb_case *c,
							 const char *name)
{
	if (!c)
		return NULL;
	for (size_t i = 0; i < c->nshapes; i++)
		if (c->shapes[i].tensor && strcmp(c->shapes[i].tensor, name) == 0)
			return &c->shapes[i];
	return NULL;
}

static const struct npukb_shape *case_shape(const struct npukb_case *c, const char *name)
{
	const struct npukb_named_shape *ns = case_named_shape(c, name);

	return ns ? &ns->shape : NULL;
}

/* Element offsets of the members of a list in its buffer; returns the
 * buffer's length in elements, or SIZE_MAX on overflow. */
static size_t list_layout(const struct npukb_shape *members, size_t n, size_t esize,
			  size_t *offsets)
{
	size_t align = esize && NPUKB_LIST_ALIGN % esize == 0 ? NPUKB_LIST_ALIGN / esize : 1;
	size_t at = 0;

	for (size_t i = 0; i < n; i++) {
		size_t numel = npukb_shape_numel(&members[i]);

		if (at % align)
			at += align - at % align;
		if (offsets)
			offsets[i] = at;
		if (numel > SIZE_MAX / 2 - at)
			return SIZE_MAX;
		at += numel;
	}
	return at;
}

int npukb_case_tensor_members(const struct npukb_task *t, const struct npukb_case *c,
			      const char *name, size_t *nmembers,
			      const struct npukb_shape **members, size_t **offsets,
			      char *err, size_t errlen)
{
	const struct npukb_tensor_decl *d = npukb_task_tensor(t, name);
	const struct npukb_named_shape *ns;
	enum npukb_dtype dt;
	int rc;

	if (offsets)
		*offsets = NULL;
	if (!d) {
		set_err(err, errlen, "no tensor named '%s'", name ? name : "(null)");
		return -ENOENT;
	}
	if (!d->is_list) {
		set_err(err, errlen, "tensor '%s' is not a list", d->name);
		return -EINVAL;
	}
	ns = case_named_shape(c, name);
	/* A list without member shapes of its own has another list's (shape-of);
	 * the manifest loader checked the chain ends at a list, without loops. */
	for (size_t hops = 0; !ns && d->shape_of && hops < t->ntensors; hops++) {
		d = npukb_task_tensor(t, d->shape_of);
		if (!d || !d->is_list)
			break;
		ns = case_named_shape(c, d->name);
	}
	if (!ns || !ns->members || ns->nmembers == 0) {
		set_err(err, errlen, "case '%s' gives no member shapes for list '%s'",
			case_id(c), name);
		return -EINVAL;
	}
	rc = npukb_case_tensor_dtype(t, c, name, &dt, err, errlen);
	if (rc < 0)
		return rc;
	*nmembers = ns->nmembers;
	*members = ns->members;
	if (offsets) {
		*offsets = calloc(ns->nmembers, sizeof(**offsets));
		if (!*offsets)
			return -ENOMEM;
		list_layout(ns->members, ns->nmembers, npukb_dtype_size(dt), *offsets);
	}
	return 0;
}

/* The flat buffer holding a list's members. */
static int list_shape(const struct npukb_task *t, const struct npukb_case *c,
		      const struct npukb_tensor_decl *d, struct npukb_shape *out,
		      char *err, size_t errlen)
{
	const struct npukb_shape *members;
	enum npukb_dtype dt;
	size_t nmembers, n;
	int rc;

	rc = npukb_case_tensor_members(t, c, d->name, &nmembers, &members, NULL, err, errlen);
	if (rc == 0)
		rc = npukb_case_tensor_dtype(t, c, d->name, &dt, err, errlen);
	if (rc < 0)
		return rc;
	n = list_layout(members, nmembers, npukb_dtype_size(dt), NULL);
	if (n == SIZE_MAX || n > (size_t)INT64_MAX) {
		set_err(err, errlen, "case '%s': list '%s' is too large", case_id(c), d->name);
		return -EINVAL;
	}
	memset(out, 0, sizeof(*out));
	out->rank = 1;
	out->dims[0] = (int64_t)n;
	return 0;
}

const struct npukb_golden *npukb_case_golden(const struct npukb_case *c, const char *name)
{
	for (size_t i = 0; c && name && i < c->ngolden; i++)
		if (c->golden[i].tensor && strcmp(c->golden[i].tensor, name) == 0)
			return &c->golden[i];
	return NULL;
}

int npukb_case_tensor_absent(const struct npukb_case *c, const char *name)
{
	for (size_t i = 0; c && name && i < c->nabsent; i++)
		if (strcmp(c->absent[i], name) == 0)
			return 1;
	return 0;
}

int npukb_case_tensor_shape(const struct npukb_task *t, const struct npukb_case *c,
			    const char *name, struct npukb_shape *out,
			    char *err, size_t errlen)
{
	const char *cur = name;

	if (!t || !name) {
		set_err(err, errlen, "no tensor named '%s'", name ? name : "(null)");
		return -ENOENT;
	}
	/* A chain longer than the number of tensors must revisit one. */
	for (size_t hops = 0;; hops++) {
		const struct npukb_tensor_decl *d = npukb_task_tensor(t, cur);
		const struct npukb_shape *s;

		if (!d) {
			if (hops == 0)
				set_err(err, errlen, "no tensor named '%s'", cur);
			else
				set_err(err, errlen,
					"tensor '%s' has the shape of '%s', which is not a tensor",
					name, cur);
			return -ENOENT;
		}
		if (npukb_case_tensor_absent(c, cur)) {
			if (hops == 0)
				set_err(err, errlen, "case '%s' leaves out tensor '%s': it has no shape",
					case_id(c), cur);
			else
				set_err(err, errlen,
					"tensor '%s' has the shape of '%s', which case '%s' leaves out",
					name, cur, case_id(c));
			return -EINVAL;
		}
		if (d->is_list) {
			if (hops > 0) {
				set_err(err, errlen, "tensor '%s' cannot take the shape of list '%s'",
					name, cur);
				return -EINVAL;
			}
			return list_shape(t, c, d, out, err, errlen);
		}
		s = case_shape(c, cur);
		if (s) {
			if (s->rank < 0 || s->rank > NPUKB_MAX_DIMS) {
				set_err(err, errlen, "case '%s': shape of '%s' has rank %d",
					case_id(c), cur, s->rank);
				return -EINVAL;
			}
			*out = *s;
			return 0;
		}
		if (!d->shape_of) {
			if (hops == 0)
				set_err(err, errlen, "case '%s' gives no shape for tensor '%s'",
					case_id(c), cur);
			else
				set_err(err, errlen,
					"case '%s' gives no shape for tensor '%s' (needed for '%s')",
					case_id(c), cur, name);
			return -EINVAL;
		}
		if (hops >= t->ntensors) {
			set_err(err, errlen, "the shape-of chain starting at tensor '%s' loops",
				name);
			return -ELOOP;
		}
		cur = d->shape_of;
	}
}
