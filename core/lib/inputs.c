/* inputs.c - xoshiro256** streams seeded through splitmix64, and input
 * distributions. Reproducible across machines: no libc random(). */
#include "inputs.h"
#include "data_threads.h"
#include "inputs_x4.h"

#include <errno.h>
#include <pthread.h>
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

/* The generator, inlined into the fill loops: the exported
 * npukb_rng_next/npukb_rng_uniform01 are reached through the shared
 * library's PLT, a call per value that cost more than the draw itself. */
static inline uint64_t rng_next(struct npukb_rng *r)
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

static inline double rng_uniform01(struct npukb_rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

uint64_t npukb_rng_next(struct npukb_rng *r)
{
	return rng_next(r);
}

double npukb_rng_uniform01(struct npukb_rng *r)
{
	return rng_uniform01(r);
}

/* ---- normal draws: Marsaglia and Tsang's ziggurat (Doornik's variant) --- */

/* The 128 layer edges x[0..128] of the ziggurat under exp(-x^2/2), as
 * Marsaglia and Tsang define them (r = 3.442619855899, common area
 * v = 9.91256303526217e-3): x[0] = v / f(r) is the base strip's width,
 * x[1] = r, x[i+1] = sqrt(-2 ln(v / x[i] + f(x[i]))), x[128] = 0.
 * Written out as hexadecimal literals (computed once in double precision)
 * so that no machine's libm decides the common path: it uses only
 * multiplications and comparisons, exact in IEEE arithmetic everywhere.
 * Only the rare wedge and tail draws (about 1.2% of them) call exp and
 * log. */
#define ZIG_LAYERS NPUKB_ZIG_LAYERS
#define ZIG_R 0x1.b8a7c476d2be8p+1
#define zig_x npukb_zig_x
const double npukb_zig_x[ZIG_LAYERS + 1] = {
	0x1.db4668fe7e4a3p+1, 0x1.b8a7c476d2be8p+1, 0x1.9c8e0c7c8098fp+1,
	0x1.8aa73e440ffbcp+1, 0x1.7d45eb36eb842p+1, 0x1.7279dd4ac3f9dp+1,
	0x1.695c2be68edc9p+1, 0x1.616dff7c8f54ap+1, 0x1.5a61edf7e8f32p+1,
	0x1.54052012a04a4p+1, 0x1.4e3456b0e3a1bp+1, 0x1.48d61806d6010p+1,
	0x1.43d75b60bca1dp+1, 0x1.3f29848d3b416p+1, 0x1.3ac11b8e206d6p+1,
	0x1.3694f3a3740d9p+1, 0x1.329d9725e32f7p+1, 0x1.2ed4df8099571p+1,
	0x1.2b35aa5ebee3ep+1, 0x1.27bba2b5dbc92p+1, 0x1.246317a6b53c0p+1,
	0x1.2128dd36bdf09p+1, 0x1.1e0a342cf08f6p+1, 0x1.1b04b731f6bccp+1,
	0x1.18164be0c1c39p+1, 0x1.153d16d45743dp+1, 0x1.12777201834f3p+1,
	0x1.0fc3e4d95f278p+1, 0x1.0d211dd28b00fp+1, 0x1.0a8ded0ec371ap+1,
	0x1.08093fe3e40e1p+1, 0x1.05921d1c4d769p+1, 0x1.0327a1cc4cf5ep+1,
	0x1.00c8fea1720d4p+1, 0x1.fceaeb2ca5f17p+0, 0x1.f858aff31cbf0p+0,
	0x1.f3da097460823p+0, 0x1.ef6dcddc7d392p+0, 0x1.eb12e91486bbcp+0,
	0x1.e6c85a849b015p+0, 0x1.e28d331c6723cp+0, 0x1.de609397e09b9p+0,
	0x1.da41aaf79a344p+0, 0x1.d62fb52580b86p+0, 0x1.d229f9bfeefdbp+0,
	0x1.ce2fcb05f8c34p+0, 0x1.ca4084e091e34p+0, 0x1.c65b8c04dbac2p+0,
	0x1.c2804d2c6b16fp+0, 0x1.beae3c60cd0e4p+0, 0x1.bae4d457ee119p+0,
	0x1.b72395df5b73bp+0, 0x1.b36a075498d64p+0, 0x1.afb7b428fe7a1p+0,
	0x1.ac0c2c6fc6382p+0, 0x1.a867047516e4fp+0, 0x1.a4c7d45d01a31p+0,
	0x1.a12e37c983369p+0, 0x1.9d99cd86b58b4p+0, 0x1.9a0a373c73f21p+0,
	0x1.967f1924c7b06p+0, 0x1.92f819c682bf5p+0, 0x1.8f74e1b37c6b8p+0,
	0x1.8bf51b49ef337p+0, 0x1.88787278810a6p+0, 0x1.84fe9484873b9p+0,
	0x1.81872fd21db73p+0, 0x1.7e11f3adaeb92p+0, 0x1.7a9e90168b8eep+0,
	0x1.772cb58a39dd6p+0, 0x1.73bc14d01a2c9p+0, 0x1.704c5ec50cb81p+0,
	0x1.6cdd4426b88a5p+0, 0x1.696e755e16b84p+0, 0x1.65ffa248e016dp+0,
	0x1.62907a0176ebfp+0, 0x1.5f20aaa4dfc1ap+0, 0x1.5bafe11654817p+0,
	0x1.583dc8bff3219p+0, 0x1.54ca0b4ffd349p+0, 0x1.515450720f455p+0,
	0x1.4ddc3d83a5b84p+0, 0x1.4a617543306ccp+0, 0x1.46e39778de063p+0,
	0x1.436240982ad9dp+0, 0x1.3fdd09591d2a4p+0, 0x1.3c538647ef792p+0,
	0x1.38c54749b9033p+0, 0x1.3531d7146a43ep+0, 0x1.3198ba982d911p+0,
	0x1.2df97057e7efbp+0, 0x1.2a536fae30e33p+0, 0x1.26a627fb9d120p+0,
	0x1.22f0ffbaa1e55p+0, 0x1.1f335374a10f8p+0, 0x1.1b6c7492c9735p+0,
	0x1.179ba80463fecp+0, 0x1.13c024b2c7ec6p+0, 0x1.0fd911b97f236p+0,
	0x1.0be58456ff4aep+0, 0x1.07e47d87a40f6p+0, 0x1.03d4e7391c5b7p+0,
	0x1.ff6b21fffe31ap-1, 0x1.f70a5866c8f46p-1, 0x1.ee848e956826fp-1,
	0x1.e5d6909f51b6ap-1, 0x1.dcfccc51c59f0p-1, 0x1.d3f340dda611cp-1,
	0x1.cab56ac6a38d3p-1, 0x1.c13e2b014e85cp-1, 0x1.b787a7c516f3bp-1,
	0x1.ad8b2506a137cp-1, 0x1.a340d1baf5b18p-1, 0x1.989f85c753b2cp-1,
	0x1.8d9c6a9d35e3dp-1, 0x1.822a858af0e7dp-1, 0x1.763a1600eec74p-1,
	0x1.69b7b213f3f69p-1, 0x1.5c8afdbf0217bp-1, 0x1.4e94c08c0bab7p-1,
	0x1.3fabee1911cd7p-1, 0x1.2f98d6bb4f41fp-1, 0x1.1e0ce6b5969b3p-1,
	0x1.0a936da5e55adp-1, 0x1.e8e576e43fbefp-2, 0x1.b4c8fece48e83p-2,
	0x1.73949184db9dfp-2, 0x1.16db47e193e1ap-2, 0x0.0p+0
};

/* (0, 1): never 0, for the logarithms of the tail. */
static double uniform_open01(struct npukb_rng *r)
{
	return ((double)(rng_next(r) >> 11) + 0.5) * 0x1.0p-53;
}

/* Beyond r: Marsaglia's exponential rejection. */
static double zig_tail(struct npukb_rng *r, int negative)
{
	double x, y;
	do {
		x = -log(uniform_open01(r)) / ZIG_R;
		y = -log(uniform_open01(r));
	} while (y + y < x * x);
	return negative ? -(ZIG_R + x) : ZIG_R + x;
}

/* One standard normal value. One 64-bit draw gives the layer (its low 7
 * bits) and a signed uniform in [-1, 1) (its top 54 bits). normal() is
 * the common case (98.8% of draws), inlined into the fill loop;
 * normal_rest() goes on from a draw w that fell outside its layer's
 * rectangle, with the draws the one-piece loop would make. */
static double normal_rest(struct npukb_rng *r, uint64_t w)
{
	for (;;) {
		const int i = (int)(w & (ZIG_LAYERS - 1));
		const double u = (double)((int64_t)w >> 10) * 0x1.0p-53;
		const double x = u * zig_x[i];
		double f0, f1;

		if (fabs(x) < zig_x[i + 1])
			return x;
		if (i == 0)
			return zig_tail(r, u < 0);
		f0 = exp(-0.5 * (zig_x[i] * zig_x[i] - x * x));
		f1 = exp(-0.5 * (zig_x[i + 1] * zig_x[i + 1] - x * x));
		if (f1 + rng_uniform01(r) * (f0 - f1) < 1.0)
			return x;
		w = rng_next(r);
	}
}

double npukb_inputs_normal_rest(struct npukb_rng *r, uint64_t w)
{
	return normal_rest(r, w);
}

/* The rare calls from the fill loop take a copy of the stream: the loop's
 * own stream then never has its address taken, and the compiler keeps it
 * in registers instead of storing and reloading it for every draw (a
 * store-to-load forward on the generator's critical path). */
static inline double normal_rest_copy(struct npukb_rng *r, uint64_t w)
{
	struct npukb_rng t = *r;
	double x = normal_rest(&t, w);
	*r = t;
	return x;
}

static inline double normal(struct npukb_rng *r)
{
	const uint64_t w = rng_next(r);
	const int i = (int)(w & (ZIG_LAYERS - 1));
	const double x = (double)((int64_t)w >> 10) * 0x1.0p-53 * zig_x[i];

	if (fabs(x) < zig_x[i + 1])
		return x;
	return normal_rest_copy(r, w);
}

/* One of the values a float kernel must treat specially: both infinities,
 * NaN, both zeros and a denormal of the dtype (so that flushing denormals
 * to zero or mishandling the sign of zero shows). */
static double special_value(enum npukb_dtype dt, struct npukb_rng *r)
{
	double tiny = dt == NPUKB_DT_FLOAT16 ? 0x1.0p-20 : 0x1.0p-130;
	switch (rng_next(r) % 6) {
	case 0: return INFINITY;
	case 1: return -INFINITY;
	case 2: return NAN;
	case 3: return 0.0;
	case 4: return -0.0;
	default: return (rng_next(r) & 1) ? tiny : -tiny;
	}
}

static inline double special_value_copy(enum npukb_dtype dt, struct npukb_rng *r)
{
	struct npukb_rng t = *r;
	double v = special_value(dt, &t);
	*r = t;
	return v;
}

/* ---- filling a tensor ----------------------------------------------------- */

/* A tensor is filled in chunks of FILL_CHUNK values, chunk k from a stream
 * of its own derived from the tensor's stream and k: the data depends on
 * the seed, the case and the tensor only, never on how many threads filled
 * it or in which order. */
#define FILL_CHUNK ((size_t)1 << 16)
/* Values converted to the dtype in one go. */
#define FILL_BATCH 1024
/* Below this many chunks one thread does it all. */
#define FILL_PARALLEL_CHUNKS 4
#define FILL_MAX_THREADS 64

static void chunk_stream(const struct npukb_rng *tensor, uint64_t k, struct npukb_rng *out)
{
	uint64_t x = tensor->s[0] ^ rotl(tensor->s[1], 17) ^ (k + 1) * 0xD1B54A32D192ED03ull;
	int i;
	for (i = 0; i < 4; i++)
		out->s[i] = splitmix64(&x);
}

/* Float, bfloat16 and half tensors take each drawn value rounded to float
 * first (a definition of the data, the same on every machine), so they
 * are converted FILL_BATCH at a time; the other dtypes one by one from the
 * double. */
static int narrows_through_float(enum npukb_dtype dt)
{
	return dt == NPUKB_DT_FLOAT16 || dt == NPUKB_DT_BFLOAT16 || dt == NPUKB_DT_FLOAT32;
}

/* The converted batch into the buffer at element first: float values for
 * the dtypes that narrow through float, doubles for the rest. */
static void store_batch(enum npukb_dtype dt, void *buf, size_t first, const float *fv,
			const double *dv, size_t n)
{
	switch (dt) {
	case NPUKB_DT_FLOAT16:
		npukb_f32_to_f16_n(fv, (uint16_t *)buf + first, n);
		break;
	case NPUKB_DT_BFLOAT16:
		npukb_f32_to_bf16_n(fv, (uint16_t *)buf + first, n);
		break;
	case NPUKB_DT_FLOAT32:
		memcpy((float *)buf + first, fv, n * sizeof(float));
		break;
	default:
		npukb_store_from_double_n(dt, buf, first, dv, n);
		break;
	}
}

/* What the fill loops need of a distribution, worked out once. */
struct fill_params {
	double a, b, width, int_lo, int_span, special;
	int specials;
};

#if defined(__GNUC__)
#define FILL_INLINE inline __attribute__((always_inline))
#else
#define FILL_INLINE inline
#endif

/* One value of the distribution (slices come in pairs: fill_kind). kind
 * is a constant wherever this is inlined, so the switch folds away. */
static FILL_INLINE double draw_one(enum npukb_dist_kind kind, const struct fill_params *p,
				   struct npukb_rng *r)
{
	switch (kind) {
	case NPUKB_DIST_UNIFORM:
		return p->a + p->width * rng_uniform01(r);
	case NPUKB_DIST_NORMAL:
		return p->a + p->b * normal(r);
	case NPUKB_DIST_INTEGER:
		return p->int_lo + floor(p->int_span * rng_uniform01(r));
	case NPUKB_DIST_BOOL:
		return rng_uniform01(r) < p->a ? 1.0 : 0.0;
	default:
		return 0; /* rejected by npukb_inputs_fill */
	}
}

/* Values lo..hi-1 (lo a multiple of FILL_CHUNK, hi - lo <= FILL_CHUNK)
 * from stream r, for one distribution kind: fill_values instantiates it
 * per kind, so no per-value switch on the kind is left in the loop. The
 * draws, their order and the values are those of one generic loop.
 * Slices come in (start, length) pairs: FILL_CHUNK is even, so a pair
 * never straddles two chunks. */
static FILL_INLINE void fill_kind(enum npukb_dist_kind kind, enum npukb_dtype dt, void *buf,
				  size_t lo, size_t hi, const struct fill_params *p,
				  struct npukb_rng *stream)
{
	const int batched = narrows_through_float(dt);
	struct npukb_rng local = *stream, *r = &local; /* see normal_rest_copy */
	float fb[FILL_BATCH];
	double db[FILL_BATCH];
	size_t nb = 0, i;

	for (i = lo; i < hi; i++) {
		double v;
		if (kind == NPUKB_DIST_SLICES) {
			/* Element 2k is a start, 2k+1 its length: the length
			 * first, so that every (start, length) with
			 * start + length <= b can occur. */
			double len = 1.0 + floor(p->b * rng_uniform01(r));
			v = floor((p->b - len + 1.0) * rng_uniform01(r));
			if (batched)
				fb[nb++] = (float)v;
			else
				db[nb++] = v;
			i++;
			v = len;
		} else {
			v = draw_one(kind, p, r);
		}
		if (p->specials && rng_uniform01(r) < p->special)
			v = special_value_copy(dt, r);
		if (batched)
			fb[nb++] = (float)v;
		else
			db[nb++] = v;
		if (nb >= FILL_BATCH - 1) {
			store_batch(dt, buf, i + 1 - nb, fb, db, nb);
			nb = 0;
		}
	}
	if (nb)
		store_batch(dt, buf, hi - nb, fb, db, nb);
	*stream = local;
}

static void fill_values(enum npukb_dtype dt, void *buf, size_t lo, size_t hi,
			const struct npukb_dist *dist, struct npukb_rng *r)
{
	const struct fill_params p = {
		.a = dist->a,
		.b = dist->b,
		.width = dist->b - dist->a,
		.int_lo = ceil(dist->a),
		.int_span = floor(dist->b) - ceil(dist->a) + 1.0,
		.special = dist->special,
		.specials = dist->special > 0 && npukb_dtype_is_float(dt),
	};

	switch (dist->kind) {
	case NPUKB_DIST_UNIFORM:
		fill_kind(NPUKB_DIST_UNIFORM, dt, buf, lo, hi, &p, r);
		break;
	case NPUKB_DIST_NORMAL:
		fill_kind(NPUKB_DIST_NORMAL, dt, buf, lo, hi, &p, r);
		break;
	case NPUKB_DIST_INTEGER:
		fill_kind(NPUKB_DIST_INTEGER, dt, buf, lo, hi, &p, r);
		break;
	case NPUKB_DIST_BOOL:
		fill_kind(NPUKB_DIST_BOOL, dt, buf, lo, hi, &p, r);
		break;
	case NPUKB_DIST_SLICES:
		fill_kind(NPUKB_DIST_SLICES, dt, buf, lo, hi, &p, r);
		break;
	default:
		break; /* rejected by npukb_inputs_fill */
	}
}

struct fill_job {
	enum npukb_dtype dt;
	void *buf;
	size_t numel, nchunks;
	const struct npukb_dist *dist;
	struct npukb_rng tensor;
	unsigned nthreads, index;
};

/* Uniform or normal values without special ones, narrowed through float: four of
 * this thread's full chunks at a time where the CPU allows (inputs_x4.h,
 * the same bits). Returns the first chunk left for the one-chunk loop. */
static size_t fill_chunks_x4(const struct fill_job *j, size_t k)
{
	const size_t step = j->nthreads;
	const int normal = j->dist->kind == NPUKB_DIST_NORMAL;
	if ((j->dist->kind != NPUKB_DIST_UNIFORM && !normal) || !narrows_through_float(j->dt) ||
	    (j->dist->special > 0 && npukb_dtype_is_float(j->dt)))
		return k;
	while ((k + 3 * step + 1) * FILL_CHUNK <= j->numel) {
		struct npukb_rng r[4];
		size_t first[4];
		for (int l = 0; l < 4; l++) {
			first[l] = (k + l * step) * FILL_CHUNK;
			chunk_stream(&j->tensor, k + l * step, &r[l]);
		}
		if ((normal ? npukb_inputs_x4_normal(j->dt, j->buf, first, FILL_CHUNK, j->dist->a,
						     j->dist->b, r)
			    : npukb_inputs_x4_uniform(j->dt, j->buf, first, FILL_CHUNK, j->dist->a,
						      j->dist->b - j->dist->a, r)) != 0)
			break;
		k += 4 * step;
	}
	return k;
}

static void fill_chunks(const struct fill_job *j, unsigned index)
{
	size_t k;
	for (k = fill_chunks_x4(j, index); k < j->nchunks; k += j->nthreads) {
		struct npukb_rng r;
		size_t lo = k * FILL_CHUNK;
		size_t hi = lo + FILL_CHUNK < j->numel ? lo + FILL_CHUNK : j->numel;
		chunk_stream(&j->tensor, k, &r);
		fill_values(j->dt, j->buf, lo, hi, j->dist, &r);
	}
}

static void *fill_thread(void *arg)
{
	const struct fill_job *j = arg;
	fill_chunks(j, j->index);
	return NULL;
}

int npukb_inputs_fill(enum npukb_dtype dt, void *buf, size_t numel,
		      const struct npukb_dist *dist, struct npukb_rng *r,
		      char *err, size_t errlen)
{
	struct fill_job jobs[FILL_MAX_THREADS];
	pthread_t tids[FILL_MAX_THREADS];
	unsigned nthreads, started = 0, t;
	size_t nchunks;

	/* A complex element is two float32 values, each drawn the same way. */
	if (dt == NPUKB_DT_COMPLEX64) {
		if (numel > SIZE_MAX / 2) {
			snprintf(err, errlen, "complex tensor too large");
			return -EOVERFLOW;
		}
		dt = NPUKB_DT_FLOAT32;
		numel *= 2;
	}
	switch (dist->kind) {
	case NPUKB_DIST_UNIFORM:
	case NPUKB_DIST_NORMAL:
	case NPUKB_DIST_INTEGER:
	case NPUKB_DIST_BOOL:
		break;
	case NPUKB_DIST_SLICES:
		if (numel % 2) {
			snprintf(err, errlen, "a slices input needs (start, length) pairs, not %zu values",
				 numel);
			return -EINVAL;
		}
		break;
	case NPUKB_DIST_ATTR:
		snprintf(err, errlen, "attribute-valued input '%s' must be resolved by the caller",
			 dist->attr ? dist->attr : "?");
		return -EINVAL;
	default:
		snprintf(err, errlen, "unknown input distribution %d", (int)dist->kind);
		return -EINVAL;
	}

	nchunks = (numel + FILL_CHUNK - 1) / FILL_CHUNK;
	nthreads = nchunks >= FILL_PARALLEL_CHUNKS ? npukb_data_threads() : 1;
	if (nthreads > nchunks)
		nthreads = (unsigned)nchunks;
	if (nthreads > FILL_MAX_THREADS)
		nthreads = FILL_MAX_THREADS;
	if (nthreads < 1)
		nthreads = 1;
	for (t = 0; t < nthreads; t++) {
		jobs[t] = (struct fill_job){ dt, buf, numel, nchunks, dist, *r, nthreads, t };
	}
	/* Threads 1.. in the background, thread 0's share here; a thread that
	 * cannot be created leaves its share to the caller's thread. */
	for (t = 1; t < nthreads; t++) {
		if (pthread_create(&tids[t], NULL, fill_thread, &jobs[t]) != 0)
			break;
		started = t;
	}
	fill_chunks(&jobs[0], 0);
	for (t = 1; t <= started; t++)
		pthread_join(tids[t], NULL);
	for (t = started + 1; t < nthreads; t++)
		fill_chunks(&jobs[t], t);
	/* Whatever draws from r next (planted values) must not repeat the
	 * chunks' streams. */
	rng_next(r);
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

/* splitmix64's finaliser: a bijection of 64-bit words. */
static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* Four independent lanes of npukb_hash_bytes's step, word i into lane
 * i % 4: the multiplications overlap instead of waiting on each other
 * (about 4x npukb_hash_bytes's speed, so memory-bound). Each step is a
 * bijection of the lane for a fixed word and of the word for a fixed lane,
 * and the final fold a bijection of each lane, so any change confined to
 * one word (or to one lane's words, up to a 2^-64 chance) changes the
 * hash. */
uint64_t npukb_content_hash(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint64_t h0 = 0x9E3779B97F4A7C15ull, h1 = 0xC2B2AE3D27D4EB4Full, h2 = 0x165667B19E3779F9ull,
		 h3 = 0x27D4EB2F165667C5ull;
	uint64_t h[4], r;
	size_t i = 0;
	int l;

	/* the lanes in four variables, not an array: gcc -O2 kept the array
	 * in memory, and each step waited on a store and a reload (6.8 GB/s
	 * in cache, 13.8 this way; 4.9 and 5.8 GB/s on a 256 MiB buffer) */
	for (; i + 32 <= len; i += 32) {
		uint64_t w0, w1, w2, w3;
		memcpy(&w0, p + i, 8);
		memcpy(&w1, p + i + 8, 8);
		memcpy(&w2, p + i + 16, 8);
		memcpy(&w3, p + i + 24, 8);
		h0 = (h0 ^ w0) * 0xFF51AFD7ED558CCDull;
		h1 = (h1 ^ w1) * 0xFF51AFD7ED558CCDull;
		h2 = (h2 ^ w2) * 0xFF51AFD7ED558CCDull;
		h3 = (h3 ^ w3) * 0xFF51AFD7ED558CCDull;
		h0 ^= h0 >> 32;
		h1 ^= h1 >> 32;
		h2 ^= h2 >> 32;
		h3 ^= h3 >> 32;
	}
	h[0] = h0;
	h[1] = h1;
	h[2] = h2;
	h[3] = h3;
	for (l = 0; i + 8 <= len; i += 8, l++) {
		uint64_t w;
		memcpy(&w, p + i, 8);
		h[l] = (h[l] ^ w) * 0xFF51AFD7ED558CCDull;
		h[l] ^= h[l] >> 32;
	}
	for (; i < len; i++)
		h[3] = (h[3] ^ p[i]) * 0x100000001B3ull;
	r = mix64(len);
	for (l = 0; l < 4; l++)
		r = mix64(r ^ h[l]);
	return r;
}
