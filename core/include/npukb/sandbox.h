/* npukb/sandbox.h - run one untrusted command under limits.
 *
 * Every build and run of a sample goes through here: new PID, mount, IPC,
 * UTS, network and user namespaces; an unprivileged uid (nobody when npukb
 * runs as root); a private read-only root holding only the toolchain
 * (/usr), the spec's read_paths and the work folder (the one writable
 * place, with a quota) and a private /tmp; a seccomp filter; an
 * environment rebuilt from an allowlist; a wall-clock limit, CPU-time,
 * memory, file-size and process-count limits, no core files. A hang,
 * crash, limit or denied system call is reported in the result, never
 * propagated to the caller. Where the machine refuses namespaces, runs fail
 * (-EPERM) unless npukb_sandbox_set_unsafe(1) was called. */
#ifndef NPUKB_SANDBOX_H
#define NPUKB_SANDBOX_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct npukb_limits {
	double wall_seconds;     /* 0: no wall-clock limit */
	double cpu_seconds;      /* RLIMIT_CPU; 0: none */
	uint64_t memory_bytes;   /* RLIMIT_AS; 0: none */
	uint64_t file_bytes;     /* RLIMIT_FSIZE; 0: none */
	int max_processes;       /* processes in the group; 0: no limit */
};

struct npukb_sandbox_spec {
	const char *const *argv;   /* argv[0] looked up in PATH */
	/* The command's environment before the allowlist (NULL: npukb's own):
	 * only PATH, LD_LIBRARY_PATH, the sanitizers' *SAN_OPTIONS and
	 * ASCEND_* / NPUKB_CPUSIM_* pass; HOME is the work folder, LANG=C,
	 * TMPDIR=/tmp. */
	const char *const *envp;
	const char *workdir;       /* chdir here before exec; must exist */
	const char *stdout_path;   /* NULL: /dev/null; relative to workdir */
	const char *stderr_path;   /* NULL: /dev/null; relative to workdir */
	struct npukb_limits limits;
	int isolate_network;       /* unsafe mode only: try a network namespace */
	/* Files and folders the command may read, bound read-only at the same
	 * path in its private root (the sample's sources, the emulation
	 * headers, a build's artifacts); NULL-terminated, may be NULL. */
	const char *const *read_paths;
	/* Bytes the work folder may hold at most (checked while the command
	 * runs; RLIMIT_FSIZE bounds each file); 0: the default, 1 GiB. */
	uint64_t workdir_quota;
};

enum npukb_exit_kind {
	NPUKB_EXIT_NORMAL = 1,   /* exited; see exit_code */
	NPUKB_EXIT_SIGNAL,       /* killed by a signal of its own making */
	NPUKB_EXIT_TIMEOUT,      /* wall-clock limit reached, group killed */
	NPUKB_EXIT_CPU_LIMIT,    /* RLIMIT_CPU (SIGXCPU / SIGKILL at hard limit) */
	NPUKB_EXIT_EXEC_FAILED,  /* could not start the command */
	NPUKB_EXIT_VIOLATION     /* made a denied system call; see violation */
};

/* Limits that stopped or hindered the command (bits of limits_hit). */
enum npukb_limit {
	NPUKB_LIMIT_MEMORY = 1,     /* the memory cgroup's limit (OOM kill) */
	NPUKB_LIMIT_FILE_SIZE = 2,  /* RLIMIT_FSIZE (SIGXFSZ) */
	NPUKB_LIMIT_QUOTA = 4,      /* the work folder's quota: killed */
	NPUKB_LIMIT_PROCESSES = 8   /* a fork refused by the pids cgroup */
};

struct npukb_sandbox_result {
	enum npukb_exit_kind kind;
	int exit_code;
	int signal;
	double wall_seconds;
	double cpu_seconds;
	long max_rss_kb;
	int limits_hit;          /* enum npukb_limit bits */
	char violation[32];      /* the denied system call's name, or "" */
};

/* Return 0 when the command was run (whatever its fate, see result), or a
 * negative errno value with a message in err when npukb itself could not
 * set up the run. */
int npukb_sandbox_run(const struct npukb_sandbox_spec *spec,
		      struct npukb_sandbox_result *result,
		      char *err, size_t errlen);

/* The run category of a result that is not a clean exit: "resource-limit"
 * (memory, file size, work-folder quota, process count, CPU time),
 * "sandbox-violation" (a denied system call), "timeout", "crash"
 * (signals, non-zero exits, could not start); NULL for exit status 0 with
 * no limit hit. Every plugin maps a sandbox result through this. */
const char *npukb_sandbox_category(const struct npukb_sandbox_result *r);

/* Whether this machine gives the sandbox its namespaces: 0 yes; otherwise
 * -errno and a one-line reason. Probed once per process. */
int npukb_sandbox_probe(char *why, size_t len);

/* A folder of task data (levels/ with the expert answers, references):
 * hidden from samples wherever a bind would show it, besides
 * $NPUKB_DATADIR's and the installed data's levels/ and reference/. Call
 * before any run; 0 or -errno. */
int npukb_sandbox_task_data(const char *dir);

/* Run samples without namespaces, seccomp or the unprivileged uid (the
 * user passed --unsafe-no-sandbox); process-wide. */
void npukb_sandbox_set_unsafe(int on);
int npukb_sandbox_unsafe(void);

/* One line describing the result ("exited with 1", "killed by SIGSEGV",
 * "timed out after 10.0 s"). */
void npukb_sandbox_describe(const struct npukb_sandbox_result *r,
			    char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
