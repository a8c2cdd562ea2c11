/* badref.c - a reference plugin whose table names a function without
 * giving it: must be rejected. */
#include <npukb/plugin.h>

static const struct npukb_reference refs[] = {
	{ "half", 1, 1, NULL },
	{ NULL, 0, 0, NULL }
};

NPUKB_PLUGIN_EXPORT const struct npukb_plugin npukb_badref_plugin = {
	.abi = NPUKB_PLUGIN_ABI,
	.kind = NPUKB_PLUGIN_REFERENCE,
	.name = "badref",
	.version = "1.0",
	.references = refs,
};
