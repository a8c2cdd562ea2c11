/* cache_store.h - entries of npukb's cache folder, whatever they hold
 * (private): written whole through a temporary file and a rename, left
 * read-only, checked on every read, and the least recently used evicted
 * when the folder outgrows its cap.
 *
 * An entry is <cache>/<kind>/<first two key digits>/<key>, a header naming
 * its format, the npukb version that wrote it, its kind and key and the
 * length and checksum of each of its parts, then the parts. A reader trusts
 * only a regular file (not a symlink) owned by this user and writable by
 * nobody, whose header and checksums are all right; anything else is
 * removed and treated as absent. Only npukb writes entries: no sandboxed
 * process sees the cache folder (cache_guard below refuses one that a
 * sample could see). */
#ifndef NPUKB_CACHE_STORE_H
#define NPUKB_CACHE_STORE_H

#include <stddef.h>
#include <stdint.h>

/* One part of an entry being written. */
struct npukb_cache_part {
	const void *data;
	size_t len;
};

/* A read entry: its parts point into a read-only mapping of the file. */
#define NPUKB_CACHE_MAX_PARTS 64
struct npukb_cache_blob {
	void *map;
	size_t maplen;
	size_t nparts;
	const unsigned char *part[NPUKB_CACHE_MAX_PARTS];
	size_t len[NPUKB_CACHE_MAX_PARTS];
};

/* kind: a folder name ("units", "data"); key: lowercase hex. Returns 0, or
 * a negative errno (the entry is simply not stored). */
int npukb_cache_put(const char *cache_dir, const char *kind, const char *key,
		    const struct npukb_cache_part *parts, size_t nparts);

/* 0 with b filled (free it with npukb_cache_blob_free), -ENOENT when there
 * is no entry, -EBADMSG when there was one that could not be trusted (it
 * is removed). A hit marks the entry used now (for eviction). */
int npukb_cache_get(const char *cache_dir, const char *kind, const char *key,
		    struct npukb_cache_blob *b);
void npukb_cache_blob_free(struct npukb_cache_blob *b);

/* The cap on the cache folder's size: $NPUKB_CACHE_MAX (bytes, or with a
 * K, M or G suffix), else 4 GiB. */
uint64_t npukb_cache_max_bytes(void);

/* When the files below cache_dir add up to more than max bytes, removes
 * the least recently used until they fit in 90% of it: case data first (a
 * megabyte of it saves less time than a kilobyte of verdicts), then the
 * rest. Returns the number of files removed, or a negative errno. */
long npukb_cache_evict(const char *cache_dir, uint64_t max);

/* 0 when cache_dir may hold judged results and reference data for a run
 * whose output folder is output_dir; else non-zero with why: a folder a
 * sandboxed build or kernel could see (inside the output folder, where the
 * work folders are, or inside a folder bound into every sandbox). */
int npukb_cache_guard(const char *cache_dir, const char *output_dir, char *why, size_t len);

#endif
