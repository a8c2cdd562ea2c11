/* inputs.c - xoshiro256** streams seeded through splitmix64, and input
 * distributions. Reproducible across machines: no libc random(). */
#include "inputs.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static uint64_t hash_str(uint64_t h, const char *s)
{
	for (; s && *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001B3ull;
	return h;
}

void npukb_rng_seed(struct npukb_rng *r, uint64_t seed, const char *case_id,
		    const char *tensor)
{
	uint64_t x = hash_str(hash_str(0xCBF29CE484222325ull ^ seed, case_id), "/");
	int i;
	x = hash_str(x, tensor);
	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64(&x);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t npukb_rng_next(struct npukb_rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

double npukb_rng_uniform01(struct npukb_rng *r)
{
	return (double)(npukb_rng_next(r) >> 11) * 0x1.0p-53;
}

static double normal(struct npukb_rng *r)
{
	/* Box-Muller; one value per call keeps the stream simple. */
	double u1 = npukb_rng_uniform01(r), u2 = npukb_rng_uniform01(r);
	if (u1 < 1e-300)
		u1 = 1e-300;
	return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

/* One of the values a float kernel must treat specially: both infinities,
 * NaN, both zeros and a denormal of the dtype (so that flushing denormals
 * to zero or mishandling the sign of zero shows). */
static double special_value(enum npukb_dtype dt, struct npukb_rng *r)
{
	double tiny = dt == NPUKB_DT_FLOAT16 ? 0x1.0p-20 : 0x1.0p-130;
	switch (npukb_rng_next(r) % 6) {
	case 0: return INFINITY;
	case 1: return -INFINITY;
	case 2: return NAN;
	case 3: return 0.0;
	case 4: return -0.0;
	default: return (npukb_rng_next(r) & 1) ? tiny : -tiny;
	}
}

int npukb_inputs_fill(enum npukb_dtype dt, void *buf, size_t numel,
		      const struct npukb_dist *dist, struct npukb_rng *r,
		      char *err, size_t errlen)
{
	size_t i;
	/* A complex element is two float32 values, each drawn the same way. */
	if (dt == NPUKB_DT_COMPLEX64) {
		if (numel > SIZE_MAX / 2) {
			snprintf(err, errlen, "complex tensor too large");
			return -EOVERFLOW;
		}
		dt = NPUKB_DT_FLOAT32;
		numel *= 2;
	}
	for (i = 0; i < numel; i++) {
		double v;
		switch (dist->kind) {
		case NPUKB_DIST_UNIFORM:
			v = dist->a + (dist->b - dist->a) * npukb_rng_uniform01(r);
			break;
		case NPUKB_DIST_NORMAL:
			v = dist->a + dist->b * normal(r);
			break;
		case NPUKB_DIST_INTEGER: {
			double span = floor(dist->b) - ceil(dist->a) + 1.0;
			v = ceil(dist->a) + floor(span * npukb_rng_uniform01(r));
			break;
		}
		case NPUKB_DIST_BOOL:
			v = npukb_rng_uniform01(r) < dist->a ? 1.0 : 0.0;
			break;
		case NPUKB_DIST_SLICES: {
			/* Element 2k is a start, 2k+1 its length: the length
			 * first, so that every (start, length) with
			 * start + length <= b can occur. */
			double len;
			if (numel % 2) {
				snprintf(err, errlen, "a slices input needs (start, length) pairs, not %zu values",
					 numel);
				return -EINVAL;
			}
			len = 1.0 + floor(dist->b * npukb_rng_uniform01(r));
			v = floor((dist->b - len + 1.0) * npukb_rng_uniform01(r));
			npukb_store_from_double(dt, buf, i, v);
			i++;
			v = len;
			break;
		}
		case NPUKB_DIST_ATTR:
			snprintf(err, errlen, "attribute-valued input '%s' must be resolved by the caller",
				 dist->attr ? dist->attr : "?");
			return -EINVAL;
		default:
			snprintf(err, errlen, "unknown input distribution %d", (int)dist->kind);
			return -EINVAL;
		}
		if (dist->special > 0 && npukb_dtype_is_float(dt) &&
		    npukb_rng_uniform01(r) < dist->special)
			v = special_value(dt, r);
		npukb_store_from_double(dt, buf, i, v);
	}
	return 0;
}

uint64_t npukb_hash_bytes(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint64_t h = 0x9E3779B97F4A7C15ull ^ len;
	size_t i = 0;
	for (; i + 8 <= len; i += 8) {
		uint64_t w;
		memcpy(&w, p + i, 8);
		h = (h ^ w) * 0xFF51AFD7ED558CCDull;
		h ^= h >> 32;
	}
	for (; i < len; i++)
		h = (h ^ p[i]) * 0x100000001B3ull;
	return h;
}
