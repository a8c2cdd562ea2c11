/* ascend_device.c - the ascend-device backend: a kernel-only sample built
 * with the real CANN compiler for one SoC, launched on an NPU.
 *
 * build() compiles the kernel source alone, then generates the launch
 * program for the task's kernel (host_program.h: ACL runtime, device
 * events for timing) and links the two, each in the sandbox with the
 * command lines cann_probe spells out; a machine with CANN but without an
 * NPU can judge compilation. run() starts the launch program with the
 * case's argument files, which it updates in place with the outputs; when
 * timing is wanted it reports the median of the timed launches and their
 * spread. Without CANN every build and run is skipped with the probe's
 * reason, and without a device every run is: never a silent pass. */
#include <npukb/plugin.h>

/* Relative, so the plugin builds without an extra -I. */
#include "../ascend-common/cann_probe.h"
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
#define HOST_EXE_NAME "npukb_host"
#define LINK_LOG_NAME "link.log"
#define RUN_OUT "run.out"
#define RUN_ERR "run.err"
#define STATS_NAME "timing.stats"
#define DEFAULT_WARMUP 5u
#define DEFAULT_RUNS 20u
/* Compiler output kept in the verdict; the rest is cut off. */
#define MAX_DIAGNOSTICS (256 * 1024)

static char *dup_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *dup_printf(const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	return s;
}

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

static int copy_file(const char *from, const char *to)
{
	char buf[65536];
	int in = open(from, O_RDONLY | O_CLOEXEC);
	int out, rc = 0;
	ssize_t n;

	if (in < 0)
		return -errno;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0) {
		rc = -errno;
		close(in);
		return rc;
	}
	while ((n = read(in, buf, sizeof buf)) > 0) {
		for (ssize_t off = 0; off < n;) {
			ssize_t w = write(out, buf + off, (size_t)(n - off));

			if (w < 0) {
				rc = -errno;
				goto done;
			}
			off += w;
		}
	}
	if (n < 0)
		rc = -errno;
done:
	if (close(out) < 0 && rc == 0)
		rc = -errno;
	close(in);
	return rc;
}

/* The file's text (at most MAX_DIAGNOSTICS bytes, then a note), or NULL. */
static char *read_log(const char *path)
{
	static const char cut[] = "\n[... compiler output truncated by npukb]\n";
	FILE *f = fopen(path, "re");
	char *text;
	size_t n;

	if (!f)
		return NULL;
	text = malloc(MAX_DIAGNOSTICS + sizeof cut);
	if (text) {
		n = fread(text, 1, MAX_DIAGNOSTICS, f);
		if (n == MAX_DIAGNOSTICS && fgetc(f) != EOF) {
			memcpy(text + n, cut, sizeof cut);
		} else {
			text[n] = '\0';
		}
		if (n == 0) {
			free(text);
			text = NULL;
		}
	}
	fclose(f);
	return text;
}

static int skip(struct npukb_build_result *res, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int skip(struct npukb_build_result *res, const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	res->skipped = 1;
	res->message = s;
	return s ? 0 : -ENOMEM;
}

/* Writes text to path (created or truncated). */
static int write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "we");
	int rc = 0;

	if (!f)
		return -errno;
	if (fputs(text, f) == EOF)
		rc = -EIO;
	if (fclose(f) != 0 && rc == 0)
		rc = -errno;
	return rc;
}

/* a, then b (either may be NULL), as one malloc'd text; frees both. */
static char *join_logs(char *a, char *b)
{
	char *s;

	if (!a)
		return b;
	if (!b)
		return a;
	s = dup_printf("%s%s%s", a, a[0] && a[strlen(a) - 1] != '\n' ? "\n" : "", b);
	if (s) {
		free(a);
		free(b);
		return s;
	}
	free(b);
	return a;
}

/* Runs one toolchain command in the work directory, output into log. */
static int run_tool(const struct npukb_build_request *req, const struct npukb_cann_info *info,
		    const struct npukb_cann_cmd *cmd, char **envp, const char *log,
		    struct npukb_sandbox_result *proc, char *err, size_t errlen)
{
	/* The sample was copied into the work folder: the toolkit is all
	 * the compiler needs to see besides it. */
	const char *reads[] = { info->root, NULL };
	struct npukb_sandbox_spec spec;

	memset(&spec, 0, sizeof spec);
	spec.read_paths = reads;
	spec.argv = (const char *const *)cmd->argv;
	spec.envp = (const char *const *)envp;
	spec.workdir = req->workdir;
	spec.stdout_path = log;
	spec.stderr_path = log;
	if (req->options)
		spec.limits = req->options->build_limits;
	spec.isolate_network = 1;
	return npukb_sandbox_run(&spec, proc, err, errlen);
}

static int tool_ok(const struct npukb_sandbox_result *p, const char *out)
{
	return p->kind == NPUKB_EXIT_NORMAL && p->exit_code == 0 && access(out, F_OK) == 0;
}

static int device_build(const struct npukb_build_request *req, struct npukb_build_result *res)
{
	struct npukb_cann_info info;
	struct npukb_cann_cmd cmd, link;
	char reason[1024], err[512], desc[256];
	char *src_path = NULL, *dst_path = NULL, *log_path = NULL, *obj_path = NULL;
	char *host_path = NULL, *exe_path = NULL, *link_log = NULL, *host_text = NULL;
	char *work = NULL;
	char **extra = NULL, **envp = NULL;
	const char *src, *base, *soc;
	int rc;

	memset(res, 0, sizeof *res);
	memset(&cmd, 0, sizeof cmd);
	memset(&link, 0, sizeof link);
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
	soc = req->options && req->options->soc ? req->options->soc : DEFAULT_SOC;
	base = strrchr(src, '/') ? strrchr(src, '/') + 1 : src;

	/* The compiler sees a copy in the private work directory, not the
	 * sample's folder (which may sit next to other samples). */
	work = realpath(req->workdir, NULL);
	if (!work) {
		rc = -errno;
		res->message = dup_printf("cannot resolve work directory %s: %s", req->workdir,
					  strerror(-rc));
		return res->message ? 0 : -ENOMEM;
	}
	src_path = dup_printf("%s/%s", req->sample->dir, src);
	dst_path = dup_printf("%s/%s", work, base);
	log_path = dup_printf("%s/%s", work, LOG_NAME);
	obj_path = dup_printf("%s/%s", work, OBJ_NAME);
	host_path = dup_printf("%s/%s", work, HOST_SRC_NAME);
	exe_path = dup_printf("%s/%s", work, HOST_EXE_NAME);
	link_log = dup_printf("%s/%s", work, LINK_LOG_NAME);
	if (!src_path || !dst_path || !log_path || !obj_path || !host_path || !exe_path ||
	    !link_log) {
		rc = -ENOMEM;
		goto out;
	}
	if ((rc = copy_file(src_path, dst_path)) < 0) {
		res->message = dup_printf("cannot copy %s into the work directory: %s", src,
					  strerror(-rc));
		goto out;
	}
	/* Vector cores: what kernel-only tasks use. Mixed cube+vector kernels
	 * need the ascendc CMake module flow, which comes with the launch. */
	rc = npukb_cann_device_compile_cmd(&info, soc, 0, base, OBJ_NAME, &cmd, err, sizeof err);
	if (rc == -EINVAL) {
		rc = skip(res, "%s", err);
		goto out;
	}
	if (rc < 0) {
		res->message = strdup(err);
		goto out;
	}
	if (!req->task) {
		rc = -EINVAL;
		res->message = strdup("ascend-device: build needs the task (kernel name, parameters)");
		goto out;
	}
	host_text = npukb_ascend_host_source(req->task->kernel_name, req->task->params,
					     req->task->nparams, err, sizeof err);
	if (!host_text) {
		res->message = dup_printf("cannot generate the launch program: %s", err);
		rc = res->message ? 0 : -ENOMEM;
		goto out;
	}
	if ((rc = write_text(host_path, host_text)) < 0) {
		res->message = dup_printf("cannot write %s: %s", host_path, strerror(-rc));
		goto out;
	}
	if ((rc = npukb_cann_device_host_cmd(&info, soc, 0, HOST_SRC_NAME, OBJ_NAME,
					     HOST_EXE_NAME, &link, err, sizeof err)) < 0) {
		res->message = strdup(err);
		goto out;
	}
	extra = npukb_cann_runtime_env(&info, NULL);
	envp = extra ? npukb_cann_merge_env(NULL, extra) : NULL;
	if (!envp) {
		rc = -ENOMEM;
		goto out;
	}

	rc = run_tool(req, &info, &cmd, envp, LOG_NAME, &res->proc, err, sizeof err);
	if (rc < 0) {
		res->message = strdup(err);
		goto out;
	}
	res->diagnostics = read_log(log_path);
	if (!tool_ok(&res->proc, obj_path)) {
		npukb_sandbox_describe(&res->proc, desc, sizeof desc);
		res->message = dup_printf("%s: compiler %s", cmd.what, desc);
		rc = res->message ? 0 : -ENOMEM;
		goto out;
	}
	/* The kernel compiled: a failing link is still a failed build, and
	 * its proc is the one reported. */
	rc = run_tool(req, &info, &link, envp, LINK_LOG_NAME, &res->proc, err, sizeof err);
	if (rc < 0) {
		res->message = strdup(err);
		goto out;
	}
	res->diagnostics = join_logs(res->diagnostics, read_log(link_log));
	if (tool_ok(&res->proc, exe_path)) {
		res->ok = 1;
		res->artifact = exe_path;
		exe_path = NULL;
		res->message = dup_printf("%s; %s", cmd.what, link.what);
	} else {
		npukb_sandbox_describe(&res->proc, desc, sizeof desc);
		res->message = dup_printf("%s: linker %s", link.what, desc);
	}
	rc = res->message ? 0 : -ENOMEM;
out:
	npukb_cann_cmd_clear(&cmd);
	npukb_cann_cmd_clear(&link);
	npukb_cann_strv_free(extra);
	npukb_cann_strv_free(envp);
	free(work);
	free(src_path);
	free(dst_path);
	free(log_path);
	free(obj_path);
	free(host_path);
	free(exe_path);
	free(link_log);
	free(host_text);
	return rc;
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
	v[n++] = dup_printf("%d", blocks);
	if (req->want_timing) {
		v[n++] = strdup("--stats");
		v[n++] = dup_printf("%s/%s", work, STATS_NAME);
		v[n++] = strdup("--warmup");
		v[n++] = dup_printf("%u", warmup);
		v[n++] = strdup("--runs");
		v[n++] = dup_printf("%u", runs);
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
		}
		if (a->tensor && a->tensor->nmembers > 0) {
			snprintf(err, errlen, "kernel argument %zu is a tensor list, which this backend cannot pass yet",
				 i);
			npukb_cann_strv_free(v);
			return NULL;
		}
		if (a->tensor && a->tensor->is_absent) {
			snprintf(err, errlen,
				 "kernel argument %zu is an absent optional input, which this backend cannot pass yet",
				 i);
			npukb_cann_strv_free(v);
			return NULL;
		}
		if (!role || (a->role != NPUKB_PARAM_WORKSPACE && !a->path)) {
			snprintf(err, errlen, "kernel argument %zu has no role or no file", i);
			npukb_cann_strv_free(v);
			return NULL;
		}
		if (a->role == NPUKB_PARAM_WORKSPACE) {
			v[n++] = dup_printf("ws=%zu", a->bytes);
		} else {
			/* The program runs in its own work directory. */
			abs = a->path[0] == '/' ? NULL : realpath(a->path, NULL);
			v[n++] = dup_printf("%s=%s", role, abs ? abs : a->path);
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

/* The last non-empty line of text (malloc'd), or NULL. */
static char *last_line(const char *text)
{
	const char *end = text + strlen(text), *start;

	while (end > text && (end[-1] == '\n' || end[-1] == '\r'))
		end--;
	if (end == text)
		return NULL;
	start = end;
	while (start > text && start[-1] != '\n')
		start--;
	return strndup(start, (size_t)(end - start));
}

static int device_run(const struct npukb_run_request *req, struct npukb_run_result *res)
{
	struct npukb_cann_info info;
	struct npukb_sandbox_spec spec;
	struct npukb_ascend_stats st;
	char reason[1024], err[512], desc[256];
	char **argv = NULL, **extra = NULL, **envp = NULL;
	char *work = NULL, *errpath = NULL, *stats = NULL, *line = NULL, *build_dir = NULL;
	const char *reads[4] = { NULL, NULL, NULL, NULL };
	int rc;

	memset(res, 0, sizeof *res);
	rc = npukb_cann_probe(&info, reason, sizeof reason);
	if (rc != NPUKB_CANN_OK) {
		res->skipped = 1;
		if (rc < 0)
			res->message = dup_printf("CANN probe failed: %s", strerror(-rc));
		else
			res->message = strdup(reason);
		return res->message ? 0 : -ENOMEM;
	}
	if (!req || !req->data || !req->workdir || !req->artifact || req->artifact[0] != '/') {
		res->message = strdup("ascend-device: run needs the case data, a work directory "
				      "and the absolute launch program path from build");
		return -EINVAL;
	}
	work = realpath(req->workdir, NULL);
	if (!work) {
		rc = -errno;
		res->message = dup_printf("cannot resolve work directory %s", req->workdir);
		return rc;
	}
	argv = launch_argv(req, work, err, sizeof err);
	extra = npukb_cann_runtime_env(&info, NULL);
	envp = extra ? npukb_cann_merge_env(NULL, extra) : NULL;
	errpath = dup_printf("%s/%s", work, RUN_ERR);
	stats = dup_printf("%s/%s", work, STATS_NAME);
	if (!argv || !envp || !errpath || !stats) {
		rc = -ENOMEM;
		res->message = strdup(argv ? "out of memory" : err);
		goto out;
	}
	unlink(stats);

	/* The launch program sees the toolkit, its build and the NPU's
	 * device node. */
	build_dir = strdup(req->artifact);
	if (!build_dir) {
		rc = -ENOMEM;
		goto out;
	}
	*strrchr(build_dir, '/') = '\0';
	reads[0] = info.root;
	reads[1] = build_dir;
	reads[2] = info.has_device ? info.device : NULL;
	memset(&spec, 0, sizeof spec);
	spec.read_paths = reads;
	spec.argv = (const char *const *)argv;
	spec.envp = (const char *const *)envp;
	spec.workdir = work;
	spec.stdout_path = RUN_OUT;
	spec.stderr_path = RUN_ERR;
	if (req->options)
		spec.limits = req->options->run_limits;
	spec.isolate_network = 1;
	rc = npukb_sandbox_run(&spec, &res->proc, err, sizeof err);
	if (rc < 0) {
		res->message = dup_printf("cannot start the launch program: %s", err);
		goto out;
	}
	res->diagnostics = read_log(errpath);
	npukb_sandbox_describe(&res->proc, desc, sizeof desc);
	if (res->proc.kind != NPUKB_EXIT_NORMAL || res->proc.exit_code != 0) {
		line = res->diagnostics ? last_line(res->diagnostics) : NULL;
		res->message = dup_printf("launch program %s%s%s", desc, line ? ": " : "",
					  line ? line : "");
		rc = res->message ? 0 : -ENOMEM;
		goto out;
	}
	if (!req->want_timing) {
		res->ok = 1;
		res->message = strdup("ran on the NPU");
		rc = res->message ? 0 : -ENOMEM;
		goto out;
	}
	rc = npukb_ascend_read_stats(stats, &st);
	if (rc < 0) {
		res->message = dup_printf("launch program wrote no usable timing (%s)",
					  strerror(-rc));
		rc = res->message ? 0 : -ENOMEM;
		goto out;
	}
	res->ok = 1;
	res->time_us = st.median_us;
	res->has_spread = 1;
	res->time_min_us = st.min_us;
	res->time_max_us = st.max_us;
	res->timed_runs = st.runs;
	res->message = dup_printf("median %.3f us (min %.3f, max %.3f) over %u timed launches "
				  "after %u warm-ups",
				  st.median_us, st.min_us, st.max_us, st.runs, st.warmup);
	rc = res->message ? 0 : -ENOMEM;
out:
	npukb_cann_strv_free(argv);
	npukb_cann_strv_free(extra);
	npukb_cann_strv_free(envp);
	free(work);
	free(errpath);
	free(stats);
	free(line);
	free(build_dir);
	return rc;
}

static const struct npukb_backend_ops device_ops = {
	.probe = device_probe,
	.identity = device_identity,
	.build = device_build,
	.run = device_run,
	.cleanup = NULL, /* everything it makes lives in the core's work directory */
};

NPUKB_PLUGIN_EXPORT const struct npukb_plugin npukb_ascend_device_plugin = {
	.abi = NPUKB_PLUGIN_ABI,
	.kind = NPUKB_PLUGIN_BACKEND,
	.name = "ascend-device",
	.version = "0.1",
	.description = "real CANN toolchain: kernel compiled alone for the SoC, run on an NPU",
	.init = NULL,
	.fini = NULL,
	.backend = &device_ops,
	.stage = NULL,
};
