/* results.h - a run's verdicts aggregated per (task, sample, case), the
 * input of the report writers (JUnit, results.xml, summary).
 *
 * Built from a run's journal by npukb_results_from_jrun, after judging:
 * the journal is the only record a run writes; this is what the renderers
 * read it into. Owns copies of every verdict. One sample_result per
 * (task, sample), in the order of the run's plan; one case_result per
 * selected case of the task. */
#ifndef NPUKB_RESULTS_H
#define NPUKB_RESULTS_H

#include <stddef.h>
#include <time.h>
#include <npukb/verdict.h>

struct npukb_case_result {
	char *case_id;
	char *desc;     /* "float16 48x128x512" (case_desc.h); NULL: unknown */
	struct npukb_verdict correctness;
	struct npukb_verdict performance; /* outcome 0 when not run */
	struct npukb_verdict classify;    /* outcome 0 when nothing failed */
};

struct npukb_sample_result {
	char *task_id;
	char *sample_id;
	int is_answer;
	char *sample_dir; /* where it was judged from; NULL: unknown */
	char *model, *response_sha256; /* its response.json's; NULL: none */
	struct npukb_verdict compile;
	struct npukb_verdict compile_classify; /* outcome 0 unless compile failed */
	size_t ncases;
	struct npukb_case_result *cases;
};

struct npukb_results {
	char *run_id;
	char *backend;
	char *backend_identity;
	char *soc;
	char *hostname;
	time_t started;
	double seconds;
	size_t n, cap;
	struct npukb_sample_result *items;
};

struct npukb_jrun;

/* Fills out (zeroed here; free it with npukb_results_free) from the unit
 * records of run and their verdicts, later records winning. 0, -ENOMEM,
 * or -EINVAL when the journal cannot be rendered (no unit records: an
 * npukb before them wrote it; a verdict for a case its unit does not
 * name); err says why. */
int npukb_results_from_jrun(struct npukb_results *out, const struct npukb_jrun *run,
			    char *err, size_t errlen);

struct npukb_sample_result *npukb_results_add(struct npukb_results *r,
					      const char *task_id,
					      const char *sample_id,
					      size_t ncases);
void npukb_results_free(struct npukb_results *r);

/* The final word on one (sample, case): the verdict that decides it (the
 * failed compile, the correctness verdict, ...) and the category a report
 * shows (the classify stage's when it ran). */
const struct npukb_verdict *npukb_case_outcome(const struct npukb_sample_result *s,
					       size_t i, const char **category,
					       const char **rule);

struct npukb_tally {
	size_t total, passed, failed, skipped;
};
void npukb_results_tally(const struct npukb_results *r, struct npukb_tally *t);

#endif
