/* workroot.c - where a run keeps its per-sample work folders (workroot.h). */
#include "config.h"
#include "workroot.h"
#include "fsutil.h"

#include <npukb/util.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <unistd.h>

#define WORK_PREFIX "npukb-work-"
#define TMPFS_MAGIC_NUMBER 0x01021994

/* A tmpfs we may write in and run programs from (the builds' executables
 * live in the work folders), with room for the largest cases. */
static int memory_fs_has_room(const char *dir)
{
	struct statfs fs;
	struct statvfs vfs;

	if (statfs(dir, &fs) != 0 || (unsigned long)fs.f_type != TMPFS_MAGIC_NUMBER)
		return 0;
	if (statvfs(dir, &vfs) != 0 || (vfs.f_flag & (ST_NOEXEC | ST_RDONLY)))
		return 0;
	if (access(dir, W_OK | X_OK) != 0)
		return 0;
	return (unsigned long long)vfs.f_bavail * vfs.f_frsize >= NPUKB_WORKROOT_SHM_MIN_FREE;
}

/* The PID namespace we are in (the inode of /proc/self/ns/pid), 0 when
 * unknown. A pid means a process only within its namespace: a run in a
 * `unshare --pid` (or a container sharing /dev/shm) has pids that do not
 * exist here, and its live work folder must not look abandoned. */
static unsigned long long pid_namespace(void)
{
	struct stat st;

	return stat("/proc/self/ns/pid", &st) == 0 ? (unsigned long long)st.st_ino : 0;
}

/* The pid in "npukb-work-<pidns>-<pid>-XXXXXX" when pidns is ns, or 0. */
static pid_t work_folder_pid(const char *name, unsigned long long ns)
{
	unsigned long long n;
	char *end;
	long pid;

	if (strncmp(name, WORK_PREFIX, strlen(WORK_PREFIX)) != 0)
		return 0;
	errno = 0;
	n = strtoull(name + strlen(WORK_PREFIX), &end, 10);
	if (errno || n != ns || *end != '-')
		return 0;
	pid = strtol(end + 1, &end, 10);
	if (errno || pid <= 0 || *end != '-' || end[1] == '\0')
		return 0;
	return (pid_t)pid;
}

int npukb_workroot_sweep(const char *parent)
{
	unsigned long long ns = pid_namespace();
	DIR *d = ns ? opendir(parent) : NULL;
	struct dirent *e;
	int removed = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)) != NULL) {
		pid_t pid = work_folder_pid(e->d_name, ns);
		struct stat st;
		char *path;

		if (!pid || pid == getpid() || fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
		    !S_ISDIR(st.st_mode) || st.st_uid != geteuid())
			continue;
		if (kill(pid, 0) == 0 || errno != ESRCH)
			continue; /* alive, or not ours to ask about */
		if (asprintf(&path, "%s/%s", parent, e->d_name) < 0)
			break;
		if (npukb_rm_rf(path) == 0)
			removed++;
		free(path);
	}
	closedir(d);
	return removed;
}

static int make_in(const char *parent, char **out, char *err, size_t errlen)
{
	char *path;
	int rc = npukb_mkdir_p(parent, 0755);

	if (rc != 0) {
		snprintf(err, errlen, "%s: cannot create the work folder: %s", parent, strerror(-rc));
		return rc;
	}
	(void)npukb_workroot_sweep(parent);
	if (asprintf(&path, "%s/" WORK_PREFIX "%llu-%ld-XXXXXX", parent, pid_namespace(),
		     (long)getpid()) < 0) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	if (!mkdtemp(path)) {
		rc = -errno;
		snprintf(err, errlen, "%s: cannot create a work folder: %s", parent, strerror(errno));
		free(path);
		return rc;
	}
	*out = path;
	return 0;
}

int npukb_workroot_make(const char *output_dir, const char *parent, int keep, char **out,
			char *err, size_t errlen)
{
	*out = NULL;
	if (!keep && parent && *parent)
		return make_in(parent, out, err, errlen);
	if (!keep && memory_fs_has_room(NPUKB_WORKROOT_SHM) &&
	    make_in(NPUKB_WORKROOT_SHM, out, err, errlen) == 0)
		return 0;
	if (asprintf(out, "%s/work", output_dir) < 0) {
		*out = NULL;
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	return 0;
}
