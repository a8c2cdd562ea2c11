/* hog.c - a tiny, dependency-free program that tests/unit/test_sandbox.c
 * runs inside the sandbox where a shell cannot do the job.
 *
 *   hog alloc MIB   allocate MIB mebibytes and touch every page; exit 0
 *                   when that worked, 42 when malloc failed (so an
 *                   address-space limit is told apart from any other
 *                   failure, such as the dynamic loader's 127).
 *
 * Kept separate from the Criterion test binary on purpose: that binary maps
 * a few dozen shared libraries, which would eat into a small RLIMIT_AS. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "alloc") == 0) {
		size_t mib = strtoul(argv[2], NULL, 10);
		volatile char *p = malloc(mib << 20);

		if (!p)
			return 42;
		for (size_t i = 0; i < (mib << 20); i += 4096)
			p[i] = (char)i;
		return 0;
	}
	fprintf(stderr, "usage: hog alloc MIB\n");
	return 2;
}
