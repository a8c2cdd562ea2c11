/* sandbox.c - run one untrusted command under limits (npukb/sandbox.h).
 *
 * Process layout of one run:
 *
 *   caller thread --fork--> supervisor S --fork--> command C --> whatever C forks
 *
 * Why an intermediate supervisor rather than forking the command directly:
 * S makes itself a child subreaper (PR_SET_CHILD_SUBREAPER), so everything
 * the command leaves behind - background jobs, double-forked daemons, even
 * processes that left the process group with setsid() - is re-parented to S
 * instead of to init. S kills and reaps all of it before it reports, so a
 * sample can neither leave processes running nor leave zombies behind (some
 * container inits never reap orphans). The caller's process is not a
 * subreaper and never sees SIGCHLD from anything but S, which keeps the
 * library free of process-wide state: it is safe to call from several
 * threads at once, as long as nobody in the caller reaps with waitpid(-1)
 * and SIGCHLD is not set to SIG_IGN (both would steal S's exit status).
 *
 * S and C are forks of a possibly multi-threaded caller, so between fork and
 * exec they only make async-signal-safe calls: everything that needs malloc
 * or stdio (PATH search, strings, cgroup discovery) is prepared beforehand
 * in struct launch.
 *
 * Limits: RLIMIT_CPU (soft = limit rounded up to whole seconds, hard = soft
 * + 1 so a process ignoring SIGXCPU is killed a second later), RLIMIT_AS,
 * RLIMIT_FSIZE, RLIMIT_CORE = 0, and the wall-clock deadline enforced by S
 * with SIGKILL to the process group. RLIMIT_NPROC counts processes per user
 * and does not apply to root at all, so max_processes uses a pids cgroup
 * when one can be created (a fork then fails with EAGAIN inside the sample,
 * as RLIMIT_NPROC would make it fail); see cg_open(). Without a writable
 * pids cgroup the limit is not enforced and a fork bomb lives until the
 * wall-clock deadline, when its whole tree is killed. The environment
 * variable NPUKB_SANDBOX_CGROUP selects the cgroup: unset = detect, "0" =
 * never use one, an absolute path = create per-run cgroups under it (for a
 * delegated cgroup v2 subtree). The pids controller counts threads too.
 *
 * Result conventions beyond the header: for NPUKB_EXIT_EXEC_FAILED,
 * exit_code holds the errno of the failed exec (it is never a real exit
 * status); for NPUKB_EXIT_TIMEOUT and NPUKB_EXIT_CPU_LIMIT, signal holds the
 * signal that ended the command (normally SIGKILL or SIGXCPU). */

#include <npukb/sandbox.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>

extern char **environ;

/* How often S looks at its orphans and at whether its caller still lives. */
#define SUPERVISOR_TICK_MS 100
/* How long the caller waits for S beyond the wall-clock limit before it
 * decides S is broken and kills it (S's own cleanup of a large fork bomb
 * needs some time). */
#define SUPERVISOR_GRACE_MS 30000

/* Where a run failed before the command started. */
enum stage {
	ST_NONE = 0,
	ST_CGROUP,
	ST_CHDIR,
	ST_STDIN,
	ST_STDOUT,
	ST_STDERR,
	ST_RLIMIT,
	ST_EXEC,
	ST_PIPE,  /* S could not create its pipe */
	ST_FORK   /* S could not fork the command */
};

/* C -> S, only when C fails before or at exec. */
struct child_msg {
	int stage;
	int err;
};

/* S -> caller, after C's pid. */
struct supervisor_msg {
	int stage;
	int err;
	int status;      /* from wait4 */
	int timed_out;
	double wall;
	struct rusage ru;
};

/* Everything S and C need, prepared by the caller before fork. */
struct launch {
	char **candidates;     /* paths to try with execve, NULL-terminated */
	char *const *argv;
	char *const *envp;
	const char *workdir;
	const char *out_path;  /* relative to workdir; "/dev/null" when not wanted */
	const char *err_path;
	int err_same_as_out;   /* one file for both: share one descriptor */

	int set_cpu, set_as, set_fsize;
	struct rlimit cpu, as, fsize;
	double wall;
	int isolate_network;
	int try_userns;        /* unprivileged: a user namespace makes netns possible */
	char uid_map[48], gid_map[48];

	int cg_procs_fd;       /* cgroup.procs of the run's pids cgroup, or -1 */
	int report_fd;         /* S's end of the report pipe */
	pid_t caller;          /* S stops and cleans up when its parent changes */
	int max_fd;            /* bound for the close() loop when close_range is missing */
};

/* ---- small async-signal-safe helpers --------------------------------------- */

/* Smallest whole number >= v, for v >= 0 (keeps the library off libm). */
static long long ceil_pos(double v)
{
	long long i = (long long)v;

	return (double)i < v ? i + 1 : i;
}

static double mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static int write_full(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len > 0) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Read exactly len bytes; 1 when done, 0 on EOF first, -1 on error. */
static int read_full(int fd, void *buf, size_t len)
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

static int write_file_str(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	int rc;

	if (fd < 0)
		return -1;
	rc = write_full(fd, text, strlen(text));
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

/* Close every descriptor >= 3 except keep_a and keep_b (-1 for none). */
static void close_fds_except(int keep_a, int keep_b, int max_fd)
{
	int keep[2] = { keep_a < keep_b ? keep_a : keep_b,
			keep_a < keep_b ? keep_b : keep_a };
	unsigned lo = 3;

	for (int k = 0; k < 2; k++) {
		if (keep[k] < (int)lo)
			continue;
		if ((unsigned)keep[k] > lo)
			close_span(lo, (unsigned)keep[k] - 1, max_fd);
		lo = (unsigned)keep[k] + 1;
	}
	close_span(lo, ~0U, max_fd);
}

static void reset_signals(void)
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

static void ignore_signal(int sig)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_IGN;
	sigaction(sig, &sa, NULL);
}

/* ---- the command (C) -------------------------------------------------------- */

static void child_fail(int fd, int stage, int err) __attribute__((noreturn));
static void child_fail(int fd, int stage, int err)
{
	struct child_msg m = { stage, err };

	(void)write_full(fd, &m, sizeof m);
	_exit(127);
}

static int open_onto(const char *path, int flags, int target)
{
	int fd = open(path, flags, 0644);

	if (fd < 0)
		return -1;
	if (fd != target) {
		if (dup2(fd, target) < 0) {
			int e = errno;

			close(fd);
			errno = e;
			return -1;
		}
		close(fd);
	}
	return 0;
}

static void isolate_network(const struct launch *l)
{
	if (unshare(CLONE_NEWNET) == 0 || !l->try_userns)
		return;
	/* Without CAP_SYS_ADMIN a network namespace needs a user namespace
	 * of our own; map our own ids so files keep their owners. Any failure
	 * leaves the network as it was: this is best effort by contract. */
	if (unshare(CLONE_NEWUSER | CLONE_NEWNET) < 0)
		return;
	(void)write_file_str("/proc/self/setgroups", "deny");
	(void)write_file_str("/proc/self/uid_map", l->uid_map);
	(void)write_file_str("/proc/self/gid_map", l->gid_map);
}

static void child_main(const struct launch *l, int fd, pid_t supervisor)
	__attribute__((noreturn));
static void child_main(const struct launch *l, int fd, pid_t supervisor)
{
	const int wr = O_WRONLY | O_CREAT | O_TRUNC | O_NOCTTY;
	struct rlimit zero = { 0, 0 };
	int saw_eacces = 0;
	int last_err = ENOENT;

	reset_signals();
	/* If S dies abruptly (OOM killer) the command must not live on. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != supervisor)
		_exit(127);
	setpgid(0, 0);
	/* setuid programs must not lift a sample above its caller. */
	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);

	if (l->cg_procs_fd >= 0) {
		if (write(l->cg_procs_fd, "0", 1) != 1)
			child_fail(fd, ST_CGROUP, errno);
		close(l->cg_procs_fd);
	}
	if (l->isolate_network)
		isolate_network(l);

	if (chdir(l->workdir) < 0)
		child_fail(fd, ST_CHDIR, errno);
	if (open_onto("/dev/null", O_RDONLY | O_NOCTTY, 0) < 0)
		child_fail(fd, ST_STDIN, errno);
	if (open_onto(l->out_path, wr, 1) < 0)
		child_fail(fd, ST_STDOUT, errno);
	if (l->err_same_as_out) {
		if (dup2(1, 2) < 0)
			child_fail(fd, ST_STDERR, errno);
	} else if (open_onto(l->err_path, wr, 2) < 0) {
		child_fail(fd, ST_STDERR, errno);
	}

	if (setrlimit(RLIMIT_CORE, &zero) < 0 ||
	    (l->set_cpu && setrlimit(RLIMIT_CPU, &l->cpu) < 0) ||
	    (l->set_as && setrlimit(RLIMIT_AS, &l->as) < 0) ||
	    (l->set_fsize && setrlimit(RLIMIT_FSIZE, &l->fsize) < 0))
		child_fail(fd, ST_RLIMIT, errno);

	close_fds_except(fd, -1, l->max_fd);

	/* execvp() is not on the async-signal-safe list, so the PATH search
	 * was done by the caller; this loop keeps execvp's error rules:
	 * EACCES from any candidate wins over a later ENOENT. */
	for (char **c = l->candidates; *c; c++) {
		execve(*c, l->argv, l->envp);
		switch (errno) {
		case EACCES:
			saw_eacces = 1;
			/* fall through */
		case ENOENT:
		case ENOTDIR:
		case ESTALE:
		case ENODEV:
		case ETIMEDOUT:
			last_err = errno;
			continue;
		default:
			child_fail(fd, ST_EXEC, errno);
		}
	}
	child_fail(fd, ST_EXEC, saw_eacces ? EACCES : last_err);
}

/* ---- the supervisor (S) ------------------------------------------------------ */

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

struct linux_dirent64_hdr {
	uint64_t ino;
	int64_t off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

/* Fallback for kernels without /proc/<pid>/task/<tid>/children: scan
 * /proc with the raw getdents64 (opendir may allocate). */
static int scan_children(pid_t self, pid_t *out, int max)
{
	char buf[4096];
	int dfd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int n = 0;

	if (dfd < 0)
		return -1;
	for (;;) {
		long got = syscall(SYS_getdents64, dfd, buf, sizeof buf);

		if (got <= 0)
			break;
		for (long off = 0; off < got;) {
			struct linux_dirent64_hdr *d = (void *)(buf + off);
			char path[64] = "/proc/";
			char stat[512];
			size_t len = strlen(d->name);
			int fd;
			ssize_t r;

			off += d->reclen;
			if (d->name[0] < '1' || d->name[0] > '9' || len > 20)
				continue;
			memcpy(path + 6, d->name, len);
			memcpy(path + 6 + len, "/stat", 6);
			fd = open(path, O_RDONLY | O_CLOEXEC);
			if (fd < 0)
				continue;
			r = read(fd, stat, sizeof stat - 1);
			close(fd);
			if (r <= 0)
				continue;
			stat[r] = '\0';
			if (stat_ppid(stat) == self && n < max)
				parse_pids(d->name, out + n++, 1);
		}
	}
	close(dfd);
	return n;
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
			sleep_ms(1);
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

static void supervisor_main(const struct launch *l) __attribute__((noreturn));
static void supervisor_main(const struct launch *l)
{
	struct supervisor_msg rep;
	struct child_msg cm;
	int cp[2];
	pid_t pid, self;
	int pidfd;
	int orphaned = 0;
	long step_ms = 1;
	double t0, deadline;

	memset(&rep, 0, sizeof rep);
	reset_signals();
	/* S answers only to its caller: terminal signals reach the caller,
	 * which either finishes or dies, and S notices the latter. */
	ignore_signal(SIGPIPE);
	ignore_signal(SIGINT);
	ignore_signal(SIGQUIT);
	ignore_signal(SIGTERM);
	ignore_signal(SIGHUP);
	ignore_signal(SIGTSTP);
	ignore_signal(SIGTTIN);
	ignore_signal(SIGTTOU);
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	close_fds_except(l->report_fd, l->cg_procs_fd, l->max_fd);

	if (pipe2(cp, O_CLOEXEC) < 0) {
		pid_t none = -1;

		rep.stage = ST_PIPE;
		rep.err = errno;
		(void)write_full(l->report_fd, &none, sizeof none);
		(void)write_full(l->report_fd, &rep, sizeof rep);
		_exit(0);
	}
	t0 = mono_now();
	deadline = l->wall > 0 ? t0 + l->wall : 0;
	self = getpid();
	pid = fork();
	if (pid == 0) {
		close(cp[0]);
		close(l->report_fd);
		child_main(l, cp[1], self);
	}
	close(cp[1]);
	if (pid < 0) {
		pid_t none = -1;

		rep.stage = ST_FORK;
		rep.err = errno;
		(void)write_full(l->report_fd, &none, sizeof none);
		(void)write_full(l->report_fd, &rep, sizeof rep);
		_exit(0);
	}
	if (l->cg_procs_fd >= 0)
		close(l->cg_procs_fd);
	/* Both sides set the group, so it exists whichever runs first. */
	setpgid(pid, pid);
	(void)write_full(l->report_fd, &pid, sizeof pid);

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
		now = mono_now();
		if (deadline > 0) {
			if (now >= deadline) {
				rep.timed_out = 1;
				break;
			}
			if ((deadline - now) * 1000.0 < (double)wait_ms)
				wait_ms = (long)ceil_pos((deadline - now) * 1000.0);
		}
		if (pidfd >= 0) {
			struct pollfd p = { pidfd, POLLIN, 0 };

			poll(&p, 1, (int)wait_ms);
		} else {
			/* No pidfd (kernel < 5.3): poll with short sleeps. */
			sleep_ms(step_ms < wait_ms ? step_ms : wait_ms);
			if (step_ms < 10)
				step_ms *= 2;
		}
	}
	if (pidfd >= 0)
		close(pidfd);

	/* The command is either a zombie or still running, so its pid still
	 * names its process group: one signal ends the whole group. */
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	while (wait4(pid, &rep.status, __WALL, &rep.ru) < 0 && errno == EINTR)
		;
	rep.wall = mono_now() - t0;

	/* The only write end was the command's, so this cannot block. */
	if (read_full(cp[0], &cm, sizeof cm) == 1) {
		rep.stage = cm.stage;
		rep.err = cm.err;
	}
	close(cp[0]);

	kill_descendants();
	if (!orphaned)
		(void)write_full(l->report_fd, &rep, sizeof rep);
	_exit(0);
}

/* ---- preparation in the caller ----------------------------------------------- */

static void set_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || errlen == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

static const char *errno_text(int e)
{
	const char *s = strerrordesc_np(e);

	return s ? s : "unknown error";
}

static const char *env_lookup(char *const *envp, const char *name)
{
	size_t n = strlen(name);

	for (; envp && *envp; envp++)
		if (strncmp(*envp, name, n) == 0 && (*envp)[n] == '=')
			return *envp + n + 1;
	return NULL;
}

/* The execve candidates for argv0, in execvp's order: argv0 itself when it
 * contains a slash, otherwise each PATH entry (an empty entry means the
 * work directory). The PATH is the command's own when envp is given. One
 * allocation: the pointer array followed by the strings. */
static char **make_candidates(const char *argv0, char *const *envp)
{
	const char *path;
	size_t n = 1, bytes, alen = strlen(argv0);
	char **list;
	char *s;

	if (strchr(argv0, '/')) {
		list = malloc(2 * sizeof *list + alen + 1);
		if (!list)
			return NULL;
		s = (char *)(list + 2);
		memcpy(s, argv0, alen + 1);
		list[0] = s;
		list[1] = NULL;
		return list;
	}
	path = env_lookup(envp, "PATH");
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (const char *p = path; *p; p++)
		n += *p == ':';
	bytes = (n + 1) * sizeof *list + strlen(path) + n * (alen + 3);
	list = malloc(bytes);
	if (!list)
		return NULL;
	s = (char *)(list + n + 1);
	for (size_t i = 0; i < n; i++) {
		const char *end = strchr(path, ':');
		size_t dlen = end ? (size_t)(end - path) : strlen(path);

		list[i] = s;
		if (dlen == 0) {
			*s++ = '.';
		} else {
			memcpy(s, path, dlen);
			s += dlen;
		}
		*s++ = '/';
		memcpy(s, argv0, alen + 1);
		s += alen + 1;
		path = end ? end + 1 : path + dlen;
	}
	list[n] = NULL;
	return list;
}

/* Limit to apply: the request, but never above the current hard limit
 * (raising it would fail with EPERM for anyone but root). */
static void clamp_limit(int resource, rlim_t soft, rlim_t hard, struct rlimit *out)
{
	struct rlimit cur;

	if (getrlimit(resource, &cur) == 0 && cur.rlim_max != RLIM_INFINITY) {
		if (hard > cur.rlim_max)
			hard = cur.rlim_max;
		if (soft > hard)
			soft = hard;
	}
	out->rlim_cur = soft;
	out->rlim_max = hard;
}

/* ---- pids cgroup (best effort) ----------------------------------------------- */

struct cgroup_run {
	char *dir;     /* malloc'd; NULL when no cgroup is used */
	int procs_fd;
};

static int has_token(const char *list, const char *word, const char *seps)
{
	size_t n = strlen(word);

	for (const char *p = list; *p;) {
		size_t len = strcspn(p, seps);

		if (len == n && strncmp(p, word, n) == 0)
			return 1;
		p += len;
		p += strspn(p, seps);
	}
	return 0;
}

/* Fills v1 / v2 with our cgroup path in the pids hierarchy (v1) and in the
 * unified hierarchy (v2), empty when absent. */
static void own_cgroups(char *v1, char *v2, size_t len)
{
	FILE *f = fopen("/proc/self/cgroup", "re");
	char *line = NULL;
	size_t cap = 0;

	v1[0] = v2[0] = '\0';
	if (!f)
		return;
	while (getline(&line, &cap, f) > 0) {
		char *c1 = strchr(line, ':');
		char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;

		if (!c2)
			continue;
		*c1 = *c2 = '\0';
		c2[1 + strcspn(c2 + 1, "\n")] = '\0';
		if (has_token(c1 + 1, "pids", ","))
			snprintf(v1, len, "%s", c2 + 1);
		else if (strcmp(line, "0") == 0 && c1[1] == '\0')
			snprintf(v2, len, "%s", c2 + 1);
	}
	free(line);
	fclose(f);
}

/* Mount point and mount root of the pids v1 hierarchy or the v2 one. */
static int find_mount(int v2, char *point, char *root, size_t len)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char *line = NULL;
	size_t cap = 0;
	int found = 0;

	if (!f)
		return 0;
	while (!found && getline(&line, &cap, f) > 0) {
		char *sep = strstr(line, " - ");
		char *save = NULL;
		char *tok, *fstype, *opts;
		char *mroot = NULL, *mpoint = NULL;

		if (!sep)
			continue;
		*sep = '\0';
		tok = strtok_r(line, " ", &save);
		for (int i = 0; tok && i < 5; i++, tok = strtok_r(NULL, " ", &save)) {
			if (i == 3)
				mroot = tok;
			if (i == 4)
				mpoint = tok;
		}
		save = NULL;
		fstype = strtok_r(sep + 3, " ", &save);
		(void)strtok_r(NULL, " ", &save);
		opts = strtok_r(NULL, " \n", &save);
		if (!mroot || !mpoint || !fstype)
			continue;
		if (v2 ? strcmp(fstype, "cgroup2") == 0
		       : (strcmp(fstype, "cgroup") == 0 && opts && has_token(opts, "pids", ","))) {
			snprintf(point, len, "%s", mpoint);
			snprintf(root, len, "%s", mroot);
			found = 1;
		}
	}
	free(line);
	fclose(f);
	return found;
}

static int join_cgroup_path(const char *point, const char *root, const char *path,
			    char *out, size_t len)
{
	size_t rl = strlen(root);

	if (strcmp(root, "/") != 0 && strncmp(path, root, rl) == 0 &&
	    (path[rl] == '/' || path[rl] == '\0'))
		path += rl;
	if (strcmp(path, "/") == 0)
		path = "";
	return (size_t)snprintf(out, len, "%s%s", point, path) < len ? 0 : -1;
}

static int file_has_token(const char *path, const char *word)
{
	char buf[512];
	FILE *f = fopen(path, "re");
	int found = 0;

	if (!f)
		return 0;
	if (fgets(buf, sizeof buf, f))
		found = has_token(buf, word, " \n");
	fclose(f);
	return found;
}

/* Directory under which per-run pids cgroups can be made, or -1. */
static int cgroup_base(char *out, size_t len)
{
	const char *env = getenv("NPUKB_SANDBOX_CGROUP");
	char v1[PATH_MAX], v2[PATH_MAX], point[PATH_MAX], root[PATH_MAX];
	char probe[PATH_MAX + 32];

	if (env && *env) {
		if (env[0] != '/')
			return -1;
		return (size_t)snprintf(out, len, "%s", env) < len ? 0 : -1;
	}
	own_cgroups(v1, v2, sizeof v1);
	if (v1[0] && find_mount(0, point, root, sizeof point) &&
	    join_cgroup_path(point, root, v1, out, len) == 0) {
		snprintf(probe, sizeof probe, "%s/cgroup.procs", out);
		if (access(probe, W_OK) == 0)
			return 0;
	}
	if (v2[0] && find_mount(1, point, root, sizeof point) &&
	    join_cgroup_path(point, root, v2, out, len) == 0) {
		/* Only a delegated subtree with pids switched on for children. */
		snprintf(probe, sizeof probe, "%s/cgroup.subtree_control", out);
		if (file_has_token(probe, "pids"))
			return 0;
	}
	return -1;
}

static void cg_open(struct cgroup_run *cg, int max_processes)
{
	static atomic_uint counter;
	char base[PATH_MAX], file[PATH_MAX + 64], num[32];
	unsigned id = atomic_fetch_add(&counter, 1);
	size_t dlen;

	cg->dir = NULL;
	cg->procs_fd = -1;
	if (max_processes <= 0 || cgroup_base(base, sizeof base) < 0)
		return;
	dlen = strlen(base) + 64;
	cg->dir = malloc(dlen);
	if (!cg->dir)
		return;
	snprintf(cg->dir, dlen, "%s/npukb-%ld-%u", base, (long)getpid(), id);
	if (mkdir(cg->dir, 0755) < 0) {
		free(cg->dir);
		cg->dir = NULL;
		return;
	}
	snprintf(file, sizeof file, "%s/pids.max", cg->dir);
	snprintf(num, sizeof num, "%d", max_processes);
	if (write_file_str(file, num) == 0) {
		snprintf(file, sizeof file, "%s/cgroup.procs", cg->dir);
		cg->procs_fd = open(file, O_WRONLY | O_CLOEXEC);
	}
	if (cg->procs_fd < 0) {
		rmdir(cg->dir);
		free(cg->dir);
		cg->dir = NULL;
	}
}

static void cg_close(struct cgroup_run *cg)
{
	if (cg->procs_fd >= 0)
		close(cg->procs_fd);
	if (cg->dir) {
		/* Everything in it has been reaped by S, but the kernel may
		 * release the last task's membership a moment later. */
		for (int i = 0; i < 100 && rmdir(cg->dir) < 0 && errno == EBUSY; i++)
			sleep_ms(2);
		free(cg->dir);
	}
	cg->dir = NULL;
	cg->procs_fd = -1;
}

/* ---- the caller's side ---------------------------------------------------------- */

/* Wait until fd is readable or the deadline (0: none) passes; 1 readable,
 * 0 timed out. */
static int wait_readable(int fd, double deadline)
{
	for (;;) {
		struct pollfd p = { fd, POLLIN, 0 };
		int ms = -1;
		int r;

		if (deadline > 0) {
			double left = deadline - mono_now();

			if (left <= 0)
				return 0;
			ms = left > 1e6 ? 1000000000 : (int)ceil_pos(left * 1000.0);
		}
		r = poll(&p, 1, ms);
		if (r > 0)
			return 1;
		if (r < 0 && errno != EINTR)
			return 1; /* let read() report the problem */
	}
}

static const char *stage_text(int stage)
{
	switch (stage) {
	case ST_CGROUP: return "could not join the run's pids cgroup";
	case ST_CHDIR: return "could not enter the work directory";
	case ST_STDIN: return "could not open /dev/null for stdin";
	case ST_STDOUT: return "could not open the stdout file";
	case ST_STDERR: return "could not open the stderr file";
	case ST_RLIMIT: return "could not set resource limits";
	case ST_PIPE: return "supervisor could not create a pipe";
	case ST_FORK: return "supervisor could not fork the command";
	default: return "could not start the command";
	}
}

static void classify(const struct supervisor_msg *rep, const struct launch *l,
		     struct npukb_sandbox_result *res)
{
	int st = rep->status;

	res->wall_seconds = rep->wall;
	res->cpu_seconds = (double)rep->ru.ru_utime.tv_sec + rep->ru.ru_utime.tv_usec * 1e-6 +
			   (double)rep->ru.ru_stime.tv_sec + rep->ru.ru_stime.tv_usec * 1e-6;
	res->max_rss_kb = rep->ru.ru_maxrss;
	res->exit_code = 0;
	res->signal = WIFSIGNALED(st) ? WTERMSIG(st) : 0;

	if (rep->stage == ST_EXEC) {
		res->kind = NPUKB_EXIT_EXEC_FAILED;
		res->exit_code = rep->err;
	} else if (rep->timed_out) {
		res->kind = NPUKB_EXIT_TIMEOUT;
	} else if (WIFEXITED(st)) {
		res->kind = NPUKB_EXIT_NORMAL;
		res->exit_code = WEXITSTATUS(st);
	} else if (res->signal == SIGXCPU ||
		   (res->signal == SIGKILL && l->set_cpu &&
		    res->cpu_seconds >= (double)l->cpu.rlim_cur)) {
		/* SIGKILL at the hard limit when SIGXCPU was caught or ignored. */
		res->kind = NPUKB_EXIT_CPU_LIMIT;
	} else {
		res->kind = NPUKB_EXIT_SIGNAL;
	}
}

int npukb_sandbox_run(const struct npukb_sandbox_spec *spec,
		      struct npukb_sandbox_result *result,
		      char *err, size_t errlen)
{
	struct launch l;
	struct cgroup_run cg = { NULL, -1 };
	struct supervisor_msg rep;
	struct stat st;
	struct rlimit nofile;
	pid_t sup, cmd = -1;
	int rp[2];
	int rc = 0, got;
	double deadline = 0;
	const struct npukb_limits *lim;

	memset(&rep, 0, sizeof rep);
	if (err && errlen)
		err[0] = '\0';
	if (!spec || !result || !spec->argv || !spec->argv[0] || !spec->workdir) {
		set_err(err, errlen, "sandbox: missing argv, workdir or result");
		return -EINVAL;
	}
	memset(result, 0, sizeof *result);
	result->kind = NPUKB_EXIT_EXEC_FAILED;
	lim = &spec->limits;
	if (stat(spec->workdir, &st) < 0) {
		int e = errno;

		set_err(err, errlen, "sandbox: work directory '%s': %s", spec->workdir,
			errno_text(e));
		return -e;
	}
	if (!S_ISDIR(st.st_mode)) {
		set_err(err, errlen, "sandbox: work directory '%s' is not a directory",
			spec->workdir);
		return -ENOTDIR;
	}

	memset(&l, 0, sizeof l);
	/* The header keeps argv/envp const; execve's prototype predates const. */
	l.argv = (char *const *)(uintptr_t)spec->argv;
	l.envp = spec->envp ? (char *const *)(uintptr_t)spec->envp : environ;
	l.workdir = spec->workdir;
	l.out_path = spec->stdout_path ? spec->stdout_path : "/dev/null";
	l.err_path = spec->stderr_path ? spec->stderr_path : "/dev/null";
	l.err_same_as_out = spec->stdout_path && spec->stderr_path &&
			    strcmp(spec->stdout_path, spec->stderr_path) == 0;
	l.candidates = make_candidates(spec->argv[0], l.envp);
	if (!l.candidates) {
		set_err(err, errlen, "sandbox: out of memory");
		return -ENOMEM;
	}
	if (lim->cpu_seconds > 0) {
		rlim_t s = lim->cpu_seconds > 1e9 ? (rlim_t)1000000000 :
			   (rlim_t)ceil_pos(lim->cpu_seconds);

		l.set_cpu = 1;
		clamp_limit(RLIMIT_CPU, s, s + 1, &l.cpu);
	}
	if (lim->memory_bytes > 0) {
		l.set_as = 1;
		clamp_limit(RLIMIT_AS, lim->memory_bytes, lim->memory_bytes, &l.as);
	}
	if (lim->file_bytes > 0) {
		l.set_fsize = 1;
		clamp_limit(RLIMIT_FSIZE, lim->file_bytes, lim->file_bytes, &l.fsize);
	}
	l.wall = lim->wall_seconds > 0 ? lim->wall_seconds : 0;
	l.isolate_network = spec->isolate_network;
	l.try_userns = geteuid() != 0;
	snprintf(l.uid_map, sizeof l.uid_map, "%lu %lu 1\n", (unsigned long)geteuid(),
		 (unsigned long)geteuid());
	snprintf(l.gid_map, sizeof l.gid_map, "%lu %lu 1\n", (unsigned long)getegid(),
		 (unsigned long)getegid());
	l.max_fd = 65535;
	if (getrlimit(RLIMIT_NOFILE, &nofile) == 0 && nofile.rlim_cur != RLIM_INFINITY &&
	    nofile.rlim_cur < (rlim_t)INT_MAX)
		l.max_fd = (int)nofile.rlim_cur;
	l.caller = getpid();

	cg_open(&cg, lim->max_processes);
	l.cg_procs_fd = cg.procs_fd;

	if (pipe2(rp, O_CLOEXEC) < 0) {
		rc = -errno;
		set_err(err, errlen, "sandbox: pipe: %s", errno_text(-rc));
		goto out;
	}
	l.report_fd = rp[1];
	sup = fork();
	if (sup == 0) {
		close(rp[0]);
		supervisor_main(&l);
	}
	close(rp[1]);
	if (sup < 0) {
		rc = -errno;
		set_err(err, errlen, "sandbox: fork: %s", errno_text(-rc));
		close(rp[0]);
		goto out;
	}

	if (l.wall > 0)
		deadline = mono_now() + l.wall + SUPERVISOR_GRACE_MS / 1000.0;
	got = wait_readable(rp[0], deadline) ? read_full(rp[0], &cmd, sizeof cmd) : -2;
	if (got == 1)
		got = wait_readable(rp[0], deadline) ? read_full(rp[0], &rep, sizeof rep) : -2;
	close(rp[0]);
	if (got != 1) {
		/* S is broken, stuck or was killed from outside: take down what
		 * we can reach and say so. */
		kill(sup, SIGKILL);
		if (cmd > 0)
			kill(-cmd, SIGKILL);
		rc = got == -2 ? -ETIMEDOUT : -EIO;
		set_err(err, errlen, "sandbox: the supervisor process %s",
			got == -2 ? "did not report in time" : "died without reporting");
	}
	while (waitpid(sup, NULL, 0) < 0 && errno == EINTR)
		;
	if (rc < 0)
		goto out;

	if (rep.stage != ST_NONE && rep.stage != ST_EXEC) {
		rc = -rep.err;
		if (rc == 0)
			rc = -EIO;
		result->exit_code = rep.err;
		set_err(err, errlen, "sandbox: %s (%s%s%s): %s", stage_text(rep.stage),
			rep.stage == ST_STDOUT ? l.out_path :
			rep.stage == ST_STDERR ? l.err_path : spec->workdir,
			rep.stage == ST_STDOUT || rep.stage == ST_STDERR ? " in " : "",
			rep.stage == ST_STDOUT || rep.stage == ST_STDERR ? spec->workdir : "",
			errno_text(rep.err));
		goto out;
	}
	classify(&rep, &l, result);
out:
	cg_close(&cg);
	free(l.candidates);
	return rc;
}

/* ---- describe ------------------------------------------------------------------- */

/* "%.1f" without the process locale (a decimal comma would leak into
 * reports). */
static void tenths(double v, char *buf, size_t len)
{
	long long t = v > 0 ? (long long)(v * 10.0 + 0.5) : 0;

	snprintf(buf, len, "%lld.%lld", t / 10, t % 10);
}

void npukb_sandbox_describe(const struct npukb_sandbox_result *r, char *buf, size_t len)
{
	char num[32];
	const char *abbrev;

	if (!buf || len == 0)
		return;
	if (!r) {
		snprintf(buf, len, "no result");
		return;
	}
	switch (r->kind) {
	case NPUKB_EXIT_NORMAL:
		snprintf(buf, len, "exited with status %d", r->exit_code);
		break;
	case NPUKB_EXIT_SIGNAL:
		abbrev = sigabbrev_np(r->signal);
		snprintf(buf, len, "killed by signal %d (%s%s%s)", r->signal,
			 abbrev ? "SIG" : "unknown signal", abbrev ? abbrev : "",
			 r->signal == SIGXFSZ ? ": file size limit exceeded" : "");
		break;
	case NPUKB_EXIT_TIMEOUT:
		tenths(r->wall_seconds, num, sizeof num);
		snprintf(buf, len, "timed out after %s s (wall-clock limit)", num);
		break;
	case NPUKB_EXIT_CPU_LIMIT:
		tenths(r->cpu_seconds, num, sizeof num);
		snprintf(buf, len, "CPU time limit exceeded (%s s of CPU time used)", num);
		break;
	case NPUKB_EXIT_EXEC_FAILED:
		snprintf(buf, len, "could not start: %s", errno_text(r->exit_code));
		break;
	default:
		snprintf(buf, len, "unknown outcome %d", (int)r->kind);
		break;
	}
}
