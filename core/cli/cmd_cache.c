/* cmd_cache.c - `npukb cache [clean]`. */
#include "cmd_cache.h"
#include "cache_dir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char cache_usage[] =
	"Usage: npukb cache [clean]\n"
	"Show the build cache's folder, files and size, or empty it (clean).\n"
	"The cache holds build products keyed by everything they depend on\n"
	"(for cpusim: its harness object per compiler and emulation version);\n"
	"an entry of another npukb version is never used. `npukb run --no-cache`\n"
	"neither reads nor writes it.\n"
	"Folder: $NPUKB_CACHE_DIR (\"off\": none), else $XDG_CACHE_HOME/npukb,\n"
	"else $HOME/.cache/npukb.\n";

int npukb_cmd_cache(int argc, char **argv)
{
	char *dir, err[1024] = "";
	uint64_t bytes = 0, files = 0;
	int rc = 0;

	if (argc > 2 || (argc == 2 && strcmp(argv[1], "clean") != 0)) {
		if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
			fputs(cache_usage, stdout);
			return 0;
		}
		fputs(cache_usage, stderr);
		return 2;
	}
	dir = npukb_cache_dir_default();
	if (!dir) {
		printf("no cache folder (NPUKB_CACHE_DIR=off, or no HOME)\n");
		return 0;
	}
	if (argc == 2) {
		rc = npukb_cache_clean(dir, err, sizeof err);
		if (rc < 0)
			fprintf(stderr, "npukb cache clean: %s\n", err);
		else
			printf("emptied %s\n", dir);
		free(dir);
		return rc < 0 ? 4 : 0;
	}
	if (npukb_cache_usage(dir, &bytes, &files) < 0) {
		perror(dir);
		free(dir);
		return 4;
	}
	printf("%s: %llu files, %llu bytes\n", dir, (unsigned long long)files, (unsigned long long)bytes);
	free(dir);
	return 0;
}
