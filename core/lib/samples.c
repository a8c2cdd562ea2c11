/* samples.c - read a sample folder: its files, its mode. */
#include "samples.h"

#include "fsutil.h"

#include <dirent.h>
#include <errno.h>
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
	return 0;
}

void npukb_sample_free(struct npukb_sample_entry *s)
{
	size_t i;
	for (i = 0; i < s->nfiles; i++)
		free(s->files[i]);
	free(s->files);
	free(s->id);
	free(s->dir);
	memset(s, 0, sizeof(*s));
}
