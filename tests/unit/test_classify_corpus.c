/* test_classify_corpus.c - the classify stage against a labelled corpus of
 * broken AddCustom kernels (tests/corpus/classify/<category>/<name>/, each
 * with a `label` file whose first line is the expected category).
 *
 * Every sample goes through the real pipeline on cpusim (compile,
 * correctness on case 4 with one seed, classify), and the category a report
 * would show is held against the label: the diagnostics are those of this
 * build, never a stored copy. split.txt puts every sample in one of four
 * halves, fixed when the sample was added:
 *   tune     the rules were shaped by it from the start;
 *   heldout  the first held-out half: measured once at 72/82 (87.8%), then,
 *            on 2026-11-26, used to tune the rules (call_facts.c) like
 *            "tune" — it is a tuning half now and held to the same bar;
 *   fresh    written on 2026-11-26 by people who did not read the rules;
 *            measured 102 of 111 (91.9%) while it was held out, then, on
 *            the evening of 2026-11-26, its misses tuned the rules
 *            (line_facts.c, call_facts.c): a tuning half now, held to the
 *            same bar as heldout;
 *   fresh2   the next blind set, written the same way: measured 109 of 120
 *            (90.8%) while held out; on 2026-11-27 six of its compile
 *            misses tuned the rules (call_facts.c: an argument left out,
 *            template parameters inside a struct type, two crossed
 *            conversions; rules.conf: a tensor for a scalar, one colon, a
 *            redefinition): a tuning half now, held to the same bar;
 *   fresh3   the next blind set, written on 2026-11-27 the same way by
 *            people who did not read the rules, added after the rules it
 *            measures were final: the held-out figure.
 * Prints the confusion table (label x predicted) of each half. */
#include <criterion/criterion.h>

#include "fsutil.h"
#include "plugin_loader.h"
#include "results.h"
#include "run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TASK "level1/Math/AddCustom"
#define MIN_SAMPLES 250
#define MIN_HALF 60
#define MIN_TUNE_ACCURACY 0.95
/* The held-out figure of fresh3: 120 samples written blind on 2026-11-27
 * and added after the rules were final measured 114/120 (95.0%, the
 * target); all six misses are compile samples. A change that looks at a
 * fresh3 miss makes it a tuning half, held to MIN_TUNE_ACCURACY, and a new
 * blind set is then written. */
#define MIN_FRESH3_ACCURACY (114.0 / 120.0)
#define MAX_CATS 40

enum half { TUNE, HELDOUT, FRESH, FRESH2, FRESH3, NHALVES };
static const char *const half_names[NHALVES] = { "tune", "heldout", "fresh", "fresh2", "fresh3" };

struct labelled {
	char *dir;
	char *id;
	char label[64];
	enum half half;
};

/* The split's half of <category>/<name>; fails the test when it is not listed. */
static enum half half_of(const char *split, const char *cat, const char *name)
{
	FILE *f = fopen(split, "r");
	char line[512], key[300];
	enum half h = NHALVES;
	size_t k;
	cr_assert_not_null(f, "cannot open %s", split);
	snprintf(key, sizeof(key), "%s/%s ", cat, name);
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, strlen(key)) != 0)
			continue;
		/* the half is the word after the key: "fresh" is not "fresh2" */
		for (k = 0; k < NHALVES; k++) {
			size_t len = strlen(half_names[k]);
			const char *w = line + strlen(key);
			if (strncmp(w, half_names[k], len) == 0 && strchr(" \t\r\n", w[len]))
				h = (enum half)k;
		}
		break;
	}
	fclose(f);
	cr_assert_neq(h, NHALVES, "%s/%s is not in %s: give it a half (see the file's header)", cat,
		      name, split);
	return h;
}

static int read_label(const char *path, char *out, size_t len)
{
	FILE *f = fopen(path, "r");
	char line[256];
	int ok = 0;
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char *p = line, *e;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '#' || *p == '\n' || !*p)
			continue;
		e = p + strcspn(p, " \t\r\n");
		*e = '\0';
		if (strlen(p) < len) {
			memcpy(out, p, strlen(p) + 1);
			ok = 1;
		}
		break;
	}
	fclose(f);
	return ok;
}

/* Every <root>/<category>/<name>/ with a label. */
static size_t collect(const char *root, const char *split, struct labelled **out)
{
	char **cats = NULL, **names = NULL;
	size_t ncats = 0, nnames = 0, i, j, n = 0, cap = 0;
	struct labelled *list = NULL;
	cr_assert_eq(npukb_list_subdirs(root, &cats, &ncats), 0, "cannot list %s", root);
	for (i = 0; i < ncats; i++) {
		char *cdir;
		cr_assert_geq(asprintf(&cdir, "%s/%s", root, cats[i]), 0);
		cr_assert_eq(npukb_list_subdirs(cdir, &names, &nnames), 0);
		for (j = 0; j < nnames; j++) {
			char *lpath;
			if (n == cap) {
				cap = cap ? 2 * cap : 64;
				list = realloc(list, cap * sizeof(*list));
				cr_assert_not_null(list);
			}
			cr_assert_geq(asprintf(&list[n].dir, "%s/%s", cdir, names[j]), 0);
			list[n].id = strdup(names[j]);
			cr_assert_geq(asprintf(&lpath, "%s/label", list[n].dir), 0);
			cr_assert(read_label(lpath, list[n].label, sizeof(list[n].label)),
				  "%s: no label", lpath);
			cr_assert_str_eq(list[n].label, cats[i],
					 "%s: label %s does not match its folder", lpath, list[n].label);
			list[n].half = half_of(split, cats[i], names[j]);
			free(lpath);
			n++;
		}
		npukb_free_names(names, nnames);
		free(cdir);
	}
	npukb_free_names(cats, ncats);
	*out = list;
	return n;
}

static int index_of(const char **names, size_t *n, const char *name)
{
	size_t i;
	for (i = 0; i < *n; i++)
		if (strcmp(names[i], name) == 0)
			return (int)i;
	cr_assert_lt(*n, MAX_CATS);
	names[*n] = name;
	return (int)(*n)++;
}

/* Prints one half's confusion table; returns its accuracy, and its size
 * in *count. */
static double print_half(const struct labelled *list, const char *const *pred, size_t n, enum half h,
			 size_t *count)
{
	const char *labels[MAX_CATS], *preds[MAX_CATS];
	size_t nlabels = 0, npreds = 0, i, j, total = 0, correct = 0;
	unsigned table[MAX_CATS][MAX_CATS];

	memset(table, 0, sizeof(table));
	for (i = 0; i < n; i++) {
		if (list[i].half != h)
			continue;
		table[index_of(labels, &nlabels, list[i].label)][index_of(preds, &npreds, pred[i])]++;
		total++;
		correct += strcmp(pred[i], list[i].label) == 0;
	}
	*count = total;
	if (total == 0) {
		fprintf(stderr, "\n%s: no samples\n", half_names[h]);
		return 0.0;
	}
	fprintf(stderr, "\nclassify corpus, %s half: confusion table (rows: label, columns: predicted)\n%-17s",
		half_names[h], "");
	for (j = 0; j < npreds; j++)
		fprintf(stderr, " %5.5s", preds[j]);
	fputc('\n', stderr);
	for (i = 0; i < nlabels; i++) {
		fprintf(stderr, "%-17s", labels[i]);
		for (j = 0; j < npreds; j++) {
			if (table[i][j])
				fprintf(stderr, " %5u", table[i][j]);
			else
				fprintf(stderr, " %5s", ".");
		}
		fputc('\n', stderr);
	}
	fprintf(stderr, "%s: %zu of %zu classified into their label: %.1f%%\n", half_names[h],
		correct, total, 100.0 * (double)correct / (double)total);
	return (double)correct / (double)total;
}

Test(classify_corpus, accuracy_floor, .timeout = 1800)
{
	static const char *ids[] = { TASK, NULL };
	static const char *cases[] = { "4", NULL };
	const char *src = getenv("NPUKB_SRCDIR");
	char levels[4096], schema[4096], root[4096], split[4200];
	char outdir[] = "/tmp/npukb-corpus-XXXXXX";
	char **dirs, err[8192] = "";
	struct npukb_plugin_set plugins;
	struct npukb_results results;
	struct npukb_run_config cfg;
	struct labelled *list;
	const char **sample_dirs, **pred;
	size_t n, i, count[NHALVES];
	double tune, heldout, fresh, fresh2, fresh3;

	src = src ? src : ".";
	snprintf(levels, sizeof(levels), "%s/levels", src);
	snprintf(schema, sizeof(schema), "%s/levels/schema/task.rng", src);
	snprintf(root, sizeof(root), "%s/tests/corpus/classify", src);
	snprintf(split, sizeof(split), "%s/split.txt", root);
	n = collect(root, split, &list);
	cr_assert_geq(n, MIN_SAMPLES, "the corpus has %zu samples, at least %d wanted", n,
		      MIN_SAMPLES);
	sample_dirs = calloc(n + 1, sizeof(*sample_dirs));
	pred = calloc(n, sizeof(*pred));
	cr_assert(sample_dirs && pred);
	for (i = 0; i < n; i++)
		sample_dirs[i] = list[i].dir;
	cr_assert_not_null(mkdtemp(outdir));
	cr_assert_eq(npukb_plugin_dirs(NULL, &dirs, err, sizeof(err)), 0);
	cr_assert_eq(npukb_plugins_load(&plugins, dirs, err, sizeof(err)), 0);
	npukb_plugin_dirs_free(dirs);

	memset(&cfg, 0, sizeof(cfg));
	cfg.levels_dir = levels;
	cfg.schema_path = schema;
	cfg.task_ids = ids;
	cfg.case_ids = cases;
	cfg.sample_dirs = sample_dirs;
	cfg.include_answer = 0;
	cfg.plugins = &plugins;
	cfg.backend = "cpusim";
	cfg.output_dir = outdir;
	cfg.options.soc = "ascend910b2";
	cfg.options.nseeds = 1;
	cfg.options.base_seed = 1;
	cfg.options.build_limits.wall_seconds = 60;
	cfg.options.build_limits.cpu_seconds = 60;
	cfg.options.build_limits.memory_bytes = 8ull << 30;
	/* case 4 runs in well under a second: 2 s catch the hang fast */
	cfg.options.run_limits.wall_seconds = 2;
	cfg.options.run_limits.cpu_seconds = 4;
	cfg.options.run_limits.memory_bytes = 8ull << 30;
	/* Every finding fails, defects too (an InitBuffer past the UB never
	 * touched, a race of identical values): the corpus measures the
	 * category of each fault, and by default a defect leaves the verdict
	 * to the numbers (plugins/cpusim/API.md, "Checks and their
	 * severities"). */
	cfg.options.strict = 1;
	cr_assert_eq(npukb_run_execute(&cfg, &results, err, sizeof(err)), 0, "run failed: %s", err);
	cr_assert_eq(results.n, n);

	for (i = 0; i < n; i++) {
		const struct npukb_sample_result *s = &results.items[i];
		const struct npukb_verdict *v;
		const char *cat = NULL, *rule = NULL;
		cr_assert_str_eq(s->sample_id, list[i].id);
		cr_assert_eq(s->ncases, 1);
		v = npukb_case_outcome(s, 0, &cat, &rule);
		pred[i] = v->outcome == NPUKB_PASS ? "pass" : v->outcome == NPUKB_SKIPPED ? "skipped"
											 : cat ? cat : "?";
		if (strcmp(pred[i], list[i].label) != 0) {
			const struct npukb_verdict *cls = s->compile.outcome == NPUKB_PASS
								  ? &s->cases[0].classify
								  : &s->compile_classify;
			fprintf(stderr, "MISCLASSIFIED (%s) %s/%s as %s (rule %s): %s\n  matched: %s\n",
				half_names[list[i].half], list[i].label, list[i].id, pred[i],
				rule ? rule : "-", v->message ? v->message : "",
				cls->details ? cls->details : "-");
		}
	}
	tune = print_half(list, pred, n, TUNE, &count[TUNE]);
	heldout = print_half(list, pred, n, HELDOUT, &count[HELDOUT]);
	fresh = print_half(list, pred, n, FRESH, &count[FRESH]);
	fresh2 = print_half(list, pred, n, FRESH2, &count[FRESH2]);
	fresh3 = print_half(list, pred, n, FRESH3, &count[FRESH3]);
	fprintf(stderr,
		"tuning halves %.1f%%, %.1f%%, %.1f%% and %.1f%% (floor %.0f%%), held-out (fresh3) ",
		100.0 * tune, 100.0 * heldout, 100.0 * fresh, 100.0 * fresh2,
		100.0 * MIN_TUNE_ACCURACY);
	if (count[FRESH3])
		fprintf(stderr, "%.1f%% (floor %.1f%%, target 95%%)\n", 100.0 * fresh3,
			100.0 * MIN_FRESH3_ACCURACY);
	else
		fprintf(stderr, "no samples yet\n");

	/* pred[] points into results: both halves are counted before they go */
	npukb_results_free(&results);
	npukb_plugins_unload(&plugins);
	npukb_rm_rf(outdir);
	for (i = 0; i < n; i++) {
		free(list[i].dir);
		free(list[i].id);
	}
	free(list);
	free(sample_dirs);
	free(pred);
	/* the halves the rules were tuned on: each large enough to mean
	 * something, each at the tuning bar */
	for (i = TUNE; i <= FRESH2; i++)
		cr_assert_geq(count[i], MIN_HALF, "the %s half has %zu samples, at least %d wanted",
			      half_names[i], count[i], MIN_HALF);
	cr_assert_geq(tune, MIN_TUNE_ACCURACY, "tuning accuracy %.3f below %.2f", tune,
		      MIN_TUNE_ACCURACY);
	cr_assert_geq(heldout, MIN_TUNE_ACCURACY, "first held-out half (now tuned) %.3f below %.2f",
		      heldout, MIN_TUNE_ACCURACY);
	cr_assert_geq(fresh, MIN_TUNE_ACCURACY, "fresh half (now tuned) %.3f below %.2f", fresh,
		      MIN_TUNE_ACCURACY);
	cr_assert_geq(fresh2, MIN_TUNE_ACCURACY, "fresh2 half (now tuned) %.3f below %.2f", fresh2,
		      MIN_TUNE_ACCURACY);
	/* fresh3 is held out. Its floor is the fraction it measured: a hair
	 * below it, not a rounding accident. */
	cr_assert_geq(count[FRESH3], MIN_HALF, "the fresh3 half has %zu samples, at least %d wanted",
		      count[FRESH3], MIN_HALF);
	cr_assert_geq(fresh3, MIN_FRESH3_ACCURACY - 1e-9, "fresh3 held-out accuracy %.3f below %.3f",
		      fresh3, MIN_FRESH3_ACCURACY);
}
