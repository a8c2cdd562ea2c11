/* kernel_source.c - namespace-scope declarations of a C++ source, read
 * lexically (see kernel_source.h).
 *
 * The walk keeps a stack of the namespace and extern "C" blocks it is
 * in; everything else with braces (a function body, a class, an
 * initializer) is one declaration, skipped to its matching brace.
 * Comments and literals are skipped (chevron_skip_opaque); a
 * preprocessor line is no part of a declaration. The text a declaration
 * starts with, up to its `{` or `;`, is its head: what kind of
 * declaration it is comes from the head alone. */
#include "kernel_source.h"
#include "chevron.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SCOPES 64

enum decl_kind { DECL_OTHER, DECL_FUNCTION, DECL_TYPE };

struct decl {
	size_t head, open, close; /* close: the '}' or ';' ending it */
	size_t end;               /* just after it (after a type's ';') */
	enum decl_kind kind;
	int c_linkage, ns_depth;
};

typedef void (*decl_fn)(const char *s, const struct decl *d, void *ctx);

static int ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* The index of the first whole identifier `word` in s[from, to) outside
 * comments and literals, followed by '(' (after blanks) when call is set;
 * `to` when there is none. */
static size_t find_word(const char *s, size_t from, size_t to, const char *word, int call)
{
	size_t n = strlen(word);

	for (size_t i = from; i + n <= to; i++) {
		size_t j = chevron_skip_opaque(s, i), k;

		if (j != i) {
			i = j - 1;
			continue;
		}
		if (strncmp(s + i, word, n) != 0 || (i > from && ident_char(s[i - 1])) ||
		    (i + n < to && ident_char(s[i + n])))
			continue;
		for (k = i + n; call && k < to && isspace((unsigned char)s[k]); k++)
			;
		if (!call || (k < to && s[k] == '('))
			return i;
	}
	return to;
}

static int has_word(const char *s, size_t from, size_t to, const char *word)
{
	return find_word(s, from, to, word, 0) < to;
}

/* The first index in [i, to) that is not blank or a comment. */
static size_t skip_blank(const char *s, size_t i, size_t to)
{
	while (i < to) {
		if (isspace((unsigned char)s[i])) {
			i++;
		} else if (s[i] == '/' && (s[i + 1] == '/' || s[i + 1] == '*')) {
			i = chevron_skip_opaque(s, i);
		} else {
			break;
		}
	}
	return i < to ? i : to;
}

static int starts_word(const char *s, size_t i, size_t to, const char *word)
{
	size_t n = strlen(word);
	return i + n <= to && strncmp(s + i, word, n) == 0 && (i + n == to || !ident_char(s[i + n]));
}

/* Past a leading `template <...>` (nested brackets counted). */
static size_t skip_template(const char *s, size_t i, size_t to)
{
	int depth = 0;

	i = skip_blank(s, i, to);
	if (!starts_word(s, i, to, "template"))
		return i;
	for (i += 8; i < to; i++) {
		if (s[i] == '<')
			depth++;
		else if (s[i] == '>' && --depth <= 0)
			return skip_blank(s, i + 1, to);
	}
	return to;
}

/* Whether the head [from, to) before a '{' opens a namespace or an
 * extern "C" block (*c set for the latter). */
static int opens_scope(const char *s, size_t from, size_t to, int *c)
{
	size_t i = skip_blank(s, from, to);

	*c = 0;
	if (starts_word(s, i, to, "inline"))
		i = skip_blank(s, i + 6, to);
	if (starts_word(s, i, to, "namespace"))
		return 1;
	if (starts_word(s, i, to, "extern")) {
		i = skip_blank(s, i + 6, to);
		if (i < to && s[i] == '"' && skip_blank(s, chevron_skip_opaque(s, i), to) == to) {
			*c = strncmp(s + i, "\"C\"", 3) == 0;
			return 1;
		}
	}
	return 0;
}

static enum decl_kind head_kind(const char *s, size_t from, size_t to)
{
	size_t i = skip_template(s, from, to), paren = i;

	if (starts_word(s, i, to, "typedef") || starts_word(s, i, to, "struct") ||
	    starts_word(s, i, to, "class") || starts_word(s, i, to, "union") || starts_word(s, i, to, "enum"))
		return DECL_TYPE;
	while (paren < to && s[paren] != '(') {
		size_t j = chevron_skip_opaque(s, paren);
		if (j != paren) {
			paren = j;
			continue;
		}
		if (s[paren] == '=')
			return DECL_OTHER;
		paren++;
	}
	return paren < to ? DECL_FUNCTION : DECL_OTHER;
}

/* The index of the '}' matching the '{' at i, or 0 when unbalanced. */
static size_t match_brace(const char *s, size_t i)
{
	int depth = 0;

	while (s[i]) {
		size_t j = chevron_skip_opaque(s, i);
		if (j != i) {
			i = j;
			continue;
		}
		if (s[i] == '{')
			depth++;
		else if (s[i] == '}' && --depth == 0)
			return i;
		i++;
	}
	return 0;
}

/* The end of the preprocessor line starting at i (backslash continuations
 * included; comments in it skipped). */
static size_t directive_end(const char *s, size_t i)
{
	while (s[i] && s[i] != '\n') {
		size_t j = chevron_skip_opaque(s, i);
		if (j != i && s[i] == '/') {
			i = j;
			continue;
		}
		i += s[i] == '\\' && s[i + 1] == '\n' ? 2 : 1;
	}
	return i;
}

static int at_line_start(const char *s, size_t i)
{
	while (i > 0 && (s[i - 1] == ' ' || s[i - 1] == '\t'))
		i--;
	return i == 0 || s[i - 1] == '\n';
}

static void walk(const char *s, decl_fn fn, void *ctx)
{
	struct {
		int c, ns;
	} scope[MAX_SCOPES];
	size_t i = 0, head = 0, depth = 0;
	int c_linkage = 0, ns_depth = 0;

	while (s[i]) {
		size_t j = chevron_skip_opaque(s, i);
		struct decl d;
		int c;

		if (j != i) {
			i = j;
			continue;
		}
		if (s[i] == '#' && at_line_start(s, i)) {
			/* a directive between declarations is part of neither */
			int fresh = skip_blank(s, head, i) == i;

			i = directive_end(s, i);
			if (fresh)
				head = i;
			continue;
		}
		if (s[i] == ';' || s[i] == '}') {
			if (s[i] == ';') {
				d = (struct decl){ head, i, i, i + 1, head_kind(s, head, i), c_linkage, ns_depth };
				if (d.kind == DECL_FUNCTION)
					d.kind = DECL_OTHER; /* a declaration, no body */
				fn(s, &d, ctx);
			} else if (depth > 0) {
				depth--;
				c_linkage = depth ? scope[depth - 1].c : 0;
				ns_depth -= scope[depth].ns;
			}
			head = ++i;
			continue;
		}
		if (s[i] != '{') {
			i++;
			continue;
		}
		if (opens_scope(s, head, i, &c)) {
			if (depth == MAX_SCOPES)
				return;
			scope[depth].c = c || c_linkage;
			scope[depth].ns = !c && !has_word(s, head, i, "extern");
			ns_depth += scope[depth].ns;
			c_linkage = scope[depth++].c;
			head = ++i;
			continue;
		}
		d.head = head;
		d.open = i;
		d.close = match_brace(s, i);
		if (!d.close)
			return;
		d.kind = head_kind(s, head, i);
		d.end = d.close + 1;
		if (d.kind != DECL_FUNCTION) {
			/* a class or an initializer runs on to its ';' */
			while (s[d.end] && s[d.end] != ';') {
				size_t k = chevron_skip_opaque(s, d.end);
				d.end = k != d.end ? k : d.end + 1;
			}
			if (s[d.end])
				d.end++;
		}
		d.c_linkage = c_linkage || has_word(s, head, i, "extern");
		d.ns_depth = ns_depth;
		fn(s, &d, ctx);
		head = i = d.end;
	}
}

static int is_device(const char *s, const struct decl *d)
{
	return has_word(s, d->head, d->open, "__aicore__") || has_word(s, d->head, d->open, "__global__");
}

/* The last identifier in [from, to), as [*at, *at + return). */
static size_t last_word(const char *s, size_t from, size_t to, size_t *at)
{
	size_t e = to;

	while (e > from && !ident_char(s[e - 1]))
		e--;
	*at = e;
	while (*at > from && ident_char(s[*at - 1]))
		(*at)--;
	return e - *at;
}

struct scan_ctx {
	const char *kernel, *type;
	struct kernel_source_info *out;
};

static int line_of(const char *s, size_t at)
{
	int line = 1;
	for (size_t i = 0; i < at; i++)
		line += s[i] == '\n';
	return line;
}

/* Whether d (at global scope) defines the type named name. */
static int defines_type(const char *s, const struct decl *d, const char *name)
{
	size_t i = skip_template(s, d->head, d->open), at, n = strlen(name);

	if (d->ns_depth != 0)
		return 0;
	if (starts_word(s, i, d->open, "using")) {
		i = skip_blank(s, i + 5, d->open);
		return starts_word(s, i, d->open, name);
	}
	if (starts_word(s, i, d->open, "typedef"))
		return last_word(s, d->open == d->close ? i : d->close, d->end, &at) == n &&
		       strncmp(s + at, name, n) == 0;
	if (d->kind != DECL_TYPE || d->open == d->close)
		return 0;
	i = skip_blank(s, i + strcspn(s + i, " \t\n{"), d->open);
	if (starts_word(s, i, d->open, "alignas"))
		return 0; /* not worth the parsing: no tiling struct seen does it */
	return starts_word(s, i, d->open, name);
}

static void scan_decl(const char *s, const struct decl *d, void *ctx)
{
	struct scan_ctx *c = ctx;

	if (d->kind == DECL_FUNCTION) {
		if (has_word(s, d->head, d->open, "__global__")) {
			c->out->kernels++;
			if (c->kernel && find_word(s, d->head, d->open, c->kernel, 1) < d->open) {
				c->out->defines_kernel = 1;
				c->out->kernel_c_linkage = d->c_linkage;
			}
		} else if (!is_device(s, d)) {
			c->out->host_functions++;
		}
	}
	if (c->type && !c->out->defines_type && defines_type(s, d, c->type)) {
		c->out->defines_type = 1;
		c->out->type_line = line_of(s, skip_blank(s, d->head, d->open));
	}
}

void kernel_source_scan(const char *text, const char *kernel, const char *type,
			struct kernel_source_info *out)
{
	struct scan_ctx c = { kernel, type, out };

	memset(out, 0, sizeof(*out));
	walk(text, scan_decl, &c);
}

static void blank(char *s, size_t from, size_t to)
{
	for (size_t i = from; i < to && s[i]; i++)
		if (s[i] != '\n')
			s[i] = ' ';
}

struct part_ctx {
	char *copy;
};

static void part_decl(const char *s, const struct decl *d, void *ctx)
{
	struct part_ctx *c = ctx;
	size_t from = skip_blank(s, d->head, d->open);

	if (d->kind == DECL_FUNCTION && !is_device(s, d))
		blank(c->copy, from, d->end);
}

/* An #include of the ACL runtime's headers, which host code alone needs. */
static int includes_acl(const char *s, size_t i, size_t end)
{
	i = skip_blank(s, i + 1, end);
	if (!starts_word(s, i, end, "include"))
		return 0;
	i = skip_blank(s, i + 7, end);
	if (i >= end || (s[i] != '"' && s[i] != '<'))
		return 0;
	i++;
	return strncmp(s + i, "acl/", 4) == 0 || strncmp(s + i, "aclrtlaunch_", 12) == 0;
}

int kernel_source_kernel_part(const char *text, char **out)
{
	struct part_ctx c;
	size_t i = 0;

	c.copy = strdup(text);
	if (!c.copy)
		return -ENOMEM;
	walk(text, part_decl, &c);
	while (text[i]) {
		size_t j = chevron_skip_opaque(text, i), end;
		if (j != i) {
			i = j;
			continue;
		}
		if (text[i] == '#' && at_line_start(text, i)) {
			end = directive_end(text, i);
			if (includes_acl(text, i, end))
				blank(c.copy, i, end);
			i = end;
			continue;
		}
		i++;
	}
	*out = c.copy;
	return 0;
}
