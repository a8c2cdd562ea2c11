/* good.c - a minimal valid backend plugin for the loader tests. */
#include <npukb/plugin.h>

#include <stdio.h>

static int probe(char *reason, size_t len)
{
	snprintf(reason, len, "test backend: never usable");
	return 1;
}

static int build(const struct npukb_build_request *req, struct npukb_build_result *res)
{
	(void)req;
	(void)res;
	return -1;
}

static int run(const struct npukb_run_request *req, struct npukb_run_result *res)
{
	(void)req;
	(void)res;
	return -1;
}

static const struct npukb_backend_ops ops = {
	.probe = probe,
	.build = build,
	.run = run,
};

NPUKB_PLUGIN_EXPORT const struct npukb_plugin npukb_good_plugin = {
	.abi = NPUKB_PLUGIN_ABI,
	.kind = NPUKB_PLUGIN_BACKEND,
	.name = "good",
	.version = "1.0",
	.description = "loader test: valid",
	.backend = &ops,
};
