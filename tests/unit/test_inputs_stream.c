/* test_inputs_stream.c - generated inputs are a function of (seed, case,
 * tensor) only: the same bits for any number of threads, on every run, and
 * as recorded here (golden hashes: a change of the data a seed gives is a
 * change of every published figure, so it must be deliberate). The normal
 * draws follow the normal law, tail included. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "data_threads.h"
#include "inputs.h"
#include "inputs_x4.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct golden {
	const char *name;
	enum npukb_dtype dt;
	struct npukb_dist dist;
	size_t numel;
	uint64_t hash;
};

/* 300001 values: four full chunks of 65536 and a partial one. */
static const struct golden goldens[] = {
	{ "normal-f16", NPUKB_DT_FLOAT16, { .kind = NPUKB_DIST_NORMAL, .a = 0, .b = 10 }, 300001,
	  UINT64_C(0xd5ce4c1f3b62f3ce) },
	{ "uniform-bf16", NPUKB_DT_BFLOAT16, { .kind = NPUKB_DIST_UNIFORM, .a = -2, .b = 2 }, 300001,
	  UINT64_C(0x795e3e6ad8fdf591) },
	{ "normal-f32-special", NPUKB_DT_FLOAT32,
	  { .kind = NPUKB_DIST_NORMAL, .a = 1, .b = 3, .special = 0.01 }, 300001, UINT64_C(0x80e2fe1061af1648) },
	{ "integer-i32", NPUKB_DT_INT32, { .kind = NPUKB_DIST_INTEGER, .a = -100, .b = 100 }, 300001,
	  UINT64_C(0x7538627373f8f343) },
	{ "slices-i64", NPUKB_DT_INT64, { .kind = NPUKB_DIST_SLICES, .b = 1000 }, 300000,
	  UINT64_C(0x321419906cfd5a8a) },
	{ "uniform-c64", NPUKB_DT_COMPLEX64, { .kind = NPUKB_DIST_UNIFORM, .a = -1, .b = 1 }, 150001,
	  UINT64_C(0xbc62e62030177ade) },
};

static uint64_t fill_hash(const struct golden *g, unsigned threads, uint64_t *after)
{
	struct npukb_rng r;
	char err[256] = "";
	size_t bytes = g->numel * npukb_dtype_size(g->dt);
	void *buf = malloc(bytes);
	uint64_t h;

	cr_assert_not_null(buf);
	npukb_set_data_threads(threads);
	npukb_rng_seed(&r, 7, "3", g->name);
	cr_assert_eq(npukb_inputs_fill(g->dt, buf, g->numel, &g->dist, &r, err, sizeof err), 0, "%s", err);
	npukb_set_data_threads(0);
	h = npukb_hash_bytes(buf, bytes);
	*after = npukb_rng_next(&r);
	free(buf);
	return h;
}

Test(inputs_stream, same_bits_for_any_thread_count_and_as_recorded, .timeout = 120)
{
	static const unsigned threads[] = { 1, 2, 3, 7, 64 };
	for (size_t i = 0; i < sizeof goldens / sizeof goldens[0]; i++) {
		const struct golden *g = &goldens[i];
		uint64_t after1, h1 = fill_hash(g, 1, &after1);
		for (size_t t = 1; t < sizeof threads / sizeof threads[0]; t++) {
			uint64_t after, h = fill_hash(g, threads[t], &after);
			cr_expect_eq(h, h1, "%s: %u threads give other data than one", g->name, threads[t]);
			cr_expect_eq(after, after1, "%s: the stream left after the fill depends on threads",
				     g->name);
		}
		cr_expect_eq(h1, g->hash, "%s: hash 0x%016llx, recorded 0x%016llx", g->name,
			     (unsigned long long)h1, (unsigned long long)g->hash);
	}
}

/* The four-chunk path (AVX2, where the CPU has it) gives the bits of the
 * one-chunk loop: uniform and normal float16, bfloat16 and float32 over
 * ranges whose values round differently (the normal draws' rare wedge and
 * tail draws included: 17 chunks hold about 13000 of them), for thread
 * counts that leave it 0 to 4 groups of four chunks, with a partial last
 * chunk. */
Test(inputs_stream, four_chunks_at_a_time_give_the_same_bits, .timeout = 240)
{
	static const enum npukb_dtype dts[] = { NPUKB_DT_FLOAT16, NPUKB_DT_BFLOAT16, NPUKB_DT_FLOAT32 };
	static const enum npukb_dist_kind kinds[] = { NPUKB_DIST_UNIFORM, NPUKB_DIST_NORMAL };
	static const double ranges[][2] = { { -3, 3 }, { 0.1, 0.1001 }, { -1e5, 7e4 }, { 0, 1 } };
	static const unsigned threads[] = { 1, 2, 3 };
	for (size_t d = 0; d < sizeof dts / sizeof dts[0]; d++)
		for (size_t g = 0; g < sizeof ranges / sizeof ranges[0] * 2; g++)
			for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++) {
				struct golden gl = { "x4", dts[d],
						     { .kind = kinds[g % 2], .a = ranges[g / 2][0],
						       .b = ranges[g / 2][1] },
						     17 * 65536 + 3, 0 };
				uint64_t after_fast, after_slow, fast, slow;
				char what[64];
				snprintf(what, sizeof what, "%s %s (%g, %g) %u threads",
					 npukb_dtype_name(dts[d]), g % 2 ? "normal" : "uniform",
					 ranges[g / 2][0], ranges[g / 2][1], threads[t]);
				gl.name = what;
				fast = fill_hash(&gl, threads[t], &after_fast);
				npukb_inputs_x4_disable(1);
				slow = fill_hash(&gl, threads[t], &after_slow);
				npukb_inputs_x4_disable(0);
				cr_expect_eq(fast, slow, "%s: other bits four chunks at a time", what);
				cr_expect_eq(after_fast, after_slow, "%s", what);
			}
}

/* Another seed, case or tensor name gives other data. */
Test(inputs_stream, streams_differ_by_seed_case_and_tensor)
{
	struct golden g = goldens[0];
	uint64_t after, base = fill_hash(&g, 2, &after);
	g.name = "normal-f16-other";
	cr_expect_neq(fill_hash(&g, 2, &after), base);
}

/* One million standard normal draws: mean, variance, the share beyond a
 * few quantiles (the ziggurat's base strip ends at r = 3.4426: the tail
 * beyond it has its own code path), and symmetry. */
Test(inputs_stream, normal_draws_follow_the_normal_law, .timeout = 120)
{
	const size_t n = 1000000;
	const struct npukb_dist d = { .kind = NPUKB_DIST_NORMAL, .a = 0, .b = 1 };
	static const double q[] = { 0.5, 1.0, 2.0, 3.0, 3.4426, 4.0 };
	size_t beyond[6] = { 0 }, below[6] = { 0 };
	double *v = malloc(n * sizeof(double)), sum = 0, sq = 0;
	struct npukb_rng r;
	char err[256];

	cr_assert_not_null(v);
	npukb_rng_seed(&r, 1, "0", "x");
	cr_assert_eq(npukb_inputs_fill(NPUKB_DT_FLOAT64, v, n, &d, &r, err, sizeof err), 0, "%s", err);
	for (size_t i = 0; i < n; i++) {
		sum += v[i];
		sq += v[i] * v[i];
		for (int k = 0; k < 6; k++) {
			beyond[k] += v[i] > q[k];
			below[k] += v[i] < -q[k];
		}
	}
	free(v);
	cr_expect_lt(fabs(sum / n), 0.005, "mean %g", sum / n);
	cr_expect_lt(fabs(sq / n - 1.0), 0.01, "variance %g", sq / n);
	for (int k = 0; k < 6; k++) {
		/* P(X > q) = erfc(q / sqrt 2) / 2; allow 5 standard errors. */
		double p = 0.5 * erfc(q[k] / sqrt(2.0)), want = p * n;
		double slack = 5 * sqrt(want * (1 - p)) + 3;
		cr_expect_lt(fabs((double)beyond[k] - want), slack, "P(X > %g): %zu of %zu, expected %.0f",
			     q[k], beyond[k], n, want);
		cr_expect_lt(fabs((double)below[k] - want), slack, "P(X < -%g): %zu of %zu, expected %.0f",
			     q[k], below[k], n, want);
	}
}
