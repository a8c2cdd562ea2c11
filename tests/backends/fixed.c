/* fixed.c - a backend for the cache tests: builds nothing, runs nothing
 * (so every output stays unwritten: a fixed verdict), and logs each build
 * to $FIXED_LOG, so a test can tell a unit judged from one replayed. Its
 * identity() calls its results reproducible only when $FIXED_REPRODUCIBLE
 * is set, as a hardware backend would not. For the worker tests it serves
 * at most $FIXED_SLOTS workers side by side (unset: no limit), logs each
 * worker's start to $FIXED_WORKERS ("start WORKER of NWORKERS"), and
 * refuses to start worker $FIXED_REFUSE_WORKER. */
#include <npukb/plugin.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int probe(char *reason, size_t len)
{
	(void)reason;
	(void)len;
	return 0;
}

static int identity(char *buf, size_t len)
{
	snprintf(buf, len, "fixed test backend 1");
	return getenv("FIXED_REPRODUCIBLE") ? NPUKB_IDENTITY_REPRODUCIBLE : 0;
}

static int build(const struct npukb_build_request *req, struct npukb_build_result *res)
{
	const char *log = getenv("FIXED_LOG");
	FILE *f = log ? fopen(log, "a") : NULL;

	if (f) {
		fprintf(f, "build %s %s\n", req->task->id, req->sample->id);
		fclose(f);
	}
	res->ok = 1;
	res->artifact = strdup("none");
	res->message = strdup("built nothing");
	return 0;
}

static int run(const struct npukb_run_request *req, struct npukb_run_result *res)
{
	(void)req;
	res->ok = 1;
	res->has_cycles = 1;
	res->cycles = 1;
	res->message = strdup("ran nothing");
	return 0;
}

static unsigned max_workers(void)
{
	const char *v = getenv("FIXED_SLOTS");

	return v ? (unsigned)strtoul(v, NULL, 10) : 0;
}

static int worker_start(unsigned worker, unsigned nworkers, char *err, size_t len)
{
	const char *log = getenv("FIXED_WORKERS"), *refuse = getenv("FIXED_REFUSE_WORKER");
	FILE *f = log ? fopen(log, "a") : NULL;

	if (f) {
		fprintf(f, "start %u of %u\n", worker, nworkers);
		fclose(f);
	}
	if (refuse && strtoul(refuse, NULL, 10) == worker) {
		snprintf(err, len, "worker %u refused on purpose", worker);
		return 1;
	}
	return 0;
}

static const struct npukb_backend_option options[] = {
	{ "flavour", "any value: a backend option the verdicts may depend on" },
	{ NULL, NULL }
};

static const struct npukb_backend_ops ops = {
	.options = options,
	.probe = probe,
	.identity = identity,
	.build = build,
	.run = run,
	.max_workers = max_workers,
	.worker_start = worker_start,
};

NPUKB_PLUGIN_EXPORT const struct npukb_plugin npukb_fixed_plugin = {
	.abi = NPUKB_PLUGIN_ABI,
	.kind = NPUKB_PLUGIN_BACKEND,
	.name = "fixed",
	.version = "1.0",
	.description = "cache test: a backend whose verdicts never change",
	.backend = &ops,
};
