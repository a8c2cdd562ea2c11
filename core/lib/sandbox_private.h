/* sandbox_private.h - what the sandbox_*.c files share (not installed).
 *
 * sandbox.c         the caller's side and the supervisor S (limits, wall clock,
 *                   reaping, the result)
 * sandbox_ns.c      the command's side: namespaces, the private root, the
 *                   unprivileged uid, the exec
 * sandbox_seccomp.c the system-call filter (built by the caller, loaded by
 *                   the command)
 * sandbox_cgroup.c  per-run pids and memory cgroups with unique names
 * sandbox_env.c     the environment allowlist
 * sandbox_fate.c    result -> category, the once-per-process probe, the
 *                   unsafe switch
 *
 * Everything the command's side runs happens between fork/clone and exec of
 * a possibly multi-threaded caller, so it only makes async-signal-safe calls;
 * whatever needs malloc is prepared in struct launch beforehand. */
#ifndef NPUKB_SANDBOX_PRIVATE_H
#define NPUKB_SANDBOX_PRIVATE_H

#include <npukb/sandbox.h>

#include <stddef.h>
#include <sys/resource.h>
#include <sys/types.h>

/* The uid and gid a sample runs as when npukb runs as root: nobody. */
#define SANDBOX_UID 65534
#define SANDBOX_GID 65534

/* Where a run failed before the command started. */
enum sandbox_stage {
	ST_NONE = 0,
	ST_CGROUP,
	ST_CHDIR,
	ST_STDIN,
	ST_STDOUT,
	ST_STDERR,
	ST_RLIMIT,
	ST_EXEC,
	ST_PIPE,      /* S could not create its pipe */
	ST_FORK,      /* S could not fork the command */
	ST_NAMESPACE, /* the namespaces were refused */
	ST_MOUNT,     /* the private root could not be built */
	ST_IDENTITY,  /* could not become the unprivileged uid */
	ST_SECCOMP,   /* the filter could not be loaded */
	/* Not failures: the init process's report on the command. */
	ST_STATUS,    /* err unused, status = the command's wait status */
	ST_VIOLATION  /* err = the number of the denied system call */
};

/* C (and the command before exec) -> S. */
struct child_msg {
	int stage;
	int err;
	int status;
};

/* How often S looks at its orphans, the quota and whether its caller
 * still lives. */
#define SUPERVISOR_TICK_MS 100

/* S -> caller, after C's pid. */
struct supervisor_msg {
	int stage;
	int err;
	int status;      /* the command's wait status */
	int timed_out;
	int quota_hit;
	int violated;
	int violation_nr;
	int have_status; /* C reported the command's status (inner_status) */
	int inner_status;
	double wall;
	struct rusage ru;
};

/* One mount of the private root, prepared by the caller. */
enum mount_kind {
	MNT_BIND_RO,  /* src bound read-only at dst */
	MNT_BIND_RW,  /* src bound writable at dst (the work folder) */
	MNT_BIND_DEV, /* a device node: bound, not noexec */
	MNT_HIDE,     /* an empty read-only tmpfs over dst */
	MNT_SYMLINK   /* dst -> src */
};

struct mount_op {
	enum mount_kind kind;
	const char *src;
	const char *dst;   /* absolute, inside the new root */
	int src_fd;        /* O_PATH of src, opened by C before it hides the host */
	int is_dir;
};

/* Everything S and C need, prepared by the caller before fork. */
struct launch {
	char **candidates;     /* paths to try with execve, NULL-terminated */
	char *const *argv;
	char *const *envp;
	const char *workdir;   /* absolute, symlinks resolved */
	const char *out_path;  /* relative to workdir; "/dev/null" when not wanted */
	const char *err_path;
	int err_same_as_out;   /* one file for both: share one descriptor */

	int set_cpu, set_as, set_fsize;
	struct rlimit cpu, as, fsize;
	double wall;
	int isolate_network;   /* unsafe mode only: try a network namespace */
	int try_userns;
	char uid_map[48], gid_map[48];

	/* The namespace sandbox (0 only in unsafe mode). */
	int namespaces;
	int as_root;           /* npukb is root: the sample becomes nobody */
	uid_t outer_uid;
	gid_t outer_gid;
	struct mount_op *mounts;
	size_t nmounts;
	char tmp_opts[64];     /* tmpfs options of the private /tmp */
	char newroot_opts[64];
	const void *seccomp_prog; /* struct sock_fprog, or NULL */
	uint64_t quota_bytes;  /* work-folder quota S enforces; 0: none */

	int cg_procs_fd[2];    /* cgroup.procs of the run's cgroups, or -1 */
	char inner_uid_map[48], inner_gid_map[48];
	int report_fd;         /* S's end of the report pipe */
	pid_t caller;          /* S stops and cleans up when its parent changes */
	int max_fd;            /* bound for the close() loop when close_range is missing */
};

/* ---- async-signal-safe helpers (sandbox.c) ---- */
int sbx_write_full(int fd, const void *buf, size_t len);
int sbx_write_file_str(const char *path, const char *text);
void sbx_close_fds_except(const int *keep, int nkeep, int max_fd);
void sbx_reset_signals(void);
void sbx_sleep_ms(long ms);
/* fn for each entry of dirfd but . and .. (raw getdents64: opendir may
 * allocate); 0, or -1 when the folder could not be read. */
int sbx_each_entry(int dirfd, void (*fn)(int dirfd, const char *name, void *arg), void *arg);
long long sbx_ceil_pos(double v);
int sbx_read_full(int fd, void *buf, size_t len);
void sbx_ignore_signal(int sig);

/* ---- the supervisor (sandbox_supervisor.c) ---- */
void sbx_supervisor_main(const struct launch *l) __attribute__((noreturn));

/* ---- the command's side (sandbox_ns.c) ---- */
/* The child of S: without namespaces (unsafe mode) runs the command
 * directly; with them, becomes the namespaces' init, which starts the
 * command and reports on it. Never returns. */
void sbx_command_main(const struct launch *l, int fd, pid_t supervisor)
	__attribute__((noreturn));
/* Start C (clone with the namespace flags when l->namespaces, else fork);
 * in the child, close close_fd and l->report_fd and report on child_fd.
 * Returns the pid in S's namespace, or -1 with errno. */
pid_t sbx_start_command(const struct launch *l, int child_fd, int close_fd, pid_t supervisor);
/* Prepares l->mounts for spec (malloc'd; sbx_mounts_free releases). */
int sbx_mounts_prepare(struct launch *l, const struct npukb_sandbox_spec *spec,
		       char *err, size_t errlen);
void sbx_mounts_free(struct launch *l);
/* Chown the work folder's tree to the sample's uid (root only). */
int sbx_give_workdir(const char *workdir, uid_t uid, gid_t gid);
/* Bytes used under dir (async-signal-safe; bounded depth). */
uint64_t sbx_tree_bytes(const char *dir);

/* ---- seccomp (sandbox_seccomp.c) ---- */
/* The filter program (a struct sock_fprog*), built once per process; NULL
 * with a message when libseccomp failed. */
const void *sbx_seccomp_program(char *err, size_t errlen);
/* Load it with a user-notification listener; the listener fd or -1. */
int sbx_seccomp_load(const void *prog);
/* Wait for the next notification on fd: the denied call's number; the
 * call fails with EPERM. -1 when nothing came. */
int sbx_seccomp_take(int fd);
/* The call's name ("ptrace"), "unknown" when libseccomp has none. */
void sbx_seccomp_name(int nr, char *buf, size_t len);

/* ---- cgroups (sandbox_cgroup.c) ---- */
struct cgroup_run {
	char *dir[2];      /* pids, memory (same on v2); NULL when not used */
	int procs_fd[2];
	int v2;
};
/* 0, or a negative errno when a cgroup hierarchy exists but the run's
 * cgroup could not be made (a run never goes on silently without the
 * limits). A machine without writable cgroups gives 0 and no cgroup. */
int sbx_cg_open(struct cgroup_run *cg, int max_processes, uint64_t memory_bytes,
		char *err, size_t errlen);
/* Which limits the cgroup saw hit: NPUKB_LIMIT_MEMORY / PROCESSES bits. */
int sbx_cg_hits(const struct cgroup_run *cg);
void sbx_cg_close(struct cgroup_run *cg);

/* ---- environment (sandbox_env.c) ---- */
/* The command's environment: the allowlist applied to envp (or environ),
 * HOME the work folder, LANG=C. One malloc'd block. */
char **sbx_env_build(char *const *envp, const char *workdir);

#endif
