/* plain.c - the plain C loops cpusim's speed benchmark compares with: the
 * same arithmetic on the same files, one thread (see run-speed.sh).
 *   plain add|exp|cast|rowsum N x.bin [y.bin] out.bin
 *   plain gen N file.bin      N floats in [-1, 1) from a fixed LCG
 *   plain count N file.bin    N as one uint64 (the kernels' length argument) */
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static void *map(const char *path, size_t bytes, int writable)
{
	int fd = open(path, writable ? O_RDWR : O_RDONLY);
	void *p;

	if (fd < 0) {
		perror(path);
		exit(2);
	}
	p = mmap(NULL, bytes, writable ? PROT_READ | PROT_WRITE : PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED) {
		perror("mmap");
		exit(2);
	}
	return p;
}

/* float -> binary16, round to nearest even (what Cast CAST_RINT does). */
static uint16_t to_half(float f)
{
	uint32_t x;
	memcpy(&x, &f, 4);
	uint32_t sign = (x >> 16) & 0x8000u, e = (x >> 23) & 0xffu, m = x & 0x7fffffu;
	if (e == 0xff)
		return (uint16_t)(sign | 0x7c00u | (m ? 0x200u : 0));
	int32_t he = (int32_t)e - 127 + 15;
	if (he >= 31)
		return (uint16_t)(sign | 0x7c00u);
	if (he <= 0) {
		if (he < -10)
			return (uint16_t)sign;
		m |= 0x800000u;
		uint32_t shift = (uint32_t)(14 - he), r = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
		if (rem > half || (rem == half && (r & 1)))
			r++;
		return (uint16_t)(sign | r);
	}
	uint32_t r = ((uint32_t)he << 10) | (m >> 13), rem = m & 0x1fffu;
	if (rem > 0x1000u || (rem == 0x1000u && (r & 1)))
		r++;
	return (uint16_t)(sign | r);
}

int main(int argc, char **argv)
{
	size_t n, i;

	if (argc < 3)
		return 2;
	n = strtoull(argv[2], NULL, 10);
	if (argc < 4)
		return 2;
	if (strcmp(argv[1], "count") == 0) {
		FILE *f = fopen(argv[3], "wb");
		uint64_t v = n;
		return f && fwrite(&v, 8, 1, f) == 1 && fclose(f) == 0 ? 0 : 2;
	}
	if (strcmp(argv[1], "gen") == 0) {
		FILE *f = fopen(argv[3], "wb");
		uint64_t s = 88172645463325252ull;
		for (i = 0; f && i < n; i++) {
			float v;
			s = s * 6364136223846793005ull + 1442695040888963407ull;
			v = (float)((double)(s >> 40) / (double)(1ull << 24) * 2.0 - 1.0);
			fwrite(&v, 4, 1, f);
		}
		return f && fclose(f) == 0 ? 0 : 2;
	}
	if (argc < 5)
		return 2;
	if (strcmp(argv[1], "add") == 0 && argc == 6) {
		const float *x = map(argv[3], n * 4, 0), *y = map(argv[4], n * 4, 0);
		float *z = map(argv[5], n * 4, 1);
		for (i = 0; i < n; i++)
			z[i] = x[i] + y[i];
	} else if (strcmp(argv[1], "exp") == 0) {
		const float *x = map(argv[3], n * 4, 0);
		float *y = map(argv[4], n * 4, 1);
		for (i = 0; i < n; i++)
			y[i] = expf(x[i]);
	} else if (strcmp(argv[1], "cast") == 0) {
		const float *x = map(argv[3], n * 4, 0);
		uint16_t *y = map(argv[4], n * 2, 1);
		for (i = 0; i < n; i++)
			y[i] = to_half(x[i]);
	} else if (strcmp(argv[1], "rowsum") == 0) {
		const float *x = map(argv[3], n * 4, 0);
		float *y = map(argv[4], n / 1024 * 4, 1);
		for (i = 0; i < n / 1024; i++) {
			float s = 0;
			for (size_t j = 0; j < 1024; j++)
				s += x[i * 1024 + j];
			y[i] = s;
		}
	} else {
		return 2;
	}
	return 0;
}
