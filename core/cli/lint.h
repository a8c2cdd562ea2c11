/* lint.h - does a trivial sample pass a task? (npukb lint)
 *
 * A task whose every case accepts all-zero outputs, a copy of an input, or
 * one constant cannot tell a kernel that computes from one that does not.
 * Lint plays those three samples against the task's own reference and
 * tolerance rule. */
#ifndef NPUKB_LINT_H
#define NPUKB_LINT_H

#include <stddef.h>
#include <npukb/task.h>

enum npukb_trivial {
	NPUKB_TRIVIAL_ZEROS = 0,
	NPUKB_TRIVIAL_COPY,
	NPUKB_TRIVIAL_CONSTANT,
	NPUKB_TRIVIAL_COUNT_
};

struct npukb_lint_result {
	/* 1: that trivial sample passed every case checked */
	int passes[NPUKB_TRIVIAL_COUNT_];
	/* 1: the manifest allows it (<lint allow=...>) */
	int allowed[NPUKB_TRIVIAL_COUNT_];
	char copy_of[64];       /* the input a copy passed with */
	size_t cases_checked;
	size_t cases_skipped;   /* larger than the size limit */
};

const char *npukb_trivial_name(enum npukb_trivial k);

/* Cases with more than max_elements elements in all (inputs and outputs)
 * are not checked. workdir must exist and be empty; lint leaves it empty. */
int npukb_lint_task(const struct npukb_task *t, const char *workdir, size_t max_elements,
		    struct npukb_lint_result *out, char *err, size_t errlen);

/* 1 when the task is flagged: some trivial sample passes and is not allowed. */
int npukb_lint_flagged(const struct npukb_lint_result *r);

#endif
