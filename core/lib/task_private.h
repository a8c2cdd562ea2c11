/* task_private.h - what task.c and tiling_expr.c share (private; hidden,
 * nothing here leaves libnpukb). */
#ifndef NPUKB_TASK_PRIVATE_H
#define NPUKB_TASK_PRIVATE_H

#include <npukb/task.h>

#include <stddef.h>

#pragma GCC visibility push(hidden)

/* snprintf into the caller's error buffer (nothing when err is NULL). */
__attribute__((format(printf, 3, 4)))
void set_err(char *err, size_t errlen, const char *fmt, ...);
/* The case's id for messages, "(none)" without one. */
const char *case_id(const struct npukb_case *c);

#pragma GCC visibility pop

#endif
