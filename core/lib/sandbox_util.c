/* sandbox_util.c - small async-signal-safe helpers of the sandbox (see
 * sandbox_private.h): they run between fork and exec of a possibly
 * multi-threaded caller, so no malloc, no stdio, no locks. */

#include "sandbox_private.h"
#include "fsutil.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

/* Smallest whole number >= v, for v >= 0 (keeps the library off libm). */
long long sbx_ceil_pos(double v)
{
	long long i = (long long)v;

	return (double)i < v ? i + 1 : i;
}

void sbx_sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

int sbx_write_full(int fd, const void *buf, size_t len)
{
	int rc = npukb_write_full(fd, buf, len);

	if (rc < 0)
		errno = -rc;
	return rc < 0 ? -1 : 0;
}

/* Read exactly len bytes; 1 when done, 0 on EOF first, -1 on error. */
int sbx_read_full(int fd, void *buf, size_t len)
{
	char *p = buf;

	while (len > 0) {
		ssize_t n = read(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (n == 0)
			return 0;
		p += n;
		len -= (size_t)n;
	}
	return 1;
}

int sbx_write_file_str(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	int rc;

	if (fd < 0)
		return -1;
	rc = sbx_write_full(fd, text, strlen(text));
	close(fd);
	return rc;
}

/* Close descriptors lo..hi (inclusive). */
static void close_span(unsigned lo, unsigned hi, int max_fd)
{
#ifdef SYS_close_range
	if (syscall(SYS_close_range, lo, hi, 0) == 0)
		return;
#endif
	/* Kernels before 5.9: one close() per possible descriptor. */
	if (hi > (unsigned)max_fd)
		hi = (unsigned)max_fd;
	for (unsigned fd = lo; fd <= hi && fd >= lo; fd++)
		close((int)fd);
}

/* Close every descriptor >= 3 except the nkeep in keep (-1 entries are
 * ignored). */
void sbx_close_fds_except(const int *keep, int nkeep, int max_fd)
{
	int sorted[4];
	int n = 0;
	unsigned lo = 3;

	for (int i = 0; i < nkeep && n < 4; i++) {
		int v = keep[i], k = n++;

		while (k > 0 && sorted[k - 1] > v) {
			sorted[k] = sorted[k - 1];
			k--;
		}
		sorted[k] = v;
	}
	for (int k = 0; k < n; k++) {
		if (sorted[k] < (int)lo)
			continue;
		if ((unsigned)sorted[k] > lo)
			close_span(lo, (unsigned)sorted[k] - 1, max_fd);
		lo = (unsigned)sorted[k] + 1;
	}
	close_span(lo, ~0U, max_fd);
}

void sbx_reset_signals(void)
{
	struct sigaction sa;
	sigset_t none;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_DFL;
	for (int sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			sigaction(sig, &sa, NULL); /* fails harmlessly for glibc-internal signals */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

void sbx_ignore_signal(int sig)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_IGN;
	sigaction(sig, &sa, NULL);
}

struct linux_dirent64_hdr {
	uint64_t ino;
	int64_t off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

int sbx_each_entry(int dirfd, void (*fn)(int dirfd, const char *name, void *arg), void *arg)
{
	char buf[4096];

	for (;;) {
		long got = syscall(SYS_getdents64, dirfd, buf, sizeof buf);

		if (got < 0)
			return -1;
		if (got == 0)
			return 0;
		for (long off = 0; off < got;) {
			struct linux_dirent64_hdr *d = (void *)(buf + off);

			off += d->reclen;
			if (d->name[0] == '.' && (!d->name[1] || (d->name[1] == '.' && !d->name[2])))
				continue;
			fn(dirfd, d->name, arg);
		}
	}
}
