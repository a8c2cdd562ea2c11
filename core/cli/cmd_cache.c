/* cmd_cache.c - `npukb cache [clean]`. */
#include "cmd_cache.h"
#include "cache_dir.h"
#include "cache_store.h"

#include <dirent.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char cache_usage[] =
	"Usage: npukb cache [clean]\n"
	"Show the cache's folder, files and size per kind, or empty it (clean).\n"
	"Each entry is keyed by everything it depends on:\n"
	"  units           a (task, sample)'s verdict records, for backends whose\n"
	"                  results are reproducible (cpusim): a run with nothing\n"
	"                  changed replays them instead of judging\n"
	"  data            a case's inputs and expected outputs for one seed\n"
	"  cpusim-harness  cpusim's harness object per compiler and emulation\n"
	"An entry of another npukb version or build is never used, nor one that\n"
	"fails its checks (it is removed). `npukb run --no-cache` neither reads\n"
	"nor writes it. Past $NPUKB_CACHE_MAX bytes (K, M, G suffixes; default\n"
	"4G) the least recently used entries are removed after a run.\n"
	"Folder: $NPUKB_CACHE_DIR (\"off\": none), else $XDG_CACHE_HOME/npukb,\n"
	"else $HOME/.cache/npukb.\n";

/* A line per kind (the cache folder's sub-folders), in name order. */
static void show_kinds(const char *dir)
{
	struct dirent **names = NULL;
	int n = scandir(dir, &names, NULL, alphasort);

	for (int i = 0; i < n; i++) {
		char *sub = NULL;
		uint64_t bytes = 0, files = 0;
		if (names[i]->d_name[0] != '.' &&
		    asprintf(&sub, "%s/%s", dir, names[i]->d_name) >= 0 &&
		    npukb_cache_usage(sub, &bytes, &files) == 0 && files > 0)
			printf("  %-16s %llu files, %llu bytes\n", names[i]->d_name,
			       (unsigned long long)files, (unsigned long long)bytes);
		free(sub);
		free(names[i]);
	}
	free(names);
}

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
	printf("%s: %llu files, %llu bytes (cap %llu bytes)\n", dir, (unsigned long long)files,
	       (unsigned long long)bytes, (unsigned long long)npukb_cache_max_bytes());
	show_kinds(dir);
	free(dir);
	return 0;
}
