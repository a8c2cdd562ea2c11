/* npukb/sandbox.h - run one untrusted command under limits.
 *
 * Every build and run of a sample goes through here: its own process group,
 * its own work directory, a wall-clock limit, CPU-time, address-space,
 * file-size and process-count limits, no core files, and (where the kernel
 * allows an unprivileged network namespace) no network. A hang or crash is
 * reported in the result, never propagated to the caller. */
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
	const char *const *envp;   /* NULL: inherit the environment */
	const char *workdir;       /* chdir here before exec; must exist */
	const char *stdout_path;   /* NULL: /dev/null; relative to workdir */
	const char *stderr_path;   /* NULL: /dev/null; relative to workdir */
	struct npukb_limits limits;
	int isolate_network;       /* try a private network namespace */
};

enum npukb_exit_kind {
	NPUKB_EXIT_NORMAL = 1,   /* exited; see exit_code */
	NPUKB_EXIT_SIGNAL,       /* killed by a signal of its own making */
	NPUKB_EXIT_TIMEOUT,      /* wall-clock limit reached, group killed */
	NPUKB_EXIT_CPU_LIMIT,    /* RLIMIT_CPU (SIGXCPU / SIGKILL at hard limit) */
	NPUKB_EXIT_EXEC_FAILED   /* could not start the command */
};

struct npukb_sandbox_result {
	enum npukb_exit_kind kind;
	int exit_code;
	int signal;
	double wall_seconds;
	double cpu_seconds;
	long max_rss_kb;
};

/* Return 0 when the command was run (whatever its fate, see result), or a
 * negative errno value with a message in err when npukb itself could not
 * set up the run. */
int npukb_sandbox_run(const struct npukb_sandbox_spec *spec,
		      struct npukb_sandbox_result *result,
		      char *err, size_t errlen);

/* One line describing the result ("exited with 1", "killed by SIGSEGV",
 * "timed out after 10.0 s"). */
void npukb_sandbox_describe(const struct npukb_sandbox_result *r,
			    char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
