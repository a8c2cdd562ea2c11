/* cache_key.h - what cache keys are made of: strings, numbers, a file's
 * bytes, a folder's names and bytes, each added to a SHA-256 so that no
 * two different sequences of them give the same stream (private). */
#ifndef NPUKB_CACHE_KEY_H
#define NPUKB_CACHE_KEY_H

#include <stddef.h>
#include <stdint.h>

#include "sha256.h"

/* A tag and a string (NULL differs from ""). */
void npukb_key_str(struct npukb_sha256 *k, const char *tag, const char *s);
void npukb_key_num(struct npukb_sha256 *k, const char *tag, double v);
/* A file's bytes: 0, or a negative errno (a missing file is -ENOENT, and
 * the key then says so: the caller decides whether that is fine). */
int npukb_key_file(struct npukb_sha256 *k, const char *tag, const char *path);
/* Every entry below dir, in name order, depth first: names, types, file
 * bytes, symlink targets. -E2BIG past 4096 entries, 64 MiB of bytes or 16
 * levels: a folder that large is not a sample, and is not keyed. */
int npukb_key_tree(struct npukb_sha256 *k, const char *tag, const char *dir);

#endif
