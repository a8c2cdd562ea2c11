/* gemm.h - the GEMM core of the Level 3 references: C = A B summed in
 * double, blocked for the caches and cut by rows across the data path's
 * threads, so that Level 3's largest cases take seconds.
 *
 * Each element is summed over p = 0 .. k-1 in order, exactly as a naive
 * triple loop sums it, so the result does not depend on the blocking or on
 * the number of threads. */
#ifndef NPUKB_REF_GEMM_H
#define NPUKB_REF_GEMM_H

#include <stddef.h>
#include <npukb/reference.h>

/* A matrix inside a tensor: element (r, c) is t's element
 * off + r * rs + c * cs (a transposed operand swaps rs and cs). */
struct ref_gemm_operand {
	const struct npukb_ref_tensor *t;
	size_t off, rs, cs;
};

/* Called once per output row i with its n sums (the buffer is the
 * caller's to change and is reused after the call). Rows are handed out
 * by different threads: fn may write only the outputs of row i. */
typedef void (*ref_gemm_row_fn)(void *ctx, size_t i, double *row, size_t n);

/* a is m x k, b is k x n. parts: how many parts to cut the rows into, 0
 * for as many as the data path's threads and the size warrant. Returns 0
 * or -ENOMEM (then some rows may not have been handed out). */
int ref_gemm(const struct ref_gemm_operand *a, const struct ref_gemm_operand *b, size_t m,
	     size_t n, size_t k, unsigned parts, ref_gemm_row_fn fn, void *ctx);

#endif
