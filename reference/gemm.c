/* gemm.c - the blocked, threaded GEMM core (gemm.h).
 *
 * Each part of the rows works on MC rows at a time with their sums in a
 * double buffer of MC x n; for each KC-long slice of k it converts the
 * rows' A slice and, NC columns at a time, the B tile to double once, and
 * adds their products into the sums. The B tile (KC x NC doubles, 256 KiB)
 * stays in a core's L2 while MC rows use it; 4 x 8 tiles of the sums are
 * held in registers over the slice (tile()). */
#include "gemm.h"
#include "ref_util.h"

#include <npukb/parallel.h>
#include <stdlib.h>
#include <string.h>

enum { MC = 32, KC = 128, NC = 256, MR = 4, NR = 8 };

/* Below about this many multiply-adds a thread costs more than it saves. */
#define GEMM_SERIAL_MACS (1u << 22)

struct gemm_job {
	const struct ref_gemm_operand *a, *b;
	size_t m, n, k;
	ref_gemm_row_fn fn;
	void *ctx;
	int failed[NPUKB_PARALLEL_MAX_PARTS];
};

/* len elements of o from (r, c) along a row into dst. */
static void load_row(const struct ref_gemm_operand *o, size_t r, size_t c, size_t len,
		     double *dst)
{
	size_t base = o->off + r * o->rs + c * o->cs, i;
	if (o->cs == 1 && o->t->dtype == NPUKB_DT_FLOAT64) { /* a caller's double scratch */
		memcpy(dst, (const double *)o->t->data + base, len * sizeof *dst);
		return;
	}
	if (o->cs == 1) {
		for (i = 0; i < len; i += REF_BLOCK)
			ref_load_block(o->t, base + i, len - i < REF_BLOCK ? len - i : REF_BLOCK,
				       dst + i);
		return;
	}
	for (i = 0; i < len; i++)
		dst[i] = npukb_load_as_double(o->t->dtype, o->t->data, base + i * o->cs);
}

/* The full 4 x 8 tile in L lanes of double, where the CPU has them: each
 * lane does the multiply, then the add, of the scalar loop (contraction
 * forbidden, as AVX-512F has fused multiply-adds), so the bits are the
 * same on every machine. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define GEMM_WIDE 1
#define GEMM_TILE_WIDE(name, isa, L)                                                              \
	__attribute__((target(isa), optimize("fp-contract=off"))) static void name(                 \
		const double *a, size_t kc, const double *b, size_t nb, double *c, size_t ldc)       \
	{                                                                                        \
		typedef double v __attribute__((vector_size(L * sizeof(double))));                 \
		v r[MR][NR / L], bv[NR / L];                                                     \
		size_t i, x, p;                                                                  \
		for (i = 0; i < MR; i++)                                                         \
			for (x = 0; x < NR / L; x++)                                             \
				memcpy(&r[i][x], c + i * ldc + x * L, sizeof(v));                \
		for (p = 0; p < kc; p++) {                                                       \
			for (x = 0; x < NR / L; x++)                                             \
				memcpy(&bv[x], b + p * nb + x * L, sizeof(v));                   \
			for (i = 0; i < MR; i++) {                                               \
				const double av = a[i * kc + p];                                 \
				for (x = 0; x < NR / L; x++)                                     \
					r[i][x] += av * bv[x];                                   \
			}                                                                        \
		}                                                                                \
		for (i = 0; i < MR; i++)                                                         \
			for (x = 0; x < NR / L; x++)                                             \
				memcpy(c + i * ldc + x * L, &r[i][x], sizeof(v));                \
	}
GEMM_TILE_WIDE(tile_avx2, "avx2", 4)
GEMM_TILE_WIDE(tile_avx512, "avx512f", 8)

typedef void (*gemm_tile_fn)(const double *, size_t, const double *, size_t, double *, size_t);

/* The widest full-tile variant this CPU runs, or NULL for the plain loop. */
static gemm_tile_fn tile_wide(void)
{
	return __builtin_cpu_supports("avx512f") ? tile_avx512 : __builtin_cpu_supports("avx2") ? tile_avx2 : NULL;
}
#endif

/* c (mr x nr, rows ldc apart) += a (mr rows of kc) times b (kc rows of nr,
 * nb apart). A full 4 x 8 tile keeps its sums in registers across the kc
 * products; each sum still adds its products in p order. */
static void tile(const double *a, size_t kc, const double *b, size_t nb, double *c, size_t ldc,
		 size_t mr, size_t nr)
{
	double r[MR][NR];
	size_t i, x, p;

#ifdef GEMM_WIDE
	const gemm_tile_fn wide = mr == MR && nr == NR ? tile_wide() : NULL;
	if (wide) {
		wide(a, kc, b, nb, c, ldc);
		return;
	}
#endif
	if (mr == MR && nr == NR) {
		for (i = 0; i < MR; i++)
			for (x = 0; x < NR; x++)
				r[i][x] = c[i * ldc + x];
		for (p = 0; p < kc; p++)
			for (i = 0; i < MR; i++) {
				const double av = a[i * kc + p];
				for (x = 0; x < NR; x++)
					r[i][x] += av * b[p * nb + x];
			}
		for (i = 0; i < MR; i++)
			for (x = 0; x < NR; x++)
				c[i * ldc + x] = r[i][x];
		return;
	}
	for (i = 0; i < mr; i++)
		for (p = 0; p < kc; p++) {
			const double av = a[i * kc + p];
			for (x = 0; x < nr; x++)
				c[i * ldc + x] += av * b[p * nb + x];
		}
}

static void gemm_rows(void *ctx, unsigned part, size_t r0, size_t r1)
{
	struct gemm_job *j = ctx;
	const size_t n = j->n, k = j->k;
	double *acc = malloc(MC * (n ? n : 1) * sizeof *acc);
	double *ap = malloc(MC * KC * sizeof *ap);
	double *bp = malloc(KC * NC * sizeof *bp);
	size_t i0, p0, j0, ii, pp, jj;

	if (!acc || !ap || !bp) {
		j->failed[part] = 1;
		goto out;
	}
	for (i0 = r0; i0 < r1; i0 += MC) {
		size_t mc = r1 - i0 < MC ? r1 - i0 : MC;
		for (ii = 0; ii < mc * n; ii++)
			acc[ii] = 0.0;
		for (p0 = 0; p0 < k; p0 += KC) {
			size_t kc = k - p0 < KC ? k - p0 : KC;
			for (ii = 0; ii < mc; ii++)
				load_row(j->a, i0 + ii, p0, kc, ap + ii * kc);
			for (j0 = 0; j0 < n; j0 += NC) {
				size_t nc = n - j0 < NC ? n - j0 : NC;
				for (pp = 0; pp < kc; pp++)
					load_row(j->b, p0 + pp, j0, nc, bp + pp * nc);
				for (ii = 0; ii < mc; ii += MR)
					for (jj = 0; jj < nc; jj += NR)
						tile(ap + ii * kc, kc, bp + jj, nc, acc + ii * n + j0 + jj, n,
						     mc - ii < MR ? mc - ii : MR, nc - jj < NR ? nc - jj : NR);
			}
		}
		for (ii = 0; ii < mc; ii++)
			j->fn(j->ctx, i0 + ii, acc + ii * n, n);
	}
out:
	free(acc);
	free(ap);
	free(bp);
}

int ref_gemm(const struct ref_gemm_operand *a, const struct ref_gemm_operand *b, size_t m,
	     size_t n, size_t k, unsigned parts, ref_gemm_row_fn fn, void *ctx)
{
	struct gemm_job j = { a, b, m, n, k, fn, ctx, { 0 } };
	unsigned p;

	if (m == 0)
		return 0;
	if (parts == 0)
		parts = (double)m * (double)n * (double)k < GEMM_SERIAL_MACS
				? 1
				: npukb_parallel_parts(m, MC);
	if (parts > NPUKB_PARALLEL_MAX_PARTS)
		parts = NPUKB_PARALLEL_MAX_PARTS;
	npukb_parallel_run(m, parts, gemm_rows, &j);
	for (p = 0; p < parts; p++)
		if (j.failed[p])
			return -ENOMEM;
	return 0;
}
