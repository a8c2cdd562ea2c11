/* bench_matmul.cpp - cpusim's cube throughput: a tiled half x half -> float
 * matmul written with the low-level cube API (cube_tiled_kernel.h: Nd2Nz,
 * LoadData, Mmad, Fixpipe, double-buffered queues, every check on) run on
 * one simulated AI core, against a plain blocked C matmul of the same
 * sizes on float copies of the same inputs. Prints the wall time of each,
 * their ratio and the modelled cycles; checks that both agree (the inputs
 * are small integers, so every sum is exact whatever its order).
 *
 *   bench_matmul [SIZE...]     (square sizes, multiples of 128; default 256 512 1024) */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cube_host_block.h"
#include "cube_tiled_kernel.h"

namespace rt = npukb_cpusim;

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* C = A B, row-major floats, in 64 x 64 x 64 blocks (i, l, j order inside). */
static void plain_blocked(const float *a, const float *b, float *c, int n)
{
	enum { BS = 64 };
	for (int i = 0; i < n * n; i++)
		c[i] = 0;
	for (int i0 = 0; i0 < n; i0 += BS)
		for (int l0 = 0; l0 < n; l0 += BS)
			for (int j0 = 0; j0 < n; j0 += BS)
				for (int i = i0; i < i0 + BS; i++)
					for (int l = l0; l < l0 + BS; l++) {
						const float x = a[i * n + l];
						for (int j = j0; j < j0 + BS; j++)
							c[i * n + j] += x * b[l * n + j];
					}
}

static int bench(int n)
{
	const size_t nn = (size_t)n * n;
	half *ah = (half *)malloc(nn * sizeof(half)), *bh = (half *)malloc(nn * sizeof(half));
	float *af = (float *)malloc(nn * 4), *bf = (float *)malloc(nn * 4);
	float *c_sim = (float *)malloc(nn * 4), *c_plain = (float *)malloc(nn * 4);
	if (!ah || !bh || !af || !bf || !c_sim || !c_plain) {
		fprintf(stderr, "bench_matmul: out of memory\n");
		return 1;
	}
	for (size_t i = 0; i < nn; i++) {
		af[i] = (float)((int)(i * 7 % 5) - 2);
		bf[i] = (float)((int)(i * 3 % 7) - 3);
		ah[i] = half(af[i]);
		bh[i] = half(bf[i]);
	}
	cube_host_block_910b();
	double t0 = now();
	cube_tiled_matmul(cube_host_gm(ah, nn), cube_host_gm(bh, nn), cube_host_gm(c_sim, nn), n, n, n, 128, 128, 64, 2);
	const double sim_s = now() - t0, cycles = rt::end_block();
	t0 = now();
	plain_blocked(af, bf, c_plain, n);
	const double plain_s = now() - t0;
	size_t bad = 0;
	for (size_t i = 0; i < nn; i++)
		bad += c_sim[i] != c_plain[i];
	printf("%-6d %10.4f %10.4f %7.2f %14.0f %s\n", n, plain_s, sim_s, sim_s / plain_s, cycles,
	       bad ? "MISMATCH" : "same");
	free(ah), free(bh), free(af), free(bf), free(c_sim), free(c_plain);
	return bad != 0;
}

int main(int argc, char **argv)
{
	int rc = 0;
	printf("%-6s %10s %10s %7s %14s %s\n", "n", "plain_s", "cpusim_s", "ratio", "cycles", "result");
	if (argc < 2) {
		rc |= bench(256);
		rc |= bench(512);
		rc |= bench(1024);
	}
	for (int i = 1; i < argc; i++) {
		const int n = atoi(argv[i]);
		if (n <= 0 || n % 128 != 0) {
			fprintf(stderr, "bench_matmul: %s is not a positive multiple of 128\n", argv[i]);
			return 2;
		}
		rc |= bench(n);
	}
	return rc;
}
