/* sandbox.c - run one untrusted command under limits (npukb/sandbox.h): the
 * caller's side. The other sandbox_*.c files hold the supervisor, the
 * namespaces and private root, seccomp, cgroups and the environment; see
 * sandbox_private.h.
 *
 * Process layout of one run:
 *
 *   caller thread --fork--> supervisor S --clone--> C (init of new PID, mount,
 *   IPC, UTS, net [and user] namespaces) --fork--> the command G --> its children
 *
 * (in unsafe mode, without namespaces, S forks the command directly.)
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
 * as RLIMIT_NPROC would make it fail); see sandbox_cgroup.c. Without a writable
 * pids cgroup the limit is not enforced and a fork bomb lives until the
 * wall-clock deadline, when its whole tree is killed. Where a memory cgroup
 * can be made, it takes the place of RLIMIT_AS (so that a memory bomb is
 * told apart from a crash); see sandbox_cgroup.c. The pids controller
 * counts threads too.
 *
 * Result conventions beyond the header: for NPUKB_EXIT_EXEC_FAILED,
 * exit_code holds the errno of the failed exec (it is never a real exit
 * status); for NPUKB_EXIT_TIMEOUT and NPUKB_EXIT_CPU_LIMIT, signal holds the
 * signal that ended the command (normally SIGKILL or SIGXCPU). */

#include "sandbox_private.h"

#include <npukb/util.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

/* How long the caller waits for S beyond the wall-clock limit before it
 * decides S is broken and kills it (S's own cleanup of a large fork bomb
 * needs some time). */
#define SUPERVISOR_GRACE_MS 30000
/* The work folder's quota when the spec names none. */
#define DEFAULT_QUOTA (1ull << 30)

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
			double left = deadline - npukb_monotonic_seconds();

			if (left <= 0)
				return 0;
			ms = left > 1e6 ? 1000000000 : (int)sbx_ceil_pos(left * 1000.0);
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
	case ST_CGROUP: return "could not join the run's cgroups";
	case ST_NAMESPACE: return "the machine refused the namespaces";
	case ST_MOUNT: return "could not build the private root";
	case ST_IDENTITY: return "could not become the unprivileged user";
	case ST_SECCOMP: return "could not load the seccomp filter";
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
	if (rep->quota_hit)
		res->limits_hit |= NPUKB_LIMIT_QUOTA;
	if (res->signal == SIGXFSZ)
		res->limits_hit |= NPUKB_LIMIT_FILE_SIZE;

	if (rep->stage == ST_EXEC) {
		res->kind = NPUKB_EXIT_EXEC_FAILED;
		res->exit_code = rep->err;
	} else if (rep->violated) {
		res->kind = NPUKB_EXIT_VIOLATION;
		sbx_seccomp_name(rep->violation_nr, res->violation, sizeof res->violation);
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

/* The limits, the environment and the command's candidates; everything
 * that needs malloc happens here, before any fork. */
static int prepare(struct launch *l, const struct npukb_sandbox_spec *spec, char **env,
		   char *err, size_t errlen)
{
	const struct npukb_limits *lim = &spec->limits;
	struct rlimit nofile;
	uint64_t quota = spec->workdir_quota ? spec->workdir_quota : DEFAULT_QUOTA;

	*env = (char *)sbx_env_build((char *const *)(uintptr_t)spec->envp, l->workdir);
	if (!*env)
		return -ENOMEM;
	/* The header keeps argv/envp const; execve's prototype predates const. */
	l->argv = (char *const *)(uintptr_t)spec->argv;
	l->envp = (char *const *)*env;
	l->out_path = spec->stdout_path ? spec->stdout_path : "/dev/null";
	l->err_path = spec->stderr_path ? spec->stderr_path : "/dev/null";
	l->err_same_as_out = spec->stdout_path && spec->stderr_path &&
			     strcmp(spec->stdout_path, spec->stderr_path) == 0;
	l->candidates = make_candidates(spec->argv[0], l->envp);
	if (!l->candidates)
		return -ENOMEM;
	if (lim->cpu_seconds > 0) {
		rlim_t s = lim->cpu_seconds > 1e9 ? (rlim_t)1000000000 :
			   (rlim_t)sbx_ceil_pos(lim->cpu_seconds);

		l->set_cpu = 1;
		clamp_limit(RLIMIT_CPU, s, s + 1, &l->cpu);
	}
	if (lim->memory_bytes > 0) {
		l->set_as = 1;
		clamp_limit(RLIMIT_AS, lim->memory_bytes, lim->memory_bytes, &l->as);
	}
	if (lim->file_bytes > 0) {
		l->set_fsize = 1;
		clamp_limit(RLIMIT_FSIZE, lim->file_bytes, lim->file_bytes, &l->fsize);
	}
	l->quota_bytes = quota;
	l->wall = lim->wall_seconds > 0 ? lim->wall_seconds : 0;
	l->isolate_network = spec->isolate_network;
	l->as_root = geteuid() == 0;
	l->try_userns = !l->as_root;
	/* Unsafe mode maps the user onto itself (only for a network namespace);
	 * the namespaces' init of a non-root npukb maps 0 onto the user. */
	snprintf(l->uid_map, sizeof l->uid_map, "%lu %lu 1\n", l->namespaces ? 0UL :
		 (unsigned long)geteuid(), (unsigned long)geteuid());
	snprintf(l->gid_map, sizeof l->gid_map, "%lu %lu 1\n", l->namespaces ? 0UL :
		 (unsigned long)getegid(), (unsigned long)getegid());
	/* The private /tmp lives in memory: the quota caps it too. */
	snprintf(l->tmp_opts, sizeof l->tmp_opts, "size=%llu,nr_inodes=16384,mode=1777",
		 (unsigned long long)quota);
	snprintf(l->newroot_opts, sizeof l->newroot_opts, "size=1m,nr_inodes=4096,mode=0755");
	l->max_fd = 65535;
	if (getrlimit(RLIMIT_NOFILE, &nofile) == 0 && nofile.rlim_cur != RLIM_INFINITY &&
	    nofile.rlim_cur < (rlim_t)INT_MAX)
		l->max_fd = (int)nofile.rlim_cur;
	l->caller = getpid();
	if (l->namespaces) {
		int rc = sbx_mounts_prepare(l, spec, err, errlen);

		if (rc < 0)
			return rc;
		l->seccomp_prog = sbx_seccomp_program(err, errlen);
		if (!l->seccomp_prog)
			return -EIO;
		/* nobody must be able to write its work folder. */
		if (l->as_root && (rc = sbx_give_workdir(l->workdir, SANDBOX_UID, SANDBOX_GID)) < 0) {
			set_err(err, errlen, "sandbox: cannot hand the work folder %s to the sandbox user: %s",
				l->workdir, rc == -EPERM ? "it is shared (world-writable or sticky) or "
				"not npukb's" : errno_text(-rc));
			return rc;
		}
	}
	return 0;
}

int npukb_sandbox_run(const struct npukb_sandbox_spec *spec,
		      struct npukb_sandbox_result *result,
		      char *err, size_t errlen)
{
	struct launch l;
	struct cgroup_run cg;
	struct supervisor_msg rep;
	struct stat st;
	pid_t sup, cmd = -1;
	int rp[2];
	int rc = 0, got;
	double deadline = 0;
	char *workdir = NULL, *env = NULL;

	memset(&rep, 0, sizeof rep);
	memset(&l, 0, sizeof l);
	memset(&cg, 0, sizeof cg);
	cg.procs_fd[0] = cg.procs_fd[1] = -1;
	if (err && errlen)
		err[0] = '\0';
	if (!spec || !result || !spec->argv || !spec->argv[0] || !spec->workdir) {
		set_err(err, errlen, "sandbox: missing argv, workdir or result");
		return -EINVAL;
	}
	memset(result, 0, sizeof *result);
	result->kind = NPUKB_EXIT_EXEC_FAILED;
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
	/* The private root binds the work folder at its real path. */
	workdir = realpath(spec->workdir, NULL);
	if (!workdir) {
		rc = -errno;
		set_err(err, errlen, "sandbox: work directory '%s': %s", spec->workdir,
			errno_text(-rc));
		return rc;
	}
	l.workdir = workdir;
	l.namespaces = !npukb_sandbox_unsafe();
	rc = prepare(&l, spec, &env, err, errlen);
	if (rc < 0) {
		if (err && errlen && !err[0])
			set_err(err, errlen, "sandbox: %s", errno_text(-rc));
		goto out;
	}

	rc = sbx_cg_open(&cg, spec->limits.max_processes, spec->limits.memory_bytes, err, errlen);
	if (rc < 0)
		goto out;
	/* The memory cgroup's OOM killer replaces RLIMIT_AS: the run is then
	 * told apart from a crash, and address space reserved but never
	 * touched (sanitizers, thread stacks) costs nothing. */
	if (cg.dir[1] || (cg.v2 && spec->limits.memory_bytes))
		l.set_as = 0;
	l.cg_procs_fd[0] = cg.procs_fd[0];
	l.cg_procs_fd[1] = cg.procs_fd[1];

	if (pipe2(rp, O_CLOEXEC) < 0) {
		rc = -errno;
		set_err(err, errlen, "sandbox: pipe: %s", errno_text(-rc));
		goto out;
	}
	l.report_fd = rp[1];
	sup = fork();
	if (sup == 0) {
		close(rp[0]);
		sbx_supervisor_main(&l);
	}
	close(rp[1]);
	if (sup < 0) {
		rc = -errno;
		set_err(err, errlen, "sandbox: fork: %s", errno_text(-rc));
		close(rp[0]);
		goto out;
	}

	if (l.wall > 0)
		deadline = npukb_monotonic_seconds() + l.wall + SUPERVISOR_GRACE_MS / 1000.0;
	got = wait_readable(rp[0], deadline) ? sbx_read_full(rp[0], &cmd, sizeof cmd) : -2;
	if (got == 1)
		got = wait_readable(rp[0], deadline) ? sbx_read_full(rp[0], &rep, sizeof rep) : -2;
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
	result->limits_hit |= sbx_cg_hits(&cg);
out:
	sbx_cg_close(&cg);
	sbx_mounts_free(&l);
	free(l.candidates);
	free(env);
	free(workdir);
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

/* ": memory limit reached" and the like after the fate. */
static void limit_note(const struct npukb_sandbox_result *r, char *buf, size_t len)
{
	size_t n = strlen(buf);

	if (r->limits_hit & NPUKB_LIMIT_MEMORY)
		snprintf(buf + n, len - n, ": memory limit reached");
	else if (r->limits_hit & NPUKB_LIMIT_QUOTA)
		snprintf(buf + n, len - n, ": the work folder's quota was exceeded");
	else if ((r->limits_hit & NPUKB_LIMIT_PROCESSES) && r->kind != NPUKB_EXIT_NORMAL)
		snprintf(buf + n, len - n, ": process limit reached");
	else if ((r->limits_hit & NPUKB_LIMIT_PROCESSES) && r->exit_code != 0)
		snprintf(buf + n, len - n, " (a fork was refused: process limit reached)");
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
	case NPUKB_EXIT_VIOLATION:
		snprintf(buf, len, "stopped at a denied system call (%s)",
			 r->violation[0] ? r->violation : "unknown");
		break;
	default:
		snprintf(buf, len, "unknown outcome %d", (int)r->kind);
		break;
	}
	limit_note(r, buf, len);
}
