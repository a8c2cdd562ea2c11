/* compile.c - the compile stage: build a sample with the run's backend.
 *
 * A clean build passes and hands its artifact to the core for the later
 * stages. A failed build gets a provisional category ("compile-timeout" is
 * final; everything else is "other-compile" until the classify stage reads
 * the diagnostics) and the first error line as its message.
 *
 * A sample folder holding NO_CODE is a model response without usable code
 * (`npukb import` writes it, with the reason): it fails as `no-code`
 * without reaching the backend, so a batch of responses is judged whole
 * and an empty answer counts against the model like any failed build. */
#include <npukb/plugin.h>
#include <npukb/util.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

/* One line of a verdict message; compiler lines with long template types
 * can run to kilobytes. */
#define MAX_LINE 512

/* Case-insensitive search within [p, end). */
static int line_contains(const char *p, const char *end, const char *needle)
{
	size_t n = strlen(needle);
	for (; p + n <= end; p++)
		if (strncasecmp(p, needle, n) == 0)
			return 1;
	return 0;
}

static int line_is_blank(const char *p, const char *end)
{
	for (; p < end; p++)
		if (*p != ' ' && *p != '\t' && *p != '\r')
			return 0;
	return 1;
}

/* Does line [p, end) carry what pass k looks for? Pass 0: a diagnostic
 * ("error:", or the linker's "undefined reference"/"undefined symbol",
 * which say more than the "ld returned 1" error after them); pass 1: any
 * mention of "error" (build tools); pass 2: anything at all. */
static int line_wanted(int k, const char *p, const char *end)
{
	switch (k) {
	case 0:
		return line_contains(p, end, "error:") ||
		       line_contains(p, end, "undefined reference") ||
		       line_contains(p, end, "undefined symbol");
	case 1:
		return line_contains(p, end, "error");
	default:
		return !line_is_blank(p, end);
	}
}

/* The line that best says why a build failed, copied into buf and cut at
 * MAX_LINE. Returns 0 when diag has no usable line. */
static int first_error_line(const char *diag, char *buf, size_t len)
{
	int k;
	if (!diag || !len)
		return 0;
	for (k = 0; k < 3; k++) {
		const char *p = diag;
		while (*p) {
			const char *end = strchr(p, '\n');
			if (!end)
				end = p + strlen(p);
			if (line_wanted(k, p, end)) {
				size_t n = (size_t)(end - p);
				if (n > 0 && p[n - 1] == '\r')
					n--;
				if (n >= len)
					n = len - 1;
				memcpy(buf, p, n);
				buf[n] = '\0';
				return 1;
			}
			p = *end ? end + 1 : end;
		}
	}
	return 0;
}

static size_t count_warnings(const char *diag)
{
	size_t n = 0;
	const char *p = diag;
	while (p && (p = strstr(p, "warning:")) != NULL) {
		n++;
		p += 8;
	}
	return n;
}

#define NO_CODE_FILE "NO_CODE"

/* 1 when the sample is a response without code; its reason (the first
 * line of NO_CODE, cut at len - 1) goes into why. */
static int no_code(const struct npukb_sample *s, char *why, size_t len)
{
	char *path = NULL;
	ssize_t n = 0;
	size_t i;
	int found = 0, fd;
	for (i = 0; i < s->nfiles && !found; i++)
		found = strcmp(s->files[i], NO_CODE_FILE) == 0;
	if (!found)
		return 0;
	snprintf(why, len, "the response holds no code");
	if (asprintf(&path, "%s/%s", s->dir, NO_CODE_FILE) < 0)
		return 1;
	/* the sample is untrusted: no symlink is followed, a short read */
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	free(path);
	if (fd >= 0) {
		n = read(fd, why, len - 1);
		close(fd);
	}
	if (n > 0) {
		why[n] = '\0';
		why[strcspn(why, "\r\n")] = '\0';
		if (!why[0])
			snprintf(why, len, "the response holds no code");
	}
	return 1;
}

static int compile_judge(struct npukb_stage_ctx *ctx, struct npukb_verdict *out)
{
	struct npukb_build_request req;
	struct npukb_build_result res;
	char line[MAX_LINE + 1];
	double t0 = npukb_monotonic_seconds();
	int rc;

	npukb_verdict_init(out, NPUKB_STAGE_COMPILE);
	if (!ctx->task || !ctx->sample || !ctx->backend || !ctx->workdir) {
		npukb_verdict_fail(out, "internal-error",
				   "compile stage called without a task, sample, backend or work directory");
		return 0;
	}
	if (no_code(ctx->sample, line, sizeof(line))) {
		npukb_verdict_fail(out, "no-code", "no code: %s", line);
		out->wall_seconds = npukb_monotonic_seconds() - t0;
		return 0;
	}
	memset(&req, 0, sizeof(req));
	memset(&res, 0, sizeof(res));
	req.task = ctx->task;
	req.sample = ctx->sample;
	req.options = ctx->options;
	req.workdir = ctx->workdir;

	rc = npukb_backend_build(ctx->backend, &req, &res);
	out->wall_seconds = npukb_monotonic_seconds() - t0;
	if (rc < 0) {
		npukb_verdict_fail(out, "internal-error", "backend %s could not build the sample: %s",
				   npukb_backend_name(ctx->backend),
				   res.message ? res.message : strerror(-rc));
		npukb_verdict_set_details(out, res.diagnostics);
		npukb_build_result_clear(&res);
		return 0;
	}

	if (res.skipped) {
		npukb_verdict_skip(out, "%s", res.message ? res.message : "backend cannot build here");
	} else if (res.ok) {
		if (!res.artifact) {
			npukb_verdict_fail(out, "internal-error",
					   "backend %s reported a successful build without an artifact",
					   npukb_backend_name(ctx->backend));
		} else if (!(ctx->artifact_out = strdup(res.artifact))) {
			npukb_verdict_fail(out, "internal-error", "out of memory keeping the artifact path");
		} else {
			size_t warnings = count_warnings(res.diagnostics);
			npukb_verdict_pass(out);
			free(out->message);
			if (warnings == 0)
				out->message = strdup("compiled");
			else if (asprintf(&out->message, "compiled with %zu warning%s", warnings,
					  warnings == 1 ? "" : "s") < 0)
				out->message = NULL;
			/* Warnings are worth keeping: they often explain a later
			 * mismatch (narrowing, uninitialised values). */
			npukb_verdict_set_details(out, res.diagnostics);
		}
	} else if (res.proc.kind == NPUKB_EXIT_VIOLATION || res.proc.limits_hit) {
		/* The sandbox stopped the compiler (a template bomb's memory, a
		 * denied call): its own category, whatever the compiler printed. */
		const char *cat = npukb_sandbox_category(&res.proc);
		char what[256];
		npukb_sandbox_describe(&res.proc, what, sizeof(what));
		npukb_verdict_fail(out, cat ? cat : "other-compile", "compiler %s", what);
		npukb_verdict_set_details(out, res.diagnostics);
	} else if (res.proc.kind == NPUKB_EXIT_TIMEOUT || res.proc.kind == NPUKB_EXIT_CPU_LIMIT) {
		char what[256];
		npukb_sandbox_describe(&res.proc, what, sizeof(what));
		if (res.message && *res.message)
			npukb_verdict_fail(out, "compile-timeout", "%s", res.message);
		else
			npukb_verdict_fail(out, "compile-timeout", "compiler %s", what);
		npukb_verdict_set_details(out, res.diagnostics);
	} else {
		const char *msg;
		char what[256];
		if (first_error_line(res.diagnostics, line, sizeof(line))) {
			msg = line;
		} else if (res.message && *res.message) {
			msg = res.message;
		} else {
			npukb_sandbox_describe(&res.proc, what, sizeof(what));
			snprintf(line, sizeof(line), "compiler %s", what);
			msg = line;
		}
		/* Provisional: the classify stage refines it from the diagnostics. */
		npukb_verdict_fail(out, "other-compile", "%s", msg);
		npukb_verdict_set_details(out, res.diagnostics);
	}
	npukb_build_result_clear(&res);
	return 0;
}

static const struct npukb_stage_ops compile_ops = {
	.stage = NPUKB_STAGE_COMPILE,
	.judge = compile_judge,
};

NPUKB_PLUGIN_EXPORT const struct npukb_plugin npukb_compile_plugin = {
	.abi = NPUKB_PLUGIN_ABI,
	.kind = NPUKB_PLUGIN_STAGE,
	.name = "compile",
	.version = "1.0",
	.description = "builds each sample with the backend and records the diagnostics",
	.init = NULL,
	.fini = NULL,
	.backend = NULL,
	.stage = &compile_ops,
};
