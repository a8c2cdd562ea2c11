/* line_facts.c - read the source line g++ quotes under an error (see
 * line_facts.h). Each test is about the text alone, so it holds for any
 * name a sample chose. */
#include "line_facts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE_LEN 512

static int is_ident(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static int is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* The text of the first quoted source line ("   70 | text") under the
 * error, before any note (a note quotes other places), into out. */
static int quoted_line(char *const *notes, size_t nnotes, char *out)
{
	size_t i;
	for (i = 0; i < nnotes; i++) {
		const char *p = notes[i];
		if (!p)
			continue;
		if (strstr(p, "note:") || strstr(p, "error:") || strstr(p, "warning:"))
			return -1;
		while (*p == ' ')
			p++;
		if (!(*p >= '0' && *p <= '9'))
			continue;
		while (*p >= '0' && *p <= '9')
			p++;
		if (strncmp(p, " | ", 3) != 0)
			continue;
		snprintf(out, LINE_LEN, "%s", p + 3);
		return 0;
	}
	return -1;
}

/* Four or more plain words, the last ending a sentence, or six or more:
 * no C++ line is a run of bare words without an operator, a bracket or a
 * semicolon (a type of four words, "unsigned long long int", ends with
 * none of .:!?). Apostrophes and hyphens are a word's; a comma, period,
 * colon, ! or ? may end one. */
static int is_prose(const char *s)
{
	size_t words = 0;
	char last = '\0';
	while (*s) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		if (!is_alpha(*s))
			return 0;
		while (is_alpha(*s) || (*s >= '0' && *s <= '9') || *s == '\'' || *s == '-')
			s++;
		last = '\0';
		if (*s && strchr(",.:!?", *s))
			last = *s++;
		if (*s && *s != ' ' && *s != '\t')
			return 0;
		words++;
	}
	return words >= 6 || (words >= 4 && last && strchr(".:!?", last));
}

/* s with its comment cut and the insides of string and character literals
 * blanked, so that neither a URL nor "a:b" in a string is read as code. */
static void code_only(const char *s, char *out)
{
	char quote = '\0';
	size_t n = 0;
	for (; *s && n + 2 < LINE_LEN; s++) {
		if (quote) {
			if (*s == '\\' && s[1]) {
				out[n++] = ' ';
				s++;
			} else if (*s == quote) {
				quote = '\0';
				out[n++] = *s;
				continue;
			}
			out[n++] = ' ';
			continue;
		}
		if (*s == '/' && (s[1] == '/' || s[1] == '*'))
			break;
		if (*s == '"' || *s == '\'')
			quote = *s;
		out[n++] = *s;
	}
	out[n] = '\0';
}

/* The first word of s equals one of words. */
static int first_word_in(const char *s, const char *const *words)
{
	size_t n;
	while (*s == ' ' || *s == '\t')
		s++;
	for (n = 0; is_ident(s[n]); n++)
		;
	for (; *words; words++)
		if (strlen(*words) == n && strncmp(s, *words, n) == 0)
			return 1;
	return 0;
}

/* "QuePosition:VECOUT": a colon with a name on each side and no second
 * colon is the scope operator '::' with one colon lost. The C++ that
 * writes name:name is left out: a ternary (a?b:c), a class head
 * (class A:public B), a range-for (for (auto x:xs)), a case or access
 * label; a bit-field's width (x:3) has a digit after the colon. */
static int has_single_colon(const char *code)
{
	static const char *const heads[] = { "class", "struct", "union", "enum", "case",
					     "public", "private", "protected", "default", NULL };
	const char *p;
	if (strchr(code, '?') || first_word_in(code, heads))
		return 0;
	for (p = code; (p = strstr(p, "for")) != NULL; p += 3) {
		const char *q = p + 3;
		while (*q == ' ')
			q++;
		if ((p == code || !is_ident(p[-1])) && *q == '(')
			return 0;
	}
	for (p = code + 1; *p; p++)
		if (*p == ':' && is_ident(p[-1]) && (is_alpha(p[1]) || p[1] == '_'))
			return 1;
	return 0;
}

/* A template argument list opened (Name<) and still open where the
 * statement or its declarator ends (';', '{' or an assignment '='):
 * "LocalTensor<half x = ...;". Only asked when g++ said it was reading
 * template arguments, so a '<' after a name opens a list; one opened
 * inside parentheses is dropped when they close (a comparison in a call or
 * a condition), and only an end outside parentheses counts. */
static int has_unclosed_angle(const char *code)
{
	int depth[64], paren = 0;
	size_t open = 0;
	const char *p;
	for (p = code; *p; p++) {
		char prev = p > code ? p[-1] : '\0';
		switch (*p) {
		case '<':
			if (is_ident(prev) && p[1] != '<' && p[1] != '=' && open < 64)
				depth[open++] = paren;
			break;
		case '>':
			if (prev != '-' && p[1] != '=' && open > 0)
				open--;
			break;
		case '(':
			paren++;
			break;
		case ')':
			paren--;
			while (open > 0 && depth[open - 1] > paren)
				open--;
			break;
		case '=':
		case ';':
		case '{':
			/* '=' ends the declarator unless it is part of ==, <=, >=, != */
			if (*p == '=' && (p[1] == '=' || prev == '=' || prev == '<' || prev == '>' ||
					  prev == '!'))
				break;
			/* inside parentheses ';' and '=' are a for header's
			 * or a condition's, not the statement's end */
			if (paren == 0 && open > 0)
				return 1;
			break;
		default:
			break;
		}
	}
	return 0;
}

char *classify_line_facts(const char *error, char *const *notes, size_t nnotes)
{
	char line[LINE_LEN], code[LINE_LEN];
	const char *fact = NULL;
	char *out = NULL;

	if (!error || quoted_line(notes, nnotes, line) != 0)
		return NULL;
	code_only(line, code);
	if (is_prose(line))
		fact = "the quoted line is prose, not code";
	else if (has_single_colon(code))
		fact = "a single ':' joins two names";
	else if (strstr(error, "template argument") && has_unclosed_angle(code))
		fact = "a template argument list is not closed";
	if (fact && asprintf(&out, LINE_FACT_PREFIX "%s", fact) < 0)
		out = NULL;
	return out;
}
