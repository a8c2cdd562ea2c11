/* parallel.h - run a loop over [0, n) on the data path's threads.
 *
 * The range is cut into parts by index alone (part p is
 * [n*p/parts, n*(p+1)/parts)), whatever the number of threads that take
 * them, so a caller that keeps one result per part and merges them in part
 * order gets the same answer on any machine. Plugins use it for their
 * per-element work (the compare, checks over outputs). */
#ifndef NPUKB_PARALLEL_H
#define NPUKB_PARALLEL_H

#include <stddef.h>

#define NPUKB_PARALLEL_MAX_PARTS 16
/* Elements per part below which a per-element loop is not worth a thread
 * (starting one costs about what a few thousand elements do; a megaelement
 * keeps that under 1%). */
#define NPUKB_PARALLEL_GRAIN (1u << 20)

/* fn is called once per part, from any thread, with the part's number and
 * its half-open range. Parts must not write to shared state. */
typedef void (*npukb_range_fn)(void *ctx, unsigned part, size_t begin, size_t end);

/* How many parts n elements are worth cutting into: 1 below min_per_part
 * elements per part, else up to the data path's threads (at most
 * NPUKB_PARALLEL_MAX_PARTS). */
unsigned npukb_parallel_parts(size_t n, size_t min_per_part);

/* Runs fn on every part of [0, n) cut into parts (>= 1) and returns when all
 * are done. A thread that cannot be started leaves its part to the
 * caller's thread: fn always runs on every part. */
void npukb_parallel_run(size_t n, unsigned parts, npukb_range_fn fn, void *ctx);

#endif
