/* nosymbol.c - exports a descriptor under the wrong name: must be rejected. */
#include <npukb/plugin.h>

NPUKB_PLUGIN_EXPORT const struct npukb_plugin npukb_somethingelse_plugin = {
	.abi = NPUKB_PLUGIN_ABI,
	.kind = NPUKB_PLUGIN_STAGE,
	.name = "nosymbol",
	.version = "1.0",
};
