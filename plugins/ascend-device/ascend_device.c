/* ascend_device.c - the ascend-device backend: a kernel-only sample built
 * with the real CANN compiler for one SoC, launched on an NPU.
 *
 * What works today: probe (toolkit and /dev/davinci0, via cann_probe),
 * identity, and build - the kernel source is compiled alone, in the
 * sandbox, with the command npukb_cann_device_compile_cmd() spells out, so
 * a machine with CANN but without an NPU can already judge compilation.
 * run() reports skipped until the launch program (ACL runtime, events for
 * timing: ASCENDC.md §2) lands. Without CANN every build and run is
 * skipped with the probe's reason: never a silent pass. */
#include <npukb/plugin.h>

/* Relative, so the plugin builds without an extra -I. */
#include "../ascend-common/cann_probe.h"

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

static int device_build(const struct npukb_build_request *req, struct npukb_build_result *res)
{
	struct npukb_cann_info info;
	struct npukb_cann_cmd cmd;
	struct npukb_sandbox_spec spec;
	char reason[1024], err[512], desc[256];
	char *src_path = NULL, *dst_path = NULL, *log_path = NULL, *obj_path = NULL;
	char **extra = NULL, **envp = NULL;
	const char *src, *base, *soc;
	int rc;

	memset(res, 0, sizeof *res);
	memset(&cmd, 0, sizeof cmd);
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
	src_path = dup_printf("%s/%s", req->sample->dir, src);
	dst_path = dup_printf("%s/%s", req->workdir, base);
	log_path = dup_printf("%s/%s", req->workdir, LOG_NAME);
	obj_path = dup_printf("%s/%s", req->workdir, OBJ_NAME);
	if (!src_path || !dst_path || !log_path || !obj_path) {
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
	extra = npukb_cann_runtime_env(&info, NULL);
	envp = extra ? npukb_cann_merge_env(NULL, extra) : NULL;
	if (!envp) {
		rc = -ENOMEM;
		goto out;
	}

	memset(&spec, 0, sizeof spec);
	spec.argv = (const char *const *)cmd.argv;
	spec.envp = (const char *const *)envp;
	spec.workdir = req->workdir;
	spec.stdout_path = LOG_NAME;
	spec.stderr_path = LOG_NAME;
	if (req->options)
		spec.limits = req->options->build_limits;
	spec.isolate_network = 1;
	rc = npukb_sandbox_run(&spec, &res->proc, err, sizeof err);
	if (rc < 0) {
		res->message = strdup(err);
		goto out;
	}
	res->diagnostics = read_log(log_path);
	if (res->proc.kind == NPUKB_EXIT_NORMAL && res->proc.exit_code == 0 &&
	    access(obj_path, F_OK) == 0) {
		res->ok = 1;
		res->artifact = obj_path;
		obj_path = NULL;
		res->message = strdup(cmd.what);
	} else {
		npukb_sandbox_describe(&res->proc, desc, sizeof desc);
		res->message = dup_printf("%s: compiler %s", cmd.what, desc);
	}
	rc = res->message ? 0 : -ENOMEM;
out:
	npukb_cann_cmd_clear(&cmd);
	npukb_cann_strv_free(extra);
	npukb_cann_strv_free(envp);
	free(src_path);
	free(dst_path);
	free(log_path);
	free(obj_path);
	return rc;
}

static int device_run(const struct npukb_run_request *req, struct npukb_run_result *res)
{
	struct npukb_cann_info info;
	char reason[1024];
	int rc;

	(void)req;
	memset(res, 0, sizeof *res);
	res->skipped = 1;
	rc = npukb_cann_probe(&info, reason, sizeof reason);
	if (rc < 0)
		res->message = dup_printf("CANN probe failed: %s", strerror(-rc));
	else if (rc != NPUKB_CANN_OK)
		res->message = strdup(reason);
	else
		res->message = strdup("not implemented yet: real device launch comes in a later issue");
	return res->message ? 0 : -ENOMEM;
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
