/* sha256.h - SHA-256 (FIPS 180-4) of a buffer, as lowercase hex (private).
 *
 * Names a model response in its provenance record: the hash lets a
 * journal line be matched with the exact text a model wrote without
 * copying the text; keys the caches (unit_cache.h, data_cache.h), where a
 * sample must not be able to make two keys collide. Written from the
 * standard. */
#ifndef NPUKB_SHA256_H
#define NPUKB_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define NPUKB_SHA256_HEX_LEN 64

/* hex receives 64 hex digits and a NUL. */
void npukb_sha256_hex(const void *data, size_t len, char hex[NPUKB_SHA256_HEX_LEN + 1]);

/* Incremental form: init, update any number of times, final. */
struct npukb_sha256 {
	uint32_t h[8];
	uint64_t bytes;
	unsigned char buf[64];
	size_t nbuf;
};

void npukb_sha256_init(struct npukb_sha256 *c);
void npukb_sha256_update(struct npukb_sha256 *c, const void *data, size_t len);
void npukb_sha256_final_hex(struct npukb_sha256 *c, char hex[NPUKB_SHA256_HEX_LEN + 1]);

#endif
