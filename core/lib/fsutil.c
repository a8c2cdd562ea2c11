/* fsutil.c - file-system helpers. */
#include "fsutil.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <ftw.h>
#include <dirent.h>

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		return rmdir(path) == 0 || errno == ENOENT ? 0 : -1;
	return unlink(path) == 0 || errno == ENOENT ? 0 : -1;
}

int npukb_rm_rf(const char *path)
{
	struct stat st;
	if (lstat(path, &st) != 0)
		return errno == ENOENT ? 0 : -errno;
	/* FTW_PHYS: never follow a symlink a sample planted out of its folder. */
	if (nftw(path, rm_one, 32, FTW_DEPTH | FTW_PHYS | FTW_MOUNT) != 0)
		return errno ? -errno : -EIO;
	return 0;
}

int npukb_read_text(const char *path, size_t max, char **out)
{
	static const char marker[] = "\n[... truncated]\n";
	FILE *f = fopen(path, "rb");
	char *buf;
	size_t n;
	int more;
	*out = NULL;
	if (!f)
		return -errno;
	buf = malloc(max + sizeof(marker));
	if (!buf) {
		fclose(f);
		return -ENOMEM;
	}
	n = fread(buf, 1, max, f);
	more = fgetc(f) != EOF;
	fclose(f);
	if (more) {
		memcpy(buf + n, marker, sizeof(marker));
	} else {
		buf[n] = '\0';
	}
	*out = buf;
	return 0;
}

int npukb_write_full(int fd, const void *data, size_t len)
{
	const char *p = data;
	while (len > 0) {
		ssize_t w = write(fd, p, len);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

int npukb_write_file(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int rc;
	if (fd < 0)
		return -errno;
	rc = npukb_write_full(fd, data, len);
	if (close(fd) != 0 && rc == 0)
		rc = -errno;
	return rc;
}

char *npukb_abspath(const char *path)
{
	char buf[PATH_MAX], *out;
	if (realpath(path, buf))
		return strdup(buf);
	if (path[0] == '/')
		return strdup(path);
	if (!getcwd(buf, sizeof(buf)))
		return NULL;
	if (asprintf(&out, "%s/%s", buf, path) < 0)
		return NULL;
	return out;
}

int npukb_is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int npukb_check_dir(const char *path, const char *what, char *err, size_t errlen)
{
	struct stat st;
	int rc;
	if (stat(path, &st) != 0) {
		rc = -errno;
		if (rc == -ENOENT)
			snprintf(err, errlen, "%s: %s not found", path, what);
		else if (rc == -ELOOP)
			snprintf(err, errlen, "%s: %s is a symbolic link loop", path, what);
		else
			snprintf(err, errlen, "%s: %s: %s", path, what, strerror(-rc));
		return rc;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: not a folder (%s expected)", path, what);
		return -ENOTDIR;
	}
	return 0;
}

int npukb_is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int npukb_list_subdirs(const char *dir, char ***out, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int rc = 0;
	*out = NULL;
	*n = 0;
	if (!d)
		return -errno;
	while ((de = readdir(d)) != NULL) {
		char *full, **grown;
		int isdir;
		if (de->d_name[0] == '.')
			continue;
		if (asprintf(&full, "%s/%s", dir, de->d_name) < 0) {
			rc = -ENOMEM;
			break;
		}
		isdir = npukb_is_dir(full);
		free(full);
		if (!isdir)
			continue;
		grown = realloc(*out, (*n + 1) * sizeof(**out));
		if (!grown || !(grown[*n] = strdup(de->d_name))) {
			if (grown)
				*out = grown;
			rc = -ENOMEM;
			break;
		}
		*out = grown;
		(*n)++;
	}
	closedir(d);
	if (rc) {
		npukb_free_names(*out, *n);
		*out = NULL;
		*n = 0;
		return rc;
	}
	if (*n)
		qsort(*out, *n, sizeof(**out), cmp_str);
	return 0;
}

void npukb_free_names(char **names, size_t n)
{
	while (n)
		free(names[--n]);
	free(names);
}
