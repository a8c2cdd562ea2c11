/* npukb.c - the command line: run, list, plugins, validate.
 *
 * Exit codes (also in --help and README):
 *   0  done; in `run`, every judged (sample, case) passed or was skipped
 *   1  `run` finished and at least one (sample, case) failed;
 *      `validate` found an invalid manifest; `plugins` rejected one
 *   2  usage error (unknown command or option, bad value)
 *   3  bad input: invalid manifests, missing sample folder, no task selected
 *   4  npukb could not work: plugins missing, out of memory, I/O error */
#include "config.h"
#include "data_path.h"

#include "catalog.h"
#include "cmd_lint.h"
#include "cmd_cache.h"
#include "cmd_import.h"
#include "cmd_task.h"
#include "cache_dir.h"
#include "cmd_question.h"
#include "cmd_leaderboard.h"
#include "cmd_merge.h"
#include "cmd_report.h"
#include "manifest.h"
#include "plugin_loader.h"
#include "ref_plugin.h"
#include "run.h"
#include "task_check.h"

#include <npukb/util.h>
#include <npukb/sandbox.h>

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef NPUKB_PKGDATADIR
#define NPUKB_PKGDATADIR "/usr/local/share/npukb"
#endif

/* A day: longer than any build or kernel run has a reason to take. */
#define MAX_TIMEOUT 86400.0

enum { EXIT_OK = 0, EXIT_FAILED = 1, EXIT_USAGE = 2, EXIT_BADINPUT = 3, EXIT_INTERNAL = 4 };

static const char usage_text[] =
	"Usage: npukb COMMAND [OPTIONS]\n"
	"Benchmark NPU kernels: does each compile, is it correct, how fast is it,\n"
	"and when it fails, why.\n"
	"\n"
	"Commands:\n"
	"  run        judge samples against tasks on a backend; write journal and reports\n"
	"  import     model responses (JSONL, markdown, NPUKernelBench runs) to a samples tree\n"
	"  list       list the tasks of the selected levels\n"
	"  plugins    list the plugins found, loaded and rejected (with the reason)\n"
	"  validate   check task manifests against the schema (all, or the FILEs given)\n"
	"  lint       flag tasks that an all-zero, copied or constant output would pass\n"
	"  question   print a task's question, kernel-only or host+device\n"
	"  report     pass@k, fast_p, speedups, categories from run journals (+ JSON)\n"
	"  merge      combine the shards of a run (run --shard I/N) into one run\n"
	"  leaderboard  one static page comparing runs (report figures, links)\n"
	"  cache      the cache's folder and size per kind; `npukb cache clean` empties it\n"
	"  task       `npukb task new NAME`: a folder for a task of your own (manifest,\n"
	"             reference plugin, answer), judged without rebuilding npukb\n"
	"  help       show this text, or `npukb help COMMAND` for a command's options\n"
	"\n"
	"Options of run, import, list, plugins, validate, lint and question:\n"
	"  --levels DIR       task manifests (default: $NPUKB_DATADIR/levels, else\n"
	"                     " NPUKB_PKGDATADIR "/levels)\n"
	"  --plugin-dir DIR   look here for plugins first (then $NPUKB_PLUGIN_PATH,\n"
	"                     a colon-separated list, then the built-in plugin folder)\n"
	"Every command:\n"
	"  -h, --help         show help;  -V, --version  show the version\n"
	"\n"
	"Exit status: 0 all passed (or skipped); 1 some sample failed, a manifest is\n"
	"invalid or a plugin was rejected; 2 usage error; 3 bad input (manifest,\n"
	"sample folder, empty selection); 4 npukb itself could not work.\n";

static const char run_usage[] =
	"Usage: npukb run [OPTIONS]\n"
	"Judge samples on a backend: compile, correctness over seeds, performance,\n"
	"and a category for every failure. The expert answer of each task is judged\n"
	"too (it is the speed baseline) unless --no-answer.\n"
	"\n"
	"Selection:\n"
	"  --level N          only level N (1-3, levels/levelN/); default: level 1\n"
	"  --all-levels       every level found under the levels folder\n"
	"  --task ID          only this task (e.g. level1/Math/AddCustom), or the task\n"
	"                     in folder ID (a task of your own: `npukb task new`); repeatable\n"
	"  --case ID          only the case with this id (in every selected task); repeatable\n"
	"  --cases SUBSET     all (default), or smallest-per-dtype: for each combination\n"
	"                     of tensor dtypes of a task, only its case with the fewest\n"
	"                     tensor bytes (what `make check` runs of Level 1), or\n"
	"                     smallest-one: only the task's case with the fewest tensor\n"
	"                     bytes (one build per task; make check's Level 2)\n"
	"  --sample DIR       judge the sample in DIR against every selected task; repeatable\n"
	"  --samples ROOT     judge every folder ROOT/<task id>/<sample>/, on the tasks\n"
	"                     that have one (`npukb import` writes such a tree)\n"
	"  --no-answer        do not judge the expert answers\n"
	"  --shard I/N        judge only shard I (0 to N-1) of N: the selection's units\n"
	"                     (task, sample), in task then sample order, unit k going\n"
	"                     to shard k mod N; run every shard on the same selection,\n"
	"                     then `npukb merge`. A shard left without units (N above\n"
	"                     the unit count) writes a journal with no verdicts and\n"
	"                     exits 0; an empty selection as a whole is still exit 3\n"
	"  -j, --jobs N       judge N units (task, sample) side by side in worker\n"
	"                     processes (default: the cores hwloc reports; no more\n"
	"                     than the backend serves: one per NPU listed for the\n"
	"                     ascend backends); the verdicts, cycles and reports\n"
	"                     are the same for any N\n"
	"Backend:\n"
	"  --backend NAME     default: cpusim\n"
	"  --soc SOC          target SoC, default: ascend910b2\n"
	"  --backend-opt NAME=VALUE  an option of the backend (repeatable; `npukb\n"
	"                     plugins` lists each backend's options)\n"
	"Judging:\n"
	"  --seeds N          seeds per case (default 5)\n"
	"  --perf-warmup N    untimed launches before timing on hardware (default 5)\n"
	"  --perf-runs N      timed launches per case on hardware; median and spread (default 20)\n"
	"  --seed S           base seed (default 1)\n"
	"  --build-timeout S  wall-clock seconds per build (default 120)\n"
	"  --run-timeout S    wall-clock seconds per kernel run (default 60)\n"
	"  --memory-limit MiB address-space limit per build or run (default 16384)\n"
	"  --unsafe-no-sandbox run samples without namespaces, seccomp or a separate\n"
	"                     user where the machine refuses them (recorded in the\n"
	"                     journal and the report); only for samples you trust\n"
	"Output:\n"
	"  -o, --output DIR   reports go here (default: npukb-reports): journal.jsonl,\n"
	"                     junit.xml, results.xml, summary.txt, report/index.html\n"
	"  --label NAME       name the run (e.g. the model judged; 1-128 bytes): kept in\n"
	"                     the journal, shown by report, leaderboard and results.xml\n"
	"  --resume           continue the run whose journal is in DIR (killed, or\n"
	"                     stopped by an error): judge only the (task, sample)\n"
	"                     units the journal does not hold whole, then write the\n"
	"                     reports of the whole run. The same selection and\n"
	"                     options are expected; a journal of another npukb\n"
	"                     version, backend, SoC, --seeds or --seed is refused\n"
	"                     (exit 3). Without a journal in DIR it starts afresh\n"
	"  --keep-work        keep the per-sample work folders under DIR/work\n"
	"  --work-dir PATH    make the run's work folder (tensor files, builds) in\n"
	"                     PATH (also NPUKB_WORK_DIR); default: in /dev/shm when\n"
	"                     it is a memory file system with 8 GiB free, else\n"
	"                     DIR/work; removed at the end unless --keep-work\n"
	"  --no-cache         neither use nor fill the cache (see npukb cache): judge\n"
	"                     every unit, even one judged before with nothing changed\n"
	"  --strict           fail a case on a defect too: a check's finding that breaks\n"
	"                     a documented contract but leaves the device's output as it\n"
	"                     is (an InitBuffer past the UB never touched, a tensor used\n"
	"                     after FreeTensor, ...; plugins/cpusim/API.md). By default\n"
	"                     the numbers decide and the defects are listed beside the\n"
	"                     verdict (journal, JUnit, HTML report, the clean count)\n"
	"  --dump-tensors     for each failing (case, seed), write the inputs, expected\n"
	"                     and actual tensors as NumPy .npy files under\n"
	"                     DIR/dumps/<task>/<sample>/case-<id>-seed-<s>/\n"
	"  -q, --quiet        no progress: on a terminal a live status line, otherwise\n"
	"                     a line per finished task (NO_COLOR turns colour off)\n";

struct common_opts {
	const char *levels;
	const char *plugin_dir;
};

static int load_plugins(struct npukb_plugin_set *set, const char *cli_dir)
{
	char **dirs = NULL, err[512] = "";
	int rc;
	memset(set, 0, sizeof(*set));
	npukb_ref_plugin_set_dir(cli_dir);
	rc = npukb_plugin_dirs(cli_dir, &dirs, err, sizeof(err));
	if (rc == 0)
		rc = npukb_plugins_load(set, dirs, err, sizeof(err));
	npukb_plugin_dirs_free(dirs);
	if (rc)
		fprintf(stderr, "npukb: %s\n", err);
	return rc;
}

/* Plain decimals only: strtod alone would take "nan", "inf", "0x10",
 * " 5" and "1e9", and a NaN limit compares false with everything, which
 * switched both limits off. */
static int parse_double(const char *s, double min, double max, double *out)
{
	size_t digits = strspn(s, "0123456789");
	char *end;
	double v;
	if (s[digits] == '.')
		digits += 1 + strspn(s + digits + 1, "0123456789");
	if (digits == 0 || s[digits] != '\0' || strspn(s, ".") == digits)
		return -1;
	errno = 0;
	v = npukb_strtod(s, &end);
	if (errno || *end || !(v >= min && v <= max))
		return -1;
	*out = v;
	return 0;
}

static int parse_ulong(const char *s, unsigned long min, unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long v;
	/* digits only: strtoul would take " 5", "+5" and "-1" (as ULONG_MAX) */
	if (!*s || s[strspn(s, "0123456789")] != '\0')
		return -1;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

static int bad_value(const char *opt, const char *val, const char *want)
{
	fprintf(stderr, "npukb: %s: invalid value '%s' (%s)\n", opt, val, want);
	return EXIT_USAGE;
}

/* A run label: 1 to 128 bytes without control characters (it is shown in
 * reports and on one line of the leaderboard). */
static int label_ok(const char *s)
{
	size_t n = strlen(s), i;
	if (n == 0 || n > 128)
		return 0;
	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return 0;
	return 1;
}

/* Samples are untrusted: without the sandbox npukb refuses to judge them
 * unless the user said --unsafe-no-sandbox. Says so once; 1 to go on. */
static int check_sandbox(void)
{
	char why[320];

	if (npukb_sandbox_unsafe()) {
		fputs("npukb: warning: --unsafe-no-sandbox: samples run without namespaces, seccomp "
		      "or a separate user; judge only samples you trust\n", stderr);
		return 1;
	}
	if (npukb_sandbox_probe(why, sizeof why) == 0)
		return 1;
	fprintf(stderr,
		"npukb: the sandbox cannot work on this machine: %s\n"
		"npukb: samples are untrusted code and are not run without it; the sandbox needs\n"
		"npukb: user, PID, mount and network namespaces (see README, Security model).\n"
		"npukb: pass --unsafe-no-sandbox to run them anyway (recorded in the journal and report)\n",
		why);
	return 0;
}

static int cmd_run(int argc, char **argv, struct common_opts *co)
{
	static const struct option longopts[] = {
		{ "level", required_argument, NULL, 'l' },
		{ "all-levels", no_argument, NULL, 'L' },
		{ "task", required_argument, NULL, 't' },
		{ "case", required_argument, NULL, 'C' },
		{ "cases", required_argument, NULL, 'K' },
		{ "sample", required_argument, NULL, 's' },
		{ "samples", required_argument, NULL, 'S' },
		{ "no-answer", no_argument, NULL, 'N' },
		{ "shard", required_argument, NULL, 'H' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "backend", required_argument, NULL, 'b' },
		{ "soc", required_argument, NULL, 'c' },
		{ "backend-opt", required_argument, NULL, 'O' },
		{ "seeds", required_argument, NULL, 'n' },
		{ "seed", required_argument, NULL, 'r' },
		{ "perf-warmup", required_argument, NULL, 'w' },
		{ "perf-runs", required_argument, NULL, 'm' },
		{ "build-timeout", required_argument, NULL, 'B' },
		{ "run-timeout", required_argument, NULL, 'R' },
		{ "memory-limit", required_argument, NULL, 'M' },
		{ "unsafe-no-sandbox", no_argument, NULL, 'U' },
		{ "output", required_argument, NULL, 'o' },
		{ "label", required_argument, NULL, 'a' },
		{ "keep-work", no_argument, NULL, 'k' },
		{ "work-dir", required_argument, NULL, 'W' },
		{ "resume", no_argument, NULL, 'Z' },
		{ "dump-tensors", no_argument, NULL, 'T' },
		{ "strict", no_argument, NULL, 'Y' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "levels", required_argument, NULL, 'D' },
		{ "plugin-dir", required_argument, NULL, 'P' },
		{ "no-cache", no_argument, NULL, 'X' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct npukb_run_config cfg;
	struct npukb_plugin_set plugins;
	struct npukb_results results;
	struct npukb_tally tally;
	const char **tasks = calloc((size_t)argc + 1, sizeof(char *));
	const char **samples = calloc((size_t)argc + 1, sizeof(char *));
	const char **cases = calloc((size_t)argc + 1, sizeof(char *));
	const char **bopts = calloc((size_t)argc + 1, sizeof(char *));
	size_t ntasks = 0, nsamples = 0, ncases = 0, nbopts = 0;
	char *levels = NULL, *schema = NULL, *reports = NULL, *cache = NULL, err[8192] = "";
	struct npukb_progress *progress = NULL;
	int c, rc = EXIT_OK, quiet = 0, no_cache = 0;
	unsigned long ul;
	double d;

	if (!tasks || !samples || !cases || !bopts) {
		free(tasks);
		free(samples);
		free(cases);
		free(bopts);
		return EXIT_INTERNAL;
	}
	memset(&cfg, 0, sizeof(cfg));
	cfg.level = 1;
	cfg.include_answer = 1;
	cfg.backend = "cpusim";
	cfg.output_dir = "npukb-reports";
	cfg.options.soc = "ascend910b2";
	cfg.options.nseeds = 5;
	cfg.options.perf_warmup = 5;
	cfg.options.perf_runs = 20;
	cfg.options.base_seed = 1;
	cfg.options.build_limits.wall_seconds = 120;
	cfg.options.build_limits.cpu_seconds = 120;
	cfg.options.build_limits.memory_bytes = 16384ull << 20;
	cfg.options.build_limits.file_bytes = 1ull << 30;
	cfg.options.build_limits.max_processes = 64;
	cfg.options.run_limits = cfg.options.build_limits;
	cfg.options.run_limits.wall_seconds = 60;
	cfg.options.run_limits.cpu_seconds = 60;
	cfg.options.run_limits.file_bytes = 64ull << 20;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:j:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'l':
			if (parse_ulong(optarg, 1, 3, &ul))
				{ rc = bad_value("--level", optarg, "1, 2 or 3"); goto out_noplugins; }
			cfg.level = (int)ul;
			break;
		case 'L': cfg.level = 0; break;
		case 'U': npukb_sandbox_set_unsafe(1); break;
		case 't': tasks[ntasks++] = optarg; break;
		case 'C': cases[ncases++] = optarg; break;
		case 'K':
			if (npukb_case_subset_parse(optarg, &cfg.case_subset) != 0)
				{ rc = bad_value("--cases", optarg, "all, smallest-per-dtype or smallest-one"); goto out_noplugins; }
			break;
		case 's': samples[nsamples++] = optarg; break;
		case 'S': cfg.samples_root = optarg; break;
		case 'N': cfg.include_answer = 0; break;
		case 'H':
			if (npukb_shard_parse(optarg, &cfg.shard, err, sizeof(err)) != 0) {
				fprintf(stderr, "npukb run: --shard: %s\n", err);
				rc = EXIT_USAGE;
				goto out_noplugins;
			}
			break;
		case 'j':
			if (parse_ulong(optarg, 1, 256, &ul))
				{ rc = bad_value("-j", optarg, "a number of workers from 1 to 256"); goto out_noplugins; }
			cfg.jobs = (unsigned)ul;
			break;
		case 'b': cfg.backend = optarg; break;
		case 'c': cfg.options.soc = optarg; break;
		case 'O':
			if (!strchr(optarg, '=') || optarg[0] == '=')
				{ rc = bad_value("--backend-opt", optarg, "NAME=VALUE"); goto out_noplugins; }
			bopts[nbopts++] = optarg;
			break;
		case 'n':
			if (parse_ulong(optarg, 1, 1000, &ul))
				{ rc = bad_value("--seeds", optarg, "1 to 1000"); goto out_noplugins; }
			cfg.options.nseeds = (unsigned)ul;
			break;
		case 'r':
			if (parse_ulong(optarg, 0, (unsigned long)-1, &ul))
				{ rc = bad_value("--seed", optarg, "a non-negative integer"); goto out_noplugins; }
			cfg.options.base_seed = ul;
			break;
		case 'w':
			/* 0 in the options means "backend default", so at least 1 */
			if (parse_ulong(optarg, 1, 1000, &ul)) {
				rc = bad_value("--perf-warmup", optarg, "1 to 1000");
				goto out_noplugins;
			}
			cfg.options.perf_warmup = (unsigned)ul;
			break;
		case 'm':
			if (parse_ulong(optarg, 1, 100000, &ul)) {
				rc = bad_value("--perf-runs", optarg, "1 to 100000");
				goto out_noplugins;
			}
			cfg.options.perf_runs = (unsigned)ul;
			break;
		case 'B':
			if (parse_double(optarg, 0.1, MAX_TIMEOUT, &d))
				{ rc = bad_value("--build-timeout", optarg, "seconds, 0.1 to 86400"); goto out_noplugins; }
			cfg.options.build_limits.wall_seconds = d;
			cfg.options.build_limits.cpu_seconds = d;
			break;
		case 'R':
			if (parse_double(optarg, 0.1, MAX_TIMEOUT, &d))
				{ rc = bad_value("--run-timeout", optarg, "seconds, 0.1 to 86400"); goto out_noplugins; }
			cfg.options.run_limits.wall_seconds = d;
			cfg.options.run_limits.cpu_seconds = d;
			break;
		case 'M':
			if (parse_ulong(optarg, 64, 1ul << 24, &ul))
				{ rc = bad_value("--memory-limit", optarg, "MiB, at least 64"); goto out_noplugins; }
			cfg.options.build_limits.memory_bytes = (uint64_t)ul << 20;
			cfg.options.run_limits.memory_bytes = (uint64_t)ul << 20;
			break;
		case 'o': cfg.output_dir = optarg; break;
		case 'a':
			if (!label_ok(optarg))
				{ rc = bad_value("--label", optarg, "1 to 128 bytes, no control characters"); goto out_noplugins; }
			cfg.label = optarg;
			break;
		case 'k': cfg.options.keep_workdirs = 1; break;
		case 'W':
			if (!*optarg)
				{ rc = bad_value("--work-dir", optarg, "a folder"); goto out_noplugins; }
			cfg.work_parent = optarg;
			break;
		case 'Z': cfg.resume = 1; break;
		case 'X': no_cache = 1; break;
		case 'T': cfg.options.dump_tensors = 1; break;
		case 'Y': cfg.options.strict = 1; break;
		case 'q': quiet = 1; break;
		case 'D': co->levels = optarg; break;
		case 'P': co->plugin_dir = optarg; break;
		case 'h':
			fputs(run_usage, stdout);
			free(tasks);
			free(samples);
			free(cases);
			free(bopts);
			return EXIT_OK;
		default:
			fputs("Try 'npukb run --help'.\n", stderr);
			free(tasks);
			free(samples);
			free(cases);
			free(bopts);
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "npukb run: unexpected argument '%s'\nTry 'npukb run --help'.\n",
			argv[optind]);
		free(tasks);
		free(samples);
		free(cases);
		free(bopts);
		return EXIT_USAGE;
	}
	/* a named task may be of any level */
	if (ntasks)
		cfg.level = 0;
	levels = co->levels ? strdup(co->levels) : npukb_data_path("levels");
	reports = npukb_data_path("reports");
	schema = npukb_data_path("levels/schema/task.rng");
	if (co->levels && !getenv("NPUKB_DATADIR")) {
		free(schema);
		if (asprintf(&schema, "%s/schema/task.rng", co->levels) < 0)
			schema = NULL;
	}
	if (!no_cache)
		cache = npukb_cache_dir_default();
	cfg.options.cache_dir = cache;
	cfg.options.backend_opts = bopts;
	if (!cfg.work_parent && getenv("NPUKB_WORK_DIR") && *getenv("NPUKB_WORK_DIR"))
		cfg.work_parent = getenv("NPUKB_WORK_DIR");
	if (levels)
		(void)npukb_sandbox_task_data(levels); /* --levels may be elsewhere */
	if (!check_sandbox()) {
		rc = EXIT_INTERNAL;
		goto out_noplugins;
	}
	cfg.levels_dir = levels;
	cfg.schema_path = schema;
	cfg.task_ids = ntasks ? tasks : NULL;
	cfg.case_ids = ncases ? cases : NULL;
	cfg.sample_dirs = samples;
	cfg.reports_dir = reports;
	{
		int colour;
		enum npukb_progress_mode mode = npukb_progress_mode_for(STDOUT_FILENO, quiet, &colour);
		progress = npukb_progress_new(stdout, mode, colour);
		cfg.progress = progress;
	}
	if (!levels || !schema || !reports || load_plugins(&plugins, co->plugin_dir) != 0) {
		rc = EXIT_INTERNAL;
		goto out_noplugins;
	}
	cfg.plugins = &plugins;
	c = npukb_run_execute(&cfg, &results, err, sizeof(err));
	if (c == NPUKB_RUN_EBADINPUT) {
		fprintf(stderr, "npukb run: %s\n", err);
		rc = EXIT_BADINPUT;
	} else if (c != 0) {
		fprintf(stderr, "npukb run: %s\n", err);
		rc = EXIT_INTERNAL;
	} else {
		npukb_results_tally(&results, &tally);
		if (!quiet)
			printf("reports in %s: journal.jsonl junit.xml results.xml summary.txt "
			       "report/index.html\n"
			       "%zu passed, %zu failed, %zu skipped\n",
			       cfg.output_dir, tally.passed, tally.failed, tally.skipped);
		rc = tally.failed ? EXIT_FAILED : EXIT_OK;
	}
	npukb_results_free(&results);
	npukb_plugins_unload(&plugins);
out_noplugins:
	npukb_progress_free(progress);
	free(cache);
	free(reports);
	free(levels);
	free(schema);
	free(tasks);
	free(samples);
	free(cases);
	free(bopts);
	return rc;
}

static int open_catalog(struct common_opts *co, int level, struct npukb_catalog *cat,
			const char *const *ids)
{
	char *levels = co->levels ? strdup(co->levels) : npukb_data_path("levels"), *schema;
	char err[1024] = "";
	int rc;
	if (co->levels) {
		if (asprintf(&schema, "%s/schema/task.rng", co->levels) < 0)
			schema = NULL;
	} else {
		schema = npukb_data_path("levels/schema/task.rng");
	}
	if (!levels || !schema) {
		free(levels);
		free(schema);
		return EXIT_INTERNAL;
	}
	rc = npukb_catalog_load(cat, levels, schema, level, ids, err, sizeof(err));
	if (rc)
		fprintf(stderr, "npukb: %s\n", err);
	free(levels);
	free(schema);
	return rc ? EXIT_BADINPUT : EXIT_OK;
}

static int parse_common_only(int argc, char **argv, struct common_opts *co, int *level,
			     const char *usage)
{
	static const struct option longopts[] = {
		{ "level", required_argument, NULL, 'l' },
		{ "levels", required_argument, NULL, 'D' },
		{ "plugin-dir", required_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c;
	unsigned long ul;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'l':
			if (!level || parse_ulong(optarg, 1, 3, &ul))
				return bad_value("--level", optarg, "1, 2 or 3");
			*level = (int)ul;
			break;
		case 'D': co->levels = optarg; break;
		case 'P': co->plugin_dir = optarg; break;
		case 'h': fputs(usage, stdout); return -1;
		default: fprintf(stderr, "%s", usage); return EXIT_USAGE;
		}
	}
	return 0;
}

static int cmd_list(int argc, char **argv, struct common_opts *co)
{
	static const char usage[] =
		"Usage: npukb list [--level N] [--levels DIR]\n"
		"List the tasks (id, number of cases, kernel name) of every level or of level N.\n"
		"Exit status 3 when the selection holds no task.\n";
	struct npukb_catalog cat;
	int level = 0, rc = parse_common_only(argc, argv, co, &level, usage);
	size_t i;
	if (rc)
		return rc < 0 ? EXIT_OK : rc;
	if (optind < argc) {
		fprintf(stderr, "npukb list: unexpected argument '%s'\n", argv[optind]);
		return EXIT_USAGE;
	}
	if ((rc = open_catalog(co, level, &cat, NULL)) != 0)
		return rc;
	for (i = 0; i < cat.ntasks; i++)
		printf("%s\t%zu cases\t%s\n", cat.tasks[i]->id, cat.tasks[i]->ncases,
		       cat.tasks[i]->kernel_name);
	for (i = 0; i < cat.nerrors; i++)
		fprintf(stderr, "npukb list: invalid manifest: %s\n", cat.errors[i].message);
	rc = cat.nerrors ? EXIT_BADINPUT : EXIT_OK;
	/* An empty listing must not read as success: a level suite would
	 * otherwise pass on a level that has no tasks at all. */
	if (cat.ntasks == 0 && cat.nerrors == 0) {
		if (level)
			fprintf(stderr, "npukb list: level %d has no tasks (no levels/level%d/<Category>/<Task>/task.xml)\n",
				level, level);
		else
			fprintf(stderr, "npukb list: no tasks in any level\n");
		rc = EXIT_BADINPUT;
	}
	npukb_catalog_free(&cat);
	return rc;
}

/* One loaded manifest through the checks beyond the schema; prints the
 * verdict. Returns 1 when it is invalid. */
static int check_task(const struct npukb_task *t, const char *path, uint64_t max_elements)
{
	char err[8192] = "", note[1024] = "";
	if (npukb_task_check(t, max_elements, err, sizeof(err), note, sizeof(note)) != 0) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	if (note[0])
		fprintf(stderr, "%s\n", note);
	printf("%s: valid (%s, %zu cases)\n", path, t->id, t->ncases);
	return 0;
}

static int cmd_validate(int argc, char **argv, struct common_opts *co)
{
	static const char usage[] =
		"Usage: npukb validate [--levels DIR] [--max-elements N] [FILE...]\n"
		"Check task manifests against levels/schema/task.rng and npukb's own rules:\n"
		"the reference function exists (in its reference plugin when the task names\n"
		"one and the plugin is built), golden files match their cases, and no\n"
		"case needs a tensor of more than\n"
		"N elements (default 2^31). Without FILEs, every manifest under the levels\n"
		"folder. Errors are printed as FILE:LINE: message; exit status 1 when any\n"
		"manifest is invalid, 3 when a FILE cannot be read.\n";
	static const struct option longopts[] = {
		{ "levels", required_argument, NULL, 'D' },
		{ "plugin-dir", required_argument, NULL, 'P' },
		{ "max-elements", required_argument, NULL, 'E' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	uint64_t max_elements = NPUKB_DEFAULT_MAX_ELEMENTS;
	int c, bad = 0, unreadable = 0, i;
	unsigned long ul;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'D': co->levels = optarg; break;
		case 'P': co->plugin_dir = optarg; break;
		case 'E':
			if (parse_ulong(optarg, 1, ULONG_MAX, &ul))
				return bad_value("--max-elements", optarg, "a positive integer");
			max_elements = ul;
			break;
		case 'h': fputs(usage, stdout); return EXIT_OK;
		default: fprintf(stderr, "%s", usage); return EXIT_USAGE;
		}
	}
	npukb_ref_plugin_set_dir(co->plugin_dir);
	if (optind < argc) {
		char *schema = co->levels ? NULL : npukb_data_path("levels/schema/task.rng");
		if (co->levels && asprintf(&schema, "%s/schema/task.rng", co->levels) < 0)
			schema = NULL;
		if (!schema)
			return EXIT_INTERNAL;
		for (i = optind; i < argc; i++) {
			struct npukb_task *t = NULL;
			char err[8192] = "";
			int rc = npukb_manifest_load(argv[i], schema, &t, err, sizeof(err));
			if (rc == -ENOMEM) {
				fprintf(stderr, "npukb validate: out of memory\n");
				free(schema);
				return EXIT_INTERNAL;
			} else if (rc != 0 && rc != -EINVAL) {
				/* not a manifest at all: bad input, not an invalid one */
				fprintf(stderr, "%s: cannot read: %s\n", argv[i], strerror(-rc));
				unreadable++;
			} else if (rc != 0) {
				fprintf(stderr, "%s\n", err);
				bad++;
			} else {
				bad += check_task(t, argv[i], max_elements);
				npukb_task_free(t);
			}
		}
		free(schema);
	} else {
		struct npukb_catalog cat;
		size_t k;
		int rc;
		if ((rc = open_catalog(co, 0, &cat, NULL)) != 0)
			return rc;
		for (k = 0; k < cat.ntasks; k++)
			bad += check_task(cat.tasks[k], cat.tasks[k]->manifest_path, max_elements);
		for (k = 0; k < cat.nerrors; k++)
			fprintf(stderr, "%s\n", cat.errors[k].message);
		bad += (int)cat.nerrors;
		npukb_catalog_free(&cat);
	}
	return unreadable ? EXIT_BADINPUT : bad ? EXIT_FAILED : EXIT_OK;
}

static int cmd_plugins(int argc, char **argv, struct common_opts *co)
{
	static const char usage[] =
		"Usage: npukb plugins [--plugin-dir DIR]\n"
		"List every plugin file found in the search path: loaded (with kind and\n"
		"version, and for backends whether they are usable here), rejected or\n"
		"shadowed, with the reason. Exit status 1 when a plugin was rejected.\n";
	struct npukb_plugin_set set;
	char **dirs = NULL, err[512];
	int rc = parse_common_only(argc, argv, co, NULL, usage), rejected = 0;
	size_t i;
	if (rc)
		return rc < 0 ? EXIT_OK : rc;
	if (npukb_plugin_dirs(co->plugin_dir, &dirs, err, sizeof(err)) != 0)
		return EXIT_INTERNAL;
	printf("search path:");
	for (i = 0; dirs[i]; i++)
		printf(" %s", dirs[i]);
	printf("\n");
	npukb_plugin_dirs_free(dirs);
	if (load_plugins(&set, co->plugin_dir) != 0)
		return EXIT_INTERNAL;
	for (i = 0; i < set.n; i++) {
		const struct npukb_loaded_plugin *lp = &set.items[i];
		if (lp->status != NPUKB_PLUGIN_LOADED) {
			printf("%-16s %-9s %s\n  %s\n", lp->name, npukb_plugin_status_name(lp->status),
			       lp->path, lp->reason);
			rejected += lp->status == NPUKB_PLUGIN_REJECTED;
			continue;
		}
		if (lp->desc->kind == NPUKB_PLUGIN_BACKEND) {
			struct npukb_backend b;
			npukb_backend_open(&b, lp->desc);
			printf("%-16s loaded    backend %s  %s\n  %s\n", lp->name, lp->desc->version,
			       lp->path, b.usable ? "usable here" : b.reason);
			for (const struct npukb_backend_option *o = lp->desc->backend->options;
			     o && o->name; o++)
				printf("  --backend-opt %s=VALUE  %s\n", o->name, o->help);
		} else if (lp->desc->kind == NPUKB_PLUGIN_REFERENCE) {
			size_t nref = 0;
			while (lp->desc->references[nref].name)
				nref++;
			printf("%-16s loaded    reference %s  %s\n  %zu function%s:", lp->name,
			       lp->desc->version, lp->path, nref, nref == 1 ? "" : "s");
			for (size_t k = 0; k < nref; k++)
				printf(" %s", lp->desc->references[k].name);
			printf("\n");
		} else {
			printf("%-16s loaded    stage %s (%s)  %s\n", lp->name,
			       npukb_stage_name(lp->desc->stage->stage), lp->desc->version, lp->path);
		}
	}
	if (set.n == 0)
		printf("no plugins found\n");
	npukb_plugins_unload(&set);
	return rejected ? EXIT_FAILED : EXIT_OK;
}

/* argv[0] is the command name; getopt starts after it. */
static int dispatch(const char *cmd, int argc, char **argv)
{
	struct common_opts co = { NULL, NULL };
	if (strcmp(cmd, "run") == 0)
		return cmd_run(argc, argv, &co);
	if (strcmp(cmd, "list") == 0)
		return cmd_list(argc, argv, &co);
	if (strcmp(cmd, "validate") == 0)
		return cmd_validate(argc, argv, &co);
	if (strcmp(cmd, "plugins") == 0)
		return cmd_plugins(argc, argv, &co);
	if (strcmp(cmd, "report") == 0)
		return npukb_cmd_report(argc, argv);
	if (strcmp(cmd, "merge") == 0)
		return npukb_cmd_merge(argc, argv);
	if (strcmp(cmd, "question") == 0)
		return npukb_cmd_question(argc, argv);
	if (strcmp(cmd, "lint") == 0)
		return npukb_cmd_lint(argc, argv);
	if (strcmp(cmd, "cache") == 0)
		return npukb_cmd_cache(argc, argv);
	if (strcmp(cmd, "import") == 0)
		return npukb_cmd_import(argc, argv);
	if (strcmp(cmd, "task") == 0) {
		char *templates = npukb_data_path("plugins/skeleton/task");
		int rc = templates ? npukb_cmd_task(argc, argv, templates) : EXIT_INTERNAL;
		free(templates);
		return rc;
	}
	if (strcmp(cmd, "leaderboard") == 0)
		return npukb_cmd_leaderboard(argc, argv);
	fprintf(stderr, "npukb: no such command '%s'\nTry 'npukb --help'.\n", cmd);
	return EXIT_USAGE;
}

int main(int argc, char **argv)
{
	const char *cmd;
	if (argc < 2) {
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	cmd = argv[1];
	if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0 ||
	    (strcmp(cmd, "help") == 0 && argc == 2)) {
		fputs(usage_text, stdout);
		return EXIT_OK;
	}
	if (strcmp(cmd, "-V") == 0 || strcmp(cmd, "--version") == 0) {
		printf("npukb %s (plugin ABI %d)\n", PACKAGE_VERSION, NPUKB_PLUGIN_ABI);
		return EXIT_OK;
	}
	if (strcmp(cmd, "help") == 0) {
		char help_opt[] = "--help";
		char *sub[3];
		sub[0] = argv[2];
		sub[1] = help_opt;
		sub[2] = NULL;
		return dispatch(argv[2], 2, sub);
	}
	return dispatch(cmd, argc - 1, argv + 1);
}
