/* journal_read.h - read run journals (journal.jsonl) back into memory for
 * `npukb report` and the metrics (private).
 *
 * Verdicts are grouped by run id: shards of one run (same id, several
 * files) merge into one run; different runs stay apart. A torn last line,
 * the most a killed run can leave, is skipped with a warning; any other
 * bad line is an error naming file:line. */
#ifndef NPUKB_JOURNAL_READ_H
#define NPUKB_JOURNAL_READ_H

#include <stddef.h>
#include <npukb/verdict.h>

/* One verdict record, reduced to what the metrics need. */
struct npukb_jverdict {
	char *task;
	char *sample;
	char *case_id;  /* NULL for sample-wide verdicts (compile) */
	enum npukb_stage_id stage;
	enum npukb_outcome outcome;
	char *category; /* NULL when none */
	char *rule;     /* NULL when none */
	int has_timing; /* cycles and time_us both present and finite */
	double cycles;
	double time_us;
	char *message;  /* NULL when none */
	char *flags;    /* comma-separated suspicion flags, NULL when none */
	char *defects;  /* "category: message" lines, NULL when none */
	char *details;  /* NULL when none */
	double wall_seconds;
	int has_error_stats; /* the mismatch figures below were recorded */
	double max_abs_err, max_rel_err;
	long long bad_count, first_bad_index;
	double expected_at_first, actual_at_first;
};

/* One unit record: a (task, sample) judged whole. Its verdicts are the
 * nverdicts records of the run just before it (v[first .. first+nverdicts)),
 * which the reader checks are the unit's own. */
struct npukb_jwork {
	char *task;
	char *sample;
	int is_answer;
	size_t index;   /* its place in the run's plan: reports sort by it */
	char *cases;    /* the task's selected case ids, separated by spaces */
	char *case_descs; /* their descriptions, separated by ';'; NULL: none */
	char *sample_dir; /* the sample's folder when judged; NULL: unknown */
	char *model;      /* from the sample's response.json; NULL: none */
	char *response_sha256;
	size_t first, nverdicts;
};

struct npukb_jrun {
	char *run_id;
	/* From the run's header record; NULL when no shard carried one. */
	char *backend;
	char *soc;
	char *toolchain;
	char *started;
	char *host;
	char *sandbox;
	char *npukb;       /* the npukb version that wrote it */
	char *label;       /* `npukb run --label`: NULL when none */
	int has_seeds;     /* seeds and base_seed were in the header */
	unsigned nseeds;
	double base_seed;  /* a JSON number: exact up to 2^53 */
	int level;         /* 0: every level (or not recorded) */
	int strict;        /* `npukb run --strict`: defects failed cases */
	double seconds;    /* from the last end-of-run record; 0 when none */
	char *shard;       /* "I/N" of a --shard run, else NULL */
	int has_shard_units; /* a --shard run: units judged of units_total */
	double shard_units, shard_units_total;
	size_t nunits;
	struct npukb_jwork *units; /* in file order */
	size_t nsources;
	char **sources; /* the files that held this run, in reading order */
	/* Per source: 1 when it holds the run's end-of-run record. A run
	 * is complete when every source has one. */
	unsigned char *ended;
	size_t n, cap;
	struct npukb_jverdict *v; /* in file order: later records win */
};

struct npukb_jset {
	size_t nruns;
	struct npukb_jrun *runs; /* in order of first appearance */
	size_t nwarnings;
	char **warnings;         /* "file:line: ..." */
};

/* Add every record of the journal at path to set (zeroed by the caller
 * before the first call). Returns 0, -EINVAL for an invalid line (err says
 * file:line and why), or another negative errno (unreadable file, no
 * memory). On error set keeps what was read before and must still be
 * freed. */
int npukb_journal_read(struct npukb_jset *set, const char *path, char *err,
		       size_t errlen);
/* 1 when every file of run r ends it with an end-of-run record. */
int npukb_jrun_complete(const struct npukb_jrun *r);
/* Adds a warning for every run of set that is not complete (killed, or
 * still running): its figures cover only what it judged. */
int npukb_jset_warn_incomplete(struct npukb_jset *set);
void npukb_jset_free(struct npukb_jset *set);

#endif
