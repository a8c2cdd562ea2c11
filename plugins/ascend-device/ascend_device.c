/* ascend_device.c - the ascend-device backend: a kernel-only sample built
 * with the real CANN compiler for one SoC, launched on an NPU.
 *
 * build() generates two files (host_program.h): the launch wrapper, which
 * includes the sample's kernel source and is compiled by the kernel
 * compiler, and the launch program (plain host C++, ACL runtime, device
 * events for timing); then links them, each step in the sandbox with the
 * command lines cann_probe spells out; a machine with CANN but without an
 * NPU can judge compilation. run() starts the launch program with the
 * case's argument files, which it updates in place with the outputs; when
 * timing is wanted it reports the median of the timed launches and their
 * spread. Without CANN every build and run is skipped with the probe's
 * reason, and without a device every run is: never a silent pass. */
#include <npukb/plugin.h>

/* Relative, so the plugin builds without an extra -I. */
#include "../ascend-common/cann_probe.h"
#include "../ascend-common/cann_options.h"
#include "../ascend-common/build_step.h"
#include "../ascend-common/npu_device.h"
#include "../ascend-common/npu_run.h"
#include "host_program.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#define DEFAULT_SOC "ascend910b2"
#define LOG_NAME "compile.log"
#define OBJ_NAME "kernel.o"
#define HOST_SRC_NAME "npukb_host.cpp"
#define HOST_OBJ_NAME "npukb_host.o"
#define HOST_EXE_NAME "npukb_host"
#define HOST_LOG_NAME "host.log"
#define LINK_LOG_NAME "link.log"
#define DEFAULT_WARMUP 5u
#define DEFAULT_RUNS 20u
/* Compiler output kept in the verdict; the rest is cut off. */
#define MAX_DIAGNOSTICS (256 * 1024)

static int device_probe(char *reason, size_t len)
{
	struct npukb_cann_info info;
	int rc = npukb_cann_probe(&info, reason, len);

	if (rc < 0) {
		snprintf(reason, len, "CANN probe failed: %s", strerror(-rc));
		return 1;
	}
	return rc;
}

static int device_identity(char *buf, size_t len)
{
	struct npukb_cann_info info;
	char reason[256];

	(void)npukb_cann_probe(&info, reason, sizeof reason);
	npukb_cann_identity(&info, buf, len);
	return 0;
}

static int has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* The kernel source of a kernel-only sample: its one .cpp/.cc/.asc file
 * (one under op_kernel/ wins if there are several). */
static const char *kernel_source(const struct npukb_sample *s)
{
	const char *pick = NULL;

	for (size_t i = 0; i < s->nfiles; i++) {
		const char *f = s->files[i];

		if (!has_suffix(f, ".cpp") && !has_suffix(f, ".cc") && !has_suffix(f, ".asc"))
			continue;
		if (strncmp(f, "op_kernel/", 10) == 0)
			return f;
		if (!pick)
			pick = f;
	}
	return pick;
}

static char *read_log(const char *path)
{
	return npukb_npu_read_text(path, MAX_DIAGNOSTICS);
}

static int skip(struct npukb_build_result *res, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int skip(struct npukb_build_result *res, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = npukb_cann_vset(&res->message, fmt, ap);
	va_end(ap);
	res->skipped = 1;
	return rc;
}

/* Which cores the kernel needs, from its source text: an explicit task
 * type wins; cube instructions or the high-level Matmul mean cube and
 * vector together (the public mix samples build those with the plain
 * dav-c220 arch); the rest is vector-only, what kernel-only tasks use. */
static enum npukb_cann_cores kernel_cores(const char *path)
{
	char *text = read_log(path);
	enum npukb_cann_cores c = NPUKB_CANN_CORES_VEC;

	if (!text)
		return c;
	if (strstr(text, "KERNEL_TYPE_AIC_ONLY"))
		c = NPUKB_CANN_CORES_CUBE;
	else if (strstr(text, "KERNEL_TYPE_MIX") || strstr(text, "Mmad") ||
		 strstr(text, "Matmul<") || strstr(text, "REGIST_MATMUL_OBJ"))
		c = NPUKB_CANN_CORES_MIX;
	free(text);
	return c;
}

/* One build step of the device flow. */
struct step {
	struct npukb_cann_cmd cmd;
	const char *log;    /* in the work directory */
	const char *output; /* must exist afterwards */
};

static int device_build(const struct npukb_build_request *req, struct npukb_build_result *res)
{
	struct npukb_cann_info info;
	struct step steps[3];
	char reason[1024], err[512], desc[256];
	char *src_path = NULL, *dst_path = NULL, *path = NULL, *text = NULL, *work = NULL;
	char **extra = NULL, **envp = NULL;
	const char *src, *base, *soc;
	size_t i;
	int rc;

	memset(res, 0, sizeof *res);
	memset(steps, 0, sizeof steps);
	if (!req || !req->sample || !req->workdir)
		return -EINVAL;
	rc = npukb_cann_probe(&info, reason, sizeof reason);
	if (rc < 0)
		return skip(res, "CANN probe failed: %s", strerror(-rc));
	if (rc == NPUKB_CANN_NOT_FOUND)
		return skip(res, "%s", reason);
	/* No device is fine here: compiling needs only the toolkit. */
	if (req->sample->mode != NPUKB_MODE_KERNEL_ONLY)
		return skip(res, "ascend-device builds kernel-only samples; "
				 "host+device samples go to ascend-hostdev");
	src = kernel_source(req->sample);
	if (!src) {
		res->message = strdup("the sample has no kernel source (.cpp, .cc or .asc)");
		return res->message ? 0 : -ENOMEM;
	}
	if (!req->task) {
		res->message = strdup("ascend-device: build needs the task (kernel name, parameters)");
		return res->message ? -EINVAL : -ENOMEM;
	}
	soc = req->options && req->options->soc ? req->options->soc : DEFAULT_SOC;
	base = strrchr(src, '/') ? strrchr(src, '/') + 1 : src;

	/* The compiler sees a copy in the private work directory, not the
	 * sample's folder (which may sit next to other samples). */
	work = realpath(req->workdir, NULL);
	if (!work) {
		rc = -errno;
		res->message = npukb_cann_strf("cannot resolve work directory %s: %s", req->workdir,
					  strerror(-rc));
		return res->message ? 0 : -ENOMEM;
	}
	src_path = npukb_cann_strf("%s/%s", req->sample->dir, src);
	dst_path = npukb_cann_strf("%s/%s", work, base);
	if (!src_path || !dst_path) {
		rc = -ENOMEM;
		goto out;
	}
	if ((rc = npukb_step_copy_file(src_path, dst_path)) < 0) {
		res->message = npukb_cann_strf("cannot copy %s into the work directory: %s", src,
					  strerror(-rc));
		goto out;
	}

	/* The two generated files. */
	for (i = 0; i < 2; i++) {
		const char *name = i ? HOST_SRC_NAME : NPUKB_ASCEND_WRAPPER_NAME;

		text = i ? npukb_ascend_host_source(req->task->kernel_name, req->task->params,
						    req->task->nparams, err, sizeof err)
			 : npukb_ascend_wrapper_source(req->task->kernel_name, base,
						       req->task->params, req->task->nparams, err,
						       sizeof err);
		if (!text) {
			res->message = npukb_cann_strf("cannot generate %s: %s", name, err);
			rc = res->message ? 0 : -ENOMEM;
			goto out;
		}
		free(path);
		path = npukb_cann_strf("%s/%s", work, name);
		if (!path) {
			rc = -ENOMEM;
			goto out;
		}
		if ((rc = npukb_step_write_text(path, text)) < 0) {
			res->message = npukb_cann_strf("cannot write %s: %s", path, strerror(-rc));
			goto out;
		}
		free(text);
		text = NULL;
	}

	rc = npukb_cann_device_compile_cmd(&info, soc, kernel_cores(dst_path),
					   NPUKB_ASCEND_WRAPPER_NAME, OBJ_NAME, &steps[0].cmd, err,
					   sizeof err);
	if (rc == -EINVAL) {
		rc = skip(res, "%s", err);
		goto out;
	}
	if (rc < 0 ||
	    (rc = npukb_cann_device_host_cmd(&info, npukb_cann_host_cxx(), HOST_SRC_NAME,
					     HOST_OBJ_NAME, &steps[1].cmd, err, sizeof err)) < 0 ||
	    (rc = npukb_cann_device_link_cmd(&info, HOST_OBJ_NAME, OBJ_NAME, HOST_EXE_NAME,
					     &steps[2].cmd, err, sizeof err)) < 0) {
		res->message = strdup(err);
		goto out;
	}
	steps[0].log = LOG_NAME;
	steps[0].output = OBJ_NAME;
	steps[1].log = HOST_LOG_NAME;
	steps[1].output = HOST_OBJ_NAME;
	steps[2].log = LINK_LOG_NAME;
	steps[2].output = HOST_EXE_NAME;
	extra = npukb_cann_runtime_env(&info, NULL);
	envp = extra ? npukb_cann_merge_env(NULL, extra) : NULL;
	if (!envp) {
		rc = -ENOMEM;
		goto out;
	}

	/* Each step's proc is the one reported: the first that fails ends
	 * the build, with its output after the earlier steps'. The sample
	 * was copied into the work folder: the toolkit is all the compiler
	 * needs to see besides it. */
	for (i = 0; i < 3; i++) {
		const char *reads[] = { info.root, NULL };
		rc = npukb_step_run(&steps[i].cmd, envp, req->workdir, reads, steps[i].log,
				    req->options ? &req->options->build_limits : NULL, &res->proc, err,
				    sizeof err);
		if (rc < 0) {
			res->message = strdup(err);
			goto out;
		}
		free(path);
		path = npukb_cann_strf("%s/%s", work, steps[i].log);
		res->diagnostics = npukb_step_join(res->diagnostics, path ? read_log(path) : NULL);
		free(path);
		path = npukb_cann_strf("%s/%s", work, steps[i].output);
		if (!path) {
			rc = -ENOMEM;
			goto out;
		}
		if (!npukb_step_ok(&res->proc, path)) {
			npukb_sandbox_describe(&res->proc, desc, sizeof desc);
			res->message = npukb_cann_strf("%s: %s %s", steps[i].cmd.what,
						  i == 2 ? "linker" : "compiler", desc);
			rc = res->message ? 0 : -ENOMEM;
			goto out;
		}
	}
	res->ok = 1;
	res->artifact = path;
	path = NULL;
	res->message = npukb_cann_strf("%s; %s; %s", steps[0].cmd.what, steps[1].cmd.what,
				  steps[2].cmd.what);
	rc = res->message ? 0 : -ENOMEM;
out:
	for (i = 0; i < 3; i++)
		npukb_cann_cmd_clear(&steps[i].cmd);
	npukb_cann_strv_free(extra);
	npukb_cann_strv_free(envp);
	free(work);
	free(src_path);
	free(dst_path);
	free(path);
	free(text);
	return rc;
}

/* "list=OFF[xD0xD1...],...@PATH": a tensor list's members (byte offset in
 * the file, then dims), from which the launch program builds the
 * ListTensorDesc the kernel reads (malloc'd; NULL when out of memory). */
static char *list_arg(const struct npukb_case_tensor *t, const char *path)
{
	size_t esize = npukb_dtype_size(t->dtype), len = 0;
	char *text = NULL;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	fputs("list=", f);
	for (size_t m = 0; m < t->nmembers; m++) {
		fprintf(f, "%s%zu", m ? "," : "", t->member_offsets[m] * esize);
		for (int d = 0; d < t->members[m].rank; d++)
			fprintf(f, "x%lld", (long long)t->members[m].dims[d]);
	}
	fprintf(f, "@%s", path);
	if (fclose(f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

/* The launch program's command line (host_program.h) for this run, as a
 * NULL-terminated malloc'd array of malloc'd strings. */
static char **launch_argv(const struct npukb_run_request *req, const char *work, char *err,
			  size_t errlen)
{
	const struct npukb_case_data *d = req->data;
	const struct npukb_options *o = req->options;
	unsigned warmup = o && o->perf_warmup ? o->perf_warmup : DEFAULT_WARMUP;
	unsigned runs = o && o->perf_runs ? o->perf_runs : DEFAULT_RUNS;
	int blocks = d->block_dim > 0 ? d->block_dim
				      : (req->task && req->task->block_dim > 0 ? req->task->block_dim : 1);
	size_t n = 0;
	char **v = calloc(d->nargs + 10, sizeof *v);

	if (!v) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	v[n++] = strdup(req->artifact);
	v[n++] = strdup("--blocks");
	v[n++] = npukb_cann_strf("%d", blocks);
	if (req->want_timing) {
		v[n++] = strdup("--stats");
		v[n++] = npukb_cann_strf("%s/%s", work, NPUKB_NPU_STATS_NAME);
		v[n++] = strdup("--warmup");
		v[n++] = npukb_cann_strf("%u", warmup);
		v[n++] = strdup("--runs");
		v[n++] = npukb_cann_strf("%u", runs);
	}
	for (size_t i = 0; i < d->nargs; i++) {
		const struct npukb_kernel_arg *a = &d->args[i];
		const char *role = NULL;
		char *abs = NULL;

		switch (a->role) {
		case NPUKB_PARAM_INPUT: role = "in"; break;
		/* Copied in and back out: an in-place tensor is an output
		 * whose file already holds the inputs. */
		case NPUKB_PARAM_OUTPUT:
		case NPUKB_PARAM_INOUT: role = "out"; break;
		case NPUKB_PARAM_TILING: role = "tiling"; break;
		case NPUKB_PARAM_WORKSPACE: role = "ws"; break;
		case NPUKB_PARAM_SCALAR: role = NULL; break; /* refused at build (host_program.c) */
		}
		if (a->tensor && a->tensor->is_absent) {
			/* An absent optional input: a null address. */
			v[n++] = strdup("in=-");
			continue;
		}
		if (!role || (a->role != NPUKB_PARAM_WORKSPACE && !a->path)) {
			snprintf(err, errlen, "kernel argument %zu has no role or no file", i);
			npukb_cann_strv_free(v);
			return NULL;
		}
		if (a->role == NPUKB_PARAM_WORKSPACE) {
			v[n++] = npukb_cann_strf("ws=%zu", a->bytes);
		} else if (a->tensor && a->tensor->nmembers > 0) {
			v[n++] = list_arg(a->tensor, a->path);
		} else {
			/* The program runs in its own work directory. */
			abs = a->path[0] == '/' ? NULL : realpath(a->path, NULL);
			v[n++] = npukb_cann_strf("%s=%s", role, abs ? abs : a->path);
			free(abs);
		}
	}
	for (size_t i = 0; i < n; i++)
		if (!v[i]) {
			snprintf(err, errlen, "out of memory");
			npukb_cann_strv_free(v);
			return NULL;
		}
	return v;
}


/* The device this backend's programs use, and its health between samples
 * (npu_device.h). Plugins run one sample at a time per process. */
static struct npukb_npu_health health;

/* Runs the launch program on the NPU described by info (the part of run()
 * after the probe; tests call it with a faked info). */
static int launch_on_npu(const struct npukb_cann_info *info, const struct npukb_run_request *req,
			 struct npukb_run_result *res)
{
	char err[512];
	char **argv = NULL, **envp = NULL;
	char *work = NULL, *build_dir = NULL;
	int rc;

	if (!req || !req->data || !req->workdir || !req->artifact || req->artifact[0] != '/') {
		res->message = strdup("ascend-device: run needs the case data, a work directory "
				      "and the absolute launch program path from build");
		return -EINVAL;
	}
	work = realpath(req->workdir, NULL);
	if (!work) {
		rc = -errno;
		res->message = npukb_cann_strf("cannot resolve work directory %s", req->workdir);
		return rc;
	}
	argv = launch_argv(req, work, err, sizeof err);
	envp = npukb_npu_device_envp(info, NULL, npukb_npu_device_id());
	build_dir = strdup(req->artifact);
	if (!argv || !envp || !build_dir) {
		res->message = strdup(argv ? "out of memory" : err);
		rc = argv ? -ENOMEM : 0;
	} else {
		/* The launch program sees the toolkit, its build and the NPU's
		 * device node. */
		const char *reads[] = { info->root, build_dir, info->has_device ? info->device : NULL,
					NULL };
		*strrchr(build_dir, '/') = '\0';
		rc = npukb_npu_run("launch program", argv, envp, work, reads,
				   req->options ? &req->options->run_limits : NULL,
				   req->want_timing, &health, res);
	}
	npukb_cann_strv_free(argv);
	npukb_cann_strv_free(envp);
	free(work);
	free(build_dir);
	return rc;
}

static int device_run(const struct npukb_run_request *req, struct npukb_run_result *res)
{
	struct npukb_cann_info info;
	char reason[1024];
	int rc;

	memset(res, 0, sizeof *res);
	rc = npukb_cann_probe(&info, reason, sizeof reason);
	if (rc != NPUKB_CANN_OK) {
		res->skipped = 1;
		if (rc < 0)
			res->message = npukb_cann_strf("CANN probe failed: %s", strerror(-rc));
		else
			res->message = strdup(reason);
		return res->message ? 0 : -ENOMEM;
	}
	return launch_on_npu(&info, req, res);
}

/* The plugin's options are forgotten when it is unloaded. */
static void device_forget_options(void)
{
	(void)npukb_cann_configure(NULL, NULL, 0);
}

static const struct npukb_backend_ops device_ops = {
	.probe = device_probe,
	.identity = device_identity,
	.build = device_build,
	.run = device_run,
	.cleanup = NULL, /* everything it makes lives in the core's work directory */
	.options = npukb_cann_options,
	.configure = npukb_cann_configure,
	.max_workers = npukb_npu_max_workers,
	.worker_start = npukb_npu_worker_start,
};

NPUKB_PLUGIN_EXPORT const struct npukb_plugin npukb_ascend_device_plugin = {
	.abi = NPUKB_PLUGIN_ABI,
	.kind = NPUKB_PLUGIN_BACKEND,
	.name = "ascend-device",
	.version = "0.1",
	.description = "real CANN toolchain: kernel compiled alone for the SoC, run on an NPU",
	.init = NULL,
	.fini = device_forget_options,
	.backend = &device_ops,
	.stage = NULL,
};
