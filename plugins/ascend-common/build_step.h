/* build_step.h - the chores of an Ascend build in its private work
 * directory (shared by ascend-device and ascend-hostdev): run one
 * toolchain command in the sandbox, copy and write files, gather logs. */
#ifndef NPUKB_BUILD_STEP_H
#define NPUKB_BUILD_STEP_H

#include <npukb/sandbox.h>

#include "cann_probe.h"

/* Runs cmd in cmd->workdir (else workdir) with envp under limits (NULL:
 * none), stdout and stderr into log (absolute, or relative to the
 * command's folder), seeing reads (NULL-terminated: the toolkit, the
 * sample) read-only besides its work folder (npukb/sandbox.h). Returns
 * what npukb_sandbox_run returns. */
int npukb_step_run(const struct npukb_cann_cmd *cmd, char *const *envp, const char *workdir,
		   const char *const *reads, const char *log, const struct npukb_limits *limits,
		   struct npukb_sandbox_result *proc, char *err, size_t errlen);

/* 1 when the step exited with 0 and left `output` behind. */
int npukb_step_ok(const struct npukb_sandbox_result *p, const char *output);

int npukb_step_copy_file(const char *from, const char *to);

/* Writes text to path (created or truncated). 0 or a negative errno. */
int npukb_step_write_text(const char *path, const char *text);

/* a, then b (either may be NULL), as one malloc'd text; frees both. */
char *npukb_step_join(char *a, char *b);

#endif
