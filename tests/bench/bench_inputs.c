/* bench_inputs.c - how fast the core generates input tensors: a program
 * that prints numbers (`make bench-inputs`), not a test.
 *
 *   bench_inputs [MILLIONS]   (default 64: 64 Mi values per tensor)
 *
 * For each (dtype, distribution) of the Level 1 inputs that cost the most
 * (StridesliceNegConcatV2's 512 Mi-value normal half tensor), the wall time
 * of one fill with 1 thread and with every CPU, in ns per value. */
#include "data_threads.h"
#include "inputs.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double fill_ns(enum npukb_dtype dt, const struct npukb_dist *d, void *buf, size_t n,
		      unsigned threads)
{
	struct npukb_rng r;
	char err[256];
	double best = 1e30;
	npukb_set_data_threads(threads);
	for (int rep = 0; rep < 3; rep++) {
		double t0 = now(), t;
		npukb_rng_seed(&r, (uint64_t)rep, "0", "x");
		if (npukb_inputs_fill(dt, buf, n, d, &r, err, sizeof err) != 0) {
			fprintf(stderr, "bench_inputs: %s\n", err);
			exit(1);
		}
		t = (now() - t0) * 1e9 / (double)n;
		if (t < best)
			best = t;
	}
	return best;
}

int main(int argc, char **argv)
{
	const size_t n = (size_t)(argc > 1 ? atof(argv[1]) : 64.0) * 1024 * 1024;
	static const struct {
		const char *what;
		enum npukb_dtype dt;
		struct npukb_dist d;
	} rows[] = {
		{ "float16 normal(0, 10)", NPUKB_DT_FLOAT16, { .kind = NPUKB_DIST_NORMAL, .a = 0, .b = 10 } },
		{ "bfloat16 uniform(-2, 2)", NPUKB_DT_BFLOAT16, { .kind = NPUKB_DIST_UNIFORM, .a = -2, .b = 2 } },
		{ "float32 normal(0, 1)", NPUKB_DT_FLOAT32, { .kind = NPUKB_DIST_NORMAL, .a = 0, .b = 1 } },
		{ "int32 integer[-100, 100]", NPUKB_DT_INT32, { .kind = NPUKB_DIST_INTEGER, .a = -100, .b = 100 } },
	};
	void *buf = malloc(n * 4);
	unsigned all = npukb_data_threads();

	if (!buf) {
		fprintf(stderr, "bench_inputs: cannot allocate %zu bytes\n", n * 4);
		return 1;
	}
	printf("%zu values per fill, best of 3; ns per value\n", n);
	printf("%-26s %10s %10s (%u threads)\n", "input", "1 thread", "all", all);
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
		printf("%-26s %10.2f %10.2f\n", rows[i].what, fill_ns(rows[i].dt, &rows[i].d, buf, n, 1),
		       fill_ns(rows[i].dt, &rows[i].d, buf, n, all));
	free(buf);
	return 0;
}
