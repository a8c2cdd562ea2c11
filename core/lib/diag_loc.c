/* diag_loc.c - the sample's own line in a failure's messages (see
 * diag_loc.h). The text is untrusted (a sample's build or run wrote it):
 * it is only scanned, with bounded copies. */
#include "diag_loc.h"

#include <npukb/verdict.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Characters that end a path token going backwards from its ':'. */
static int path_stop(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\'' || c == '"' ||
	       c == '(' || c == '<' || c == '`' || c == '=' || c == ',' || c == '[';
}

/* 1 when the line holding text[at] is an "In file included from" line or
 * a "                 from X:N," continuation. */
static int include_line(const char *text, size_t at)
{
	size_t b = at;
	while (b > 0 && text[b - 1] != '\n')
		b--;
	if (strncmp(text + b, "In file included from ", 22) == 0)
		return 1;
	while (text[b] == ' ')
		b++;
	return strncmp(text + b, "from ", 5) == 0;
}

static int has_dotdot(const char *p)
{
	const char *s = p;
	while ((s = strstr(s, "..")) != NULL) {
		if ((s == p || s[-1] == '/') && (s[2] == '/' || s[2] == '\0'))
			return 1;
		s += 2;
	}
	return 0;
}

/* The part of path under dir ("" when none): dir without trailing '/'. */
static const char *under(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	if (n && strncmp(path, dir, n) == 0 && path[n] == '/' && path[n + 1])
		return path + n + 1;
	return "";
}

static int inside(const char *path, const char *dir, const char *real, char *rel, size_t rlen)
{
	const char *r;
	struct stat st;
	char *full;
	int ok;
	if (has_dotdot(path))
		return 0;
	if (path[0] == '/') {
		r = under(path, dir);
		if (!*r && real)
			r = under(path, real);
		if (!*r)
			return 0;
		snprintf(rel, rlen, "%s", r);
		return 1;
	}
	/* relative: a file of the sample */
	if (asprintf(&full, "%s/%s", dir, path) < 0)
		return 0;
	ok = lstat(full, &st) == 0 && S_ISREG(st.st_mode);
	free(full);
	if (ok)
		snprintf(rel, rlen, "%s", path);
	return ok;
}

int npukb_diag_sample_location(const char *text, const char *sample_dir, char *file,
			       size_t flen, long *line)
{
	char *real = NULL;
	size_t i;
	int rc = -ENOENT;
	if (!text || !sample_dir || !*sample_dir || !file || flen == 0)
		return -ENOENT;
	real = realpath(sample_dir, NULL);
	for (i = 0; text[i] && rc != 0; i++) {
		size_t d = i + 1, nd = 0, start = i;
		char path[PATH_MAX], rel[PATH_MAX];
		long n = 0;
		if (text[i] != ':')
			continue;
		while (text[d + nd] >= '0' && text[d + nd] <= '9' && nd < 10) {
			n = n * 10 + (text[d + nd] - '0');
			nd++;
		}
		if (nd == 0 || nd > 9 || n == 0)
			continue;
		if (!(text[d + nd] == ':' || text[d + nd] == ' ' || text[d + nd] == ',' ||
		      text[d + nd] == ')' || text[d + nd] == '\n' || text[d + nd] == '\0'))
			continue;
		while (start > 0 && !path_stop(text[start - 1]) && i - start < sizeof(path) - 1)
			start--;
		if (start == i || i - start >= sizeof(path) - 1 || include_line(text, i))
			continue;
		memcpy(path, text + start, i - start);
		path[i - start] = '\0';
		if (inside(path, sample_dir, real, rel, sizeof(rel))) {
			snprintf(file, flen, "%s", rel);
			*line = n;
			rc = 0;
		}
	}
	free(real);
	return rc;
}

int npukb_verdict_sample_location(const struct npukb_verdict *v, const char *sample_dir,
				  char *file, size_t flen, long *line)
{
	if (!v || v->outcome != NPUKB_FAIL)
		return -ENOENT;
	if (npukb_diag_sample_location(v->message, sample_dir, file, flen, line) == 0)
		return 0;
	return npukb_diag_sample_location(v->details, sample_dir, file, flen, line);
}
