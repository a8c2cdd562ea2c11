/* extract.c - code out of model responses; JSONL response records. */
#include "extract.h"

#include "json_line.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_PATH_BYTES 200
#define MAX_PATH_PARTS 3
#define MAX_NAME_BYTES 64

/* The response as one C string: CRLF and lone CR read as LF (a response
 * saved on Windows must extract the same code), NUL bytes as U+FFFD so
 * the C string is the whole text. */
static char *normalise(const char *text, size_t len)
{
	char *out = malloc(len * 3 + 1), *o = out;
	size_t i;
	if (!out)
		return NULL;
	for (i = 0; i < len; i++) {
		if (text[i] == '\r') {
			*o++ = '\n';
			if (i + 1 < len && text[i + 1] == '\n')
				i++;
		} else if (text[i] == '\0') {
			memcpy(o, "\xef\xbf\xbd", 3);
			o += 3;
		} else {
			*o++ = text[i];
		}
	}
	*o = '\0';
	return out;
}

static const char *line_end(const char *p)
{
	const char *e = strchr(p, '\n');
	return e ? e : p + strlen(p);
}

static const char *next_line(const char *p)
{
	const char *e = line_end(p);
	return *e ? e + 1 : e;
}

static const char *skip_blanks(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

static int blank_until(const char *p, const char *end)
{
	return skip_blanks(p, end) == end;
}

/* Is the line at p a fence opening? Fills the fence character, its run
 * length and the language word [lang, lang + langlen). */
static int fence_open(const char *p, char *ch, size_t *run, const char **lang, size_t *langlen)
{
	const char *end = line_end(p), *q = skip_blanks(p, end), *l;
	size_t n = 0;
	if (q >= end || (*q != '`' && *q != '~'))
		return 0;
	while (q + n < end && q[n] == *q)
		n++;
	if (n < 3)
		return 0;
	l = skip_blanks(q + n, end);
	*lang = l;
	while (l < end && *l != ' ' && *l != '\t' && *l != '{' && *l != '`')
		l++;
	/* a backtick fence's info string may not hold a backtick (CommonMark):
	 * "```x```" on one line is inline code, not a block */
	if (*q == '`' && memchr(q + n, '`', (size_t)(end - (q + n))))
		return 0;
	*ch = *q;
	*run = n;
	*langlen = (size_t)(l - *lang);
	return 1;
}

static int fence_close(const char *p, char ch, size_t run)
{
	const char *end = line_end(p), *q = skip_blanks(p, end);
	size_t n = 0;
	while (q + n < end && q[n] == ch)
		n++;
	return n >= run && blank_until(q + n, end);
}

/* The body of the fence opening at line p (up to limit): a copy, or NULL
 * with *oom set on ENOMEM. An unterminated fence runs to limit. */
static char *fence_body(const char *p, const char *limit, char ch, size_t run, int *oom)
{
	const char *body = next_line(p), *q = body;
	char *out;
	size_t n;
	if (body > limit)
		body = limit;
	q = body;
	while (q < limit && *q && !fence_close(q, ch, run))
		q = next_line(q);
	if (q > limit)
		q = limit;
	n = (size_t)(q - body);
	if (!(out = malloc(n + 1))) {
		*oom = 1;
		return NULL;
	}
	memcpy(out, body, n);
	out[n] = '\0';
	return out;
}

static int is_c_language(const char *lang, size_t n)
{
	static const char *const names[] = { "c", "cpp", "c++", "cc", "cxx", "h", "hpp", "hxx", NULL };
	size_t i;
	if (n == 0)
		return 1;
	for (i = 0; names[i]; i++)
		if (strlen(names[i]) == n && strncasecmp(lang, names[i], n) == 0)
			return 1;
	return 0;
}

static int is_blank_text_n(const char *s, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\n' && s[i] != '\r')
			return 0;
	return 1;
}

static int is_blank_text(const char *s)
{
	for (; *s; s++)
		if (*s != ' ' && *s != '\t' && *s != '\n')
			return 0;
	return 1;
}

/* Take the text without the blank lines and spaces around it. */
static char *trimmed_copy(const char *b, const char *e)
{
	char *out;
	while (b < e && (*b == ' ' || *b == '\t' || *b == '\n'))
		b++;
	while (e > b && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n'))
		e--;
	if (!(out = malloc((size_t)(e - b) + 2)))
		return NULL;
	memcpy(out, b, (size_t)(e - b));
	out[e - b] = '\n'; /* a source file ends with a newline */
	out[e - b + 1] = '\0';
	return out;
}

static int add_file(struct npukb_extraction *x, const char *path, char *text)
{
	struct npukb_extracted_file *grown = realloc(x->files, (x->nfiles + 1) * sizeof(*grown));
	char *p = NULL;
	if (!grown || (path && !(p = strdup(path)))) {
		if (grown)
			x->files = grown;
		free(text);
		return -ENOMEM;
	}
	x->files = grown;
	x->files[x->nfiles].path = p;
	x->files[x->nfiles].text = text;
	x->nfiles++;
	return 0;
}

/* The one kernel-only source of rules 1 and 3 (body owned, taken): a
 * blank body is no code, with the reason. Returns 1, or -ENOMEM. */
static int take_one(struct npukb_extraction *x, char *body, enum npukb_extract_form form,
		    const char *blank_reason)
{
	if (is_blank_text(body)) {
		free(body);
		x->reason = blank_reason;
		return 1;
	}
	x->form = form;
	return add_file(x, NULL, body) ? -ENOMEM : 1;
}

/* Rule 1: <kernel_impl>. 1 when the rule decided (code or a reason), 0
 * when there is no closed tag, -ENOMEM. */
static int rule_kernel_impl(const char *s, struct npukb_extraction *x)
{
	static const char open[] = "<kernel_impl>", close[] = "</kernel_impl>";
	const char *b = strstr(s, open), *e, *p;
	char *body = NULL;
	int oom = 0;
	if (!b || !(e = strstr(b + strlen(open), close)))
		return 0;
	b += strlen(open);
	for (p = b; p < e && *p; p = next_line(p)) {
		char ch;
		size_t run, ll;
		const char *lang;
		if (fence_open(p, &ch, &run, &lang, &ll)) {
			if (!(body = fence_body(p, e, ch, run, &oom)))
				return -ENOMEM;
			break;
		}
	}
	if (!body && !(body = trimmed_copy(b, e)))
		return -ENOMEM;
	return take_one(x, body, NPUKB_EXTRACT_KERNEL_IMPL, "the <kernel_impl> tag holds no code");
}

/* A file header line "=== op_host/x.cpp ===" (or op_kernel/..., or the
 * project's CMakeLists.txt): copies the path into path (size
 * MAX_PATH_BYTES + 1) and returns 1. */
static int file_header(const char *p, char *path)
{
	const char *end = line_end(p), *q = skip_blanks(p, end), *pb, *pe;
	size_t n = 0;
	while (q + n < end && q[n] == '=')
		n++;
	if (n < 3)
		return 0;
	pb = skip_blanks(q + n, end);
	pe = pb;
	while (pe < end && *pe != ' ' && *pe != '\t' && *pe != '=')
		pe++;
	q = skip_blanks(pe, end);
	n = 0;
	while (q + n < end && q[n] == '=')
		n++;
	if (n < 3 || !blank_until(q + n, end) || pe == pb || (size_t)(pe - pb) > MAX_PATH_BYTES)
		return 0;
	memcpy(path, pb, (size_t)(pe - pb));
	path[pe - pb] = '\0';
	/* CMakeLists.txt at the top: an operator project's build file, which
	 * says which op_host sources each target builds and how the kernel is
	 * compiled (upstream answers ship one; cpusim reads it) */
	return strncmp(path, "op_host/", 8) == 0 || strncmp(path, "op_kernel/", 10) == 0 ||
	       strcmp(path, "CMakeLists.txt") == 0;
}

/* Rule 2: file headers each followed by a fenced block. */
static int rule_file_headers(const char *s, struct npukb_extraction *x)
{
	char path[MAX_PATH_BYTES + 1];
	const char *p;
	size_t i, headers = 0;
	for (p = s; *p; p = next_line(p)) {
		const char *q, *lang;
		char ch, *body;
		size_t run, ll;
		int oom = 0, dup = 0;
		if (!file_header(p, path))
			continue;
		headers++;
		for (q = next_line(p); *q && blank_until(q, line_end(q)); q = next_line(q))
			;
		if (!*q || !fence_open(q, &ch, &run, &lang, &ll) || !npukb_sample_path_is_safe(path))
			continue;
		for (i = 0; i < x->nfiles; i++)
			dup |= strcmp(x->files[i].path, path) == 0;
		if (dup) /* the first block of a file counts, as a reader would take it */
			continue;
		if (!(body = fence_body(q, q + strlen(q), ch, run, &oom)))
			return -ENOMEM;
		if (is_blank_text(body)) {
			free(body);
			continue;
		}
		if (add_file(x, path, body))
			return -ENOMEM;
	}
	if (x->nfiles) {
		x->form = NPUKB_EXTRACT_FILE_HEADERS;
		return 1;
	}
	if (headers) {
		x->reason = "file headers (=== op_kernel/... ===) without a code block, or with an "
			    "unsafe file name";
		return 1;
	}
	return 0;
}

/* Rule 3: the first C/C++ or unlabelled fenced block. */
static int rule_fence(const char *s, struct npukb_extraction *x)
{
	const char *p, *lang;
	char ch, *body;
	size_t run, ll;
	int oom = 0, fences = 0;
	for (p = s; *p; p = next_line(p)) {
		if (!fence_open(p, &ch, &run, &lang, &ll))
			continue;
		if (!is_c_language(lang, ll)) {
			/* skip the whole block: its body may hold fence-like lines */
			const char *q = next_line(p);
			while (*q && !fence_close(q, ch, run))
				q = next_line(q);
			fences++;
			if (!*q)
				break;
			p = q; /* the loop steps past the closing line */
			continue;
		}
		if (!(body = fence_body(p, p + strlen(p), ch, run, &oom)))
			return -ENOMEM;
		return take_one(x, body, NPUKB_EXTRACT_FENCE, "the first C/C++ code block is empty");
	}
	x->reason = fences ? "no C/C++ code block (only other languages)"
			   : "no <kernel_impl> tag and no fenced code block";
	return 1;
}

int npukb_extract(const char *text, size_t len, struct npukb_extraction *out)
{
	char *s;
	int rc;
	memset(out, 0, sizeof(*out));
	if (!text || is_blank_text_n(text, len)) {
		out->reason = "empty response";
		return 0;
	}
	if (!(s = normalise(text, len)))
		return -ENOMEM;
	rc = rule_kernel_impl(s, out);
	if (rc == 0)
		rc = rule_file_headers(s, out);
	if (rc == 0)
		rc = rule_fence(s, out);
	free(s);
	if (rc < 0) {
		npukb_extraction_free(out);
		return rc;
	}
	return 0;
}

void npukb_extraction_free(struct npukb_extraction *x)
{
	size_t i;
	for (i = 0; i < x->nfiles; i++) {
		free(x->files[i].path);
		free(x->files[i].text);
	}
	free(x->files);
	memset(x, 0, sizeof(*x));
}

const char *npukb_extract_form_name(enum npukb_extract_form f)
{
	switch (f) {
	case NPUKB_EXTRACT_KERNEL_IMPL: return "kernel_impl";
	case NPUKB_EXTRACT_FILE_HEADERS: return "file-headers";
	case NPUKB_EXTRACT_FENCE: return "fence";
	default: return "none";
	}
}

static int safe_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '.' || c == '_' || c == '-';
}

int npukb_sample_path_is_safe(const char *rel)
{
	const char *p = rel;
	size_t parts = 0;
	if (!rel || !*rel || strlen(rel) > MAX_PATH_BYTES)
		return 0;
	while (*p) {
		const char *b = p;
		while (*p && *p != '/') {
			if (!safe_char(*p))
				return 0;
			p++;
		}
		/* empty ("a//b", "/abs", "a/"), "." and ".." components escape
		 * or alias the sample folder */
		if (p == b || (p - b == 1 && b[0] == '.') || (p - b == 2 && b[0] == '.' && b[1] == '.'))
			return 0;
		if (++parts > MAX_PATH_PARTS)
			return 0;
		if (*p == '/' && !*++p)
			return 0;
	}
	return 1;
}

char *npukb_safe_name(const char *s)
{
	char *out = malloc(MAX_NAME_BYTES + 2), *o = out;
	size_t n = 0;
	if (!out)
		return NULL;
	/* a leading '.' would hide the folder from the sample walk */
	if (!s || !*s || *s == '.')
		*o++ = '_', n++;
	for (; s && *s && n < MAX_NAME_BYTES; s++, n++)
		*o++ = safe_char(*s) ? *s : '_';
	*o = '\0';
	return out;
}

/* The first of keys present in o as a string (or a number, for ids). */
static int take(const struct jobj *o, const char *const *keys, int numbers, char **out)
{
	size_t i;
	*out = NULL;
	for (i = 0; keys[i]; i++) {
		const struct jfield *f = get(o, keys[i]);
		if (!f)
			continue;
		if (f->kind == J_STR)
			*out = strdup(f->str);
		else if (f->kind == J_NUM && numbers) {
			if (asprintf(out, "%.17g", f->num) < 0)
				*out = NULL;
		} else
			continue;
		return *out ? 0 : -ENOMEM;
	}
	return 0;
}

int npukb_response_parse(const char *line, struct npukb_response_record *out, char *err,
			 size_t errlen)
{
	static const char *const task_keys[] = { "task_id", "task", NULL };
	static const char *const model_keys[] = { "model", NULL };
	static const char *const sample_keys[] = { "sample_id", "sample", NULL };
	static const char *const text_keys[] = { "response", "completion", NULL };
	struct jobj o;
	struct parser ps;
	int rc;

	memset(out, 0, sizeof(*out));
	memset(&o, 0, sizeof(o));
	rc = parse_line(line, &o, &ps);
	if (rc == -ENOMEM)
		return rc;
	if (rc) {
		snprintf(err, errlen, "not a JSON object: %s at byte %zu", ps.why, ps.col + 1);
		jobj_clear(&o);
		return -EINVAL;
	}
	if ((rc = take(&o, task_keys, 0, &out->task)) == 0 &&
	    (rc = take(&o, model_keys, 0, &out->model)) == 0 &&
	    (rc = take(&o, sample_keys, 1, &out->sample)) == 0)
		rc = take(&o, text_keys, 0, &out->text);
	jobj_clear(&o);
	if (rc) {
		npukb_response_record_free(out);
		return rc;
	}
	if (!out->task || !out->text) {
		snprintf(err, errlen, "no %s (a string field: %s)", out->task ? "response text" : "task id",
			 out->task ? "\"response\" or \"completion\"" : "\"task_id\" or \"task\"");
		npukb_response_record_free(out);
		return -EINVAL;
	}
	return 0;
}

void npukb_response_record_free(struct npukb_response_record *r)
{
	free(r->task);
	free(r->model);
	free(r->sample);
	free(r->text);
	memset(r, 0, sizeof(*r));
}

int npukb_run_prompt_parse(const char *json, char **text, char *err, size_t errlen)
{
	struct jobj o;
	struct parser ps;
	const struct jfield *gen, *why;
	int rc;

	*text = NULL;
	memset(&o, 0, sizeof(o));
	rc = parse_line(json, &o, &ps);
	if (rc == -ENOMEM)
		return rc;
	gen = rc ? NULL : get(&o, "gen_content");
	why = rc ? NULL : get(&o, "reasoning_content");
	if (rc) {
		snprintf(err, errlen, "not a JSON object: %s at byte %zu", ps.why, ps.col + 1);
		rc = -EINVAL;
	} else if (!gen || gen->kind != J_STR) {
		snprintf(err, errlen, "no \"gen_content\" string");
		rc = -EINVAL;
	} else if (asprintf(text, "%s\n%s", why && why->kind == J_STR ? why->str : "", gen->str) < 0) {
		*text = NULL;
		rc = -ENOMEM;
	}
	jobj_clear(&o);
	return rc;
}
