/* sandbox_ns.c - the command's side of a sandboxed run: namespaces, the
 * private root, the unprivileged uid, the exec (see sandbox_private.h).
 *
 * Why raw clone/unshare and pivot_root here rather than bubblewrap: the
 * supervisor already owns the process tree (subreaper, wall clock, cgroups,
 * the report pipe) and needs the command's real wait status, the cgroup
 * membership before the first fork, and the denied system call's number
 * from a seccomp listener; bubblewrap would sit between it and the command
 * (its exit code folds signals into 128+n), add an exec and a dependency,
 * and still need all of that around it. The whole mechanism is ~300 lines
 * of system calls, tested by tests/unit/test_sandbox.c and tests/hostile/.
 *
 * Layout with namespaces:
 *
 *   S --clone(NEWPID|NEWNS|NEWIPC|NEWUTS|NEWNET[|NEWUSER])--> C (pid 1)
 *     C builds the private root, then forks G
 *   G: becomes nobody in a user namespace of its own, loads the seccomp
 *     filter (handing its listener to C), execs the command.
 *
 * C is the namespace's init: a sample's kill(-1) or kill of its parent
 * cannot reach it (init ignores signals it has no handler for), and when C
 * exits the kernel kills everything left in the namespace. C reports the
 * command's wait status, or the number of a denied call, to S.
 *
 * When npukb runs as root, C needs no user namespace for the mounts; G drops
 * to nobody (65534) and unshares a user namespace mapping only itself, so
 * the sample has no capability anywhere. When npukb is not root, C's user
 * namespace maps 0 to npukb's uid (needed for the mounts) and G's nested one
 * maps 65534 to that 0; C's mounts are then locked against the sample. */

#include "sandbox_private.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>

static void child_fail(int fd, int stage, int err) __attribute__((noreturn));
static void child_fail(int fd, int stage, int err)
{
	struct child_msg m = { stage, err, 0 };

	(void)sbx_write_full(fd, &m, sizeof m);
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

/* Unsafe mode only: a network namespace where the kernel allows one. */
static void isolate_network(const struct launch *l)
{
	if (unshare(CLONE_NEWNET) == 0 || !l->try_userns)
		return;
	if (unshare(CLONE_NEWUSER | CLONE_NEWNET) < 0)
		return;
	(void)sbx_write_file_str("/proc/self/setgroups", "deny");
	(void)sbx_write_file_str("/proc/self/uid_map", l->uid_map);
	(void)sbx_write_file_str("/proc/self/gid_map", l->gid_map);
}

/* Working folder, standard streams, rlimits, then exec: the last steps of
 * every command, sandboxed or not. */
static void exec_command(const struct launch *l, int fd, int keep) __attribute__((noreturn));
static void exec_command(const struct launch *l, int fd, int keep)
{
	const int wr = O_WRONLY | O_CREAT | O_TRUNC | O_NOCTTY;
	struct rlimit zero = { 0, 0 };
	int saw_eacces = 0;
	int last_err = ENOENT;

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

	sbx_close_fds_except((const int[]){ fd, keep }, 2, l->max_fd);

	/* execvp() is not async-signal-safe, so the PATH search was done by
	 * the caller; this loop keeps execvp's error rules: EACCES from any
	 * candidate wins over a later ENOENT. */
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

static void join_cgroups(const struct launch *l, int fd)
{
	for (int i = 0; i < 2; i++) {
		if (l->cg_procs_fd[i] < 0)
			continue;
		if (write(l->cg_procs_fd[i], "0", 1) != 1)
			child_fail(fd, ST_CGROUP, errno);
		close(l->cg_procs_fd[i]);
	}
}

/* Unsafe mode: the command runs directly in S's child. */
static void plain_main(const struct launch *l, int fd, pid_t supervisor) __attribute__((noreturn));
static void plain_main(const struct launch *l, int fd, pid_t supervisor)
{
	if (getppid() != supervisor)
		_exit(127);
	setpgid(0, 0);
	/* setuid programs must not lift a sample above its caller. */
	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	join_cgroups(l, fd);
	if (l->isolate_network)
		isolate_network(l);
	exec_command(l, fd, -1);
}

/* ---- the private root (in C) ------------------------------------------------ */

/* dst inside root, into buf; -1 when too long. */
static int under(const char *root, const char *dst, char *buf, size_t len)
{
	size_t a = strlen(root), b = strlen(dst);

	if (a + b + 1 > len)
		return -1;
	memcpy(buf, root, a);
	memcpy(buf + a, dst, b + 1);
	return 0;
}

/* mkdir -p of path (absolute); the last component a file when !is_dir. */
static int make_path(char *path, int is_dir)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) < 0 && errno != EEXIST) {
			*p = '/';
			return -1;
		}
		*p = '/';
	}
	if (is_dir)
		return mkdir(path, 0755) < 0 && errno != EEXIST ? -1 : 0;
	{
		int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);

		if (fd < 0)
			return errno == EEXIST || errno == EROFS ? 0 : -1;
		close(fd);
	}
	return 0;
}

/* Read-only (and nosuid, nodev unless a device) remount of a fresh bind,
 * keeping the flags the source mount had: inside a user namespace, locked
 * flags cannot be cleared, and asking to would fail. */
static int remount_ro(const char *target, int dev)
{
	struct statvfs sv;
	unsigned long fl = MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID;

	if (!dev)
		fl |= MS_NODEV;
	if (statvfs(target, &sv) == 0) {
		if (sv.f_flag & ST_NOEXEC)
			fl |= MS_NOEXEC;
		if (sv.f_flag & ST_NODEV)
			fl |= MS_NODEV;
		if (sv.f_flag & ST_NOATIME)
			fl |= MS_NOATIME;
		if (sv.f_flag & ST_NODIRATIME)
			fl |= MS_NODIRATIME;
		if (sv.f_flag & ST_RELATIME)
			fl |= MS_RELATIME;
	}
	return mount(NULL, target, NULL, fl, NULL);
}

static int bind_one(const struct mount_op *op, int src_fd, const char *target)
{
	char src[64];

	snprintf(src, sizeof src, "/proc/self/fd/%d", src_fd);
	if (mount(src, target, NULL, MS_BIND, NULL) < 0)
		return -1;
	if (op->kind == MNT_BIND_RW)
		return mount(NULL, target, NULL, MS_REMOUNT | MS_BIND | MS_NOSUID | MS_NODEV, NULL);
	return remount_ro(target, op->kind == MNT_BIND_DEV);
}

/* Builds the new root on a tmpfs mounted over the work folder (any existing
 * folder would do: the binds come from descriptors opened beforehand) and
 * pivots into it. Returns 0 or -1 with errno. */
static int build_root(const struct launch *l)
{
	char nr[PATH_MAX], t[PATH_MAX * 2];
	int fds[64];
	size_t n = l->nmounts;

	if (n > 64) {
		errno = E2BIG;
		return -1;
	}
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		fds[i] = -1;
		if (l->mounts[i].kind == MNT_BIND_RO || l->mounts[i].kind == MNT_BIND_RW ||
		    l->mounts[i].kind == MNT_BIND_DEV) {
			fds[i] = open(l->mounts[i].src, O_PATH | O_CLOEXEC);
			if (fds[i] < 0)
				return -1;
		}
	}
	if (strlen(l->workdir) >= sizeof nr) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(nr, l->workdir);
	if (mount("npukb-root", nr, "tmpfs", MS_NOSUID | MS_NODEV, l->newroot_opts) < 0)
		return -1;

	/* /proc of the new PID namespace, a /dev with a few nodes, /tmp. */
	if (under(nr, "/proc", t, sizeof t) < 0 || make_path(t, 1) < 0 ||
	    mount("proc", t, "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0)
		return -1;
	if (under(nr, "/dev", t, sizeof t) < 0 || make_path(t, 1) < 0 ||
	    mount("npukb-dev", t, "tmpfs", MS_NOSUID | MS_NOEXEC, "size=64k,nr_inodes=64,mode=0755") < 0)
		return -1;
	if (under(nr, "/tmp", t, sizeof t) < 0 || make_path(t, 1) < 0 ||
	    mount("npukb-tmp", t, "tmpfs", MS_NOSUID | MS_NODEV, l->tmp_opts) < 0)
		return -1;

	for (size_t i = 0; i < n; i++) {
		const struct mount_op *op = &l->mounts[i];

		if (under(nr, op->dst, t, sizeof t) < 0) {
			errno = ENAMETOOLONG;
			return -1;
		}
		switch (op->kind) {
		case MNT_SYMLINK:
			if (make_path(t, 1) == 0)
				rmdir(t);
			if (symlink(op->src, t) < 0 && errno != EEXIST)
				return -1;
			break;
		case MNT_HIDE:
			if (make_path(t, 1) < 0 ||
			    mount("npukb-hidden", t, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
				  "size=64k,nr_inodes=256,mode=0755") < 0)
				return -1;
			break;
		default:
			if (make_path(t, op->is_dir) < 0 || bind_one(op, fds[i], t) < 0)
				return -1;
			break;
		}
		if (fds[i] >= 0)
			close(fds[i]);
	}
	/* The hiding tmpfs stay writable while later binds make their mount
	 * points in them; now they become read-only too. */
	for (size_t i = 0; i < n; i++)
		if (l->mounts[i].kind == MNT_HIDE && under(nr, l->mounts[i].dst, t, sizeof t) == 0 &&
		    mount(NULL, t, NULL, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC,
			  "size=64k,nr_inodes=256,mode=0755") < 0)
			return -1;

	if (chdir(nr) < 0 || syscall(SYS_pivot_root, ".", ".") < 0 ||
	    umount2(".", MNT_DETACH) < 0 || chdir("/") < 0)
		return -1;
	return mount(NULL, "/", NULL, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV,
		     l->newroot_opts);
}

/* ---- G: the command inside the namespaces ----------------------------------- */

/* One byte carrying one descriptor (SCM_RIGHTS) over a Unix socket. */
struct fd_msg {
	char byte;
	struct iovec iov;
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} u;
	struct msghdr m;
};

static void fd_msg_init(struct fd_msg *f)
{
	memset(f, 0, sizeof *f);
	f->iov.iov_base = &f->byte;
	f->iov.iov_len = 1;
	f->m.msg_iov = &f->iov;
	f->m.msg_iovlen = 1;
	f->m.msg_control = f->u.buf;
	f->m.msg_controllen = sizeof f->u.buf;
}

static int send_fd(int sock, int fd)
{
	struct fd_msg f;
	struct cmsghdr *c;

	fd_msg_init(&f);
	c = CMSG_FIRSTHDR(&f.m);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof fd);
	return sendmsg(sock, &f.m, MSG_NOSIGNAL) == 1 ? 0 : -1;
}

static int recv_fd(int sock)
{
	struct fd_msg f;
	struct cmsghdr *c;
	int fd = -1;
	ssize_t r;

	fd_msg_init(&f);
	do
		r = recvmsg(sock, &f.m, MSG_CMSG_CLOEXEC);
	while (r < 0 && errno == EINTR);
	if (r != 1)
		return -1;
	c = CMSG_FIRSTHDR(&f.m);
	if (c && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
		memcpy(&fd, CMSG_DATA(c), sizeof fd);
	return fd;
}

/* Nobody, in a user namespace of its own that maps only itself. */
static int become_nobody(const struct launch *l)
{
	char map[48];
	unsigned long inner = l->as_root ? SANDBOX_UID : 0;

	if (l->as_root) {
		if (setgroups(0, NULL) < 0 || setresgid(SANDBOX_GID, SANDBOX_GID, SANDBOX_GID) < 0 ||
		    setresuid(SANDBOX_UID, SANDBOX_UID, SANDBOX_UID) < 0)
			return -1;
	}
	/* A uid change (and C's own choice) made the process non-dumpable,
	 * which hands its /proc/self files, uid_map among them, to root. */
	if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) < 0)
		return -1;
	if (unshare(CLONE_NEWUSER) < 0)
		return -1;
	snprintf(map, sizeof map, "%d %lu 1\n", SANDBOX_UID, inner);
	if (sbx_write_file_str("/proc/self/uid_map", map) < 0)
		return -1;
	(void)sbx_write_file_str("/proc/self/setgroups", "deny");
	snprintf(map, sizeof map, "%d %lu 1\n", SANDBOX_GID, inner);
	return sbx_write_file_str("/proc/self/gid_map", map);
}

static void command_main(const struct launch *l, int fd, int sock) __attribute__((noreturn));
static void command_main(const struct launch *l, int fd, int sock)
{
	int listener;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	setpgid(0, 0);
	if (become_nobody(l) < 0)
		child_fail(fd, ST_IDENTITY, errno);
	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	if (l->seccomp_prog) {
		listener = sbx_seccomp_load(l->seccomp_prog);
		if (listener < 0)
			child_fail(fd, ST_SECCOMP, errno);
		if (send_fd(sock, listener) < 0)
			child_fail(fd, ST_SECCOMP, errno);
		close(listener);
	}
	close(sock);
	exec_command(l, fd, -1);
}

/* ---- C: the namespaces' init ---------------------------------------------------- */

static void report(int fd, int stage, int err, int status) __attribute__((noreturn));
static void report(int fd, int stage, int err, int status)
{
	struct child_msg m = { stage, err, status };

	(void)sbx_write_full(fd, &m, sizeof m);
	/* Leaving takes everything else in the PID namespace with us. */
	_exit(0);
}

static void init_main(const struct launch *l, int fd) __attribute__((noreturn));
static void init_main(const struct launch *l, int fd)
{
	int sp[2], listener = -1, pidfd;
	pid_t g;

	sbx_reset_signals();
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	/* C is a copy of npukb: its memory (and /proc/1/environ, npukb's
	 * environment) must not be readable by the sample. */
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	if (!l->as_root) {
		(void)sbx_write_file_str("/proc/self/setgroups", "deny");
		if (sbx_write_file_str("/proc/self/uid_map", l->uid_map) < 0 ||
		    sbx_write_file_str("/proc/self/gid_map", l->gid_map) < 0)
			child_fail(fd, ST_NAMESPACE, errno);
	}
	join_cgroups(l, fd);
	if (build_root(l) < 0)
		child_fail(fd, ST_MOUNT, errno);
	(void)sethostname("npukb", 5);
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sp) < 0)
		child_fail(fd, ST_FORK, errno);
	g = fork();
	if (g < 0)
		child_fail(fd, ST_FORK, errno);
	if (g == 0) {
		close(sp[0]);
		command_main(l, fd, sp[1]);
	}
	close(sp[1]);
#ifdef SYS_pidfd_open
	pidfd = (int)syscall(SYS_pidfd_open, g, 0);
#else
	pidfd = -1; /* poll's timeout then paces the loop */
#endif
	if (l->seccomp_prog)
		listener = recv_fd(sp[0]); /* -1: G failed or exec'd without one */
	close(sp[0]);

	for (;;) {
		struct pollfd p[2] = { { pidfd, POLLIN, 0 }, { listener, POLLIN, 0 } };
		int status;
		pid_t r;

		poll(p, 2, 50);
		if (listener >= 0 && (p[1].revents & POLLIN)) {
			int nr = sbx_seccomp_take(listener);

			if (nr >= 0)
				report(fd, ST_VIOLATION, nr, 0);
		}
		if (listener >= 0 && (p[1].revents & (POLLHUP | POLLERR | POLLNVAL)) &&
		    !(p[1].revents & POLLIN)) {
			close(listener);
			listener = -1;
		}
		/* Reap the command and every orphan re-parented to us. */
		while ((r = waitpid(-1, &status, WNOHANG | __WALL)) > 0)
			if (r == g)
				report(fd, ST_STATUS, 0, status);
		if (r < 0 && errno == ECHILD)
			report(fd, ST_STATUS, 0, 0);
	}
}

void sbx_command_main(const struct launch *l, int fd, pid_t supervisor)
{
	if (!l->namespaces) {
		sbx_reset_signals();
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		plain_main(l, fd, supervisor);
	}
	init_main(l, fd);
}

pid_t sbx_start_command(const struct launch *l, int child_fd, int close_fd, pid_t supervisor)
{
	long flags = CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWNET;
	pid_t pid;

	if (!l->as_root)
		flags |= CLONE_NEWUSER;
	/* Raw clone without a new stack behaves as fork. S is single-threaded,
	 * and C only makes raw system calls before its fork of G. */
	if (l->namespaces)
		pid = (pid_t)syscall(SYS_clone, flags | SIGCHLD, NULL, NULL, NULL, 0);
	else
		pid = fork();
	if (pid == 0) {
		close(close_fd);
		close(l->report_fd);
		sbx_command_main(l, child_fd, supervisor);
	}
	return pid;
}
