/* json_line.h - the journal reader's JSON: one flat object per line
 * (journal.c writes them), parsed strictly; nested values are checked and
 * kept only as J_NESTED (private to journal_read.c; hidden). */
#ifndef NPUKB_JSON_LINE_H
#define NPUKB_JSON_LINE_H

#include <stddef.h>

#pragma GCC visibility push(hidden)

enum jkind { J_NULL, J_BOOL, J_NUM, J_STR, J_NESTED };

struct jfield {
	char *key;
	enum jkind kind;
	char *str;
	double num;
};

/* Journal records have under twenty fields; the cap only bounds a hostile
 * line. */
#define MAX_FIELDS 128

struct jobj {
	size_t n;
	struct jfield f[MAX_FIELDS];
};

struct parser {
	const char *p;
	const char *why; /* static text: what was wrong */
	size_t col;      /* where (0-based byte offset) */
	const char *start;
};

void jobj_clear(struct jobj *o);
/* One line holding exactly one object. Returns 0, -1 (syntax: ps->why
 * says what, ps->col where), -ENOMEM. */
int parse_line(const char *line, struct jobj *o, struct parser *ps);
/* The field named key, or NULL. */
const struct jfield *get(const struct jobj *o, const char *key);

#pragma GCC visibility pop

#endif
