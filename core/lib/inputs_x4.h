/* inputs_x4.h - uniform and normal inputs four chunks at a time, where the CPU has
 * AVX2 (private to the core; inputs.c calls it). */
#ifndef NPUKB_INPUTS_X4_H
#define NPUKB_INPUTS_X4_H

#include <stddef.h>
#include <npukb/dtype.h>

#include "inputs.h"

/* Values first[j] .. first[j] + n - 1 of a float16, bfloat16 or float32
 * tensor from stream st[j], for the four j, drawn uniform in
 * [a, a + width) exactly as inputs.c's one-chunk loop draws them (no
 * special values). 0 when done; -1 when this CPU, dtype or n (a multiple
 * of 4) cannot take this path and nothing was written. */
int npukb_inputs_x4_uniform(enum npukb_dtype dt, void *buf, const size_t first[4], size_t n,
			    double a, double width, const struct npukb_rng st[4]);

/* The same for normal values of mean and standard deviation stddev, as
 * inputs.c's ziggurat draws them. */
int npukb_inputs_x4_normal(enum npukb_dtype dt, void *buf, const size_t first[4], size_t n,
			   double mean, double stddev, const struct npukb_rng st[4]);

/* Tests: nonzero makes npukb_inputs_x4_uniform decline, so that the
 * one-chunk loop fills everything (the reference the fast path must
 * match bit for bit). */
void npukb_inputs_x4_disable(int off);

#endif
