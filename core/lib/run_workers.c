/* run_workers.c - a run's units judged by worker processes (run_workers.h). */
#include "config.h"
#include "run_workers.h"
#include "machine.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#define ERR_MAX 1024

/* What the workers share: the plan's next item, the verdicts appended, a
 * stop flag and each worker's failure. */
struct worker_slot {
	int rc;
	char err[ERR_MAX];
};

struct shared {
	atomic_size_t next;
	atomic_size_t nverdicts;
	atomic_int stop;
	struct worker_slot slot[];
};

unsigned npukb_default_jobs(void)
{
	struct npukb_machine m;
	cpu_set_t set;
	unsigned n;
	npukb_machine_probe(&m);
	n = m.cores ? m.cores : (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
	/* a CPU set smaller than the machine (a container, taskset) wins */
	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0 &&
	    (unsigned)CPU_COUNT(&set) < n)
		n = (unsigned)CPU_COUNT(&set);
	return n ? n : 1;
}

static void worker_main(unsigned w, int fd, pid_t parent, size_t nitems,
			const struct npukb_worker_ops *ops, void *ctx, struct shared *sh)
{
	struct worker_slot *slot = &sh->slot[w];
	struct npukb_progress *relay;
	int rc = 0;

	/* the run's death is ours: nobody may go on writing its journal */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	relay = npukb_progress_relay(fd, w);
	rc = ops->start(ctx, w, relay, slot->err, sizeof(slot->err));
	while (rc == 0 && !atomic_load(&sh->stop)) {
		size_t k = atomic_fetch_add(&sh->next, 1);
		if (k >= nitems)
			break;
		rc = ops->unit(ctx, k, slot->err, sizeof(slot->err));
	}
	atomic_fetch_add(&sh->nverdicts, ops->verdicts(ctx));
	if (rc) {
		slot->rc = rc;
		atomic_store(&sh->stop, 1);
	}
	/* _exit: the parent's stdio buffers and exit handlers are not ours */
	_exit(rc ? 1 : 0);
}

/* Feeds the complete lines of buf[0..*len) to the display, keeping a
 * partial last line. */
static void feed_lines(struct npukb_progress *p, char *buf, size_t *len)
{
	size_t start = 0, i;
	for (i = 0; i < *len; i++)
		if (buf[i] == '\n') {
			buf[i] = '\0';
			npukb_progress_feed(p, buf + start);
			start = i + 1;
		}
	memmove(buf, buf + start, *len - start);
	*len -= start;
}

/* Reads what the pipe holds now. 0 at end of file. */
static int drain(int fd, struct npukb_progress *p, char *buf, size_t cap, size_t *len)
{
	for (;;) {
		ssize_t n = read(fd, buf + *len, cap - *len);
		if (n > 0) {
			*len += (size_t)n;
			feed_lines(p, buf, len);
			if (*len == cap) /* a line longer than any relayed one */
				*len = 0;
			continue;
		}
		if (n == 0)
			return 0;
		return 1; /* EAGAIN (nothing more for now) or EINTR */
	}
}

int npukb_workers_run(unsigned jobs, size_t nitems, const struct npukb_worker_ops *ops,
		      void *ctx, struct npukb_progress *progress, size_t *nverdicts, char *err,
		      size_t errlen)
{
	struct shared *sh;
	size_t shsize;
	pid_t *pids, parent = getpid();
	unsigned n = jobs ? jobs : 1, w, alive = 0;
	int fds[2], rc = 0;
	char buf[8192];
	size_t len = 0;

	*nverdicts = 0;
	if (nitems == 0)
		return 0;
	if (n > nitems)
		n = (unsigned)nitems;
	shsize = sizeof(*sh) + n * sizeof(sh->slot[0]);
	sh = mmap(NULL, shsize, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		rc = -errno;
		snprintf(err, errlen, "cannot share memory with the workers: %s", strerror(-rc));
		return rc;
	}
	memset(sh, 0, shsize);
	pids = calloc(n, sizeof(*pids));
	if (!pids || pipe2(fds, O_CLOEXEC) != 0) {
		rc = pids ? -errno : -ENOMEM;
		snprintf(err, errlen, "cannot start the workers: %s", strerror(-rc));
		free(pids);
		munmap(sh, shsize);
		return rc;
	}
	fflush(NULL);
	for (w = 0; w < n; w++) {
		pid_t pid = fork();
		if (pid == 0) {
			close(fds[0]);
			worker_main(w, fds[1], parent, nitems, ops, ctx, sh);
		}
		if (pid < 0) {
			rc = -errno;
			snprintf(err, errlen, "cannot start worker %u: %s", w, strerror(-rc));
			atomic_store(&sh->stop, 1);
			break;
		}
		pids[w] = pid;
		alive++;
	}
	close(fds[1]);
	fcntl(fds[0], F_SETFL, O_NONBLOCK);

	/* the display is the parent's; it redraws at least once a second */
	while (alive) {
		struct pollfd pfd = { .fd = fds[0], .events = POLLIN };
		int status;
		if (poll(&pfd, 1, 1000) > 0)
			drain(fds[0], progress, buf, sizeof(buf), &len);
		npukb_progress_tick(progress);
		for (w = 0; w < n; w++) {
			pid_t got;
			if (pids[w] <= 0)
				continue;
			got = waitpid(pids[w], &status, WNOHANG);
			if (got == 0 || (got < 0 && errno == EINTR))
				continue;
			pids[w] = 0;
			alive--;
			npukb_progress_idle(progress, w);
			if (got > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0)
				continue;
			atomic_store(&sh->stop, 1);
			if (rc)
				continue; /* the first failure is the one reported */
			if (got > 0 && WIFSIGNALED(status)) {
				rc = -EINTR;
				snprintf(err, errlen, "worker %u died of signal %d (%s); "
					 "`npukb run --resume` judges its unit again", w,
					 WTERMSIG(status), strsignal(WTERMSIG(status)));
			} else if (sh->slot[w].rc) {
				rc = sh->slot[w].rc;
				snprintf(err, errlen, "%s", sh->slot[w].err);
			} else {
				rc = -EIO;
				snprintf(err, errlen, "worker %u failed before judging", w);
			}
		}
	}
	while (drain(fds[0], progress, buf, sizeof(buf), &len) > 0) {
		struct pollfd pfd = { .fd = fds[0], .events = POLLIN };
		if (poll(&pfd, 1, 0) <= 0)
			break;
	}
	close(fds[0]);
	*nverdicts = atomic_load(&sh->nverdicts);
	free(pids);
	munmap(sh, shsize);
	return rc;
}
