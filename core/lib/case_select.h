/* case_select.h - which cases of a task a run judges (private). */
#ifndef NPUKB_CASE_SELECT_H
#define NPUKB_CASE_SELECT_H

#include <stddef.h>
#include <npukb/task.h>

enum npukb_case_subset {
	NPUKB_CASES_ALL = 0,
	/* For each combination of tensor dtypes among the task's cases, the
	 * case with the fewest tensor bytes (the first one on a tie): every
	 * dtype of every task is exercised at the least cost. */
	NPUKB_CASES_SMALLEST_PER_DTYPE,
	/* The task's one case with the fewest tensor bytes (the first one on
	 * a tie): one build and one run per task, for suites whose time is
	 * short (make check's Level 2). */
	NPUKB_CASES_SMALLEST_ONE,
};

/* Parse "all" / "smallest-per-dtype" / "smallest-one"; -EINVAL for
 * anything else. */
int npukb_case_subset_parse(const char *name, enum npukb_case_subset *out);

/* 1 when case i of t belongs to the subset. */
int npukb_case_in_subset(const struct npukb_task *t, size_t i, enum npukb_case_subset s);

/* Bytes of all inputs and outputs of case c (0 when a shape or dtype does
 * not resolve). */
size_t npukb_case_tensor_bytes(const struct npukb_task *t, const struct npukb_case *c);

#endif
