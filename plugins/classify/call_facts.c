/* call_facts.c - compare a failed call's argument types with its
 * candidates' parameter types (see call_facts.h). Only g++'s wording is
 * read: clang states the arity of every candidate itself. */
#include "call_facts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ARGS 16
#define MAX_CANDIDATES 64
#define MAX_TPARAMS 8
#define TYPE_LEN 160

struct typelist {
	size_t n;
	char t[MAX_ARGS][TYPE_LEN];
};

struct candidate {
	struct typelist params;
	size_t ntparams;
	char tparam[MAX_TPARAMS][32];
	int variadic;      /* "..." among the parameters: any count may fit */
	int arity_stated;  /* g++ said "candidate expects N arguments" for it */
};

enum kind { K_LOCAL, K_GLOBAL, K_QUE, K_TBUF, K_PIPE, K_PTR, K_INT, K_FLOAT, K_GENERIC, K_OTHER };

static int starts_with(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

/* Remove every occurrence of word w (a whole word when it is alphabetic). */
static void cut_word(char *s, const char *w)
{
	size_t n = strlen(w);
	char *p = s;
	while ((p = strstr(p, w)) != NULL) {
		int left_ok = p == s || !(p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z') ||
					  (p[-1] >= 'A' && p[-1] <= 'Z') || (p[-1] >= '0' && p[-1] <= '9'));
		char r = p[n];
		int right_ok = !(r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') ||
				 (r >= '0' && r <= '9'));
		if ((w[n - 1] == ':' || (left_ok && right_ok))) {
			memmove(p, p + n, strlen(p + n) + 1);
		} else {
			p += n;
		}
	}
}

/* A type as printed, without qualifiers, references, namespaces or the
 * {aka ...} gloss, and without spaces at its ends. */
static void normalise_type(const char *in, size_t len, char *out)
{
	char *aka, *p, *q;
	if (len >= TYPE_LEN)
		len = TYPE_LEN - 1;
	memcpy(out, in, len);
	out[len] = '\0';
	if ((aka = strstr(out, " {aka")) != NULL)
		*aka = '\0';
	cut_word(out, "const");
	cut_word(out, "volatile");
	cut_word(out, "__gm__");
	cut_word(out, "AscendC::");
	cut_word(out, "npukb_cpusim::");
	for (p = q = out; *p; p++) {
		if (*p == '&')
			continue;
		if (*p == ' ' && (q == out || q[-1] == ' '))
			continue;
		*q++ = *p;
	}
	while (q > out && q[-1] == ' ')
		q--;
	*q = '\0';
}

/* Split "a, b<c, d>, e" at the commas outside brackets into l. The text
 * ends at end; returns -1 on too many items. */
static int split_list(const char *s, const char *end, struct typelist *l)
{
	int depth = 0;
	const char *start = s;
	l->n = 0;
	while (s < end && (*s == ' '))
		s++;
	if (s == end)
		return 0;
	start = s;
	for (; s <= end; s++) {
		if (s < end && (*s == '<' || *s == '(' || *s == '['))
			depth++;
		else if (s < end && (*s == '>' || *s == ')' || *s == ']'))
			depth--;
		else if (s == end || (*s == ',' && depth == 0)) {
			if (l->n == MAX_ARGS)
				return -1;
			normalise_type(start, (size_t)(s - start), l->t[l->n++]);
			start = s + 1;
		}
	}
	return 0;
}

/* The parameter list of the first '(' outside angle brackets in s, up to
 * its matching ')'; returns 0 and sets [*open, *close) or -1. */
static int find_parens(const char *s, const char *limit, const char **open, const char **close)
{
	int angle = 0, paren = 0;
	const char *p;
	for (p = s; p < limit; p++) {
		if (*p == '<')
			angle++;
		else if (*p == '>' && angle > 0)
			angle--;
		else if (*p == '(' && angle == 0) {
			*open = p + 1;
			break;
		}
	}
	if (p >= limit)
		return -1;
	for (p = *open; p < limit; p++) {
		if (*p == '(')
			paren++;
		else if (*p == ')') {
			if (paren == 0) {
				*close = p;
				return 0;
			}
			paren--;
		}
	}
	return -1;
}

/* The argument types of "no matching function for call to 'f<X>(A, B)'",
 * and the template arguments given explicitly (X), if any. */
static int parse_call(const char *error, struct typelist *args, struct typelist *targs)
{
	static const char intro[] = "no matching function for call to '";
	const char *s = strstr(error, intro), *end, *open, *close, *lt;
	int depth = 0;
	targs->n = 0;
	if (!s)
		return -1;
	s += sizeof(intro) - 1;
	end = strrchr(s, '\'');
	if (!end || find_parens(s, end, &open, &close) != 0)
		return -1;
	/* the name ends at the '(' before open: "Cast<half, float>" */
	if (open - 1 > s && open[-2] == '>') {
		for (lt = open - 2; lt > s; lt--) {
			if (*lt == '>')
				depth++;
			else if (*lt == '<' && --depth == 0)
				break;
		}
		if (depth == 0 && *lt == '<' && split_list(lt + 1, open - 2, targs) != 0)
			return -1;
	}
	return split_list(open, close, args);
}

/* "template<class T, bool isSetMask> void AscendC::Add(...)" */
static int parse_candidate(const char *note, struct candidate *c)
{
	const char *s = strstr(note, "note: candidate: '"), *end, *open, *close;
	size_t i;
	memset(c, 0, sizeof(*c));
	if (!s)
		return -1;
	s += strlen("note: candidate: '");
	end = strrchr(s, '\'');
	if (!end)
		return -1;
	if (starts_with(s, "template<")) {
		/* the names of the template parameters: the last word of each */
		const char *p = s + strlen("template<");
		int depth = 1;
		const char *word = NULL, *wend = NULL;
		for (; p < end && depth > 0; p++) {
			char ch = *p;
			int is_id = ch == '_' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
				    (ch >= '0' && ch <= '9');
			if (ch == '<')
				depth++;
			else if (ch == '>')
				depth--;
			if (is_id) {
				if (!word || wend != p)
					word = p;
				wend = p + 1;
			}
			if ((ch == ',' && depth == 1) || depth == 0) {
				if (word && c->ntparams < MAX_TPARAMS && wend - word < 32) {
					memcpy(c->tparam[c->ntparams], word, (size_t)(wend - word));
					c->tparam[c->ntparams][wend - word] = '\0';
					c->ntparams++;
				}
				word = NULL;
			}
		}
		s = p;
	}
	if (find_parens(s, end, &open, &close) != 0 || split_list(open, close, &c->params) != 0)
		return -1;
	for (i = 0; i < c->params.n; i++)
		if (strstr(c->params.t[i], "..."))
			c->variadic = 1;
	return 0;
}

static int in_list(const char *t, const char *const *names)
{
	for (; *names; names++)
		if (strcmp(t, *names) == 0)
			return 1;
	return 0;
}

static enum kind kind_of(const char *t, const struct candidate *c)
{
	static const char *const ints[] = {
		"int", "unsigned", "unsigned int", "long", "long int", "long unsigned int",
		"unsigned long", "long long", "long long int", "long long unsigned int",
		"short", "short int", "short unsigned int", "char", "signed char", "unsigned char",
		"bool", "size_t", "int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t",
		"uint32_t", "int64_t", "uint64_t", NULL
	};
	static const char *const floats[] = { "half", "float", "double", "bfloat16_t",
					      "float16_t", "__bf16", "_Float16", NULL };
	size_t i, n = strlen(t);
	/* a pointer first: a pointer to a tensor is no tensor */
	if (n > 0 && t[n - 1] == '*')
		return K_PTR;
	if (strstr(t, "LocalTensor"))
		return K_LOCAL;
	if (strstr(t, "GlobalTensor"))
		return K_GLOBAL;
	if (strstr(t, "TQue"))
		return K_QUE;
	if (starts_with(t, "TBuf"))
		return K_TBUF;
	if (starts_with(t, "TPipe"))
		return K_PIPE;
	if (in_list(t, ints))
		return K_INT;
	if (in_list(t, floats))
		return K_FLOAT;
	for (i = 0; c && i < c->ntparams; i++)
		if (strcmp(t, c->tparam[i]) == 0)
			return K_GENERIC;
	return K_OTHER;
}

/* The element type of the call's tensors when they all share one. */
static void element_type(const struct typelist *args, char *elem)
{
	size_t i;
	elem[0] = '\0';
	for (i = 0; i < args->n; i++) {
		const char *lt = strchr(args->t[i], '<'), *gt = strrchr(args->t[i], '>');
		enum kind k = kind_of(args->t[i], NULL);
		char e[TYPE_LEN];
		if ((k != K_LOCAL && k != K_GLOBAL) || !lt || !gt || gt <= lt)
			continue;
		memcpy(e, lt + 1, (size_t)(gt - lt - 1));
		e[gt - lt - 1] = '\0';
		if (!elem[0])
			strcpy(elem, e);
		else if (strcmp(elem, e) != 0) {
			elem[0] = '\0';
			return;
		}
	}
}

static int is_id_char(char ch)
{
	return ch == '_' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       (ch >= '0' && ch <= '9');
}

/* Is the template parameter name of c that starts at p (a whole word)
 * one of c's? Returns its length, or 0. */
static size_t tparam_at(const char *p, const char *start, const struct candidate *c)
{
	size_t j, n;
	if (p > start && is_id_char(p[-1]))
		return 0;
	for (j = 0; c && j < c->ntparams; j++) {
		n = strlen(c->tparam[j]);
		if (strncmp(p, c->tparam[j], n) == 0 && !is_id_char(p[n]))
			return n;
	}
	return 0;
}

/* arg spelled as param with each of c's template parameters standing for
 * any one type: "DataCopyPadExtParams<half>" fits
 * "DataCopyPadExtParams<T>". */
static int same_up_to_tparams(const char *arg, const char *param, const struct candidate *c)
{
	const char *a = arg, *p = param;
	while (*p) {
		size_t n = tparam_at(p, param, c);
		if (n > 0) {
			/* one type: up to a ',' or '>' outside brackets */
			int depth = 0;
			const char *from = a;
			for (; *a; a++) {
				if (*a == '<' || *a == '(')
					depth++;
				else if ((*a == '>' || *a == ')') && depth > 0)
					depth--;
				else if ((*a == ',' || *a == '>' || *a == ')') && depth == 0)
					break;
			}
			if (a == from)
				return 0;
			p += n;
			continue;
		}
		if (*a != *p)
			return 0;
		a++;
		p++;
	}
	return *a == '\0';
}

static int fits(const char *arg, const char *param, const struct candidate *c, const char *elem)
{
	enum kind ka = kind_of(arg, NULL), kp = kind_of(param, c);
	switch (kp) {
	case K_GENERIC:
		/* a scalar of the tensors' element type, when they have one */
		if (ka == K_INT || ka == K_FLOAT)
			return !elem[0] || strcmp(arg, elem) == 0;
		return ka == K_OTHER;
	case K_OTHER:
		return ka == K_OTHER && same_up_to_tparams(arg, param, c);
	default:
		return ka == kp;
	}
}

static int fits_all(const struct typelist *args, const size_t *order, const struct candidate *c,
		    const char *elem)
{
	size_t i;
	for (i = 0; i < args->n; i++)
		if (!fits(args->t[order[i]], c->params.t[i], c, elem))
			return 0;
	return 1;
}

/* Two arguments whose exchange makes the call fit candidate c. */
static int swapped_pair(const struct typelist *args, const struct candidate *c, const char *elem,
			size_t *a, size_t *b)
{
	size_t order[MAX_ARGS], i, j;
	for (i = 0; i < args->n; i++)
		order[i] = i;
	if (fits_all(args, order, c, elem))
		return 0;
	for (i = 0; i < args->n; i++) {
		for (j = i + 1; j < args->n; j++) {
			order[i] = j;
			order[j] = i;
			if (fits_all(args, order, c, elem)) {
				*a = i;
				*b = j;
				return 1;
			}
			order[i] = i;
			order[j] = j;
		}
	}
	return 0;
}

/* One argument left out: the call's arguments fit candidate c once its
 * parameter *m is skipped (pipe.InitBuffer(BUFFER_NUM, len) without the
 * queue). */
static int missing_argument(const struct typelist *args, const struct candidate *c,
			    const char *elem, size_t *m)
{
	size_t k, i;
	if (c->variadic || c->params.n != args->n + 1)
		return 0;
	for (k = 0; k < c->params.n; k++) {
		for (i = 0; i < args->n; i++)
			if (!fits(args->t[i], c->params.t[i < k ? i : i + 1], c, elem))
				break;
		if (i == args->n) {
			*m = k;
			return 1;
		}
	}
	return 0;
}

/* An argument passed by its address (&dst) where the value goes: taking
 * the '*' off it makes the call fit c, every other argument as given. */
static int pointer_for_value(const struct typelist *args, const struct candidate *c, size_t *a)
{
	struct typelist deref;
	size_t order[MAX_ARGS], i, n;
	char elem[TYPE_LEN];
	for (i = 0; i < args->n; i++)
		order[i] = i;
	for (i = 0; i < args->n; i++) {
		n = strlen(args->t[i]);
		if (n < 2 || args->t[i][n - 1] != '*')
			continue;
		deref = *args;
		deref.t[i][n - 1] = '\0';
		while (n > 1 && deref.t[i][n - 2] == ' ')
			deref.t[i][--n - 1] = '\0';
		/* the element type the tensors share may be the pointee's */
		element_type(&deref, elem);
		if (fits_all(&deref, order, c, elem)) {
			*a = i;
			return 1;
		}
	}
	return 0;
}

/* The text between a type's first '<' and its last '>' (its element type
 * for a tensor), or "" */
static void inner_type(const char *t, char *out)
{
	const char *lt = strchr(t, '<'), *gt = strrchr(t, '>');
	out[0] = '\0';
	if (lt && gt && gt > lt) {
		memcpy(out, lt + 1, (size_t)(gt - lt - 1));
		out[gt - lt - 1] = '\0';
	}
}

/* The call names template arguments (Cast<half, float>) that the tensors
 * it passes contradict, while the tensors alone would deduce consistent
 * ones: the template arguments are what is wrong. */
static int template_args_contradicted(const struct typelist *args, const struct typelist *targs,
				      const struct candidate *c)
{
	char bound[MAX_TPARAMS][TYPE_LEN];
	size_t i, j;
	int contradicted = 0;
	if (targs->n == 0 || c->ntparams < targs->n || c->params.n != args->n)
		return 0;
	for (j = 0; j < c->ntparams; j++)
		bound[j][0] = '\0';
	for (i = 0; i < args->n; i++) {
		enum kind kp = kind_of(c->params.t[i], c);
		char want[TYPE_LEN], got[TYPE_LEN];
		if (kp != K_LOCAL && kp != K_GLOBAL)
			continue;
		if (kind_of(args->t[i], NULL) != kp)
			return 0; /* a tensor of another kind: not this question */
		inner_type(c->params.t[i], want);
		inner_type(args->t[i], got);
		for (j = 0; j < c->ntparams; j++) {
			if (strcmp(want, c->tparam[j]) != 0)
				continue;
			if (bound[j][0] && strcmp(bound[j], got) != 0)
				return 0; /* the tensors disagree among themselves */
			strcpy(bound[j], got);
			if (j < targs->n && strcmp(targs->t[j], got) != 0)
				contradicted = 1;
		}
	}
	return contradicted;
}

/* A note that a tensor of element type A cannot become a tensor of the
 * same kind with element type B, where B is a template argument the call
 * wrote out: g++'s own word that the explicit arguments are contradicted
 * (a candidate printed already specialised, "[with D = half; S = float]",
 * shows no template parameters to compare with). */
static int note_contradicts(const char *note, const struct typelist *targs)
{
	const char *from, *to, *e;
	char ft[TYPE_LEN], tt[TYPE_LEN], fi[TYPE_LEN], ti[TYPE_LEN];
	size_t j;
	if ((from = strstr(note, "no known conversion for argument ")) != NULL) {
		from = strstr(from, " from '");
		if (!from)
			return 0;
		from += 7;
	} else if ((from = strstr(note, "cannot convert '")) != NULL) {
		from = strstr(from, "' (type '");
		if (!from)
			return 0;
		from += 9;
	} else {
		return 0;
	}
	e = strchr(from, '\'');
	to = e ? strstr(e, " to ") : NULL;
	if (!to)
		return 0;
	normalise_type(from, (size_t)(e - from), ft);
	to = strchr(to, '\'');
	e = to ? strchr(to + 1, '\'') : NULL;
	if (!e)
		return 0;
	normalise_type(to + 1, (size_t)(e - to - 1), tt);
	if (kind_of(ft, NULL) != kind_of(tt, NULL) ||
	    (kind_of(ft, NULL) != K_LOCAL && kind_of(ft, NULL) != K_GLOBAL))
		return 0;
	inner_type(ft, fi);
	inner_type(tt, ti);
	if (!fi[0] || strcmp(fi, ti) == 0)
		return 0;
	for (j = 0; j < targs->n; j++)
		if (strcmp(targs->t[j], ti) == 0)
			return 1;
	return 0;
}

/* Could c be the function meant, with parameters defaulted after the
 * arguments given? Not when g++ said its count is wrong. */
static int may_take_fewer(const struct typelist *args, const struct candidate *c, const char *elem)
{
	size_t i;
	if (c->arity_stated || c->params.n <= args->n)
		return 0;
	for (i = 0; i < args->n; i++)
		if (!fits(args->t[i], c->params.t[i], c, elem))
			return 0;
	return 1;
}

char *classify_call_facts(const char *error, char *const *notes, size_t nnotes)
{
	struct typelist args, targs;
	struct candidate *cand;
	size_t ncand = 0, i, a = 0, b = 0;
	size_t p = 0;
	int arity_match = 0, fewer = 0, swapped = 0, variadic = 0, contradicted = 0, pointer = 0;
	int missing = 0, count_fits = 0;
	size_t m = 0, order[MAX_ARGS];
	char elem[TYPE_LEN], *out = NULL;

	if (!error || parse_call(error, &args, &targs) != 0)
		return NULL;
	cand = calloc(MAX_CANDIDATES, sizeof(*cand));
	if (!cand)
		return NULL;
	for (i = 0; i < nnotes; i++) {
		if (!notes[i])
			continue;
		if (strstr(notes[i], "note: candidate: '")) {
			if (ncand < MAX_CANDIDATES && parse_candidate(notes[i], &cand[ncand]) == 0)
				ncand++;
		} else if (ncand > 0 && strstr(notes[i], "candidate expects ")) {
			cand[ncand - 1].arity_stated = 1;
		} else if (targs.n > 0 && note_contradicts(notes[i], &targs)) {
			contradicted = 1;
		}
	}
	element_type(&args, elem);
	for (i = 0; i < args.n; i++)
		order[i] = i;
	for (i = 0; i < ncand; i++) {
		variadic |= cand[i].variadic;
		if (cand[i].params.n == args.n) {
			arity_match = 1;
			/* the arguments as given fit a candidate of their count:
			 * what failed is not their number (a template argument
			 * g++ could not deduce, Get() without <T>) */
			count_fits |= fits_all(&args, order, &cand[i], elem);
			if (!swapped)
				swapped = swapped_pair(&args, &cand[i], elem, &a, &b);
			if (!pointer)
				pointer = pointer_for_value(&args, &cand[i], &p);
		}
		if (!missing)
			missing = missing_argument(&args, &cand[i], elem, &m);
		fewer |= may_take_fewer(&args, &cand[i], elem);
		contradicted |= template_args_contradicted(&args, &targs, &cand[i]);
	}
	free(cand);
	if (contradicted) {
		if (asprintf(&out, CALL_FACT_PREFIX
			     "explicit template arguments contradict the arguments' types") < 0)
			out = NULL;
	} else if (ncand > 0 && !arity_match && !fewer && !variadic) {
		if (asprintf(&out, CALL_FACT_PREFIX "no candidate takes %zu argument%s", args.n,
			     args.n == 1 ? "" : "s") < 0)
			out = NULL;
	} else if (swapped) {
		if (asprintf(&out, CALL_FACT_PREFIX "arguments %zu and %zu are in each other's place",
			     a + 1, b + 1) < 0)
			out = NULL;
	} else if (missing && !fewer && !count_fits) {
		if (asprintf(&out, CALL_FACT_PREFIX "parameter %zu of a candidate has no argument",
			     m + 1) < 0)
			out = NULL;
	} else if (pointer) {
		if (asprintf(&out, CALL_FACT_PREFIX "argument %zu is a pointer to what its parameter takes",
			     p + 1) < 0)
			out = NULL;
	}
	return out;
}

/* "invalid conversion from 'A' to 'B'" (or "cannot convert 'A' to 'B'")
 * and, under it, "initializing argument N of 'F'". */
struct conversion {
	char from[TYPE_LEN], to[TYPE_LEN];
	size_t arg;
	const char *fn; /* F, up to its closing quote */
	size_t fnlen;
};

static int quoted(const char *s, const char *intro, char *out, const char **rest)
{
	const char *b = strstr(s, intro), *e;
	if (!b)
		return -1;
	b += strlen(intro);
	e = strchr(b, '\'');
	if (!e)
		return -1;
	normalise_type(b, (size_t)(e - b), out);
	*rest = e + 1;
	return 0;
}

static int parse_conversion(const char *error, char *const *notes, size_t nnotes,
			    struct conversion *cv)
{
	const char *rest;
	size_t i;
	if (quoted(error, "invalid conversion from '", cv->from, &rest) != 0 &&
	    quoted(error, "cannot convert '", cv->from, &rest) != 0)
		return -1;
	if (quoted(rest, " to '", cv->to, &rest) != 0)
		return -1;
	for (i = 0; i < nnotes; i++) {
		const char *a = notes[i] ? strstr(notes[i], "initializing argument ") : NULL, *q, *e;
		char *endp;
		if (!a)
			continue;
		cv->arg = strtoul(a + strlen("initializing argument "), &endp, 10);
		q = strstr(endp, " of '");
		e = q ? strrchr(q + 5, '\'') : NULL;
		if (!cv->arg || !e)
			return -1;
		cv->fn = q + 5;
		cv->fnlen = (size_t)(e - cv->fn);
		return 0;
	}
	return -1;
}

char *classify_conversion_facts(const char *error, char *const *notes, size_t nnotes,
				const char *next_error, char *const *next_notes, size_t nnext)
{
	struct conversion a, b;
	enum kind af, at, bf, bt;
	char *out = NULL;
	if (!error || !next_error || parse_conversion(error, notes, nnotes, &a) != 0 ||
	    parse_conversion(next_error, next_notes, nnext, &b) != 0)
		return NULL;
	if (a.arg == b.arg || a.fnlen != b.fnlen || strncmp(a.fn, b.fn, a.fnlen) != 0)
		return NULL;
	af = kind_of(a.from, NULL);
	at = kind_of(a.to, NULL);
	bf = kind_of(b.from, NULL);
	bt = kind_of(b.to, NULL);
	/* each argument has the kind the other one's parameter takes */
	if (af == at || af != bt || bf != at || af == K_OTHER || bf == K_OTHER)
		return NULL;
	if (asprintf(&out, CALL_FACT_PREFIX "arguments %zu and %zu are in each other's place",
		     a.arg < b.arg ? a.arg : b.arg, a.arg < b.arg ? b.arg : a.arg) < 0)
		out = NULL;
	return out;
}
