/* question.h - the host+device question of a task, derived from its
 * manifest and its kernel-only question (private).
 *
 * Both modes describe the same operator, cases and correctness rule; the
 * host+device question replaces what the framework does for a kernel-only
 * sample (the tiling struct, the block count) with what the sample's own
 * op_host must do. Deriving it keeps the two from drifting apart. */
#ifndef NPUKB_QUESTION_H
#define NPUKB_QUESTION_H

#include <npukb/task.h>

/* kernel_md: the text of question-kernel.md. On success *out is the
 * question (malloc'd, the caller frees) and 0 is returned; otherwise a
 * negative errno value and err says why. */
int npukb_question_hostdev(const struct npukb_task *t, const char *kernel_md, char **out,
			   char *err, size_t errlen);

/* "Neg" -> op type "Neg"; the op type a host+device sample registers is
 * the task's name. */

#endif
