/* outlock.c - the output folder's lock: flock(2) on a file naming the
 * holder's pid. */
#include "outlock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#define LOCK_NAME ".npukb.lock"

int npukb_outlock_take(const char *dir, int *fd, char *err, size_t errlen)
{
	char path[4096], pid[32] = "";
	ssize_t n;
	int rc;

	*fd = -1;
	if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, LOCK_NAME) >= sizeof path) {
		snprintf(err, errlen, "%s: path too long", dir);
		return -ENAMETOOLONG;
	}
	/* O_CLOEXEC: a sample's process must not inherit, and so outlive
	 * us holding, the lock */
	*fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (*fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: cannot create the lock: %s", path, strerror(-rc));
		return rc;
	}
	if (flock(*fd, LOCK_EX | LOCK_NB) != 0) {
		rc = errno == EWOULDBLOCK ? -EBUSY : -errno;
		if (rc == -EBUSY) {
			n = pread(*fd, pid, sizeof pid - 1, 0);
			pid[n > 0 ? n : 0] = '\0';
			pid[strcspn(pid, "\n")] = '\0';
			snprintf(err, errlen,
				 "%s: another npukb run (pid %s) is writing to this output folder; "
				 "wait for it or choose another -o",
				 dir, pid[0] ? pid : "unknown");
		} else {
			snprintf(err, errlen, "%s: cannot lock: %s", path, strerror(-rc));
		}
		close(*fd);
		*fd = -1;
		return rc;
	}
	n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
	if (ftruncate(*fd, 0) != 0 || pwrite(*fd, pid, (size_t)n, 0) != n) {
		rc = errno ? -errno : -EIO;
		snprintf(err, errlen, "%s: cannot write the lock: %s", path, strerror(-rc));
		npukb_outlock_release(*fd);
		*fd = -1;
		return rc;
	}
	return 0;
}

void npukb_outlock_release(int fd)
{
	if (fd >= 0)
		close(fd); /* closing drops the flock */
}
