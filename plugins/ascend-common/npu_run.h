/* npu_run.h - start a generated program on the NPU and read what it
 * reports (shared by ascend-device's launch program and ascend-hostdev's
 * aclnn program, which take the same timing options and write the same
 * stats file). */
#ifndef NPUKB_NPU_RUN_H
#define NPUKB_NPU_RUN_H

#include <npukb/plugin.h>

#include "npu_device.h"

/* In the run's work directory. */
#define NPUKB_NPU_STATS_NAME "timing.stats"
#define NPUKB_NPU_RUN_OUT "run.out"
#define NPUKB_NPU_RUN_ERR "run.err"

struct npukb_ascend_stats {
	double median_us;
	double min_us;
	double max_us;
	unsigned runs;
	unsigned warmup;
};

/* Parses the stats file ("key value" lines: median_us, min_us, max_us,
 * runs, warmup). Returns 0, or a negative errno value (-EINVAL: a key is
 * missing or runs is 0). */
int npukb_ascend_read_stats(const char *path, struct npukb_ascend_stats *out);

/* Runs argv (argv[0] the program, absolute) in work with envp under the
 * NPU run limits (npukb_npu_run_limits), and fills res: ok with the timing
 * of the stats file when want_timing, else the failure with the program's
 * last stderr line (the ACL call and aclGetRecentErrMsg()). Health: a
 * device h marks wedged is checked first (the run is skipped while it
 * fails); any failure but a refused command line (exit 2) is followed by a
 * check. what names the program in messages; reads (NULL-terminated)
 * is what the program sees read-only besides work: the toolkit, its
 * build, the device node. Returns 0 or a negative errno (res->message
 * says why). */
int npukb_npu_run(const char *what, char *const *argv, char *const *envp, const char *work,
		  const char *const *reads,
		  const struct npukb_limits *limits, int want_timing, struct npukb_npu_health *h,
		  struct npukb_run_result *res);

/* The file's text (at most max bytes, then a note), or NULL. */
char *npukb_npu_read_text(const char *path, size_t max);

#endif
