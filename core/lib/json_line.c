/* json_line.c - strict JSON (RFC 8259) for one object per line, the form
 * of a journal record (json_line.h). Nested values are checked and
 * ignored so newer writers can add fields. Numbers are read in the C
 * locale whatever the process locale is. */
#include "json_line.h"

#include <npukb/util.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 32

void jobj_clear(struct jobj *o)
{
	size_t i;
	for (i = 0; i < o->n; i++) {
		free(o->f[i].key);
		free(o->f[i].str);
	}
	o->n = 0;
}

static int fail(struct parser *ps, const char *why)
{
	if (!ps->why) {
		ps->why = why;
		ps->col = (size_t)(ps->p - ps->start);
	}
	return -1;
}

static void skip_ws(struct parser *ps)
{
	while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')
		ps->p++;
}

static int hex4(const char *s, unsigned *out)
{
	unsigned v = 0;
	int i;
	for (i = 0; i < 4; i++) {
		char c = s[i];
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

static char *put_utf8(char *o, unsigned cp)
{
	if (cp < 0x80) {
		*o++ = (char)cp;
	} else if (cp < 0x800) {
		*o++ = (char)(0xC0 | (cp >> 6));
		*o++ = (char)(0x80 | (cp & 0x3F));
	} else if (cp < 0x10000) {
		*o++ = (char)(0xE0 | (cp >> 12));
		*o++ = (char)(0x80 | ((cp >> 6) & 0x3F));
		*o++ = (char)(0x80 | (cp & 0x3F));
	} else {
		*o++ = (char)(0xF0 | (cp >> 18));
		*o++ = (char)(0x80 | ((cp >> 12) & 0x3F));
		*o++ = (char)(0x80 | ((cp >> 6) & 0x3F));
		*o++ = (char)(0x80 | (cp & 0x3F));
	}
	return o;
}

/* A string literal at ps->p; *out gets a malloc'd copy when out != NULL.
 * Returns 0, -1 on bad syntax (ps->why), -ENOMEM. */
static int parse_string(struct parser *ps, char **out)
{
	const char *s = ps->p + 1;
	size_t len = 0;
	char *buf, *o;
	/* first pass: find the end and validate; escapes never grow */
	while (*s != '"') {
		if (*s == '\0')
			return fail(ps, "unterminated string");
		if ((unsigned char)*s < 0x20) {
			ps->p = s;
			return fail(ps, "control character in a string");
		}
		if (*s == '\\') {
			s++;
			if (*s == 'u') {
				unsigned u;
				if (hex4(s + 1, &u) != 0) {
					ps->p = s;
					return fail(ps, "bad \\u escape");
				}
				s += 4;
			} else if (!strchr("\"\\/bfnrt", *s) || *s == '\0') {
				ps->p = s;
				return fail(ps, "bad escape in a string");
			}
		}
		s++;
		len++;
	}
	buf = malloc((size_t)(s - ps->p) + 1);
	if (!buf)
		return -ENOMEM;
	o = buf;
	for (s = ps->p + 1; *s != '"'; s++) {
		unsigned cp, lo;
		if (*s != '\\') {
			*o++ = *s;
			continue;
		}
		s++;
		switch (*s) {
		case 'b': *o++ = '\b'; break;
		case 'f': *o++ = '\f'; break;
		case 'n': *o++ = '\n'; break;
		case 'r': *o++ = '\r'; break;
		case 't': *o++ = '\t'; break;
		case 'u':
			hex4(s + 1, &cp);
			s += 4;
			if (cp >= 0xD800 && cp <= 0xDBFF && s[1] == '\\' && s[2] == 'u' &&
			    hex4(s + 3, &lo) == 0 && lo >= 0xDC00 && lo <= 0xDFFF) {
				cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
				s += 6;
			} else if (cp >= 0xD800 && cp <= 0xDFFF) {
				cp = 0xFFFD; /* a lone surrogate is not text */
			}
			if (cp == 0)
				cp = 0xFFFD; /* keep C strings whole */
			o = put_utf8(o, cp);
			break;
		default: *o++ = *s; break;
		}
	}
	*o = '\0';
	(void)len;
	ps->p = s + 1;
	if (out)
		*out = buf;
	else
		free(buf);
	return 0;
}

static int parse_number(struct parser *ps, double *out)
{
	const char *s = ps->p, *b = s;
	char buf[128];
	if (*s == '-')
		s++;
	if (*s == '0')
		s++;
	else if (*s >= '1' && *s <= '9')
		while (*s >= '0' && *s <= '9')
			s++;
	else
		return fail(ps, "bad number");
	if (*s == '.') {
		s++;
		if (!(*s >= '0' && *s <= '9')) {
			ps->p = s;
			return fail(ps, "bad number");
		}
		while (*s >= '0' && *s <= '9')
			s++;
	}
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (!(*s >= '0' && *s <= '9')) {
			ps->p = s;
			return fail(ps, "bad number");
		}
		while (*s >= '0' && *s <= '9')
			s++;
	}
	if ((size_t)(s - b) >= sizeof(buf))
		return fail(ps, "number too long");
	memcpy(buf, b, (size_t)(s - b));
	buf[s - b] = '\0';
	*out = npukb_strtod(buf, NULL);
	ps->p = s;
	return 0;
}

static int parse_value(struct parser *ps, struct jfield *f, int depth);

/* An object or array below the top level: validated, then dropped. */
static int skip_container(struct parser *ps, int depth)
{
	char close = *ps->p == '{' ? '}' : ']';
	int is_obj = close == '}';
	if (depth > MAX_DEPTH)
		return fail(ps, "nested too deep");
	ps->p++;
	skip_ws(ps);
	if (*ps->p == close) {
		ps->p++;
		return 0;
	}
	for (;;) {
		struct jfield tmp;
		int rc;
		memset(&tmp, 0, sizeof(tmp));
		if (is_obj) {
			if (*ps->p != '"')
				return fail(ps, "expected a key");
			if ((rc = parse_string(ps, NULL)) != 0)
				return rc;
			skip_ws(ps);
			if (*ps->p != ':')
				return fail(ps, "expected ':'");
			ps->p++;
			skip_ws(ps);
		}
		rc = parse_value(ps, &tmp, depth + 1);
		free(tmp.str);
		if (rc != 0)
			return rc;
		skip_ws(ps);
		if (*ps->p == ',') {
			ps->p++;
			skip_ws(ps);
			continue;
		}
		if (*ps->p == close) {
			ps->p++;
			return 0;
		}
		return fail(ps, is_obj ? "expected ',' or '}'" : "expected ',' or ']'");
	}
}

static int parse_value(struct parser *ps, struct jfield *f, int depth)
{
	const char *s = ps->p;
	if (*s == '"') {
		f->kind = J_STR;
		return parse_string(ps, &f->str);
	}
	if (*s == '{' || *s == '[') {
		f->kind = J_NESTED;
		return skip_container(ps, depth);
	}
	if (strncmp(s, "null", 4) == 0) {
		f->kind = J_NULL;
		ps->p += 4;
		return 0;
	}
	if (strncmp(s, "true", 4) == 0 || strncmp(s, "false", 5) == 0) {
		f->kind = J_BOOL;
		f->num = *s == 't';
		ps->p += *s == 't' ? 4 : 5;
		return 0;
	}
	if (*s == '-' || (*s >= '0' && *s <= '9')) {
		f->kind = J_NUM;
		return parse_number(ps, &f->num);
	}
	return fail(ps, "expected a value");
}

/* One line holding exactly one object. Returns 0, -1 (syntax), -ENOMEM. */
int parse_line(const char *line, struct jobj *o, struct parser *ps)
{
	int rc;
	memset(ps, 0, sizeof(*ps));
	ps->p = ps->start = line;
	o->n = 0;
	skip_ws(ps);
	if (*ps->p != '{')
		return fail(ps, "a record must be a JSON object");
	ps->p++;
	skip_ws(ps);
	if (*ps->p == '}') {
		ps->p++;
	} else {
		for (;;) {
			struct jfield *f;
			size_t i;
			if (*ps->p != '"')
				return fail(ps, "expected a key");
			if (o->n == MAX_FIELDS)
				return fail(ps, "too many fields");
			f = &o->f[o->n];
			memset(f, 0, sizeof(*f));
			if ((rc = parse_string(ps, &f->key)) != 0)
				return rc;
			o->n++;
			for (i = 0; i + 1 < o->n; i++)
				if (strcmp(o->f[i].key, f->key) == 0)
					return fail(ps, "duplicate key");
			skip_ws(ps);
			if (*ps->p != ':')
				return fail(ps, "expected ':'");
			ps->p++;
			skip_ws(ps);
			if ((rc = parse_value(ps, f, 1)) != 0)
				return rc;
			skip_ws(ps);
			if (*ps->p == ',') {
				ps->p++;
				skip_ws(ps);
				continue;
			}
			if (*ps->p == '}') {
				ps->p++;
				break;
			}
			return fail(ps, "expected ',' or '}'");
		}
	}
	skip_ws(ps);
	if (*ps->p != '\0')
		return fail(ps, "text after the object");
	return 0;
}

const struct jfield *get(const struct jobj *o, const char *key)
{
	size_t i;
	for (i = 0; i < o->n; i++)
		if (strcmp(o->f[i].key, key) == 0)
			return &o->f[i];
	return NULL;
}
