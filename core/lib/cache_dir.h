/* cache_dir.h - where npukb keeps build products across runs, and how to
 * measure and empty it. */
#ifndef NPUKB_CACHE_DIR_H
#define NPUKB_CACHE_DIR_H

#include <stddef.h>
#include <stdint.h>

/* $NPUKB_CACHE_DIR, else $XDG_CACHE_HOME/npukb, else $HOME/.cache/npukb
 * (malloc'd); NULL when none can be named (no HOME) or NPUKB_CACHE_DIR is
 * "off". */
char *npukb_cache_dir_default(void);

/* Bytes and regular files below dir (0 and 0 when it does not exist). */
int npukb_cache_usage(const char *dir, uint64_t *bytes, uint64_t *files);

/* Removes everything below dir, and dir itself; a missing dir is no error.
 * Returns 0 or a negative errno with the path at fault in err. */
int npukb_cache_clean(const char *dir, char *err, size_t errlen);

#endif
