/* sandbox_supervisor.c - S, the supervisor of one sandboxed run (see
 * sandbox.c for the process layout): starts the command, enforces the wall
 * clock and the work folder's quota, collects the command's fate from the
 * namespaces' init, and kills and reaps everything left before it reports
 * to the caller. Runs in a fork of a possibly multi-threaded caller: only
 * async-signal-safe calls. */

#include "sandbox_private.h"

#include <npukb/util.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>


static int parse_pids(const char *text, pid_t *out, int max)
{
	int n = 0;
	long v = 0;
	int in = 0;

	for (const char *p = text;; p++) {
		if (*p >= '0' && *p <= '9') {
			v = v * 10 + (*p - '0');
			in = 1;
		} else {
			if (in && n < max)
				out[n++] = (pid_t)v;
			v = 0;
			in = 0;
			if (!*p)
				break;
		}
	}
	return n;
}

/* Parent pid from the text of /proc/<pid>/stat: the field after the state,
 * which follows the last ')' (the command name may contain anything). */
static pid_t stat_ppid(const char *text)
{
	const char *p = strrchr(text, ')');
	long v = 0;

	if (!p || !p[1] || !p[2] || !p[3] || p[4] != ' ')
		return -1;
	for (p += 5; *p >= '0' && *p <= '9'; p++)
		v = v * 10 + (*p - '0');
	return (pid_t)v;
}

struct child_scan {
	pid_t self;
	pid_t *out;
	int max, n;
};

static void check_child(int dirfd, const char *name, void *arg)
{
	struct child_scan *c = arg;
	char path[64] = "";
	char stat[512];
	size_t len = strlen(name);
	int fd;
	ssize_t r;

	(void)dirfd;
	if (name[0] < '1' || name[0] > '9' || len > 20)
		return;
	memcpy(path, name, len);
	memcpy(path + len, "/stat", 6);
	fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	r = read(fd, stat, sizeof stat - 1);
	close(fd);
	if (r <= 0)
		return;
	stat[r] = '\0';
	if (stat_ppid(stat) == c->self && c->n < c->max)
		parse_pids(name, c->out + c->n++, 1);
}

/* Fallback for kernels without /proc/<pid>/task/<tid>/children: scan
 * /proc. */
static int scan_children(pid_t self, pid_t *out, int max)
{
	struct child_scan c = { self, out, max, 0 };
	int dfd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (dfd < 0)
		return -1;
	(void)sbx_each_entry(dfd, check_child, &c);
	close(dfd);
	return c.n;
}

/* Direct children of S (orphans of the command land here). */
static int list_children(pid_t self, pid_t *out, int max)
{
	char buf[4096];
	int fd = open("/proc/thread-self/children", O_RDONLY | O_CLOEXEC);
	ssize_t r;

	if (fd < 0)
		return scan_children(self, out, max);
	r = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (r < 0)
		return scan_children(self, out, max);
	buf[r] = '\0';
	return parse_pids(buf, out, max);
}

/* Kill and reap every remaining descendant. Each round kills S's direct
 * children; their own children are re-parented to S (the subreaper) when
 * they die, and get killed in a later round. */
static void kill_descendants(void)
{
	pid_t self = getpid();
	int idle_rounds = 0;

	for (;;) {
		pid_t kids[512];
		int n = list_children(self, kids, 512);
		pid_t r;

		for (int i = 0; i < n; i++)
			kill(kids[i], SIGKILL);
		/* Block only while there is a killed child to wait for; a child
		 * we cannot see (no /proc) must not hang S forever. */
		r = waitpid(-1, NULL, __WALL | (n > 0 ? 0 : WNOHANG));
		if (r < 0 && errno == ECHILD)
			return;
		if (r > 0) {
			idle_rounds = 0;
		} else if (r == 0) {
			if (++idle_rounds > 1000)
				return;
			sbx_sleep_ms(1);
		}
	}
}

static int pidfd_for(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	return -1;
#endif
}

/* Reap exited orphans; return 1 once the command itself has exited (left
 * unreaped so its pid keeps pinning the process group). */
static int command_exited(pid_t pid)
{
	for (;;) {
		siginfo_t si;

		memset(&si, 0, sizeof si);
		if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) < 0 || si.si_pid == 0)
			return 0;
		if (si.si_pid == pid)
			return 1;
		waitpid(si.si_pid, NULL, __WALL);
	}
}

/* Messages from C (and from the command before its exec): a set-up
 * failure, the command's wait status, a denied call. */
static void read_child(int fd, struct supervisor_msg *rep)
{
	struct child_msg cm;

	while (sbx_read_full(fd, &cm, sizeof cm) == 1) {
		if (cm.stage == ST_STATUS) {
			rep->have_status = 1;
			rep->inner_status = cm.status;
		} else if (cm.stage == ST_VIOLATION) {
			rep->violation_nr = cm.err;
			rep->violated = 1;
		} else if (rep->stage == ST_NONE) {
			rep->stage = cm.stage;
			rep->err = cm.err;
		}
	}
}

static void fail_early(const struct launch *l, int stage, int err) __attribute__((noreturn));
static void fail_early(const struct launch *l, int stage, int err)
{
	struct supervisor_msg rep;
	pid_t none = -1;

	memset(&rep, 0, sizeof rep);
	rep.stage = stage;
	rep.err = err;
	(void)sbx_write_full(l->report_fd, &none, sizeof none);
	(void)sbx_write_full(l->report_fd, &rep, sizeof rep);
	_exit(0);
}

void sbx_supervisor_main(const struct launch *l)
{
	struct supervisor_msg rep;
	int cp[2];
	pid_t pid, self;
	int pidfd;
	int orphaned = 0;
	long step_ms = 1;
	double t0, deadline, next_quota = 0;

	memset(&rep, 0, sizeof rep);
	sbx_reset_signals();
	/* S answers only to its caller: terminal signals reach the caller,
	 * which either finishes or dies, and S notices the latter. */
	sbx_ignore_signal(SIGPIPE);
	sbx_ignore_signal(SIGINT);
	sbx_ignore_signal(SIGQUIT);
	sbx_ignore_signal(SIGTERM);
	sbx_ignore_signal(SIGHUP);
	sbx_ignore_signal(SIGTSTP);
	sbx_ignore_signal(SIGTTIN);
	sbx_ignore_signal(SIGTTOU);
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	sbx_close_fds_except((const int[]){ l->report_fd, l->cg_procs_fd[0], l->cg_procs_fd[1] }, 3,
			     l->max_fd);

	if (pipe2(cp, O_CLOEXEC) < 0)
		fail_early(l, ST_PIPE, errno);
	t0 = npukb_monotonic_seconds();
	deadline = l->wall > 0 ? t0 + l->wall : 0;
	self = getpid();
	pid = sbx_start_command(l, cp[1], cp[0], self);
	close(cp[1]);
	if (pid < 0)
		fail_early(l, l->namespaces ? ST_NAMESPACE : ST_FORK, errno);
	for (int i = 0; i < 2; i++)
		if (l->cg_procs_fd[i] >= 0)
			close(l->cg_procs_fd[i]);
	/* Both sides set the group, so it exists whichever runs first. */
	if (!l->namespaces)
		setpgid(pid, pid);
	(void)sbx_write_full(l->report_fd, &pid, sizeof pid);

	pidfd = pidfd_for(pid);
	for (;;) {
		double now;
		long wait_ms = SUPERVISOR_TICK_MS;

		if (command_exited(pid))
			break;
		if (getppid() != l->caller) {
			orphaned = 1;
			break;
		}
		now = npukb_monotonic_seconds();
		if (deadline > 0) {
			if (now >= deadline) {
				rep.timed_out = 1;
				break;
			}
			if ((deadline - now) * 1000.0 < (double)wait_ms)
				wait_ms = (long)sbx_ceil_pos((deadline - now) * 1000.0);
		}
		if (l->quota_bytes && now >= next_quota) {
			if (sbx_tree_bytes(l->workdir) > l->quota_bytes) {
				rep.quota_hit = 1;
				break;
			}
			next_quota = now + SUPERVISOR_TICK_MS / 1000.0;
		}
		if (pidfd >= 0) {
			struct pollfd p = { pidfd, POLLIN, 0 };

			poll(&p, 1, (int)wait_ms);
		} else {
			/* No pidfd (kernel < 5.3): poll with short sleeps. */
			sbx_sleep_ms(step_ms < wait_ms ? step_ms : wait_ms);
			if (step_ms < 10)
				step_ms *= 2;
		}
	}
	if (pidfd >= 0)
		close(pidfd);

	/* The command is either a zombie or still running, so its pid still
	 * names its process group: one signal ends the whole group. With
	 * namespaces the pid is the namespace's init, whose end is everyone's. */
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	while (wait4(pid, &rep.status, __WALL, &rep.ru) < 0 && errno == EINTR)
		;
	rep.wall = npukb_monotonic_seconds() - t0;

	/* The write ends were C's and its children's, all gone: no blocking. */
	read_child(cp[0], &rep);
	close(cp[0]);
	if (rep.have_status)
		rep.status = rep.inner_status;
	/* A quota passed in the last moments before an exit still counts. */
	if (!rep.quota_hit && l->quota_bytes && sbx_tree_bytes(l->workdir) > l->quota_bytes)
		rep.quota_hit = 1;

	kill_descendants();
	if (!orphaned)
		(void)sbx_write_full(l->report_fd, &rep, sizeof rep);
	_exit(0);
}
