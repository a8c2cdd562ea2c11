/* ascend_hostdev.c - the ascend-hostdev backend: a host+device sample
 * (op_host + tiling header + op_kernel) built as a CANN custom-operator
 * project, staged privately, and invoked through its generated aclnn API
 * (ASCENDC.md §3).
 *
 * What works today: probe and identity through cann_probe, and the SoC
 * check. The project build (msopgen, cmake --preset=default, the binary and
 * package targets, unpacking the .run into a private ASCEND_CUSTOM_OPP_PATH)
 * is spelled out by npukb_cann_hostdev_build_plan() and
 * npukb_cann_hostdev_stage_cmd() and tested without hardware; running it
 * needs the operator description (op.json) generated from the manifest,
 * which comes with a later issue. Until then build and run report skipped,
 * with the probe's reason when CANN is missing - never a silent pass. */
#include <npukb/plugin.h>

/* Relative, so the plugin builds without an extra -I. */
#include "../ascend-common/cann_probe.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_SOC "ascend910b2"

static int hostdev_probe(char *reason, size_t len)
{
	struct npukb_cann_info info;
	int rc = npukb_cann_probe(&info, reason, len);

	if (rc < 0) {
		snprintf(reason, len, "CANN probe failed: %s", strerror(-rc));
		return 1;
	}
	return rc;
}

static int hostdev_identity(char *buf, size_t len)
{
	struct npukb_cann_info info;
	char reason[256];

	(void)npukb_cann_probe(&info, reason, sizeof reason);
	npukb_cann_identity(&info, buf, len);
	return 0;
}

/* The reason build and run give: the probe's, a bad SoC, or what is not
 * written yet (malloc'd). */
static char *skip_reason(const struct npukb_options *opt, const struct npukb_sample *sample,
			 const char *not_yet)
{
	struct npukb_cann_info info;
	struct npukb_cann_soc soc;
	char reason[1024];
	int rc = npukb_cann_probe(&info, reason, sizeof reason);

	if (rc < 0)
		snprintf(reason, sizeof reason, "CANN probe failed: %s", strerror(-rc));
	else if (rc == NPUKB_CANN_NOT_FOUND)
		; /* the probe's reason as it is */
	else if (sample && sample->mode != NPUKB_MODE_HOST_DEVICE)
		snprintf(reason, sizeof reason, "ascend-hostdev builds host+device samples; "
			 "kernel-only samples go to ascend-device");
	else if (npukb_cann_soc_lookup(opt && opt->soc ? opt->soc : DEFAULT_SOC, &soc, reason,
				       sizeof reason) < 0)
		; /* the unknown-SoC message */
	else if (rc == NPUKB_CANN_NO_DEVICE && !not_yet)
		; /* run: no device */
	else
		snprintf(reason, sizeof reason, "not implemented yet: %s", not_yet ? not_yet :
			 "the aclnn invocation of a staged operator comes in a later issue");
	return strdup(reason);
}

static int hostdev_build(const struct npukb_build_request *req, struct npukb_build_result *res)
{
	memset(res, 0, sizeof *res);
	if (!req)
		return -EINVAL;
	res->skipped = 1;
	res->message = skip_reason(req->options, req->sample,
				   "the custom operator project build (msopgen, cmake "
				   "--preset=default, staged via ASCEND_CUSTOM_OPP_PATH) "
				   "comes in a later issue");
	return res->message ? 0 : -ENOMEM;
}

static int hostdev_run(const struct npukb_run_request *req, struct npukb_run_result *res)
{
	memset(res, 0, sizeof *res);
	if (!req)
		return -EINVAL;
	res->skipped = 1;
	res->message = skip_reason(req->options, req->sample, NULL);
	return res->message ? 0 : -ENOMEM;
}

static const struct npukb_backend_ops hostdev_ops = {
	.probe = hostdev_probe,
	.identity = hostdev_identity,
	.build = hostdev_build,
	.run = hostdev_run,
	.cleanup = NULL,
};

NPUKB_PLUGIN_EXPORT const struct npukb_plugin npukb_ascend_hostdev_plugin = {
	.abi = NPUKB_PLUGIN_ABI,
	.kind = NPUKB_PLUGIN_BACKEND,
	.name = "ascend-hostdev",
	.version = "0.1",
	.description = "real CANN toolchain: custom operator project, staged, called through aclnn",
	.init = NULL,
	.fini = NULL,
	.backend = &hostdev_ops,
	.stage = NULL,
};
