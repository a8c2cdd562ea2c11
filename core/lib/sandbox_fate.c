/* sandbox_fate.c - what a sandbox result means for a verdict, whether this
 * machine gives the sandbox its namespaces, and the process-wide unsafe
 * switch (--unsafe-no-sandbox). */

#include "sandbox_private.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static atomic_int unsafe;

void npukb_sandbox_set_unsafe(int on)
{
	atomic_store(&unsafe, on != 0);
}

int npukb_sandbox_unsafe(void)
{
	return atomic_load(&unsafe);
}

const char *npukb_sandbox_category(const struct npukb_sandbox_result *r)
{
	if (!r)
		return "crash";
	if (r->kind == NPUKB_EXIT_VIOLATION)
		return "sandbox-violation";
	/* A limit that killed the command outranks the wall clock it may
	 * also have reached while thrashing. */
	if (r->limits_hit & (NPUKB_LIMIT_MEMORY | NPUKB_LIMIT_QUOTA | NPUKB_LIMIT_FILE_SIZE))
		return "resource-limit";
	switch (r->kind) {
	case NPUKB_EXIT_TIMEOUT:
		/* A fork bomb spins at its process limit until the clock ends it. */
		return r->limits_hit & NPUKB_LIMIT_PROCESSES ? "resource-limit" : "timeout";
	case NPUKB_EXIT_CPU_LIMIT:
		return "resource-limit";
	case NPUKB_EXIT_NORMAL:
		if (r->exit_code == 0)
			return NULL;
		break;
	default:
		break;
	}
	/* A fork the pids cgroup refused, and then a failure. */
	if (r->limits_hit & NPUKB_LIMIT_PROCESSES)
		return "resource-limit";
	return "crash";
}

static pthread_once_t probe_once = PTHREAD_ONCE_INIT;
static int probe_rc;
static char probe_why[320];

/* The probe is a real sandboxed run of `true`: namespaces, the private
 * root, the uid change and seccomp all have to work. */
static void probe(void)
{
	const char *argv[] = { "true", NULL };
	struct npukb_sandbox_spec spec;
	struct npukb_sandbox_result res;
	char dir[] = "/tmp/npukb-probe-XXXXXX";
	char err[256] = "";

	if (npukb_sandbox_unsafe()) {
		probe_rc = -EPERM;
		snprintf(probe_why, sizeof probe_why, "the sandbox is switched off (--unsafe-no-sandbox)");
		return;
	}
	if (!mkdtemp(dir)) {
		probe_rc = -errno;
		snprintf(probe_why, sizeof probe_why, "cannot create %s: %s", dir, strerror(errno));
		return;
	}
	memset(&spec, 0, sizeof spec);
	spec.argv = argv;
	spec.workdir = dir;
	spec.limits.wall_seconds = 30;
	probe_rc = npukb_sandbox_run(&spec, &res, err, sizeof err);
	if (probe_rc == 0 && !(res.kind == NPUKB_EXIT_NORMAL && res.exit_code == 0)) {
		char d[128];

		npukb_sandbox_describe(&res, d, sizeof d);
		probe_rc = -EPERM;
		snprintf(err, sizeof err, "a sandboxed `true` %s", d);
	}
	if (probe_rc < 0)
		snprintf(probe_why, sizeof probe_why, "%s", err[0] ? err : strerror(-probe_rc));
	rmdir(dir);
}

int npukb_sandbox_probe(char *why, size_t len)
{
	pthread_once(&probe_once, probe);
	if (probe_rc < 0 && why && len)
		snprintf(why, len, "%s", probe_why);
	return probe_rc;
}
