/* srcloc_hide.c - compiler output without the emulation's hidden
 * source-location parameters.
 *
 * Every checked call of the emulation ends in a defaulted `SrcLoc loc`
 * parameter (or an empty `NoLoc...` pack guarded by enable_if), so that a
 * check failure can name the sample's line. A call with one argument too
 * many then binds that argument to the hidden parameter, and g++ says
 * "cannot convert 'uint32_t' to 'npukb_cpusim::SrcLoc'": a message about
 * our plumbing, which the user cannot act on and which the classifier
 * files under `type`. The real AscendC headers have no such parameter, and
 * CANN's compiler says "too many arguments". This module rewrites the
 * output so it reads as it would against the real API: the conversion to
 * SrcLoc becomes "too many arguments", the parameter and its pack vanish
 * from printed signatures and argument counts, and the substitution
 * failures of the guard are dropped. */
#include "srcloc_hide.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOC_TYPE "npukb_cpusim::SrcLoc"

struct buf {
	char *s;
	size_t n, cap;
	int oom;
};

static void put(struct buf *b, const char *s, size_t n)
{
	if (b->oom)
		return;
	if (b->n + n + 1 > b->cap) {
		size_t cap = (b->n + n + 1) * 2;
		char *g = realloc(b->s, cap);
		if (!g) {
			b->oom = 1;
			return;
		}
		b->s = g;
		b->cap = cap;
	}
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = '\0';
}

static void puts_(struct buf *b, const char *s)
{
	put(b, s, strlen(s));
}

/* Removes every occurrence of what from line (in place). */
static void cut_all(char *line, const char *what)
{
	size_t n = strlen(what);
	char *at;
	while ((at = strstr(line, what)) != NULL)
		memmove(at, at + n, strlen(at + n) + 1);
}

/* Removes ", typename std::enable_if<...NoLoc...>::type <anonymous>", the
 * guard of the NoLoc overloads, with its brackets balanced. */
static void cut_noloc_guards(char *line)
{
	static const char head[] = ", typename std::enable_if<";
	static const char tail[] = ">::type <anonymous>";
	char *from = line, *at;

	while ((at = strstr(from, head)) != NULL) {
		char *p = at + sizeof(head) - 1;
		int depth = 1;
		while (*p && depth > 0) {
			depth += *p == '<';
			depth -= *p == '>';
			p++;
		}
		/* p is past the enable_if's closing '>' */
		if (depth == 0 && strncmp(p - 1, tail, sizeof(tail) - 1) == 0) {
			char *end = p - 1 + sizeof(tail) - 1;
			int ours = 0;
			for (char *q = at; q < end && !ours; q++)
				ours = strncmp(q, "NoLoc", 5) == 0;
			if (ours) {
				memmove(at, end, strlen(end) + 1);
				continue;
			}
		}
		from = at + 1;
	}
}

/* The hidden parameter and pack out of a printed signature or a quoted
 * header line. */
static void cut_params(char *line)
{
	static const char *const forms[] = {
		", " LOC_TYPE, LOC_TYPE,               /* signatures g++ prints */
		", SrcLoc loc = NPUKB_LOC", "SrcLoc loc = NPUKB_LOC", /* quoted header lines */
		", NoLoc ...", "NoLoc ...", ", class ... NoLoc", "class ... NoLoc, ",
		", typename... NoLoc", ", class... NoLoc",
	};
	size_t i;
	cut_noloc_guards(line);
	for (i = 0; i < sizeof forms / sizeof forms[0]; i++)
		cut_all(line, forms[i]);
}

/* The text between the opening quote after "cannot convert " and the end of
 * the type it names, when the target is the hidden parameter; NULL else.
 * g++ quotes with U+2018/U+2019, or with ' under LANG=C. */
static const char *to_loc(const char *line, const char *intro, size_t *len)
{
	const char *at = strstr(line, intro), *end;
	if (!at)
		return NULL;
	at += strlen(intro);
	end = strstr(at, " to \xe2\x80\x98" LOC_TYPE "\xe2\x80\x99");
	if (!end)
		end = strstr(at, " to '" LOC_TYPE "'");
	if (!end)
		end = strstr(at, " to type \xe2\x80\x98" LOC_TYPE "\xe2\x80\x99");
	if (!end)
		end = strstr(at, " to type '" LOC_TYPE "'");
	if (!end)
		return NULL;
	*len = (size_t)(end - at);
	return at;
}

/* A quoted source line or caret line of g++ ("  637 | ...", "      |  ^"). */
static int is_quote(const char *line)
{
	const char *p = line + strspn(line, " ");
	p += strspn(p, "0123456789");
	return p > line && *p == ' ' && p[1] == '|';
}

int cpusim_srcloc_hide(const char *text, char **out)
{
	struct buf b = { NULL, 0, 0, 0 };
	const char *p = text;
	int dropping = 0, loc_candidate = 0;

	*out = NULL;
	if (!text)
		return 0;
	puts_(&b, "");
	while (*p) {
		size_t n = strcspn(p, "\n");
		char *line = strndup(p, n);
		const char *what;
		size_t wlen;

		if (!line) {
			free(b.s);
			return -ENOMEM;
		}
		p += n + (p[n] == '\n');
		if (dropping && is_quote(line)) {
			free(line);
			continue;
		}
		dropping = 0;
		if ((what = to_loc(line, "error: cannot convert ", &wlen)) != NULL ||
		    (what = to_loc(line, "error: could not convert ", &wlen)) != NULL) {
			/* "could not convert 'x' from 'T'": the argument, not its type */
			const char *from = strstr(what, " from ");
			if (from && from < what + wlen)
				wlen = (size_t)(from - what);
			/* the one-candidate form: the call itself is the error */
			put(&b, line, (size_t)(strstr(line, "error: ") - line));
			puts_(&b, "error: too many arguments to function: ");
			put(&b, what, wlen);
			puts_(&b, " is past its last parameter\n");
		} else if ((what = to_loc(line, "note:   cannot convert ", &wlen)) != NULL) {
			put(&b, line, (size_t)(strstr(line, "note:") - line));
			puts_(&b, "note:   too many arguments: ");
			put(&b, what, wlen);
			puts_(&b, " is past the last parameter\n");
		} else if (strstr(line, "note:   initializing argument") && strstr(line, LOC_TYPE)) {
			dropping = 1; /* "initializing" the hidden parameter */
		} else if (strstr(line, "npukb_cpusim/") && strstr(line, "error: no type named") &&
			   strstr(line, "std::enable_if<false")) {
			dropping = 1; /* the NoLoc guard refusing a located call */
		} else {
			char *c = strstr(line, "candidate expects ");
			long k;
			char *end;
			if (strstr(line, "note: candidate"))
				loc_candidate = strstr(line, LOC_TYPE) != NULL;
			cut_params(line);
			/* the candidate's count included the hidden parameter */
			if (c && loc_candidate && (c = strstr(line, "candidate expects ")) != NULL &&
			    (k = strtol(c + 18, &end, 10)) > 0 && strncmp(end, " argument", 9) == 0) {
				put(&b, line, (size_t)(c + 18 - line));
				{
					char num[24];
					snprintf(num, sizeof num, "%ld", k - 1);
					puts_(&b, num);
				}
				puts_(&b, end);
			} else {
				puts_(&b, line);
			}
			puts_(&b, "\n");
		}
		free(line);
	}
	if (b.oom) {
		free(b.s);
		return -ENOMEM;
	}
	*out = b.s;
	return 0;
}
