/* test_ascend_workers.c - one worker per NPU (npu_device.h): the device
 * option and NPUKB_ASCEND_DEVICE as lists of NPUs, the most workers the
 * Ascend backends serve, each worker's own device, and the environment
 * that makes it the only device its programs see. The core's side (the
 * run starts no more workers than max_workers) is tests/cli/
 * test_worker_slots.sh. */
#include <criterion/criterion.h>

#include "cann_probe.h"
#include "cann_options.h"
#include "npu_device.h"

/* The descriptors, to check both backends serve workers this way. */
#include "../../plugins/ascend-device/ascend_device.c"
#include "../../plugins/ascend-hostdev/ascend_hostdev.c"

#include <stdlib.h>
#include <string.h>

static int configure_with(const char *opt, char *err, size_t len)
{
	const char *const opts[] = { opt, NULL };
	struct npukb_options o;

	memset(&o, 0, sizeof o);
	o.backend_opts = opts;
	return npukb_cann_configure(&o, err, len);
}

static void reset(void)
{
	char err[256];

	unsetenv("NPUKB_ASCEND_DEVICE");
	(void)npukb_cann_configure(NULL, NULL, 0);
	cr_assert_eq(npukb_npu_worker_start(0, 1, err, sizeof err), 0, "%s", err);
}

TestSuite(ascend_workers, .init = reset, .fini = reset);

Test(ascend_workers, both_backends_serve_one_worker_per_npu)
{
	const struct npukb_plugin *all[] = { &npukb_ascend_device_plugin,
					     &npukb_ascend_hostdev_plugin };

	for (size_t i = 0; i < 2; i++) {
		cr_assert_eq(all[i]->backend->max_workers, npukb_npu_max_workers, "%s", all[i]->name);
		cr_assert_eq(all[i]->backend->worker_start, npukb_npu_worker_start, "%s",
			     all[i]->name);
	}
}

/* No list: the runtime's default device, and one worker for it. */
Test(ascend_workers, without_a_list_one_worker_on_the_default_device)
{
	char err[256] = "";

	cr_assert_eq(npukb_npu_max_workers(), 1);
	cr_assert_eq(npukb_npu_device_id(), -1);
	cr_assert_neq(npukb_npu_worker_start(1, 2, err, sizeof err), 0);
	cr_assert(strstr(err, "worker 2 of 2") && strstr(err, "only 1 NPU to share"), "%s", err);
}

/* Worker k takes the k-th NPU of the option's list. */
Test(ascend_workers, each_worker_takes_its_own_npu)
{
	static const int want[] = { 4, 0, 7 };
	struct npukb_cann_info info;
	char err[256] = "";

	cr_assert_eq(configure_with("device=4,0,7", err, sizeof err), 0, "%s", err);
	cr_assert_eq(npukb_npu_max_workers(), 3);
	memset(&info, 0, sizeof info);
	info.found = 1;
	snprintf(info.root, sizeof info.root, "/opt/cann");
	for (unsigned w = 0; w < 3; w++) {
		char **envp, want_var[64];
		int seen = 0;

		cr_assert_eq(npukb_npu_worker_start(w, 3, err, sizeof err), 0, "%s", err);
		cr_assert_eq(npukb_npu_device_id(), want[w]);
		envp = npukb_npu_device_envp(&info, NULL, npukb_npu_device_id());
		cr_assert_not_null(envp);
		snprintf(want_var, sizeof want_var, "ASCEND_RT_VISIBLE_DEVICES=%d", want[w]);
		for (char **e = envp; *e; e++) {
			if (strncmp(*e, "ASCEND_RT_VISIBLE_DEVICES=", 26) == 0) {
				cr_assert_str_eq(*e, want_var);
				seen++;
			}
		}
		cr_assert_eq(seen, 1, "worker %u: ASCEND_RT_VISIBLE_DEVICES set %d times", w, seen);
		npukb_cann_strv_free(envp);
	}
	/* a fourth worker has no NPU of its own */
	cr_assert_neq(npukb_npu_worker_start(3, 4, err, sizeof err), 0);
	cr_assert(strstr(err, "only 3 NPUs"), "%s", err);
}

/* The variable is the default; the option wins over it. */
Test(ascend_workers, the_variable_lists_npus_too)
{
	char err[256] = "";

	setenv("NPUKB_ASCEND_DEVICE", "2,3", 1);
	cr_assert_eq(npukb_npu_max_workers(), 2);
	cr_assert_eq(npukb_npu_worker_start(1, 2, err, sizeof err), 0, "%s", err);
	cr_assert_eq(npukb_npu_device_id(), 3);
	cr_assert_eq(configure_with("device=6", err, sizeof err), 0, "%s", err);
	cr_assert_eq(npukb_npu_max_workers(), 1);
	cr_assert_eq(npukb_npu_worker_start(0, 1, err, sizeof err), 0, "%s", err);
	cr_assert_eq(npukb_npu_device_id(), 6);
	/* an unreadable variable counts as unset */
	(void)npukb_cann_configure(NULL, NULL, 0);
	setenv("NPUKB_ASCEND_DEVICE", "2,,3", 1);
	cr_assert_eq(npukb_npu_max_workers(), 1);
	cr_assert_eq(npukb_npu_device_id(), -1);
}

/* A list the run cannot use is refused before any work, saying why. */
Test(ascend_workers, bad_lists_are_refused_with_the_reason)
{
	static const char *const bad[] = { "device=",      "device=1,",  "device=,1",
					    "device=1,,2", "device=1,x", "device=1024",
					    "device=-1",   "device= 1",  "device=0x1" };
	char err[256];

	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		err[0] = 0;
		cr_assert_neq(configure_with(bad[i], err, sizeof err), 0, "%s accepted", bad[i]);
		cr_assert(err[0], "%s: no reason", bad[i]);
	}
	cr_assert_neq(configure_with("device=1,2,1", err, sizeof err), 0);
	cr_assert(strstr(err, "NPU 1 twice"), "%s", err);
	{
		char many[512] = "device=0";
		for (int d = 1; d <= NPUKB_CANN_MAX_DEVICES; d++)
			snprintf(many + strlen(many), sizeof many - strlen(many), ",%d", d);
		cr_assert_neq(configure_with(many, err, sizeof err), 0);
		cr_assert(strstr(err, "more than 64"), "%s", err);
	}
	/* nothing of a refused list is kept */
	cr_assert_eq(npukb_npu_max_workers(), 1);
}
