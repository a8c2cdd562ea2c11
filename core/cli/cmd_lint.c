/* cmd_lint.c - `npukb lint`: check every manifest, then play an all-zero,
 * a copy-of-input and a constant sample against each task. */
#include "config.h"
#include "data_path.h"

#include "cmd_lint.h"

#include "catalog.h"
#include "fsutil.h"
#include "lint.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef NPUKB_PKGDATADIR
#define NPUKB_PKGDATADIR "/usr/local/share/npukb"
#endif

/* Cases above this many elements (all tensors together) are not played:
 * a trivial sample that passes every smaller case is already suspect. */
#define DEFAULT_MAX_ELEMENTS (64u << 20)

static const char usage[] =
	"Usage: npukb lint [--level N] [--task ID]... [--levels DIR] [--max-elements N]\n"
	"Validate the manifests, then judge three trivial samples against each task's\n"
	"reference and tolerance rule: all-zero outputs, a copy of an input, and one\n"
	"constant. A task is flagged when one of them passes every case checked\n"
	"(cases larger than --max-elements, default 67108864, are not played) and its\n"
	"manifest does not allow it (<lint allow=... why=.../> for operators such as\n"
	"Fill whose correct output is a constant). Exit status 1 when a manifest is\n"
	"invalid or a task is flagged, 2 on usage errors, 3 on unreadable input.\n";

static char *schema_for(const char *levels)
{
	char *p;
	if (asprintf(&p, "%s/schema/task.rng", levels) < 0)
		return NULL;
	return p;
}

int npukb_cmd_lint(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "level", required_argument, NULL, 'l' },
		{ "task", required_argument, NULL, 't' },
		{ "levels", required_argument, NULL, 'D' },
		{ "max-elements", required_argument, NULL, 'm' },
		{ "plugin-dir", required_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char **ids = calloc((size_t)argc + 1, sizeof(*ids));
	char *levels = NULL, *schema = NULL, err[4096] = "", work[] = "/tmp/npukb-lint-XXXXXX";
	size_t nids = 0, max_elements = DEFAULT_MAX_ELEMENTS, i, flagged = 0;
	struct npukb_catalog cat;
	int c, level = 0, rc = 0;
	char *end;

	if (!ids)
		return 4;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'l':
			level = (int)strtol(optarg, &end, 10);
			if (*end || level < 1 || level > 3) {
				fprintf(stderr, "npukb lint: --level: invalid value '%s' (1, 2 or 3)\n", optarg);
				rc = 2;
			}
			break;
		case 't': ids[nids++] = optarg; break;
		case 'D': free(levels); levels = strdup(optarg); break;
		case 'm':
			max_elements = (size_t)strtoull(optarg, &end, 10);
			if (*end || max_elements == 0) {
				fprintf(stderr, "npukb lint: --max-elements: invalid value '%s'\n", optarg);
				rc = 2;
			}
			break;
		case 'P': break; /* accepted like every command; lint loads no plugin */
		case 'h': fputs(usage, stdout); free(ids); free(levels); return 0;
		default: rc = 2; break;
		}
	}
	if (rc == 0 && optind < argc) {
		fprintf(stderr, "npukb lint: unexpected argument '%s'\n", argv[optind]);
		rc = 2;
	}
	if (rc) {
		fputs("Try 'npukb lint --help'.\n", stderr);
		free(ids);
		free(levels);
		return rc;
	}
	if (!levels)
		levels = npukb_data_path("levels");
	schema = levels ? schema_for(levels) : NULL;
	if (!levels || !schema || !mkdtemp(work)) {
		free(ids);
		free(levels);
		free(schema);
		return 4;
	}
	rc = npukb_catalog_load(&cat, levels, schema, level, nids ? ids : NULL, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "npukb lint: %s\n", err);
		rc = 3;
		goto out;
	}
	for (i = 0; i < cat.nerrors; i++)
		fprintf(stderr, "%s\n", cat.errors[i].message);
	for (i = 0; i < cat.ntasks; i++) {
		const struct npukb_task *t = cat.tasks[i];
		struct npukb_lint_result r;
		int k;
		if (npukb_lint_task(t, work, max_elements, &r, err, sizeof(err)) != 0) {
			printf("%s: cannot lint: %s\n", t->id, err);
			flagged++;
			continue;
		}
		if (r.cases_checked == 0) {
			printf("%s: not checked (every case above %zu elements)\n", t->id, max_elements);
			continue;
		}
		if (!npukb_lint_flagged(&r)) {
			printf("%s: ok (%zu cases played%s%s)\n", t->id, r.cases_checked,
			       t->lint_allow ? "; allowed: " : "", t->lint_allow ? t->lint_allow : "");
			continue;
		}
		flagged++;
		printf("%s: FLAGGED:", t->id);
		for (k = 0; k < NPUKB_TRIVIAL_COUNT_; k++)
			if (r.passes[k] && !r.allowed[k]) {
				if (k == NPUKB_TRIVIAL_COPY)
					printf(" a copy of %s", r.copy_of);
				else
					printf(" %s", k == NPUKB_TRIVIAL_ZEROS ? "all-zero outputs" : "a constant");
			}
		printf(" passes every case played (%zu", r.cases_checked);
		if (r.cases_skipped)
			printf(", %zu larger not played", r.cases_skipped);
		printf(")\n");
	}
	printf("lint: %zu tasks, %zu flagged, %zu invalid manifests\n", cat.ntasks, flagged,
	       cat.nerrors);
	rc = flagged || cat.nerrors ? 1 : 0;
	npukb_catalog_free(&cat);
out:
	npukb_rm_rf(work);
	free(ids);
	free(levels);
	free(schema);
	return rc;
}
