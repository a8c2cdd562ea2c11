/* npukb/plugin.h - the contract between the npukb core and its plugins.
 *
 * A plugin is a shared object named <name>.so that exports exactly one
 * symbol, the const descriptor `npukb_<name>_plugin` (dashes in <name>
 * become underscores). The loader checks the descriptor's ABI number, kind,
 * name and function table before using anything in it, and says why when it
 * rejects a plugin. Bump NPUKB_PLUGIN_ABI whenever any struct reachable from
 * this header changes layout or meaning.
 *
 * Out-of-tree plugins build against the installed headers:
 *   cc -shared -fPIC $(pkg-config --cflags --libs npukb) -o mine.so mine.c
 * Start from plugins/skeleton/skeleton.c (a backend) or
 * plugins/skeleton/skeleton_ref.c (a reference plugin). */
#ifndef NPUKB_PLUGIN_H
#define NPUKB_PLUGIN_H

#include <stddef.h>
#include <stdint.h>
#include <npukb/dtype.h>
#include <npukb/task.h>
#include <npukb/verdict.h>
#include <npukb/sandbox.h>
#include <npukb/case_data.h>
#include <npukb/reference.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NPUKB_PLUGIN_ABI 10

#if defined(__GNUC__)
#define NPUKB_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define NPUKB_PLUGIN_EXPORT
#endif

enum npukb_plugin_kind {
	NPUKB_PLUGIN_STAGE = 1,
	NPUKB_PLUGIN_BACKEND = 2,
	/* Named reference functions for tasks of your own (npukb/reference.h). */
	NPUKB_PLUGIN_REFERENCE = 3
};

/* ---- samples ----------------------------------------------------------- */

enum npukb_sample_mode {
	NPUKB_MODE_KERNEL_ONLY = 1, /* one op_kernel source; tiling from the manifest */
	NPUKB_MODE_HOST_DEVICE      /* op_host + tiling header + op_kernel */
};

struct npukb_sample {
	const char *id;    /* "answer", "s003", ... unique within a task */
	const char *dir;   /* folder holding the sample's files */
	enum npukb_sample_mode mode;
	size_t nfiles;
	const char *const *files; /* paths relative to dir, sorted */
};

/* ---- run-wide options every plugin may read ----------------------------- */

struct npukb_options {
	const char *soc;             /* "ascend910b2" ... */
	struct npukb_limits build_limits;
	struct npukb_limits run_limits;
	unsigned nseeds;             /* seeds per case for correctness */
	uint64_t base_seed;
	int keep_workdirs;
	int verbose;
	/* When set, the correctness stage writes the inputs, expected and
	 * actual tensors of a failing (case, seed) as .npy files under
	 * dump_dir/<task>/<sample>/case-<id>-seed-<s>/ (see npukb/npy.h). */
	int dump_tensors;
	const char *dump_dir;
	/* Hardware timing in the performance stage: launches before the
	 * measured ones, and measured launches (0: the backend's default,
	 * 5 and 20 for ascend-device). */
	unsigned perf_warmup;
	unsigned perf_runs;
	/* A folder the backend may keep content-addressed build products in
	 * across runs (created on demand; NULL: no cache, --no-cache). An
	 * entry's key must cover everything the product depends on, and no
	 * sandboxed process may write there. */
	const char *cache_dir;
	/* --backend-opt NAME=VALUE, in the order given, NULL-terminated (NULL:
	 * none). Every NAME is one of the backend's options (the core refuses
	 * the run otherwise); read them with npukb_backend_opt(). */
	const char *const *backend_opts;
	/* --strict: a case whose run reported defects (run_result.defects)
	 * fails on the first one, its category the verdict's. */
	int strict;
};

/* The value of the backend option name (the last one given wins), or NULL
 * when the run did not set it. */
const char *npukb_backend_opt(const struct npukb_options *o, const char *name);

/* ---- backends ------------------------------------------------------------ */

struct npukb_build_request {
	const struct npukb_task *task;
	const struct npukb_sample *sample;
	const struct npukb_options *options;
	const char *workdir; /* private, empty, created by the core */
};

struct npukb_build_result {
	int ok;             /* 1: artifact is ready to run */
	int skipped;        /* 1: backend cannot build here; message says why */
	char *message;      /* one line (malloc'd, the core frees) */
	char *diagnostics;  /* compiler output (malloc'd, may be NULL) */
	char *artifact;     /* what run() needs, e.g. an executable path (malloc'd) */
	struct npukb_sandbox_result proc; /* the compiler's fate */
};

struct npukb_run_request {
	const struct npukb_task *task;
	const struct npukb_case *kcase;
	const struct npukb_sample *sample;
	const struct npukb_options *options;
	const char *artifact;              /* from build */
	const char *workdir;               /* private to this run */
	const struct npukb_case_data *data; /* kernel arguments as files */
	int want_timing;
};

struct npukb_run_result {
	int ok;             /* 1: the kernel ran to completion */
	int skipped;
	/* A failure category decided by the backend itself (a simulator check
	 * such as "ub-overflow"), or NULL to let the stage decide from proc. */
	char *category;
	char *message;      /* one line (malloc'd) */
	char *diagnostics;  /* stderr and check reports (malloc'd, may be NULL) */
	/* Defects the backend's checks found: contracts broken with no effect
	 * on the device's output (a simulator's "ub-overflow" of an InitBuffer
	 * never touched), one "category: message" a line, whatever ok says
	 * (malloc'd, may be NULL). They leave the verdict to the numbers
	 * unless options.strict. */
	char *defects;
	int has_cycles;
	double cycles;      /* simulated or measured device cycles */
	/* The cycles are a cost model's: the same launch always costs the
	 * same, so a checked launch's count is the sample's time and the
	 * performance stage need not launch again (cpusim). 0: measured. */
	int cycles_modelled;
	double time_us;     /* with repeated launches: the median */
	/* Set when time_us is the median of timed_runs launches. */
	int has_spread;
	double time_min_us;
	double time_max_us;
	unsigned timed_runs;
	struct npukb_sandbox_result proc;
};

void npukb_build_result_clear(struct npukb_build_result *r);
void npukb_run_result_clear(struct npukb_run_result *r);

/* An option a backend takes (--backend-opt NAME=VALUE), the way fio gives
 * each engine its own option table: a backend needs no environment
 * variables and no core change for its own settings. */
struct npukb_backend_option {
	const char *name; /* lower case letters, digits and '-' */
	const char *help; /* one line for `npukb plugins`, with the default */
};

/* identity() says its backend's results are reproducible (see there). */
#define NPUKB_IDENTITY_REPRODUCIBLE 1

struct npukb_backend_ops {
	/* 0 when usable here; otherwise non-zero with a one-line reason
	 * ("CANN toolkit not found: set ASCEND_HOME_PATH"). Required. */
	int (*probe)(char *reason, size_t len);
	/* One line naming the toolchain (compiler and version), for provenance.
	 * Returns 0, or NPUKB_IDENTITY_REPRODUCIBLE when the line names
	 * everything besides the sample, the task and the options that the
	 * backend's results depend on, and those results are the same every
	 * time (a simulator, not a device's clock): the core may then reuse a
	 * unit's verdicts across runs (npukb cache). */
	int (*identity)(char *buf, size_t len);
	/* Return 0 with result filled (including a failed compile), or a
	 * negative errno value when the backend itself broke. Required. */
	int (*build)(const struct npukb_build_request *req,
		     struct npukb_build_result *result);
	/* Same convention as build. Required. */
	int (*run)(const struct npukb_run_request *req,
		   struct npukb_run_result *result);
	/* Release what build() left behind (optional). */
	void (*cleanup)(const char *artifact);
	/* 0 when the backend can target soc (options.soc); otherwise
	 * non-zero with the SoCs it knows, comma-separated, in known, so a
	 * run is refused before any work (optional: NULL takes any SoC). */
	int (*check_soc)(const char *soc, char *known, size_t len);
	/* The options the backend takes, ended by an entry whose name is NULL
	 * (optional: NULL takes none). */
	const struct npukb_backend_option *options;
	/* Called once before probe() in a run, with the run's options, so
	 * that probe(), identity() and check_soc() see the backend's options
	 * too (optional). 0, or non-zero with a one-line reason that refuses
	 * the run (an option's value that cannot work). */
	int (*configure)(const struct npukb_options *options, char *err, size_t len);
	/* How many workers the backend can serve side by side (optional:
	 * NULL or 0 is no limit). A backend whose every worker needs a device
	 * of its own (one worker per NPU) answers how many devices it was
	 * given, and the run starts no more workers than that. Asked after
	 * configure(). */
	unsigned (*max_workers)(void);
	/* Called in each worker process, once, before its first unit; worker
	 * counts from 0 to nworkers - 1 (optional). Lets a backend bind the
	 * worker to its own device. 0, or non-zero with a one-line reason in
	 * err, which stops the run. */
	int (*worker_start)(unsigned worker, unsigned nworkers, char *err, size_t len);
};

/* ---- stages -------------------------------------------------------------- */

struct npukb_backend; /* a loaded backend: see npukb_backend_* below */

struct npukb_stage_ctx {
	const struct npukb_task *task;
	const struct npukb_sample *sample;
	const struct npukb_options *options;
	const struct npukb_backend *backend;
	const struct npukb_case *kcase;  /* NULL for the compile stage */
	const char *workdir;             /* private scratch folder for this stage */
	const char *artifact;            /* set after a successful compile */
	/* Verdicts so far for this sample (compile first, then per case). */
	const struct npukb_verdict *previous;
	size_t nprevious;
	/* classify only: the failed verdict to categorise. */
	const struct npukb_verdict *failure;
	/* compile only: the stage stores the build artifact here (malloc'd). */
	char *artifact_out;
	/* correctness: 0 for the regular seeds. Non-zero asks for one check on
	 * seed number seed_offset (a seed index never used by the regular
	 * pass: the core's re-check, right after case 0's regular seeds). */
	unsigned seed_offset;
	/* performance: the case's correctness verdict (a backend whose cycles
	 * are a model's left its checked launch's cost there). */
	const struct npukb_verdict *case_correctness;
};

struct npukb_stage_ops {
	enum npukb_stage_id stage;
	/* Return 0 with the verdict filled, or a negative errno value when the
	 * stage could not judge (the core then records an internal error). */
	int (*judge)(struct npukb_stage_ctx *ctx, struct npukb_verdict *out);
};

/* Calls a stage makes on the backend it was given. */
const char *npukb_backend_name(const struct npukb_backend *b);
int npukb_backend_build(const struct npukb_backend *b,
			const struct npukb_build_request *req,
			struct npukb_build_result *result);
int npukb_backend_run(const struct npukb_backend *b,
		      const struct npukb_run_request *req,
		      struct npukb_run_result *result);

/* ---- the descriptor ------------------------------------------------------ */

struct npukb_plugin {
	unsigned abi;                 /* NPUKB_PLUGIN_ABI */
	enum npukb_plugin_kind kind;
	const char *name;             /* must match the file name */
	const char *version;
	const char *description;      /* one line for `npukb plugins` */
	/* Both optional. init returns 0, or non-zero with a reason, and the
	 * plugin is then rejected. */
	int (*init)(char *err, size_t errlen);
	void (*fini)(void);
	/* kind == NPUKB_PLUGIN_BACKEND */
	const struct npukb_backend_ops *backend;
	/* kind == NPUKB_PLUGIN_STAGE */
	const struct npukb_stage_ops *stage;
	/* kind == NPUKB_PLUGIN_REFERENCE: the functions, ended by an entry
	 * whose name is NULL (npukb/reference.h). */
	const struct npukb_reference *references;
};

#ifdef __cplusplus
}
#endif
#endif
