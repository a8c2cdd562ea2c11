/* npu_device.c - per-worker NPU selection and the health check between
 * samples (see npu_device.h). */
#include "npu_device.h"
#include "cann_options.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEALTH_LOG "health.log"
#define HEALTH_SECONDS 60.0

/* This process's worker number in the run (0 outside a run's workers). */
static unsigned worker_index;

unsigned npukb_npu_max_workers(void)
{
	int devices[NPUKB_CANN_MAX_DEVICES];
	size_t n = npukb_cann_devices(devices);

	return n ? (unsigned)n : 1;
}

int npukb_npu_worker_start(unsigned worker, unsigned nworkers, char *err, size_t len)
{
	unsigned most = npukb_npu_max_workers();

	if (worker >= most || nworkers > most) {
		snprintf(err, len, "worker %u of %u, but only %u NPU%s to share (one worker per NPU)",
			 worker + 1, nworkers, most, most == 1 ? "" : "s");
		return 1;
	}
	worker_index = worker;
	return 0;
}

int npukb_npu_device_id(void)
{
	int devices[NPUKB_CANN_MAX_DEVICES];
	size_t n = npukb_cann_devices(devices);

	return worker_index < n ? devices[worker_index] : -1;
}

char **npukb_npu_device_envp(const struct npukb_cann_info *info, const char *stage, int device)
{
	char **extra = npukb_cann_runtime_env(info, stage);
	char **grown, **envp;
	size_t n = 0;

	if (!extra)
		return NULL;
	if (device >= 0) {
		while (extra[n])
			n++;
		grown = realloc(extra, (n + 2) * sizeof *grown);
		if (!grown) {
			npukb_cann_strv_free(extra);
			return NULL;
		}
		extra = grown;
		extra[n + 1] = NULL;
		if (asprintf(&extra[n], "ASCEND_RT_VISIBLE_DEVICES=%d", device) < 0) {
			extra[n] = NULL;
			npukb_cann_strv_free(extra);
			return NULL;
		}
	}
	envp = npukb_cann_merge_env(NULL, extra);
	npukb_cann_strv_free(extra);
	return envp;
}

struct npukb_limits npukb_npu_run_limits(const struct npukb_limits *base)
{
	struct npukb_limits l;

	memset(&l, 0, sizeof l);
	if (base)
		l = *base;
	l.memory_bytes = 0;
	return l;
}

/* The last non-empty line of the file, into buf. */
static void last_line_of(const char *path, char *buf, size_t len)
{
	char line[256];
	FILE *f = fopen(path, "re");

	buf[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (line[0])
			snprintf(buf, len, "%.255s", line);
	}
	fclose(f);
}

int npukb_npu_health_check(struct npukb_npu_health *h, const char *program,
			   char *const *envp, const char *workdir, const char *const *reads)
{
	const char *argv[] = { program, "--health", NULL };
	struct npukb_sandbox_spec spec;
	struct npukb_sandbox_result proc;
	char err[256], desc[128], line[256], path[4096];
	int rc;

	memset(&spec, 0, sizeof spec);
	spec.argv = argv;
	spec.read_paths = reads;
	spec.envp = (const char *const *)envp;
	spec.workdir = workdir;
	spec.stdout_path = HEALTH_LOG;
	spec.stderr_path = HEALTH_LOG;
	spec.limits.wall_seconds = HEALTH_SECONDS;
	spec.isolate_network = 1;
	rc = npukb_sandbox_run(&spec, &proc, err, sizeof err);
	if (rc < 0) {
		snprintf(h->why, sizeof h->why, "health check not started: %s", err);
		h->wedged = 1;
		return rc;
	}
	if (proc.kind == NPUKB_EXIT_NORMAL && proc.exit_code == 0) {
		h->wedged = 0;
		h->why[0] = '\0';
		return 1;
	}
	npukb_sandbox_describe(&proc, desc, sizeof desc);
	snprintf(path, sizeof path, "%s/%s", workdir, HEALTH_LOG);
	last_line_of(path, line, sizeof line);
	snprintf(h->why, sizeof h->why, "NPU health check %.127s%s%.255s", desc,
		 line[0] ? ": " : "", line);
	h->wedged = 1;
	return 0;
}
