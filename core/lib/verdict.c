/* verdict.c - constructors and the shared vocabulary of verdicts. */
#include <npukb/verdict.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* DESIGN.md's failure categories, in one place so the journal, JUnit and
 * the classify rules cannot drift apart. */
static const char *const known_categories[] = {
	/* compile */
	"api-signature", "type", "scope", "memory-object", "syntax", "link",
	"template", "compile-timeout", "other-compile",
	/* a model response without usable code (npukb import's NO_CODE) */
	"no-code",
	/* run */
	"crash", "timeout", "ub-overflow", "misaligned", "out-of-bounds",
	"queue-misuse", "sync-race", "resource-limit", "sandbox-violation", "early-exit",
	/* run, host+device: the op_host tiling failed (returned an error,
	 * died of a signal, gave an invalid launch), or the case's dtypes are
	 * none the OpDef declares (CANN rejects the call before any tiling) */
	"tiling-failure", "unsupported-dtype",
	/* correctness */
	"mismatch", "nan-inf", "unwritten-output", "input-mutated", "shape",
	/* npukb itself could not judge */
	"internal-error",
};

void npukb_verdict_init(struct npukb_verdict *v, enum npukb_stage_id stage)
{
	memset(v, 0, sizeof(*v));
	v->stage = stage;
	v->first_bad_index = -1;
}

void npukb_verdict_clear(struct npukb_verdict *v)
{
	if (!v)
		return;
	free(v->category);
	free(v->message);
	free(v->details);
	free(v->rule);
	free(v->flags);
	free(v->defects);
	npukb_verdict_init(v, v->stage);
}

static char *vformat(const char *fmt, va_list ap)
{
	char *s = NULL;
	if (vasprintf(&s, fmt, ap) < 0)
		return NULL;
	return s;
}

static void replace(char **slot, char *value)
{
	free(*slot);
	*slot = value;
}

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

void npukb_verdict_fail(struct npukb_verdict *v, const char *category,
			const char *fmt, ...)
{
	va_list ap;
	v->outcome = NPUKB_FAIL;
	replace(&v->category, dup_or_null(category));
	va_start(ap, fmt);
	replace(&v->message, vformat(fmt, ap));
	va_end(ap);
}

void npukb_verdict_skip(struct npukb_verdict *v, const char *fmt, ...)
{
	va_list ap;
	v->outcome = NPUKB_SKIPPED;
	replace(&v->category, NULL);
	va_start(ap, fmt);
	replace(&v->message, vformat(fmt, ap));
	va_end(ap);
}

void npukb_verdict_pass(struct npukb_verdict *v)
{
	v->outcome = NPUKB_PASS;
	replace(&v->category, NULL);
}

void npukb_verdict_set_details(struct npukb_verdict *v, const char *text)
{
	replace(&v->details, dup_or_null(text));
}

void npukb_verdict_set_excerpt(struct npukb_verdict *v, const char *text, size_t max)
{
	size_t len = text ? strlen(text) : 0, keep;
	const char *tail, *nl;
	char *s = NULL;

	if (len <= max) {
		npukb_verdict_set_details(v, text);
		return;
	}
	tail = text + len - max;
	/* start at a whole line when one begins in the kept part */
	nl = memchr(tail, '\n', max);
	if (nl && nl + 1 < text + len)
		tail = nl + 1;
	keep = (size_t)(text + len - tail);
	if (asprintf(&s, "[... %zu bytes of output left out]\n%.*s", len - keep, (int)keep,
		     tail) < 0)
		s = NULL;
	replace(&v->details, s);
}

void npukb_verdict_set_category(struct npukb_verdict *v, const char *category)
{
	replace(&v->category, dup_or_null(category));
}

void npukb_verdict_set_rule(struct npukb_verdict *v, const char *rule)
{
	replace(&v->rule, dup_or_null(rule));
}

int npukb_verdict_has_flag(const struct npukb_verdict *v, const char *flag)
{
	const char *p = v->flags;
	size_t n = strlen(flag);
	while (p && *p) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		if (len == n && strncmp(p, flag, n) == 0)
			return 1;
		p = end ? end + 1 : NULL;
	}
	return 0;
}

void npukb_verdict_add_flag(struct npukb_verdict *v, const char *flag)
{
	char *s = NULL;
	if (!flag || !*flag || npukb_verdict_has_flag(v, flag))
		return;
	if (v->flags && *v->flags) {
		if (asprintf(&s, "%s,%s", v->flags, flag) < 0)
			return; /* a flag is a courtesy: the verdict stands without it */
	} else if (!(s = strdup(flag))) {
		return;
	}
	replace(&v->flags, s);
}

/* 1 when the defect lines of v hold the n bytes at line as a whole line. */
static int has_defect(const struct npukb_verdict *v, const char *line, size_t n)
{
	for (const char *p = v->defects; p && *p;) {
		size_t len = strcspn(p, "\n");
		if (len == n && strncmp(p, line, n) == 0)
			return 1;
		p += len;
		if (*p == '\n')
			p++;
	}
	return 0;
}

void npukb_verdict_add_defects(struct npukb_verdict *v, const char *lines)
{
	for (const char *p = lines; p && *p;) {
		size_t n = strcspn(p, "\n");
		char *s = NULL;
		if (n > 0 && !has_defect(v, p, n)) {
			if (asprintf(&s, "%s%.*s\n", v->defects ? v->defects : "", (int)n, p) < 0)
				return; /* defects are beside the outcome: it stands without them */
			replace(&v->defects, s);
		}
		p += n;
		if (*p == '\n')
			p++;
	}
}

int npukb_verdict_strict(struct npukb_verdict *v)
{
	const char *d = v->defects;
	char *category;
	size_t n;

	if (v->outcome != NPUKB_PASS || !d || !*d)
		return 0;
	n = strcspn(d, ":\n");
	category = strndup(d, n);
	if (!category)
		return 0;
	npukb_verdict_fail(v, category, "defect (--strict): %.*s", (int)strcspn(d, "\n"), d);
	free(category);
	return 1;
}

int npukb_verdict_copy(struct npukb_verdict *dst, const struct npukb_verdict *src)
{
	*dst = *src;
	dst->category = dup_or_null(src->category);
	dst->message = dup_or_null(src->message);
	dst->details = dup_or_null(src->details);
	dst->rule = dup_or_null(src->rule);
	dst->flags = dup_or_null(src->flags);
	dst->defects = dup_or_null(src->defects);
	if ((src->category && !dst->category) || (src->message && !dst->message) ||
	    (src->details && !dst->details) || (src->rule && !dst->rule) ||
	    (src->flags && !dst->flags) || (src->defects && !dst->defects)) {
		npukb_verdict_clear(dst);
		return -ENOMEM;
	}
	return 0;
}

const char *npukb_stage_name(enum npukb_stage_id s)
{
	switch (s) {
	case NPUKB_STAGE_COMPILE: return "compile";
	case NPUKB_STAGE_CORRECTNESS: return "correctness";
	case NPUKB_STAGE_PERFORMANCE: return "performance";
	case NPUKB_STAGE_CLASSIFY: return "classify";
	}
	return "unknown";
}

const char *npukb_outcome_name(enum npukb_outcome o)
{
	switch (o) {
	case NPUKB_PASS: return "pass";
	case NPUKB_FAIL: return "fail";
	case NPUKB_SKIPPED: return "skipped";
	}
	return "unknown";
}

int npukb_category_is_known(const char *name)
{
	size_t i;
	if (!name)
		return 0;
	for (i = 0; i < sizeof(known_categories) / sizeof(known_categories[0]); i++)
		if (strcmp(name, known_categories[i]) == 0)
			return 1;
	return 0;
}
