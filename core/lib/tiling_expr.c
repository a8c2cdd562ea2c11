/* tiling_expr.c - the evaluator of tiling expressions (npukb_tiling_eval,
 * npukb_tiling_eval_float in npukb/task.h).
 *
 * Tiling expressions are tiny, so the evaluator is a recursive-descent
 * parser that computes as it parses; there is no syntax tree. All integer
 * arithmetic is checked: a manifest must never make the framework crash or
 * pack a silently wrapped value. */
#include "task_private.h"
#include <npukb/util.h>

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPR_MAX_DEPTH 64

/* ---- tiling expressions ------------------------------------------------ */

struct expr {
	const struct npukb_task *t;
	const struct npukb_case *c;
	const char *src;
	const char *p;
	int depth;
	char *err;
	size_t errlen;
};

__attribute__((format(printf, 3, 4)))
static int expr_fail(struct expr *e, const char *at, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	set_err(e->err, e->errlen, "'%s', column %d: %s", e->src,
		(int)(at - e->src) + 1, what);
	return -EINVAL;
}

static void skip_space(struct expr *e)
{
	while (*e->p == ' ' || *e->p == '\t' || *e->p == '\n' || *e->p == '\r')
		e->p++;
}

static int is_ident_start(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_';
}

static int is_ident_char(char ch)
{
	return is_ident_start(ch) || (ch >= '0' && ch <= '9');
}

/* Describe the token at p for messages. */
static void token_desc(const char *p, char *buf, size_t len)
{
	if (*p == '\0')
		snprintf(buf, len, "the end of the expression");
	else if (is_ident_start(*p)) {
		size_t n = 0;

		while (is_ident_char(p[n]))
			n++;
		snprintf(buf, len, "'%.*s'", (int)(n > 40 ? 40 : n), p);
	} else
		snprintf(buf, len, "'%c'", *p);
}

static int expect_char(struct expr *e, char ch)
{
	char tok[64];

	skip_space(e);
	if (*e->p != ch) {
		token_desc(e->p, tok, sizeof(tok));
		return expr_fail(e, e->p, "expected '%c' but found %s", ch, tok);
	}
	e->p++;
	return 0;
}

/* Reads an identifier into buf; returns its length (0: none there). */
static size_t read_ident(struct expr *e, char *buf, size_t len)
{
	size_t n = 0;

	skip_space(e);
	if (!is_ident_start(*e->p))
		return 0;
	while (is_ident_char(e->p[n]))
		n++;
	if (n >= len)
		n = len - 1;
	memcpy(buf, e->p, n);
	buf[n] = '\0';
	while (is_ident_char(*e->p))
		e->p++;
	return n;
}

static int parse_sum(struct expr *e, int64_t *v);

static int checked_add(struct expr *e, const char *at, int64_t a, int64_t b, int64_t *r)
{
	if (__builtin_add_overflow(a, b, r))
		return expr_fail(e, at, "integer overflow in %lld + %lld",
				 (long long)a, (long long)b);
	return 0;
}

static int checked_sub(struct expr *e, const char *at, int64_t a, int64_t b, int64_t *r)
{
	if (__builtin_sub_overflow(a, b, r))
		return expr_fail(e, at, "integer overflow in %lld - %lld",
				 (long long)a, (long long)b);
	return 0;
}

static int checked_mul(struct expr *e, const char *at, int64_t a, int64_t b, int64_t *r)
{
	if (__builtin_mul_overflow(a, b, r))
		return expr_fail(e, at, "integer overflow in %lld * %lld",
				 (long long)a, (long long)b);
	return 0;
}

static int checked_div(struct expr *e, const char *at, char op, int64_t a, int64_t b,
		       int64_t *r)
{
	if (b == 0)
		return expr_fail(e, at, "division by zero in %lld %c 0", (long long)a, op);
	if (a == INT64_MIN && b == -1) {
		if (op == '%') {
			*r = 0;
			return 0;
		}
		return expr_fail(e, at, "integer overflow in %lld / -1", (long long)a);
	}
	*r = op == '/' ? a / b : a % b;
	return 0;
}

/* The tensor argument of numel/dim/rank, resolved to its shape in the case. */
static int tensor_arg(struct expr *e, const char *fn, struct npukb_shape *shape)
{
	char name[128], why[256];
	const char *at;

	skip_space(e);
	at = e->p;
	if (read_ident(e, name, sizeof(name)) == 0) {
		char tok[64];

		token_desc(e->p, tok, sizeof(tok));
		return expr_fail(e, at, "%s() takes a tensor name, found %s", fn, tok);
	}
	if (npukb_task_tensor_index(e->t, name) < 0)
		return expr_fail(e, at, "%s(%s): no tensor named '%s'", fn, name, name);
	if (strcmp(fn, "count") == 0) {
		size_t n = 1;
		const struct npukb_shape *m;

		if (npukb_task_tensor(e->t, name)->is_list &&
		    npukb_case_tensor_members(e->t, e->c, name, &n, &m, NULL, why, sizeof(why)) < 0)
			return expr_fail(e, at, "%s", why);
		memset(shape, 0, sizeof(*shape));
		shape->rank = 1;
		shape->dims[0] = (int64_t)n;
		return 0;
	}
	if (npukb_task_tensor(e->t, name)->is_list)
		return expr_fail(e, at, "%s(%s): '%s' is a tensor list; use count(%s), or the shapes of another tensor",
				 fn, name, name, name);
	if (npukb_case_tensor_shape(e->t, e->c, name, shape, why, sizeof(why)) < 0)
		return expr_fail(e, at, "%s", why);
	return 0;
}

/* A dimension index of prod(): negative counts from the end; to may be rank. */
static int dim_index(struct expr *e, const char *at, int64_t i, int rank, int64_t *out)
{
	if (i < 0)
		i += rank;
	if (i < 0 || i > rank)
		return expr_fail(e, at, "prod(): index out of range for rank %d", rank);
	*out = i;
	return 0;
}

static int call_function(struct expr *e, const char *fn, const char *at, int64_t *v)
{
	struct npukb_shape s;
	int64_t a, b;
	int rc;

	if (strcmp(fn, "numel") == 0 || strcmp(fn, "rank") == 0) {
		rc = tensor_arg(e, fn, &s);
		if (rc < 0)
			return rc;
		if (fn[0] == 'r') {
			*v = s.rank;
		} else {
			size_t n = npukb_shape_numel(&s);

			if (n > (size_t)INT64_MAX)
				return expr_fail(e, at, "integer overflow in numel()");
			*v = (int64_t)n;
		}
		return expect_char(e, ')');
	}
	if (strcmp(fn, "count") == 0) {
		rc = tensor_arg(e, fn, &s);
		if (rc < 0)
			return rc;
		*v = s.dims[0];
		return expect_char(e, ')');
	}
	if (strcmp(fn, "prod") == 0) {
		const char *fat, *tat;
		int64_t from = 0, to = 0, p = 1;

		rc = tensor_arg(e, fn, &s);
		if (rc == 0)
			rc = expect_char(e, ',');
		skip_space(e);
		fat = e->p;
		if (rc == 0)
			rc = parse_sum(e, &a);
		if (rc == 0)
			rc = expect_char(e, ',');
		skip_space(e);
		tat = e->p;
		if (rc == 0)
			rc = parse_sum(e, &b);
		if (rc == 0)
			rc = expect_char(e, ')');
		if (rc == 0)
			rc = dim_index(e, fat, a, s.rank, &from);
		if (rc == 0)
			rc = dim_index(e, tat, b, s.rank, &to);
		for (int64_t k = from; rc == 0 && k < to; k++)
			rc = checked_mul(e, at, p, s.dims[k], &p);
		if (rc < 0)
			return rc;
		*v = p;
		return 0;
	}
	if (strcmp(fn, "dim") == 0) {
		const char *iat;

		rc = tensor_arg(e, fn, &s);
		if (rc == 0)
			rc = expect_char(e, ',');
		skip_space(e);
		iat = e->p;
		if (rc == 0)
			rc = parse_sum(e, &a);
		if (rc == 0)
			rc = expect_char(e, ')');
		if (rc < 0)
			return rc;
		if (a < -(int64_t)s.rank || a >= (int64_t)s.rank)
			return expr_fail(e, iat, "dim(): index %lld is out of range for rank %d",
					 (long long)a, s.rank);
		*v = s.dims[a < 0 ? a + s.rank : a];
		return 0;
	}
	if (strcmp(fn, "min") == 0 || strcmp(fn, "max") == 0 ||
	    strcmp(fn, "ceil_div") == 0) {
		rc = parse_sum(e, &a);
		if (rc == 0)
			rc = expect_char(e, ',');
		if (rc == 0)
			rc = parse_sum(e, &b);
		if (rc == 0)
			rc = expect_char(e, ')');
		if (rc < 0)
			return rc;
		if (strcmp(fn, "min") == 0) {
			*v = a < b ? a : b;
		} else if (strcmp(fn, "max") == 0) {
			*v = a > b ? a : b;
		} else {
			int64_t q, r;

			rc = checked_div(e, at, '/', a, b, &q);
			if (rc < 0)
				return rc;
			r = a % b; /* safe: checked_div excluded b == 0 and MIN/-1 */
			/* Round the truncated quotient up when the exact one
			 * is positive and not whole. */
			if (r != 0 && ((r < 0) == (b < 0)))
				q++;
			*v = q;
		}
		return 0;
	}
	return expr_fail(e, at, "unknown function '%s'", fn);
}

static int name_value(struct expr *e, const char *name, const char *at, int64_t *v)
{
	const char *val;
	char *end;
	long long n;

	if (strcmp(name, "blockdim") == 0) {
		*v = e->t->block_dim;
		return 0;
	}
	for (size_t i = 0; i < e->t->nattrs; i++) {
		const struct npukb_attr_decl *a = &e->t->attrs[i];

		if (!a->name || strcmp(a->name, name) != 0)
			continue;
		if (!a->type || (strcmp(a->type, "int") != 0 && strcmp(a->type, "bool") != 0))
			return expr_fail(e, at, "attribute '%s' has type %s; only int and bool attributes can be used",
					 name, a->type ? a->type : "(none)");
		val = npukb_case_attr(e->c, name);
		if (!val)
			return expr_fail(e, at, "case '%s' gives no value for attribute '%s'",
					 case_id(e->c), name);
		/* A bool is 1 or 0, as a flag in a tiling struct (ApplyAdamWV2's amsgrad). */
		if (strcmp(a->type, "bool") == 0) {
			*v = strcmp(val, "true") == 0 || strcmp(val, "1") == 0;
			return 0;
		}
		errno = 0;
		n = strtoll(val, &end, 10);
		while (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r')
			end++;
		if (end == val || *end != '\0' || errno == ERANGE)
			return expr_fail(e, at, "attribute '%s' = '%s' in case '%s' is not an integer",
					 name, val, case_id(e->c));
		*v = n;
		return 0;
	}
	if (npukb_task_tensor_index(e->t, name) >= 0)
		return expr_fail(e, at, "'%s' is a tensor; use numel(%s), dim(%s, i) or rank(%s)",
				 name, name, name, name);
	return expr_fail(e, at, "unknown name '%s'", name);
}

static int parse_primary(struct expr *e, int64_t *v)
{
	char tok[64];
	const char *at;
	int rc;

	skip_space(e);
	at = e->p;
	if (*e->p >= '0' && *e->p <= '9') {
		int64_t n = 0;

		while (*e->p >= '0' && *e->p <= '9') {
			if (__builtin_mul_overflow(n, 10, &n) ||
			    __builtin_add_overflow(n, *e->p - '0', &n))
				return expr_fail(e, at, "number too large");
			e->p++;
		}
		if (is_ident_char(*e->p))
			return expr_fail(e, e->p, "malformed number");
		*v = n;
		return 0;
	}
	if (*e->p == '(') {
		e->p++;
		rc = parse_sum(e, v);
		if (rc < 0)
			return rc;
		return expect_char(e, ')');
	}
	if (is_ident_start(*e->p)) {
		char name[128];

		read_ident(e, name, sizeof(name));
		skip_space(e);
		if (*e->p == '(') {
			e->p++;
			return call_function(e, name, at, v);
		}
		return name_value(e, name, at, v);
	}
	token_desc(e->p, tok, sizeof(tok));
	return expr_fail(e, at, "expected a number, a name or '(' but found %s", tok);
}

static int parse_unary(struct expr *e, int64_t *v)
{
	const char *at;
	int rc;

	if (++e->depth > EXPR_MAX_DEPTH) {
		skip_space(e);
		return expr_fail(e, e->p, "expression nested too deeply");
	}
	skip_space(e);
	at = e->p;
	if (*e->p == '-' || *e->p == '+') {
		char op = *e->p++;

		rc = parse_unary(e, v);
		if (rc == 0 && op == '-') {
			if (*v == INT64_MIN)
				rc = expr_fail(e, at, "integer overflow in unary minus");
			else
				*v = -*v;
		}
	} else {
		rc = parse_primary(e, v);
	}
	e->depth--;
	return rc;
}

static int parse_product(struct expr *e, int64_t *v)
{
	int rc = parse_unary(e, v);

	while (rc == 0) {
		const char *at;
		char op;
		int64_t rhs;

		skip_space(e);
		op = *e->p;
		if (op != '*' && op != '/' && op != '%')
			break;
		at = e->p++;
		rc = parse_unary(e, &rhs);
		if (rc < 0)
			break;
		if (op == '*')
			rc = checked_mul(e, at, *v, rhs, v);
		else
			rc = checked_div(e, at, op, *v, rhs, v);
	}
	return rc;
}

static int parse_sum(struct expr *e, int64_t *v)
{
	int rc;

	/* Parentheses and function arguments recurse through here. */
	if (++e->depth > EXPR_MAX_DEPTH) {
		skip_space(e);
		return expr_fail(e, e->p, "expression nested too deeply");
	}
	rc = parse_product(e, v);
	while (rc == 0) {
		const char *at;
		char op;
		int64_t rhs;

		skip_space(e);
		op = *e->p;
		if (op != '+' && op != '-')
			break;
		at = e->p++;
		rc = parse_product(e, &rhs);
		if (rc < 0)
			break;
		if (op == '+')
			rc = checked_add(e, at, *v, rhs, v);
		else
			rc = checked_sub(e, at, *v, rhs, v);
	}
	e->depth--;
	return rc;
}

int npukb_tiling_eval(const struct npukb_task *t, const struct npukb_case *c,
		      const char *expr, int64_t *out, char *err, size_t errlen)
{
	struct expr e;
	int64_t v = 0;
	int rc;

	if (!t || !expr || !out) {
		set_err(err, errlen, "tiling expression: missing task, expression or result");
		return -EINVAL;
	}
	memset(&e, 0, sizeof(e));
	e.t = t;
	e.c = c;
	e.src = expr;
	e.p = expr;
	e.err = err;
	e.errlen = errlen;
	rc = parse_sum(&e, &v);
	if (rc < 0)
		return rc;
	skip_space(&e);
	if (*e.p != '\0') {
		char tok[64];

		token_desc(e.p, tok, sizeof(tok));
		return expr_fail(&e, e.p, "unexpected %s after the end of the expression", tok);
	}
	*out = v;
	return 0;
}

int npukb_tiling_eval_float(const struct npukb_task *t, const struct npukb_case *c,
			    const char *expr, double *out, char *err, size_t errlen)
{
	int64_t v;
	int rc;

	for (size_t i = 0; t && expr && i < t->nattrs; i++) {
		const struct npukb_attr_decl *a = &t->attrs[i];
		const char *val;
		char *end;

		if (!a->name || !a->type || strcmp(a->name, expr) != 0 ||
		    strcmp(a->type, "float") != 0)
			continue;
		val = npukb_case_attr(c, a->name);
		if (!val) {
			set_err(err, errlen, "case '%s' gives no value for attribute '%s'",
				case_id(c), a->name);
			return -EINVAL;
		}
		/* a manifest means the same number in every locale */
		*out = npukb_strtod(val, &end);
		if (end == val || *end != '\0') {
			set_err(err, errlen, "attribute '%s' = '%s' in case '%s' is not a number",
				a->name, val, case_id(c));
			return -EINVAL;
		}
		return 0;
	}
	rc = npukb_tiling_eval(t, c, expr, &v, err, errlen);
	if (rc == 0)
		*out = (double)v;
	return rc;
}
