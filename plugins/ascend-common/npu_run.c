/* npu_run.c - run a generated program on the NPU (see npu_run.h). */
#include "npu_run.h"
#include "cann_probe.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_TEXT (256 * 1024)
#define EXIT_USAGE 2

int npukb_ascend_read_stats(const char *path, struct npukb_ascend_stats *out)
{
	char key[32];
	double v;
	unsigned seen = 0;
	FILE *f;

	memset(out, 0, sizeof *out);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fscanf(f, "%31s %lf", key, &v) == 2) {
		if (strcmp(key, "median_us") == 0) {
			out->median_us = v;
			seen |= 1;
		} else if (strcmp(key, "min_us") == 0) {
			out->min_us = v;
			seen |= 2;
		} else if (strcmp(key, "max_us") == 0) {
			out->max_us = v;
			seen |= 4;
		} else if (strcmp(key, "runs") == 0 && v >= 0 && v < 1e9) {
			out->runs = (unsigned)v;
			seen |= 8;
		} else if (strcmp(key, "warmup") == 0 && v >= 0 && v < 1e9) {
			out->warmup = (unsigned)v;
		}
	}
	fclose(f);
	if (seen != 15 || out->runs == 0)
		return -EINVAL;
	return 0;
}

char *npukb_npu_read_text(const char *path, size_t max)
{
	static const char cut[] = "\n[... output truncated by npukb]\n";
	FILE *f = fopen(path, "re");
	char *text;
	size_t n;

	if (!f)
		return NULL;
	text = malloc(max + sizeof cut);
	if (text) {
		n = fread(text, 1, max, f);
		if (n == max && fgetc(f) != EOF)
			memcpy(text + n, cut, sizeof cut);
		else
			text[n] = '\0';
		if (n == 0) {
			free(text);
			text = NULL;
		}
	}
	fclose(f);
	return text;
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

int npukb_npu_run(const char *what, char *const *argv, char *const *envp, const char *work,
		  const char *const *reads,
		  const struct npukb_limits *limits, int want_timing, struct npukb_npu_health *h,
		  struct npukb_run_result *res)
{
	struct npukb_sandbox_spec spec;
	struct npukb_ascend_stats st;
	char err[512], desc[256];
	char *errpath = npukb_cann_strf("%s/%s", work, NPUKB_NPU_RUN_ERR);
	char *stats = npukb_cann_strf("%s/%s", work, NPUKB_NPU_STATS_NAME);
	char *line = NULL;
	int rc = 0;

	if (!errpath || !stats) {
		rc = -ENOMEM;
		goto out;
	}
	unlink(stats);
	/* Between samples (another program than the last one run) and while an
	 * earlier sample's run left it wedged, the device is checked first: an
	 * earlier sample may have broken it without failing itself. While the
	 * check fails, this sample is not judged on it. */
	if (h->wedged || (h->last[0] && strcmp(h->last, argv[0]) != 0)) {
		if (npukb_npu_health_check(h, argv[0], envp, work, reads) != 1) {
			res->skipped = 1;
			res->message = npukb_cann_strf("not run: %s (since an earlier sample)",
						  h->why);
			goto out;
		}
	}
	snprintf(h->last, sizeof h->last, "%s", argv[0]);
	memset(&spec, 0, sizeof spec);
	spec.argv = (const char *const *)argv;
	spec.read_paths = reads;
	spec.envp = (const char *const *)envp;
	spec.workdir = work;
	spec.stdout_path = NPUKB_NPU_RUN_OUT;
	spec.stderr_path = NPUKB_NPU_RUN_ERR;
	spec.limits = npukb_npu_run_limits(limits);
	spec.isolate_network = 1;
	rc = npukb_sandbox_run(&spec, &res->proc, err, sizeof err);
	if (rc < 0) {
		res->message = npukb_cann_strf("cannot start the %s: %s", what, err);
		goto out;
	}
	res->diagnostics = npukb_npu_read_text(errpath, MAX_TEXT);
	npukb_sandbox_describe(&res->proc, desc, sizeof desc);
	if (res->proc.kind != NPUKB_EXIT_NORMAL || res->proc.exit_code != 0) {
		line = res->diagnostics ? last_line(res->diagnostics) : NULL;
		/* Anything but a refused command line may have left the device
		 * in a bad state: say so now, and keep the next samples off it. */
		if (!(res->proc.kind == NPUKB_EXIT_NORMAL && res->proc.exit_code == EXIT_USAGE))
			npukb_npu_health_check(h, argv[0], envp, work, reads);
		res->message = npukb_cann_strf("%s %s%s%s%s%s", what, desc, line ? ": " : "",
					  line ? line : "", h->wedged ? "; then " : "",
					  h->wedged ? h->why : "");
		goto out;
	}
	if (!want_timing) {
		res->ok = 1;
		res->message = strdup("ran on the NPU");
		goto out;
	}
	rc = npukb_ascend_read_stats(stats, &st);
	if (rc < 0) {
		res->message = npukb_cann_strf("%s wrote no usable timing (%s)", what, strerror(-rc));
		rc = 0;
		goto out;
	}
	res->ok = 1;
	res->time_us = st.median_us;
	res->has_spread = 1;
	res->time_min_us = st.min_us;
	res->time_max_us = st.max_us;
	res->timed_runs = st.runs;
	res->message = npukb_cann_strf("median %.3f us (min %.3f, max %.3f) over %u timed launches "
				  "after %u warm-ups",
				  st.median_us, st.min_us, st.max_us, st.runs, st.warmup);
out:
	if (rc == 0 && !res->message)
		rc = -ENOMEM;
	free(errpath);
	free(stats);
	free(line);
	return rc;
}
