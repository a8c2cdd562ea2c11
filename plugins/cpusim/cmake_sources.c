/* cmake_sources.c - which op_host sources a CANN operator project builds.
 *
 * An operator project's CMakeLists.txt hands its op_host files to CANN's
 * targets: optiling (the tiling function), opsproto (InferShape),
 * op_host_aclnn / op_host_aclnnInner (the OpDef), and opapi (the aclnn
 * two-stage API a framework calls, built against CANN's op-api headers).
 * cpusim launches the kernel itself, so it needs every target but opapi;
 * compiling the opapi files would fail on headers nobody emulates, and
 * files no target names are not built by CANN either.
 *
 * Each target's files are kept apart as well: CANN links every target
 * into its own library, so a helper two of them define is not a second
 * definition there, and cpusim links them the same way (cpusim.c).
 *
 * NPUKernelBench's answers carry a template CMakeLists.txt that writes
 * custom_op for the kernel's name (its build substitutes it, and so does
 * this reader). A list none of whose op_host files exists is ignored:
 * every op_host source is built. */
#include "cmake_sources.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CMAKE_MAX_BYTES (1u << 20)

static char *read_small_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	size_t n;

	if (!f)
		return NULL;
	buf = malloc(CMAKE_MAX_BYTES + 1);
	if (!buf) {
		fclose(f);
		return NULL;
	}
	n = fread(buf, 1, CMAKE_MAX_BYTES, f);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

/* Blanks CMake's line comments (# to the end of the line) in place. */
static void blank_comments(char *s)
{
	for (; *s; s++) {
		if (*s != '#')
			continue;
		while (*s && *s != '\n')
			*s++ = ' ';
		if (!*s)
			break;
	}
}

static int is_source_name(const char *tok, size_t n)
{
	static const char *const exts[] = { ".cpp", ".cc", ".cxx" };

	for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++) {
		size_t e = strlen(exts[i]);
		if (n > e && memcmp(tok + n - e, exts[i], e) == 0)
			return 1;
	}
	return 0;
}

/* Copies tok[0..n) into buf with every custom_op replaced by kernel;
 * returns the length, or 0 when it does not fit. */
static size_t substitute(const char *tok, size_t n, const char *kernel, char *buf, size_t size)
{
	static const char placeholder[] = "custom_op";
	const size_t pl = sizeof placeholder - 1, kl = strlen(kernel);
	size_t m = 0;

	for (size_t i = 0; i < n; i++) {
		if (m + kl + 1 >= size)
			return 0;
		if (n - i >= pl && memcmp(tok + i, placeholder, pl) == 0) {
			memcpy(buf + m, kernel, kl);
			m += kl;
			i += pl - 1;
		} else {
			buf[m++] = tok[i];
		}
	}
	buf[m] = '\0';
	return m;
}

/* Appends name to l unless it is there already. */
static int list_add(struct file_list *l, const char *name)
{
	char **grown;
	char *copy;

	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->files[i], name) == 0)
			return 0;
	grown = realloc(l->files, (l->n + 2) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	l->files = grown;
	copy = strdup(name);
	if (!copy)
		return -ENOMEM;
	l->files[l->n++] = copy;
	l->files[l->n] = NULL;
	return 0;
}

/* Appends "op_host/<file>" for a token naming an op_host source, with
 * the template placeholder custom_op replaced by the kernel's name, to
 * the opapi list (target NULL) or to `built` and the target's list. */
static int add_source(struct cmake_host_sources *out, struct cmake_target *target, const char *tok,
		      size_t n, const char *kernel)
{
	static const char *const prefixes[] = { "${CMAKE_CURRENT_SOURCE_DIR}/", "./" };
	char buf[1024];
	int rc;

	for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
		size_t p = strlen(prefixes[i]);
		if (n > p && memcmp(tok, prefixes[i], p) == 0) {
			tok += p;
			n -= p;
		}
	}
	n = substitute(tok, n, kernel, buf, sizeof buf);
	if (n <= 8 || memcmp(buf, "op_host/", 8) != 0 || !is_source_name(buf, n))
		return 0;
	if (!target)
		return list_add(&out->opapi, buf);
	rc = list_add(&out->built, buf);
	return rc < 0 ? rc : list_add(&target->files, buf);
}

/* The entry of the target named tok[0..n), added when new; NULL when out
 * of memory. */
static struct cmake_target *target_named(struct cmake_host_sources *out, const char *tok, size_t n)
{
	struct cmake_target *grown;
	char *name;

	for (size_t i = 0; i < out->ntargets; i++)
		if (strlen(out->targets[i].name) == n && memcmp(out->targets[i].name, tok, n) == 0)
			return &out->targets[i];
	name = strndup(tok, n);
	grown = name ? realloc(out->targets, (out->ntargets + 1) * sizeof(*grown)) : NULL;
	if (!grown) {
		free(name);
		return NULL;
	}
	out->targets = grown;
	memset(&out->targets[out->ntargets], 0, sizeof(*grown));
	out->targets[out->ntargets].name = name;
	return &out->targets[out->ntargets++];
}

/* Parses one target_sources( ... ) whose body starts at *p; leaves *p
 * after its closing parenthesis. */
static int parse_target_sources(const char **p, const char *kernel, struct cmake_host_sources *out)
{
	const char *s = *p;
	struct cmake_target *target = NULL;
	int first = 1, rc = 0;

	for (;;) {
		const char *tok;
		size_t n;

		while (*s && isspace((unsigned char)*s))
			s++;
		if (!*s || *s == ')')
			break;
		tok = s;
		while (*s && !isspace((unsigned char)*s) && *s != ')')
			s++;
		n = (size_t)(s - tok);
		if (first) {
			first = 0;
			if (!(n == 5 && memcmp(tok, "opapi", 5) == 0) && !(target = target_named(out, tok, n)))
				rc = -ENOMEM;
			continue;
		}
		if (rc == 0)
			rc = add_source(out, target, tok, n, kernel);
	}
	*p = *s ? s + 1 : s;
	return rc;
}

int cmake_host_sources_read(const char *sample_dir, const char *kernel, struct cmake_host_sources *out)
{
	char path[4096];
	const char *p;
	char *text;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if ((size_t)snprintf(path, sizeof path, "%s/CMakeLists.txt", sample_dir) >= sizeof path)
		return -ENAMETOOLONG;
	text = read_small_file(path);
	if (!text)
		return errno == ENOENT ? 0 : -errno;
	blank_comments(text);
	for (p = text; rc == 0 && (p = strstr(p, "target_sources"));) {
		const char *q = p + strlen("target_sources");
		int word_start = p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');

		while (*q == ' ' || *q == '\t')
			q++;
		p = q;
		if (!word_start || *q != '(')
			continue;
		p = q + 1;
		rc = parse_target_sources(&p, kernel, out);
	}
	free(text);
	if (rc < 0) {
		cmake_host_sources_free(out);
		return rc;
	}
	for (size_t i = 0; i < out->built.n && !out->built_exists; i++) {
		if ((size_t)snprintf(path, sizeof path, "%s/%s", sample_dir, out->built.files[i]) < sizeof path)
			out->built_exists = access(path, F_OK) == 0;
	}
	return 0;
}

static int in_list(const struct file_list *l, const char *relpath)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->files[i], relpath) == 0)
			return 1;
	return 0;
}

int cmake_host_sources_wants(const struct cmake_host_sources *s, const char *relpath)
{
	if (in_list(&s->opapi, relpath))
		return 0;
	return !s->built_exists || in_list(&s->built, relpath);
}

static void file_list_free(struct file_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->files[i]);
	free(l->files);
}

void cmake_host_sources_free(struct cmake_host_sources *s)
{
	file_list_free(&s->built);
	file_list_free(&s->opapi);
	for (size_t i = 0; i < s->ntargets; i++) {
		free(s->targets[i].name);
		file_list_free(&s->targets[i].files);
	}
	free(s->targets);
	memset(s, 0, sizeof(*s));
}
