/* cache_dir.c - the cache folder's place, size and removal (cache_dir.h). */
#define _XOPEN_SOURCE 700
#include "cache_dir.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

char *npukb_cache_dir_default(void)
{
	const char *own = getenv("NPUKB_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	char *dir = NULL;

	if (own && *own)
		return strcmp(own, "off") == 0 ? NULL : strdup(own);
	/* XDG: a relative value is invalid and must be ignored. */
	if (xdg && xdg[0] == '/')
		return asprintf(&dir, "%s/npukb", xdg) < 0 ? NULL : dir;
	if (home && home[0] == '/')
		return asprintf(&dir, "%s/.cache/npukb", home) < 0 ? NULL : dir;
	return NULL;
}

/* nftw has no user pointer: one walk at a time per process is enough for
 * the CLI command that uses these. */
static uint64_t walk_bytes, walk_files;
static int walk_errno;
static char walk_path[512];

static int count_entry(const char *path, const struct stat *st, int type, struct FTW *f)
{
	(void)path;
	(void)f;
	if (type == FTW_F && S_ISREG(st->st_mode)) {
		walk_bytes += (uint64_t)st->st_size;
		walk_files++;
	}
	return 0;
}

int npukb_cache_usage(const char *dir, uint64_t *bytes, uint64_t *files)
{
	walk_bytes = walk_files = 0;
	if (nftw(dir, count_entry, 16, FTW_PHYS) != 0 && errno != ENOENT)
		return -errno;
	*bytes = walk_bytes;
	*files = walk_files;
	return 0;
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *f)
{
	(void)st;
	(void)type;
	(void)f;
	if (remove(path) != 0 && errno != ENOENT) {
		walk_errno = errno;
		snprintf(walk_path, sizeof walk_path, "%s", path);
		return 1;
	}
	return 0;
}

int npukb_cache_clean(const char *dir, char *err, size_t errlen)
{
	struct stat st;

	if (lstat(dir, &st) != 0) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return -errno;
	}
	walk_errno = 0;
	/* Depth first, never following a symlink out of the folder. */
	if (nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS) != 0) {
		int e = walk_errno ? walk_errno : errno;
		snprintf(err, errlen, "%s: %s", walk_errno ? walk_path : dir, strerror(e));
		return -e;
	}
	return 0;
}
