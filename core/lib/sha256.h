/* sha256.h - SHA-256 (FIPS 180-4) of a buffer, as lowercase hex (private).
 *
 * Names a model response in its provenance record: the hash lets a
 * journal line be matched with the exact text a model wrote without
 * copying the text. Written from the standard; not a hot path. */
#ifndef NPUKB_SHA256_H
#define NPUKB_SHA256_H

#include <stddef.h>

#define NPUKB_SHA256_HEX_LEN 64

/* hex receives 64 hex digits and a NUL. */
void npukb_sha256_hex(const void *data, size_t len, char hex[NPUKB_SHA256_HEX_LEN + 1]);

#endif
