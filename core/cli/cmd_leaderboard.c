/* cmd_leaderboard.c - one static page comparing several runs. The journals
 * are read together, as `npukb report` reads them, so that each run is
 * measured against the same task universe and the page shows the figures
 * `npukb report --json` gives for the same arguments. */
#include "config.h"
#include "data_path.h"
#include "cmd_leaderboard.h"

#include "fsutil.h"
#include "journal_read.h"
#include "leaderboard_xml.h"
#include "metrics.h"
#include "report_html.h"

#include <npukb/util.h>

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define EXIT_OK 0
#define EXIT_USAGE 2
#define EXIT_BADINPUT 3
#define EXIT_INTERNAL 4

static const char usage[] =
	"Usage: npukb leaderboard JOURNAL_OR_RUN_DIR... -o DIR\n"
	"One static page (DIR/index.html, with DIR/leaderboard.xml, its data)\n"
	"comparing runs: per level and overall compile@k, correct@k, fast_p and\n"
	"the geometric-mean speedup, as `npukb report` computes them, with the\n"
	"tasks and samples each run has and its suspect speedups beside every\n"
	"score. A run folder (what `npukb run -o` wrote) stands for its\n"
	"journal.jsonl; when it holds report/index.html, the run's figures link\n"
	"to it. Columns sort by a click; the page needs no network.\n"
	"\n"
	"  -o, --output DIR  write the page here (created if needed)\n"
	"  -h, --help        this text\n";

static int cmp_cstr(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static const char **task_universe(const struct npukb_jset *set, size_t *n)
{
	size_t total = 0, i, j, k = 0;
	const char **all;
	for (i = 0; i < set->nruns; i++)
		total += set->runs[i].n;
	all = calloc(total + 1, sizeof(*all));
	if (!all)
		return NULL;
	for (i = 0; i < set->nruns; i++)
		for (j = 0; j < set->runs[i].n; j++)
			all[k++] = set->runs[i].v[j].task;
	qsort(all, k, sizeof(*all), cmp_cstr);
	*n = 0;
	for (i = 0; i < k; i++)
		if (*n == 0 || strcmp(all[*n - 1], all[i]) != 0)
			all[(*n)++] = all[i];
	return all;
}

/* to, relative to the folder from (both absolute, canonical). */
static char *relative_href(const char *from, const char *to)
{
	size_t common = 0, i, up = 0, len;
	char *out;
	/* longest common prefix ending on a folder boundary */
	for (i = 0; from[i] && to[i] && from[i] == to[i]; i++)
		if (from[i] == '/')
			common = i + 1;
	if (!from[i] && to[i] == '/')
		common = i + 1;
	for (i = common; from[i]; i++)
		if (from[i] == '/' && from[i + 1])
			up++;
	if (from[common])
		up++;
	len = up * 3 + strlen(to + common) + 1;
	out = malloc(len);
	if (!out)
		return NULL;
	out[0] = '\0';
	for (i = 0; i < up; i++)
		strcat(out, "../");
	strcat(out, to + common);
	return out;
}

/* The run report beside a journal: <journal's folder>/report/index.html. */
static char *report_of(const char *journal, const char *absout)
{
	char *dir, *slash, *cand = NULL, real[PATH_MAX], *href = NULL;
	struct stat st;
	dir = strdup(journal);
	if (!dir)
		return NULL;
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	if (asprintf(&cand, "%s/report/index.html", slash ? dir : ".") < 0)
		cand = NULL;
	if (cand && stat(cand, &st) == 0 && S_ISREG(st.st_mode) && realpath(cand, real))
		href = relative_href(absout, real);
	free(cand);
	free(dir);
	return href;
}

int npukb_cmd_leaderboard(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *outdir = NULL;
	const char **universe = NULL;
	struct npukb_jset set;
	struct npukb_run_metrics *runs = NULL;
	struct npukb_lb_entry *entries = NULL;
	char **hrefs = NULL;
	char *xml = NULL, *reports = NULL, absout[PATH_MAX];
	size_t nuniverse = 0, i;
	char err[2048];
	int c, rc = EXIT_OK;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'o': outdir = optarg; break;
		case 'h': fputs(usage, stdout); return EXIT_OK;
		default: fputs("Try 'npukb leaderboard --help'.\n", stderr); return EXIT_USAGE;
		}
	}
	if (optind >= argc || !outdir) {
		fprintf(stderr, "npukb leaderboard: %s\nTry 'npukb leaderboard --help'.\n",
			!outdir ? "no output folder given (-o DIR)" : "no journal or run folder given");
		return EXIT_USAGE;
	}

	memset(&set, 0, sizeof(set));
	for (i = (size_t)optind; i < (size_t)argc; i++) {
		struct stat st;
		char *path = NULL;
		int r;
		if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			if (asprintf(&path, "%s/journal.jsonl", argv[i]) < 0)
				path = NULL;
		} else {
			path = strdup(argv[i]);
		}
		if (!path) {
			fputs("npukb leaderboard: out of memory\n", stderr);
			rc = EXIT_INTERNAL;
			goto out;
		}
		r = npukb_journal_read(&set, path, err, sizeof(err));
		free(path);
		if (r != 0) {
			fprintf(stderr, "npukb leaderboard: %s\n", err);
			rc = r == -ENOMEM ? EXIT_INTERNAL : EXIT_BADINPUT;
			goto out;
		}
	}
	if (npukb_jset_warn_incomplete(&set) != 0) {
		fputs("npukb leaderboard: out of memory\n", stderr);
		rc = EXIT_INTERNAL;
		goto out;
	}
	for (i = 0; i < set.nwarnings; i++)
		fprintf(stderr, "npukb leaderboard: warning: %s\n", set.warnings[i]);
	if (set.nruns == 0) {
		fputs("npukb leaderboard: no run record in what was given\n", stderr);
		rc = EXIT_BADINPUT;
		goto out;
	}
	if (npukb_mkdir_p(outdir, 0755) != 0 || !realpath(outdir, absout)) {
		fprintf(stderr, "npukb leaderboard: %s: cannot create: %s\n", outdir,
			strerror(errno));
		rc = EXIT_INTERNAL;
		goto out;
	}
	universe = task_universe(&set, &nuniverse);
	runs = calloc(set.nruns, sizeof(*runs));
	entries = calloc(set.nruns, sizeof(*entries));
	hrefs = calloc(set.nruns, sizeof(*hrefs));
	reports = npukb_data_path("reports");
	if (!universe || !runs || !entries || !hrefs || !reports ||
	    asprintf(&xml, "%s/leaderboard.xml", outdir) < 0) {
		xml = NULL;
		fputs("npukb leaderboard: out of memory\n", stderr);
		rc = EXIT_INTERNAL;
		goto out;
	}
	for (i = 0; i < set.nruns; i++) {
		if (npukb_metrics_compute(&set.runs[i], universe, nuniverse, &runs[i], err,
					  sizeof(err)) != 0) {
			fprintf(stderr, "npukb leaderboard: %s\n", err);
			rc = EXIT_INTERNAL;
			goto out;
		}
		npukb_metrics_cover_levels(&runs[i], NULL);
		entries[i].incomplete = !npukb_jrun_complete(&set.runs[i]);
		if (set.runs[i].nsources)
			hrefs[i] = report_of(set.runs[i].sources[0], absout);
		entries[i].metrics = &runs[i];
		entries[i].report_href = hrefs[i];
	}
	if (npukb_leaderboard_xml_write(entries, set.nruns, nuniverse, xml, err, sizeof(err)) ||
	    npukb_report_html_render_page(xml, reports, "leaderboard.xsl", outdir, err,
					  sizeof(err))) {
		fprintf(stderr, "npukb leaderboard: %s\n", err);
		rc = EXIT_INTERNAL;
		goto out;
	}
	printf("leaderboard of %zu run%s in %s: index.html leaderboard.xml\n", set.nruns,
	       set.nruns == 1 ? "" : "s", outdir);
out:
	for (i = 0; runs && i < set.nruns; i++)
		npukb_run_metrics_free(&runs[i]);
	for (i = 0; hrefs && i < set.nruns; i++)
		free(hrefs[i]);
	free(hrefs);
	free(entries);
	free(runs);
	free(universe);
	free(reports);
	free(xml);
	npukb_jset_free(&set);
	return rc;
}
