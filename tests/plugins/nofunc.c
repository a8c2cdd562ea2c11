/* nofunc.c - a backend whose table lacks run(): must be rejected. */
#include <npukb/plugin.h>

static int probe(char *reason, size_t len)
{
	(void)reason;
	(void)len;
	return 0;
}

static int build(const struct npukb_build_request *req, struct npukb_build_result *res)
{
	(void)req;
	(void)res;
	return 0;
}

static const struct npukb_backend_ops ops = { .probe = probe, .build = build, .run = NULL };

NPUKB_PLUGIN_EXPORT const struct npukb_plugin npukb_nofunc_plugin = {
	.abi = NPUKB_PLUGIN_ABI,
	.kind = NPUKB_PLUGIN_BACKEND,
	.name = "nofunc",
	.version = "1.0",
	.backend = &ops,
};
