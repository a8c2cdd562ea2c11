/* sandbox_root.c - what a sandboxed command sees of the file system: the
 * list of mounts of its private root, its work folder's owner, and how much
 * the work folder holds.
 *
 * The root is built from an allowlist, never from the host's / minus a
 * blocklist: /usr (the toolchain), the /bin, /lib... links or folders
 * beside it, /etc/ld.so.cache and /etc/alternatives (how the loader and the
 * compiler driver find their pieces; nothing else of /etc, so
 * `#include "/etc/passwd"` is a plain file-not-found), five device nodes, a
 * fresh /proc, a private /tmp, the caller's read_paths read-only and the
 * work folder writable, each at its own path. npukb's task data (levels/,
 * with the expert answers, and reference/) is hidden under an empty tmpfs
 * wherever it lies inside something bound. Home folders, the output folder,
 * other samples and other runs are simply not there. */

#include "sandbox_private.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#ifndef NPUKB_PKGDATADIR
#define NPUKB_PKGDATADIR "/usr/local/share/npukb"
#endif

#define MAX_MOUNTS 48

static int add_op(struct launch *l, enum mount_kind kind, const char *src, const char *dst,
		  int is_dir)
{
	struct mount_op *op;

	if (l->nmounts >= MAX_MOUNTS)
		return -E2BIG;
	op = &l->mounts[l->nmounts];
	op->kind = kind;
	op->src = src ? strdup(src) : NULL;
	op->dst = strdup(dst);
	op->src_fd = -1;
	op->is_dir = is_dir;
	if ((src && !op->src) || !op->dst) {
		free((char *)op->src);
		free((char *)op->dst);
		return -ENOMEM;
	}
	l->nmounts++;
	return 0;
}

/* path (already absolute, resolved) is inside or equal to dir. */
static int inside(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (strcmp(dir, "/") == 0)
		return 1;
	return strncmp(path, dir, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

static int add_system(struct launch *l)
{
	static const char *const tops[] = { "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32" };
	static const char *const etc[] = { "/etc/ld.so.cache", "/etc/alternatives" };
	static const char *const devs[] = { "/dev/null", "/dev/zero", "/dev/full", "/dev/random",
					    "/dev/urandom" };
	static const char *const links[][2] = { { "/proc/self/fd", "/dev/fd" },
						{ "/proc/self/fd/0", "/dev/stdin" },
						{ "/proc/self/fd/1", "/dev/stdout" },
						{ "/proc/self/fd/2", "/dev/stderr" } };
	struct stat st;
	int rc = add_op(l, MNT_BIND_RO, "/usr", "/usr", 1);

	for (size_t i = 0; rc == 0 && i < sizeof tops / sizeof *tops; i++) {
		char target[PATH_MAX];
		ssize_t n;

		if (lstat(tops[i], &st) < 0)
			continue;
		if (S_ISLNK(st.st_mode)) {
			n = readlink(tops[i], target, sizeof target - 1);
			if (n <= 0)
				continue;
			target[n] = '\0';
			rc = add_op(l, MNT_SYMLINK, target, tops[i], 0);
		} else if (S_ISDIR(st.st_mode)) {
			rc = add_op(l, MNT_BIND_RO, tops[i], tops[i], 1);
		}
	}
	for (size_t i = 0; rc == 0 && i < sizeof etc / sizeof *etc; i++)
		if (stat(etc[i], &st) == 0)
			rc = add_op(l, MNT_BIND_RO, etc[i], etc[i], S_ISDIR(st.st_mode));
	for (size_t i = 0; rc == 0 && i < sizeof devs / sizeof *devs; i++)
		if (stat(devs[i], &st) == 0 && S_ISCHR(st.st_mode))
			rc = add_op(l, MNT_BIND_DEV, devs[i], devs[i], 0);
	for (size_t i = 0; rc == 0 && i < sizeof links / sizeof *links; i++)
		rc = add_op(l, MNT_SYMLINK, links[i][0], links[i][1], 0);
	return rc;
}

/* Task-data folders named by the caller (npukb_sandbox_task_data), besides
 * the data folders' levels/ and reference/. Set before any run. */
static char *task_dirs[4];
static int ntask_dirs;

int npukb_sandbox_task_data(const char *dir)
{
	char *real;

	if (ntask_dirs >= 4)
		return -E2BIG;
	real = realpath(dir, NULL);
	if (!real)
		return -errno;
	task_dirs[ntask_dirs++] = real; /* process lifetime */
	return 0;
}

/* Every folder of task data, resolved, into out (n at most); the count. */
static int task_data_dirs(char out[][PATH_MAX], int n)
{
	const char *roots[2] = { getenv("NPUKB_DATADIR"), NPUKB_PKGDATADIR };
	static const char *const parts[] = { "levels", "reference" };
	int k = 0;

	for (int r = 0; r < 2; r++)
		for (size_t p = 0; p < 2 && k < n; p++) {
			char path[PATH_MAX + 16];

			if (!roots[r] || !*roots[r])
				continue;
			snprintf(path, sizeof path, "%s/%s", roots[r], parts[p]);
			if (realpath(path, out[k]))
				k++;
		}
	for (int i = 0; i < ntask_dirs && k < n; i++)
		snprintf(out[k++], PATH_MAX, "%s", task_dirs[i]);
	return k;
}

/* Hide npukb's task data where a bind would show it. */
static int add_hidden(struct launch *l, char *const *binds, size_t nbinds)
{
	char dirs[8][PATH_MAX];
	int n = task_data_dirs(dirs, 8), rc = 0;

	for (int d = 0; rc == 0 && d < n; d++) {
		int shown = inside(dirs[d], "/usr");

		for (size_t b = 0; !shown && b < nbinds; b++)
			shown = inside(dirs[d], binds[b]);
		for (int h = 0; shown && h < d; h++)
			shown = strcmp(dirs[h], dirs[d]) != 0;
		if (shown)
			rc = add_op(l, MNT_HIDE, NULL, dirs[d], 1);
	}
	return rc;
}

/* An expert answer being judged (a read path inside task data) includes
 * the answers' shared skeletons from <levels>/common: bound with it. */
static size_t add_common(char **binds, size_t nbinds, size_t max)
{
	char dirs[8][PATH_MAX];
	int n = task_data_dirs(dirs, 8);
	size_t first = nbinds;

	for (int d = 0; d < n && nbinds < max; d++) {
		char common[PATH_MAX + 8];
		int want = 0, have = 0;
		size_t len = strnlen(dirs[d], PATH_MAX);

		if (len + 8 > sizeof common)
			continue;
		memcpy(common, dirs[d], len);
		memcpy(common + len, "/common", 8);
		for (size_t b = 0; b < first; b++)
			want |= inside(binds[b], dirs[d]) && !inside(binds[b], common);
		for (size_t b = 0; b < nbinds; b++)
			have |= strcmp(binds[b], common) == 0;
		if (want && !have && access(common, R_OK | X_OK) == 0 &&
		    (binds[nbinds] = strdup(common)) != NULL)
			nbinds++;
	}
	return nbinds;
}

/* The sample runs as nobody: what it must read needs r (and x for a
 * folder) for others. Checked up front for a clear message instead of a
 * compiler's "Permission denied". */
static int others_can_read(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return 0;
	if (S_ISCHR(st.st_mode))
		return 1; /* device access is the device's business */
	if (S_ISDIR(st.st_mode))
		return (st.st_mode & (S_IROTH | S_IXOTH)) == (S_IROTH | S_IXOTH);
	return (st.st_mode & S_IROTH) != 0;
}

/* NPUKB_SANDBOX_READ: folders (colon-separated) shown read-only to every
 * sandboxed command besides its own read paths; for test suites whose
 * samples include each other's files. The count, at most n. */
static size_t extra_reads(char out[][PATH_MAX], size_t n)
{
	const char *p = getenv("NPUKB_SANDBOX_READ");
	size_t k = 0;

	while (p && *p && k < n) {
		size_t len = strcspn(p, ":");

		if (len > 0 && len < PATH_MAX) {
			memcpy(out[k], p, len);
			out[k++][len] = '\0';
		}
		p += len + (p[len] == ':');
	}
	return k;
}

int sbx_mounts_prepare(struct launch *l, const struct npukb_sandbox_spec *spec, char *err,
		       size_t errlen)
{
	char *binds[MAX_MOUNTS];
	char extra[8][PATH_MAX];
	size_t nbinds = 0, nextra;
	int rc;

	l->mounts = calloc(MAX_MOUNTS, sizeof *l->mounts);
	l->nmounts = 0;
	if (!l->mounts)
		return -ENOMEM;
	rc = add_system(l);
	nextra = extra_reads(extra, 8);
	for (size_t i = 0; rc == 0; i++) {
		const char *want = i < nextra ? extra[i] :
				   spec->read_paths ? spec->read_paths[i - nextra] : NULL;

		if (!want)
			break;
		if (nbinds >= MAX_MOUNTS - 16) {
			rc = -E2BIG;
			break;
		}
		binds[nbinds] = realpath(want, NULL);
		if (!binds[nbinds]) {
			rc = -errno;
			snprintf(err, errlen, "sandbox: read path '%s': %s", want, strerror(errno));
			break;
		}
		nbinds++;
		if (l->as_root && !others_can_read(binds[nbinds - 1])) {
			rc = -EACCES;
			snprintf(err, errlen, "sandbox: %s is not readable by the sandbox's user "
				 "(nobody): give others read access (chmod o+rX)", binds[nbinds - 1]);
			break;
		}
	}
	if (rc == 0)
		nbinds = add_common(binds, nbinds, MAX_MOUNTS - 16);
	/* Order matters: a hiding tmpfs goes over the bind that shows the
	 * data, and a read path inside hidden data (an expert answer being
	 * judged) is bound again on top of the tmpfs. */
	for (int pass = 0; rc == 0 && pass < 2; pass++) {
		size_t first_hide = l->nmounts;

		if (pass == 1)
			rc = add_hidden(l, binds, nbinds);
		for (size_t i = 0; rc == 0 && i < nbinds; i++) {
			struct stat st;
			int hidden = 0;

			for (size_t h = first_hide; pass == 1 && h < l->nmounts; h++)
				hidden |= l->mounts[h].kind == MNT_HIDE && inside(binds[i], l->mounts[h].dst);
			if (pass == 1 && !hidden)
				continue;
			if (stat(binds[i], &st) < 0)
				rc = -errno;
			else if (!inside(binds[i], l->workdir))
				/* A device node (an NPU) keeps working on a
				 * read-only mount; it only must not be nodev. */
				rc = add_op(l, S_ISCHR(st.st_mode) ? MNT_BIND_DEV : MNT_BIND_RO, binds[i],
					    binds[i], S_ISDIR(st.st_mode));
		}
	}
	if (rc == 0)
		rc = add_op(l, MNT_BIND_RW, l->workdir, l->workdir, 1);
	for (size_t i = 0; i < nbinds; i++)
		free(binds[i]);
	if (rc < 0 && err && errlen && !err[0])
		snprintf(err, errlen, "sandbox: cannot prepare the private root: %s", strerror(-rc));
	return rc;
}

void sbx_mounts_free(struct launch *l)
{
	for (size_t i = 0; l->mounts && i < l->nmounts; i++) {
		free((char *)l->mounts[i].src);
		free((char *)l->mounts[i].dst);
	}
	free(l->mounts);
	l->mounts = NULL;
	l->nmounts = 0;
}

/* ---- the work folder ---------------------------------------------------------- */

/* Chown dirfd's entries, recursively, never following a link and never
 * touching a file with other names elsewhere (a hard link planted by an
 * earlier command must not hand a foreign file to nobody). */
static int give_tree(int dirfd, uid_t uid, gid_t gid, int depth)
{
	DIR *d;
	struct dirent *e;
	int rc = 0;

	if (depth > 64) {
		close(dirfd);
		return -ELOOP;
	}
	d = fdopendir(dirfd);
	if (!d) {
		close(dirfd);
		return -errno;
	}
	while ((e = readdir(d))) {
		struct stat st;

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			int sub = openat(dirfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

			if (sub >= 0 && fchown(sub, uid, gid) < 0)
				rc = -errno;
			if (sub >= 0 && give_tree(sub, uid, gid, depth + 1) < 0)
				rc = -EIO;
		} else if (S_ISREG(st.st_mode) && st.st_nlink == 1) {
			if (fchownat(dirfd, e->d_name, uid, gid, AT_SYMLINK_NOFOLLOW) < 0)
				rc = -errno;
		}
	}
	closedir(d);
	return rc;
}

int sbx_give_workdir(const char *workdir, uid_t uid, gid_t gid)
{
	int fd = open(workdir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;

	if (fd < 0)
		return -errno;
	/* Only a private folder is handed over: never /tmp, a home or
	 * anything else shared (world-writable or sticky) or foreign. */
	if (fstat(fd, &st) < 0 || (st.st_mode & (S_IWOTH | S_ISVTX)) ||
	    (st.st_uid != geteuid() && st.st_uid != uid) || strcmp(workdir, "/") == 0) {
		close(fd);
		return -EPERM;
	}
	if (fchown(fd, uid, gid) < 0) {
		int e = -errno;

		close(fd);
		return e;
	}
	return give_tree(fd, uid, gid, 0);
}

struct tree_sum {
	uint64_t total;
	int depth;
};

static uint64_t tree_bytes_at(int dirfd, int depth);

static void add_entry(int dirfd, const char *name, void *arg)
{
	struct tree_sum *t = arg;
	struct stat st;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return;
	/* At least a block per entry: empty files cost inodes. */
	t->total += (uint64_t)st.st_blocks * 512u + 512u;
	if (S_ISDIR(st.st_mode)) {
		int sub = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

		if (sub >= 0) {
			t->total += tree_bytes_at(sub, t->depth + 1);
			close(sub);
		}
	}
}

/* Async-signal-safe (S calls it between fork and exit). */
static uint64_t tree_bytes_at(int dirfd, int depth)
{
	struct tree_sum t = { 0, depth };

	if (depth > 32)
		return UINT64_MAX / 2; /* deeper than any sample needs: over any quota */
	(void)sbx_each_entry(dirfd, add_entry, &t);
	return t.total;
}

uint64_t sbx_tree_bytes(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	uint64_t n;

	if (fd < 0)
		return 0;
	n = tree_bytes_at(fd, 0);
	close(fd);
	return n;
}
