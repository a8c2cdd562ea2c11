/* host_program.h - the two generated files of the ascend-device backend.
 *
 * The wrapper (NPUKB_ASCEND_WRAPPER_NAME) is compiled by the kernel
 * compiler: it #includes the sample's kernel source and defines
 *   extern "C" void npukb_launch(uint32_t blocks, void *stream, uint8_t *const *args)
 * around the kernel's <<<blocks, nullptr, stream>>> launch, so the launch
 * syntax and kernel qualifiers stay in the one translation unit compiled in
 * the kernel language mode. The launch program is plain host C++ against
 * acl/acl.h alone, compiled by the host compiler. It takes the same command
 * line as the cpusim harness, plus the timing counts:
 *   npukb_host --blocks N --stats FILE [--warmup W --runs R]
 *              in=PATH | out=PATH | tiling=PATH | ws=BYTES ...   (parameter order)
 *   npukb_host --health
 * copies every file argument to the device, launches, and writes outputs
 * back into their files (in place). With --runs R > 0 it first launches W
 * times untimed, then R times each between two recorded events, and writes
 * the stats file read by npukb_ascend_read_stats(). --health checks that
 * device 0 answers and its memory reads back.
 * Exit status: 0 done, 2 bad command line or files, 3 an ACL call failed
 * (stderr names it, with aclGetRecentErrMsg()), 4 the device is unhealthy. */
#ifndef NPUKB_ASCEND_HOST_PROGRAM_H
#define NPUKB_ASCEND_HOST_PROGRAM_H

#include <stddef.h>
#include <npukb/task.h>

/* The stats file it writes: npukb_ascend_read_stats(). */
#include "../ascend-common/npu_run.h"

#define NPUKB_ASCEND_WRAPPER_NAME "npukb_launch.cpp"
#define NPUKB_ASCEND_HOST_EXIT_ACL 3
#define NPUKB_ASCEND_HOST_EXIT_UNHEALTHY 4

/* The launch program's source for kernel `kernel_name` with these
 * parameters, in order. Returns malloc'd text, or NULL with a reason in
 * err (a name that is not a C identifier, no parameters, out of memory). */
char *npukb_ascend_host_source(const char *kernel_name, const struct npukb_param *params,
			       size_t nparams, char *err, size_t errlen);

/* The wrapper's source: includes kernel_file (a plain file name in the
 * same folder) and launches kernel_name. Same conventions. */
char *npukb_ascend_wrapper_source(const char *kernel_name, const char *kernel_file,
				  const struct npukb_param *params, size_t nparams, char *err,
				  size_t errlen);

#endif
