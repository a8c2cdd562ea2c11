/* npukb/verdict.h - the typed outcome of one stage for one (sample, case).
 *
 * One vocabulary everywhere (journal, JUnit, HTML): an outcome, and for
 * failures a category name from DESIGN.md ("mismatch", "timeout",
 * "api-signature", ...). Strings are owned by the verdict. */
#ifndef NPUKB_VERDICT_H
#define NPUKB_VERDICT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum npukb_stage_id {
	NPUKB_STAGE_COMPILE = 1,
	NPUKB_STAGE_CORRECTNESS,
	NPUKB_STAGE_PERFORMANCE,
	NPUKB_STAGE_CLASSIFY
};

enum npukb_outcome {
	NPUKB_PASS = 1,
	NPUKB_FAIL,
	NPUKB_SKIPPED
};

struct npukb_verdict {
	enum npukb_stage_id stage;
	enum npukb_outcome outcome;
	/* Failure category, or NULL for pass/skipped. Compile stages may set a
	 * provisional category that the classify stage refines. */
	char *category;
	char *message;  /* one line: what happened (skip reason for skipped) */
	char *details;  /* diagnostics: compiler output, first mismatches ... */
	char *rule;     /* classify: the rule that chose the category */
	/* Suspicion flags beside the outcome, comma-separated
	 * ("suspect-constant-output"), or NULL. */
	char *flags;
	/* Defects beside the outcome (correctness): contracts the kernel broke
	 * that would not change the device's output, one "category: message"
	 * a line, or NULL. They leave the outcome to the numbers unless the
	 * run is --strict (npukb_verdict_strict). */
	char *defects;

	/* Correctness figures; valid when has_error_stats. */
	int has_error_stats;
	double max_abs_err, max_rel_err;
	long long bad_count;
	long long first_bad_index;
	double expected_at_first, actual_at_first;

	/* Performance figures; valid when has_timing. */
	int has_timing;
	double cycles;
	double time_us;

	/* Correctness, when the backend's cycles are a cost model's: the cost
	 * of the first seed's launch, which the performance stage reports
	 * instead of launching again. Held in memory for that stage only: the
	 * journal records it as the performance verdict. */
	int has_checked_cost;
	double checked_cycles, checked_time_us;

	double wall_seconds; /* time the stage took on this host */
};

void npukb_verdict_init(struct npukb_verdict *v, enum npukb_stage_id stage);
void npukb_verdict_clear(struct npukb_verdict *v);
/* Set outcome FAIL with a category and printf-style message. */
void npukb_verdict_fail(struct npukb_verdict *v, const char *category,
			const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void npukb_verdict_skip(struct npukb_verdict *v, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void npukb_verdict_pass(struct npukb_verdict *v);
/* Replace details with a copy of text (NULL clears). */
void npukb_verdict_set_details(struct npukb_verdict *v, const char *text);
/* Replace details with at most max bytes of what a sample printed: the
 * tail (a harness or sanitizer report comes last), starting at a line,
 * after a note of how much was left out. What a sample prints is its own
 * text, so reports keep only this excerpt, and only of failures. */
void npukb_verdict_set_excerpt(struct npukb_verdict *v, const char *text, size_t max);
#define NPUKB_EXCERPT_MAX 4096u
void npukb_verdict_set_category(struct npukb_verdict *v, const char *category);
void npukb_verdict_set_rule(struct npukb_verdict *v, const char *rule);
/* Add flag to the comma-separated flags unless already there. */
void npukb_verdict_add_flag(struct npukb_verdict *v, const char *flag);
/* 1 when flags holds flag. */
int npukb_verdict_has_flag(const struct npukb_verdict *v, const char *flag);
/* Add each line of lines ("category: message") not already listed. */
void npukb_verdict_add_defects(struct npukb_verdict *v, const char *lines);
/* --strict: a passing verdict with defects fails on the first one, its
 * category the verdict's. Returns 1 when it changed the verdict. */
int npukb_verdict_strict(struct npukb_verdict *v);
int npukb_verdict_copy(struct npukb_verdict *dst, const struct npukb_verdict *src);

const char *npukb_stage_name(enum npukb_stage_id s);     /* "compile", ... */
const char *npukb_outcome_name(enum npukb_outcome o);   /* "pass", "fail", "skipped" */
/* 1 when name is one of DESIGN.md's failure categories. */
int npukb_category_is_known(const char *name);

#ifdef __cplusplus
}
#endif
#endif
