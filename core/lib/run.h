/* run.h - one run: tasks x samples on one backend, through the stages,
 * into the journal and the reports (private). */
#ifndef NPUKB_RUN_H
#define NPUKB_RUN_H

#include <stddef.h>
#include <stdio.h>
#include <npukb/plugin.h>
#include "plugin_loader.h"
#include "case_select.h"
#include "progress.h"
#include "results.h"
#include "shard.h"

struct npukb_run_config {
	const char *levels_dir;
	const char *schema_path;
	int level;                        /* 0: every level */
	const char *const *task_ids;      /* NULL-terminated; NULL: all tasks */
	const char *const *case_ids;      /* NULL-terminated; NULL: every case */
	enum npukb_case_subset case_subset; /* applied together with case_ids */
	const char *const *sample_dirs;   /* samples judged against every selected task */
	const char *samples_root;         /* <root>/<task id>/<sample>/ folders */
	int include_answer;               /* judge the expert answer too */
	const char *backend;              /* backend plugin name */
	const char *output_dir;
	const char *label;                /* --label: written in the journal header; NULL: none */
	/* Continue the run in output_dir's journal: judge only the units
	 * (task, sample) it does not hold whole; refuse (NPUKB_RUN_EBADINPUT)
	 * a journal of another npukb version, backend, SoC or seeds. */
	int resume;
	struct npukb_options options;
	const struct npukb_plugin_set *plugins;
	const char *reports_dir;          /* templates: <dir>/html/run.xsl ...; NULL: no HTML */
	struct npukb_progress *progress;  /* borrowed; NULL: silent */
	/* --shard I/N: judge only this shard's (task, sample) units (count 0:
	 * all). A selection that is empty as a whole is still an error; an
	 * empty shard of a non-empty one is a run with no verdicts. */
	struct npukb_shard shard;
	/* Worker processes judging units side by side (run_workers.h); 0:
	 * the cores hwloc reports. Verdicts do not depend on it. */
	unsigned jobs;
	/* --work-dir / NPUKB_WORK_DIR: the folder the run's work root is made
	 * in (NULL: a memory file system with room, else the output folder;
	 * workroot.h). */
	const char *work_parent;
};

/* Judges into <output_dir>/journal.jsonl, then renders every report from
 * it (npukb_render_run_reports). Return 0 when the run completed (whatever
 * the verdicts), or a negative errno value when it could not run: err says
 * why. Exit-code mapping is the CLI's business. results receives the
 * aggregate the reports were rendered from (empty when the run failed);
 * it must be freed in either case. */
int npukb_run_execute(const struct npukb_run_config *cfg, struct npukb_results *results,
		      char *err, size_t errlen);

/* Invalid manifests found while selecting tasks are an input error: this
 * code tells the CLI so. */
#define NPUKB_RUN_EBADINPUT (-EINVAL)

#endif
