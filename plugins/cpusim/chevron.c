/* chevron.c - CCE's `kernel<<<...>>>(args)` launches made plain C++ in a
 * copy of the kernel source (see chevron.h).
 *
 * The scan is lexical: comments, string and character literals (raw
 * strings too) are skipped, and `<<<` counts as a launch only after a
 * (possibly ::-qualified) identifier other than `operator` (`operator<<<>`
 * is C++), with a `>>>` at the same bracket depth before the next `;`.
 * Only the text from the kernel's name to `>>>` moves: the line breaks in
 * it stay, so every later line keeps its number. */
#include "chevron.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHEVRON_MAX_BYTES (16u << 20)
/* A launch configuration is a few short arguments (`blockDim, l2ctrl,
 * stream`): looking no further for its `>>>` bounds the scan by this
 * factor of the text's length, whatever the text holds (a 16 MiB file of
 * nothing but `a<<<` takes seconds, not hours). */
#define CHEVRON_MAX_CONFIG 256u

static const char launch_fn[] = "npukb_cpusim_chevron_launch(";

struct buf {
	char *s;
	size_t n, cap;
};

static int buf_add(struct buf *b, const char *s, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		char *grown;

		while (b->n + n + 1 > cap)
			cap *= 2;
		grown = realloc(b->s, cap);
		if (!grown)
			return -ENOMEM;
		b->s = grown;
		b->cap = cap;
	}
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = '\0';
	return 0;
}

static int is_ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

size_t chevron_skip_opaque(const char *s, size_t i)
{
	const char *end;

	if (s[i] == '/' && s[i + 1] == '/') {
		end = strchr(s + i, '\n');
		return end ? (size_t)(end - s) : i + strlen(s + i);
	}
	if (s[i] == '/' && s[i + 1] == '*') {
		end = strstr(s + i + 2, "*/");
		return end ? (size_t)(end - s) + 2 : i + strlen(s + i);
	}
	if (s[i] == '"' && i > 0 && s[i - 1] == 'R') {
		/* R"delim( ... )delim" */
		char close[20];
		size_t d = strcspn(s + i + 1, "(\n");

		if (d < sizeof close - 2 && s[i + 1 + d] == '(') {
			close[0] = ')';
			memcpy(close + 1, s + i + 1, d);
			close[d + 1] = '"';
			close[d + 2] = '\0';
			end = strstr(s + i + 2 + d, close);
			return end ? (size_t)(end - s) + d + 2 : i + strlen(s + i);
		}
	}
	/* A quote after a digit is a digit separator (1'000); else it
	 * opens a literal (after u8, L...: the prefix's letters are past). */
	if (s[i] == '"' || (s[i] == '\'' && !(i > 0 && isdigit((unsigned char)s[i - 1])))) {
		const char q = s[i];
		size_t j = i + 1;

		while (s[j] && s[j] != q && s[j] != '\n')
			j += s[j] == '\\' && s[j + 1] ? 2 : 1;
		return s[j] == q ? j + 1 : j;
	}
	return i;
}

/* The start of the (::-qualified) identifier ending at `end`, or `end`
 * when there is none. */
static size_t name_start(const char *s, size_t end)
{
	size_t k = end;

	/* A kernel template's launch, `name<float, 8><<<...>>>`: its
	 * arguments stay with the name (name(args) then instantiates it). */
	if (k > 0 && s[k - 1] == '>') {
		size_t a = k - 1;
		int depth = 0;

		for (;; a--) {
			if (s[a] == '>')
				depth++;
			else if (s[a] == '<' && --depth == 0)
				break;
			else if (s[a] == ';' || s[a] == '{' || s[a] == '}' || k - a > CHEVRON_MAX_CONFIG)
				return end;
			if (a == 0)
				return end;
		}
		while (a > 0 && isspace((unsigned char)s[a - 1]))
			a--;
		if (a == 0 || !is_ident_char(s[a - 1]))
			return end;
		k = a;
	}
	for (;;) {
		if (k > 0 && is_ident_char(s[k - 1]))
			k--;
		else if (k >= 2 && s[k - 1] == ':' && s[k - 2] == ':')
			k -= 2;
		else
			break;
	}
	while (k < end && s[k] == ':')
		k++;
	if (k < end && isdigit((unsigned char)s[k]))
		return end;
	return k;
}

/* The index of the `>>>` closing the launch configuration that starts at
 * i, or 0 when there is none within CHEVRON_MAX_CONFIG bytes. */
static size_t config_end(const char *s, size_t i)
{
	const size_t start = i;
	int depth = 0;

	while (s[i] && i - start < CHEVRON_MAX_CONFIG) {
		size_t j = chevron_skip_opaque(s, i);

		if (j != i) {
			i = j;
			continue;
		}
		if (depth == 0 && strncmp(s + i, ">>>", 3) == 0)
			return i;
		if (s[i] == '(' || s[i] == '[' || s[i] == '{')
			depth++;
		else if (s[i] == ')' || s[i] == ']' || s[i] == '}')
			depth--;
		if (depth < 0 || (depth == 0 && s[i] == ';'))
			return 0;
		i++;
	}
	return 0;
}

int chevron_rewrite_text(const char *s, char **out)
{
	struct buf b = { NULL, 0, 0 };
	size_t i = 0, copied = 0;
	int rc = 0, changed = 0;

	*out = NULL;
	while (s[i] && rc == 0) {
		size_t j = chevron_skip_opaque(s, i), ne, ns, close;

		if (j != i) {
			i = j;
			continue;
		}
		if (strncmp(s + i, "<<<", 3) != 0) {
			i++;
			continue;
		}
		for (ne = i; ne > copied && isspace((unsigned char)s[ne - 1]); ne--)
			;
		ns = name_start(s, ne);
		close = config_end(s, i + 3);
		if (ns == ne || ns < copied || close == 0 ||
		    (ne - ns >= 8 && strncmp(s + ne - 8, "operator", 8) == 0)) {
			i += 3;
			continue;
		}
		/* name<<<cfg>>>(args) -> launch(cfg), name(args); the blanks
		 * between name and <<< stay where they were. */
		rc = buf_add(&b, s + copied, ns - copied);
		if (rc == 0)
			rc = buf_add(&b, s + ne, i - ne);
		if (rc == 0)
			rc = buf_add(&b, launch_fn, sizeof launch_fn - 1);
		if (rc == 0)
			rc = buf_add(&b, s + i + 3, close - (i + 3));
		if (rc == 0)
			rc = buf_add(&b, "), ", 3);
		if (rc == 0)
			rc = buf_add(&b, s + ns, ne - ns);
		copied = i = close + 3;
		changed = 1;
	}
	if (rc == 0 && changed)
		rc = buf_add(&b, s + copied, strlen(s + copied));
	if (rc < 0 || !changed) {
		free(b.s);
		return rc;
	}
	*out = b.s;
	return 0;
}

static char *read_all(const char *path, int *err)
{
	FILE *f = fopen(path, "rb");
	char *text;
	size_t n;

	if (!f) {
		*err = errno;
		return NULL;
	}
	text = malloc(CHEVRON_MAX_BYTES + 1);
	if (!text) {
		fclose(f);
		*err = ENOMEM;
		return NULL;
	}
	n = fread(text, 1, CHEVRON_MAX_BYTES + 1, f);
	fclose(f);
	if (n > CHEVRON_MAX_BYTES) {
		free(text);
		*err = EFBIG;
		return NULL;
	}
	text[n] = '\0';
	return text;
}

int chevron_rewrite(const char *src, const char *dst, int *rewritten, char *err, size_t errlen)
{
	char *text, *out = NULL;
	FILE *f;
	int e = 0, rc;

	*rewritten = 0;
	if (strpbrk(src, "\"\\\n")) {
		snprintf(err, errlen, "%s: quotes or backslashes in the path", src);
		return -EINVAL;
	}
	text = read_all(src, &e);
	if (!text) {
		snprintf(err, errlen, "cannot read %s: %s", src, strerror(e));
		return -e;
	}
	rc = chevron_rewrite_text(text, &out);
	free(text);
	if (rc < 0 || !out) {
		if (rc < 0)
			snprintf(err, errlen, "%s: %s", src, strerror(-rc));
		return rc;
	}
	f = fopen(dst, "w");
	if (!f) {
		e = errno;
		snprintf(err, errlen, "cannot write %s: %s", dst, strerror(e));
		free(out);
		return -e;
	}
	fprintf(f, "#line 1 \"%s\"\n", src);
	fputs(out, f);
	free(out);
	if (fclose(f) != 0) {
		snprintf(err, errlen, "cannot write %s", dst);
		return -EIO;
	}
	*rewritten = 1;
	return 0;
}
