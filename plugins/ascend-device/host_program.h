/* host_program.h - the C++ launch program of the ascend-device backend.
 *
 * The program is generated per task from the kernel's name and parameter
 * list (ASCENDC.md §2: ACL runtime, <<<blocks, nullptr, stream>>> launch,
 * device events for timing). It takes the same command line as the cpusim
 * harness, plus the timing counts:
 *   npukb_host --blocks N --stats FILE [--warmup W --runs R]
 *              in=PATH | out=PATH | tiling=PATH | ws=BYTES ...   (parameter order)
 * copies every file argument to the device, launches, and writes outputs
 * back into their files (in place). With --runs R > 0 it first launches W
 * times untimed, then R times each between two recorded events, and writes
 * the stats file read by npukb_ascend_read_stats().
 * Exit status: 0 done, 2 bad command line or files, 3 an ACL call failed. */
#ifndef NPUKB_ASCEND_HOST_PROGRAM_H
#define NPUKB_ASCEND_HOST_PROGRAM_H

#include <stddef.h>
#include <npukb/task.h>

/* Defined by a compile that checks the generated program with a plain C++
 * compiler (which cannot parse <<<>>>): the launch becomes a plain call. */
#define NPUKB_HOST_SYNTAX_CHECK_MACRO "NPUKB_HOST_SYNTAX_CHECK"

/* The program's source for kernel `kernel_name` with these parameters, in
 * order. Returns malloc'd text, or NULL with a reason in err (a name that
 * is not a C identifier, no parameters, out of memory). */
char *npukb_ascend_host_source(const char *kernel_name, const struct npukb_param *params,
			       size_t nparams, char *err, size_t errlen);

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

#endif
