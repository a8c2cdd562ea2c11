/* harness_cache.h - cpusim's harness object (runtime/harness.cpp and
 * gm_buffers.cpp, host code
 * that never sees a sample) compiled once per toolchain and emulation
 * version and reused by every build, in the cache folder npukb gives its
 * backends (npukb_options.cache_dir). */
#ifndef NPUKB_CPUSIM_HARNESS_CACHE_H
#define NPUKB_CPUSIM_HARNESS_CACHE_H

#include <stddef.h>

/* The entry's name for this cpusim version, harness command line (argv,
 * NULL-terminated, argv[0] the compiler as PATH finds it), harness sources
 * (NULL-terminated; names and contents) and emulation include folder: 32
 * hex digits into key. 0, or a negative errno with a message in err. */
int harness_cache_key(const char *version, const char *const *argv, const char *const *sources,
		      const char *include_dir, char *key, size_t keylen, char *err, size_t errlen);

/* Copies the cached object to dest: 0, or a negative errno (-ENOENT: not
 * cached yet). Only a non-empty regular file owned by this user counts. */
int harness_cache_get(const char *cache_dir, const char *key, const char *dest);

/* Stores a copy of src as the entry for key, atomically (a reader never
 * sees half of it). */
int harness_cache_put(const char *cache_dir, const char *key, const char *src);

/* A digest of every name and byte below each of dirs (NULL-terminated),
 * as 32 hex digits in hex: 0 or a negative errno. */
int cpusim_tree_digest(const char *const *dirs, char *hex, size_t len);

#endif
