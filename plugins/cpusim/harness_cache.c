/* harness_cache.c - cpusim's harness object, compiled once and reused
 * (harness_cache.h).
 *
 * The key is a 128-bit digest (two independent 64-bit FNV-1a variants) of
 * everything the object depends on: cpusim's version, the harness command
 * line, the harness sources, every file under the emulation's include
 * folder (names and contents, in sorted order), and the compiler's
 * identity: the resolved path of the executable the command names, its
 * size, modification time and inode (a package upgrade changes them).
 * None of it comes from a sample, so no sample can steer the key; the
 * object is compiled before any sample source and copied into the cache
 * by npukb itself, never by a sandboxed process. */
#include "harness_cache.h"

#include <npukb/util.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct digest {
	uint64_t a, b;
};

static void digest_init(struct digest *d)
{
	d->a = 0xcbf29ce484222325ull;
	d->b = 0x84222325cbf29ce4ull;
}

static void digest_add(struct digest *d, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	for (size_t i = 0; i < len; i++) {
		d->a = (d->a ^ p[i]) * 0x100000001b3ull;
		d->b = (d->b ^ p[i]) * 0x00000100000001b3ull * 0x9e3779b97f4a7c15ull;
		d->b ^= d->b >> 29;
	}
}

/* A string and its terminator, so that ("ab","c") and ("a","bc") differ. */
static void digest_str(struct digest *d, const char *s)
{
	digest_add(d, s, strlen(s) + 1);
}

static int digest_file(struct digest *d, const char *path)
{
	char buf[65536];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	while ((n = read(fd, buf, sizeof buf)) > 0)
		digest_add(d, buf, (size_t)n);
	close(fd);
	return n < 0 ? -errno : 0;
}

static int cmp_names(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

/* Every regular file below dir, by name relative to root, sorted. */
static int digest_tree(struct digest *d, const char *dir, int depth)
{
	DIR *dh;
	struct dirent *e;
	char **names = NULL, path[PATH_MAX];
	size_t n = 0, cap = 0;
	int rc = 0;

	if (depth > 16)
		return -ELOOP;
	dh = opendir(dir);
	if (!dh)
		return -errno;
	while ((e = readdir(dh)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (n == cap) {
			char **grown = realloc(names, (cap ? cap * 2 : 32) * sizeof(*names));
			if (!grown) {
				rc = -ENOMEM;
				break;
			}
			names = grown;
			cap = cap ? cap * 2 : 32;
		}
		if (!(names[n] = strdup(e->d_name))) {
			rc = -ENOMEM;
			break;
		}
		n++;
	}
	closedir(dh);
	if (rc == 0)
		qsort(names, n, sizeof(*names), cmp_names);
	for (size_t i = 0; rc == 0 && i < n; i++) {
		struct stat st;
		if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, names[i]) >= sizeof path) {
			rc = -ENAMETOOLONG;
			break;
		}
		if (stat(path, &st) != 0) {
			rc = -errno;
			break;
		}
		digest_str(d, names[i]);
		if (S_ISDIR(st.st_mode))
			rc = digest_tree(d, path, depth + 1);
		else if (S_ISREG(st.st_mode))
			rc = digest_file(d, path);
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return rc;
}

/* argv0 as execvp would find it, resolved through symlinks. */
static int resolve_program(const char *argv0, char *out, size_t len)
{
	const char *path = getenv("PATH");
	char buf[PATH_MAX];

	if (strchr(argv0, '/'))
		return realpath(argv0, out) ? 0 : -errno;
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		size_t k = strcspn(path, ":");
		if ((size_t)snprintf(buf, sizeof buf, "%.*s/%s", (int)k, path, argv0) < sizeof buf &&
		    access(buf, X_OK) == 0 && realpath(buf, out))
			return 0;
		path += k;
		if (*path == ':')
			path++;
	}
	(void)len;
	return -ENOENT;
}

int harness_cache_key(const char *version, const char *const *argv, const char *const *sources,
		      const char *include_dir, char *key, size_t keylen, char *err, size_t errlen)
{
	struct digest d;
	char prog[PATH_MAX];
	struct stat st;
	int rc;

	digest_init(&d);
	digest_str(&d, version);
	for (size_t i = 0; argv[i]; i++)
		digest_str(&d, argv[i]);
	rc = resolve_program(argv[0], prog, sizeof prog);
	if (rc < 0 || stat(prog, &st) != 0) {
		snprintf(err, errlen, "cannot find the compiler %s", argv[0]);
		return rc < 0 ? rc : -errno;
	}
	digest_str(&d, prog);
	digest_add(&d, &st.st_size, sizeof st.st_size);
	digest_add(&d, &st.st_mtim, sizeof st.st_mtim);
	digest_add(&d, &st.st_ino, sizeof st.st_ino);
	rc = 0;
	/* contents, in order; not paths (an installed copy shares the key) */
	for (size_t i = 0; sources[i] && rc == 0; i++)
		rc = digest_file(&d, sources[i]);
	if (rc == 0)
		rc = digest_tree(&d, include_dir, 0);
	if (rc < 0) {
		snprintf(err, errlen, "cannot read the harness sources: %s", strerror(-rc));
		return rc;
	}
	if ((size_t)snprintf(key, keylen, "%016llx%016llx", (unsigned long long)d.a,
			     (unsigned long long)d.b) >= keylen) {
		snprintf(err, errlen, "key buffer too small");
		return -ENAMETOOLONG;
	}
	return 0;
}

int cpusim_tree_digest(const char *const *dirs, char *hex, size_t len)
{
	struct digest d;
	int rc = 0;

	digest_init(&d);
	for (size_t i = 0; dirs[i] && rc == 0; i++) {
		digest_str(&d, dirs[i]);
		rc = digest_tree(&d, dirs[i], 0);
	}
	if (rc == 0 && (size_t)snprintf(hex, len, "%016llx%016llx", (unsigned long long)d.a,
					(unsigned long long)d.b) >= len)
		rc = -ENAMETOOLONG;
	return rc;
}

/* Copies src to dst through dst.tmp.<pid> and a rename, so that a reader
 * never sees half a file and two writers never mix theirs. */
static int copy_file(const char *src, const char *dst, mode_t mode)
{
	char tmp[PATH_MAX], buf[65536];
	ssize_t n;
	int in, out, rc = 0;

	if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp.%ld", dst, (long)getpid()) >= sizeof tmp)
		return -ENAMETOOLONG;
	in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -errno;
	out = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	if (out < 0) {
		rc = -errno;
		close(in);
		return rc;
	}
	while ((n = read(in, buf, sizeof buf)) > 0) {
		char *p = buf;
		while (n > 0) {
			ssize_t w = write(out, p, (size_t)n);
			if (w < 0) {
				if (errno == EINTR)
					continue;
				rc = -errno;
				break;
			}
			p += w;
			n -= w;
		}
		if (rc < 0)
			break;
	}
	if (n < 0)
		rc = -errno;
	close(in);
	if (close(out) != 0 && rc == 0)
		rc = -errno;
	if (rc == 0 && rename(tmp, dst) != 0)
		rc = -errno;
	if (rc < 0)
		unlink(tmp);
	return rc;
}

static int entry_path(const char *cache_dir, const char *key, char *out, size_t len)
{
	if ((size_t)snprintf(out, len, "%s/cpusim-harness/%s.o", cache_dir, key) >= len)
		return -ENAMETOOLONG;
	return 0;
}

int harness_cache_get(const char *cache_dir, const char *key, const char *dest)
{
	char path[PATH_MAX];
	struct stat st;
	int rc = entry_path(cache_dir, key, path, sizeof path);

	if (rc < 0)
		return rc;
	/* Only a regular file owned by us is an entry. */
	if (lstat(path, &st) != 0)
		return -errno;
	if (!S_ISREG(st.st_mode) || st.st_uid != geteuid() || st.st_size == 0)
		return -EINVAL;
	return copy_file(path, dest, 0644);
}

int harness_cache_put(const char *cache_dir, const char *key, const char *src)
{
	char path[PATH_MAX], dir[PATH_MAX];
	int rc;

	if ((size_t)snprintf(dir, sizeof dir, "%s/cpusim-harness", cache_dir) >= sizeof dir)
		return -ENAMETOOLONG;
	rc = npukb_mkdir_p(dir, 0755);
	if (rc == 0)
		rc = entry_path(cache_dir, key, path, sizeof path);
	if (rc == 0)
		rc = copy_file(src, path, 0644);
	return rc;
}
