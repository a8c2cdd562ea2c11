/* cmd_cache.h - `npukb cache`: where the cache is, how big per kind, and
 * emptying it. */
#ifndef NPUKB_CMD_CACHE_H
#define NPUKB_CMD_CACHE_H

/* argv[0] is "cache". Returns the process exit status. */
int npukb_cmd_cache(int argc, char **argv);

#endif
