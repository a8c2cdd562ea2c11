/* samples.c - read a sample folder: its files, its mode. */
#include "samples.h"

#include "fsutil.h"
#include "json_line.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A model's answer is a handful of files; more means we were pointed at
 * the wrong folder, and we say so instead of compiling a whole tree. */
#define MAX_SAMPLE_FILES 256
#define MAX_DEPTH 4

static int add_file(struct npukb_sample_entry *s, const char *rel)
{
	char **grown;
	if (s->nfiles >= MAX_SAMPLE_FILES)
		return -E2BIG;
	grown = realloc(s->files, (s->nfiles + 2) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	s->files = grown;
	if (!(s->files[s->nfiles] = strdup(rel)))
		return -ENOMEM;
	s->files[++s->nfiles] = NULL;
	return 0;
}

static int walk(struct npukb_sample_entry *s, const char *root, const char *rel, int depth)
{
	char *path;
	DIR *d;
	struct dirent *de;
	int rc = 0;
	if (depth > MAX_DEPTH)
		return 0;
	if (asprintf(&path, "%s%s%s", root, rel[0] ? "/" : "", rel) < 0)
		return -ENOMEM;
	d = opendir(path);
	if (!d) {
		rc = -errno;
		free(path);
		return rc;
	}
	while (rc == 0 && (de = readdir(d)) != NULL) {
		char *child, *full;
		struct stat st;
		if (de->d_name[0] == '.')
			continue;
		if (asprintf(&child, "%s%s%s", rel, rel[0] ? "/" : "", de->d_name) < 0)
			return closedir(d), free(path), -ENOMEM;
		if (asprintf(&full, "%s/%s", root, child) < 0) {
			free(child);
			rc = -ENOMEM;
			break;
		}
		if (lstat(full, &st) == 0) {
			if (S_ISDIR(st.st_mode))
				rc = walk(s, root, child, depth + 1);
			else if (S_ISREG(st.st_mode))
				rc = add_file(s, child);
			/* symlinks are ignored: a sample may not point at other files */
		}
		free(full);
		free(child);
	}
	closedir(d);
	free(path);
	return rc;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int npukb_sample_load(const char *dir, const char *id, struct npukb_sample_entry *out,
		      char *err, size_t errlen)
{
	char *sub;
	int rc, hostdev;
	const char *base;

	memset(out, 0, sizeof(*out));
	if ((rc = npukb_check_dir(dir, "sample folder", err, errlen)) != 0)
		return rc;
	out->dir = npukb_abspath(dir);
	base = strrchr(out->dir ? out->dir : "", '/');
	out->id = strdup(id ? id : base ? base + 1 : dir);
	if (!out->dir || !out->id) {
		npukb_sample_free(out);
		return -ENOMEM;
	}
	rc = walk(out, out->dir, "", 0);
	if (rc == -E2BIG)
		snprintf(err, errlen, "%s: more than %d files: not a sample folder", dir,
			 MAX_SAMPLE_FILES);
	else if (rc)
		snprintf(err, errlen, "%s: cannot read: %s", dir, strerror(-rc));
	else if (out->nfiles == 0) {
		snprintf(err, errlen, "%s: the sample folder is empty", dir);
		rc = -ENOENT;
	}
	if (rc) {
		npukb_sample_free(out);
		return rc;
	}
	qsort(out->files, out->nfiles, sizeof(*out->files), cmp_str);
	if (asprintf(&sub, "%s/op_host", out->dir) < 0) {
		npukb_sample_free(out);
		return -ENOMEM;
	}
	hostdev = npukb_is_dir(sub);
	free(sub);
	out->pub.id = out->id;
	out->pub.dir = out->dir;
	out->pub.mode = hostdev ? NPUKB_MODE_HOST_DEVICE : NPUKB_MODE_KERNEL_ONLY;
	out->pub.nfiles = out->nfiles;
	out->pub.files = (const char *const *)out->files;
	if (npukb_sample_read_provenance(out, out->dir) != 0) {
		npukb_sample_free(out);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	return 0;
}

#define PROVENANCE_MAX (64 * 1024)

static int set_note(struct npukb_sample_entry *s, const char *path, const char *why)
{
	free(s->note);
	return asprintf(&s->note, "%s: %s; ignored", path, why) < 0 ? (s->note = NULL, -ENOMEM) : 0;
}

static int printable(const char *v, size_t max)
{
	size_t n = strlen(v), i;
	if (n == 0 || n > max)
		return 0;
	for (i = 0; i < n; i++)
		if ((unsigned char)v[i] < 0x20 || v[i] == 0x7f)
			return 0;
	return 1;
}

int npukb_sample_read_provenance(struct npukb_sample_entry *s, const char *dir)
{
	char *path = NULL, *buf = NULL;
	const struct jfield *f;
	struct jobj o;
	struct parser ps;
	struct stat st;
	ssize_t got = 0, n;
	int fd, rc = 0;

	if (asprintf(&path, "%s/response.json", dir) < 0)
		return -ENOMEM;
	memset(&o, 0, sizeof(o));
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		if (errno != ENOENT)
			rc = set_note(s, path, errno == ELOOP ? "a symlink" : strerror(errno));
		goto out;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		rc = set_note(s, path, "not a regular file");
		goto out;
	}
	if (st.st_size > PROVENANCE_MAX) {
		rc = set_note(s, path, "larger than 64 KiB");
		goto out;
	}
	if (!(buf = malloc(PROVENANCE_MAX + 1))) {
		rc = -ENOMEM;
		goto out;
	}
	while (got < PROVENANCE_MAX && (n = read(fd, buf + got, PROVENANCE_MAX - (size_t)got)) > 0)
		got += n;
	buf[got] = '\0';
	while (got > 0 && (buf[got - 1] == '\n' || buf[got - 1] == '\r' || buf[got - 1] == ' '))
		buf[--got] = '\0';
	if (strlen(buf) != (size_t)got) {
		rc = set_note(s, path, "holds a NUL byte");
		goto out;
	}
	rc = parse_line(buf, &o, &ps);
	if (rc == -ENOMEM)
		goto out;
	if (rc != 0) {
		char why[160];
		snprintf(why, sizeof(why), "not one JSON object (%s at byte %zu)",
			 ps.why ? ps.why : "syntax", ps.col + 1);
		rc = set_note(s, path, why);
		goto out;
	}
	if ((f = get(&o, "model")) && f->kind == J_STR && printable(f->str, 256) &&
	    !(s->model = strdup(f->str))) {
		rc = -ENOMEM;
		goto out;
	}
	if ((f = get(&o, "response_sha256")) && f->kind == J_STR && strlen(f->str) == 64 &&
	    strspn(f->str, "0123456789abcdef") == 64 && !(s->response_sha256 = strdup(f->str))) {
		rc = -ENOMEM;
		goto out;
	}
	if (!s->model || !s->response_sha256)
		rc = set_note(s, path, !s->model && !s->response_sha256
					       ? "no usable \"model\" or \"response_sha256\""
				       : !s->model ? "no usable \"model\""
						   : "no usable \"response_sha256\"");
out:
	if (fd >= 0)
		close(fd);
	jobj_clear(&o);
	free(buf);
	free(path);
	return rc;
}

void npukb_sample_free(struct npukb_sample_entry *s)
{
	size_t i;
	for (i = 0; i < s->nfiles; i++)
		free(s->files[i]);
	free(s->files);
	free(s->model);
	free(s->response_sha256);
	free(s->note);
	free(s->id);
	free(s->dir);
	memset(s, 0, sizeof(*s));
}
