/* inputs.h - seeded, reproducible input tensors (private to the core). */
#ifndef NPUKB_INPUTS_H
#define NPUKB_INPUTS_H

#include <stddef.h>
#include <stdint.h>
#include <npukb/case_data.h>
#include <npukb/task.h>

struct npukb_rng {
	uint64_t s[4];
};

/* The stream for one tensor of one (case, seed): independent of the
 * tensor's position so adding a tensor does not change the others. */
void npukb_rng_seed(struct npukb_rng *r, uint64_t seed, const char *case_id,
		    const char *tensor);
uint64_t npukb_rng_next(struct npukb_rng *r);
double npukb_rng_uniform01(struct npukb_rng *r); /* [0, 1) */

/* The normal draws' ziggurat (inputs.c): its layer edges, and the draw
 * that goes on from a 64-bit draw w outside its layer's rectangle (for
 * inputs_x4.c, which takes the common case four streams at a time). */
#define NPUKB_ZIG_LAYERS 128
extern const double npukb_zig_x[NPUKB_ZIG_LAYERS + 1];
double npukb_inputs_normal_rest(struct npukb_rng *r, uint64_t w);

int npukb_inputs_fill(enum npukb_dtype dt, void *buf, size_t numel,
		      const struct npukb_dist *dist, struct npukb_rng *r,
		      char *err, size_t errlen);

/* npukb_hash_bytes: in <npukb/case_data.h> (plugins use it too). */

#endif
