/* npu_device.h - which NPU a backend's programs use, and whether it is
 * still healthy between samples (shared by ascend-device and
 * ascend-hostdev, compiled into each).
 *
 * One worker per NPU: the device option (or NPUKB_ASCEND_DEVICE) lists
 * the NPUs by physical id ("0,1,2,3"); the run starts at most that many
 * workers (the backend's max_workers, one when no list is given: the
 * runtime's default device), worker k takes the k-th NPU of the list
 * (worker_start), and every program it starts sees that device alone, as
 * logical device 0, through ASCEND_RT_VISIBLE_DEVICES.
 *
 * Health: the backend runs a program with --health (init, set device,
 * query its status, a memory round trip) between samples, before the
 * first run of a program other than the last one run, and after a launch
 * program fails (crash, timeout, an ACL error). A device that fails stays
 * marked, and every later run is re-checked first and skipped with the
 * reason while the check fails, so one sample that wedges the NPU, even
 * one whose own runs passed, does not turn the following samples' verdicts
 * into failures. */
#ifndef NPUKB_NPU_DEVICE_H
#define NPUKB_NPU_DEVICE_H

#include <stddef.h>

#include <npukb/sandbox.h>

#include "cann_probe.h"

/* The backends' max_workers(): how many NPUs the device option (else
 * NPUKB_ASCEND_DEVICE) names, 1 when none (cann_options.h). */
unsigned npukb_npu_max_workers(void);

/* The backends' worker_start(): this process is worker `worker` of
 * nworkers and uses the worker-th NPU of the list from now on. Non-zero,
 * with the reason in err, when there are more workers than NPUs. */
int npukb_npu_worker_start(unsigned worker, unsigned nworkers, char *err, size_t len);

/* This worker's NPU (physical id), or -1 when no list names one (the
 * runtime's default device). */
int npukb_npu_device_id(void);

/* npukb_cann_runtime_env(info, stage) plus, for device >= 0,
 * ASCEND_RT_VISIBLE_DEVICES=<device>; merged over the process environment
 * into a full envp. Same ownership as npukb_cann_merge_env. */
char **npukb_npu_device_envp(const struct npukb_cann_info *info, const char *stage, int device);

/* The run limits for a program on the NPU: the caller's, without the
 * address-space limit. The ACL runtime maps device memory and its own
 * arenas into the process's address space [unconfirmed how much; far more
 * than the host memory it uses], so an RLIMIT_AS sized for host memory
 * makes aclInit or aclrtMalloc fail; time, CPU, file and process limits
 * stay. */
struct npukb_limits npukb_npu_run_limits(const struct npukb_limits *base);

/* Health of the device the backend uses. */
struct npukb_npu_health {
	int wedged;          /* the last check failed */
	char why[512];       /* its account */
	char last[4096];     /* the program of the last run ("": none yet) */
};

/* Runs `program --health` in workdir with envp (60 s wall clock), output in
 * workdir/health.log. Returns 1 healthy, 0 not (h->why says why), or a
 * negative errno when the program could not be started; h->wedged
 * follows the answer. */
int npukb_npu_health_check(struct npukb_npu_health *h, const char *program,
			   char *const *envp, const char *workdir, const char *const *reads);

#endif
