/* cache_key.c - the pieces of cache keys (cache_key.h). */
#include "cache_key.h"

#include <npukb/util.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TREE_ENTRIES 4096
#define TREE_BYTES (64u << 20)
#define TREE_DEPTH 16

/* Each piece is its tag, a kind letter, its length and its bytes: a
 * stream parses back into one sequence of pieces only. */
static void piece(struct npukb_sha256 *k, const char *tag, char kind, const void *p, size_t n)
{
	uint64_t len = n;
	npukb_sha256_update(k, tag, strlen(tag) + 1);
	npukb_sha256_update(k, &kind, 1);
	npukb_sha256_update(k, &len, sizeof len);
	if (n)
		npukb_sha256_update(k, p, n);
}

void npukb_key_str(struct npukb_sha256 *k, const char *tag, const char *s)
{
	if (s)
		piece(k, tag, 's', s, strlen(s));
	else
		piece(k, tag, '0', NULL, 0);
}

void npukb_key_num(struct npukb_sha256 *k, const char *tag, double v)
{
	char buf[64];
	npukb_fmt_double(buf, sizeof buf, v, 17);
	piece(k, tag, 'n', buf, strlen(buf));
}

/* The bytes of the open fd, as one piece whose length is counted as read. */
static int add_fd(struct npukb_sha256 *k, int fd, uint64_t *budget)
{
	char buf[65536];
	ssize_t n;
	uint64_t total = 0;
	struct stat st;

	if (fstat(fd, &st) != 0)
		return -errno;
	if (budget && (uint64_t)st.st_size > *budget)
		return -E2BIG;
	/* the announced size first, then the bytes: a file that grows
	 * while it is read makes another stream, never a false match */
	total = (uint64_t)st.st_size;
	npukb_sha256_update(k, &total, sizeof total);
	total = 0;
	while ((n = read(fd, buf, sizeof buf)) > 0) {
		npukb_sha256_update(k, buf, (size_t)n);
		total += (uint64_t)n;
	}
	if (n < 0)
		return -errno;
	npukb_sha256_update(k, &total, sizeof total);
	if (budget)
		*budget -= total < *budget ? total : *budget;
	return 0;
}

int npukb_key_file(struct npukb_sha256 *k, const char *tag, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc;
	if (fd < 0) {
		rc = -errno;
		piece(k, tag, '!', NULL, 0);
		return rc;
	}
	piece(k, tag, 'f', NULL, 0);
	rc = add_fd(k, fd, NULL);
	close(fd);
	return rc;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

struct walk {
	struct npukb_sha256 *k;
	size_t entries;
	uint64_t budget;
};

static int tree(struct walk *w, const char *dir, int depth)
{
	DIR *d;
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;

	if (depth > TREE_DEPTH)
		return -E2BIG;
	if (!(d = opendir(dir)))
		return -errno;
	while ((e = readdir(d)) != NULL && rc == 0) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (++w->entries > TREE_ENTRIES) {
			rc = -E2BIG;
			break;
		}
		if (n == cap) {
			char **g = realloc(names, (cap = cap ? cap * 2 : 16) * sizeof(*g));
			if (!g) {
				rc = -ENOMEM;
				break;
			}
			names = g;
		}
		if (!(names[n] = strdup(e->d_name)))
			rc = -ENOMEM;
		else
			n++;
	}
	closedir(d);
	if (rc == 0)
		qsort(names, n, sizeof(*names), cmp_names);
	for (size_t i = 0; rc == 0 && i < n; i++) {
		char path[PATH_MAX], target[PATH_MAX];
		struct stat st;
		ssize_t len;
		int fd;

		if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, names[i]) >= sizeof path) {
			rc = -ENAMETOOLONG;
			break;
		}
		if (lstat(path, &st) != 0) {
			rc = -errno;
			break;
		}
		if (S_ISDIR(st.st_mode)) {
			piece(w->k, names[i], 'd', NULL, 0);
			rc = tree(w, path, depth + 1);
			piece(w->k, names[i], 'D', NULL, 0); /* the folder ends */
		} else if (S_ISLNK(st.st_mode)) {
			len = readlink(path, target, sizeof target);
			if (len < 0 || (size_t)len >= sizeof target)
				rc = len < 0 ? -errno : -ENAMETOOLONG;
			else
				piece(w->k, names[i], 'l', target, (size_t)len);
		} else if (S_ISREG(st.st_mode)) {
			fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
			if (fd < 0) {
				rc = -errno;
				break;
			}
			piece(w->k, names[i], 'f', NULL, 0);
			rc = add_fd(w->k, fd, &w->budget);
			close(fd);
		} else {
			/* a fifo or a device in a sample folder: its mode only */
			unsigned mode = (unsigned)st.st_mode;
			piece(w->k, names[i], 'o', &mode, sizeof mode);
		}
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return rc;
}

int npukb_key_tree(struct npukb_sha256 *k, const char *tag, const char *dir)
{
	struct walk w = { k, 0, TREE_BYTES };
	int rc;

	piece(k, tag, 't', dir, strlen(dir));
	rc = tree(&w, dir, 0);
	piece(k, tag, 'T', NULL, 0);
	return rc;
}
