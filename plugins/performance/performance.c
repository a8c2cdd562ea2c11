/* performance.c - the performance stage: time a correct sample on one case.
 *
 * Runs the kernel once more with timing requested, on inputs from a seed
 * the correctness stage did not use, and records what the backend measured
 * (device cycles and/or microseconds). A backend whose cycles are a cost
 * model's (cpusim) is not launched again: the same launch always costs the
 * same, so the cost of the case's first checked launch, which the
 * correctness stage kept, is the figure, and it belongs to a launch whose
 * outputs were checked. Warm-up, repetition and the median
 * are the backend's business (options perf_warmup and perf_runs ask for
 * counts); when a backend reports a median with its spread, the verdict's
 * message carries both. Speedups against the expert answer are the core's,
 * computed from these verdicts. */
#include <npukb/plugin.h>
#include <npukb/util.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Is the sample correct on this case? The verdicts carry no case id; the
 * core judges a case's correctness right before its performance, so this
 * case's verdict is the last correctness verdict in the history. */
static const char *why_not_correct(const struct npukb_stage_ctx *ctx)
{
	const struct npukb_verdict *last = NULL;
	size_t i;
	if (!ctx->artifact)
		return "not correct on this case (the sample did not compile)";
	for (i = 0; i < ctx->nprevious; i++) {
		const struct npukb_verdict *v = &ctx->previous[i];
		if (v->stage == NPUKB_STAGE_COMPILE && v->outcome != NPUKB_PASS)
			return "not correct on this case (the sample did not compile)";
		if (v->stage == NPUKB_STAGE_CORRECTNESS)
			last = v;
	}
	if (!last)
		return "not correct on this case (no correctness verdict)";
	if (last->outcome == NPUKB_SKIPPED)
		return "not correct on this case (correctness was skipped)";
	if (last->outcome != NPUKB_PASS)
		return "not correct on this case";
	return NULL;
}

/* The pass verdict of a run that reported its time. */
static void timed_pass(struct npukb_verdict *out, const struct npukb_run_result *res)
{
	char c[40], us[40];
	int rc;

	npukb_verdict_pass(out);
	out->has_timing = 1;
	out->cycles = res->has_cycles ? res->cycles : 0;
	out->time_us = res->time_us > 0 ? res->time_us : 0;
	free(out->message);
	npukb_fmt_double(c, sizeof(c), res->cycles, 6);
	npukb_fmt_double(us, sizeof(us), res->time_us, 6);
	if (res->has_cycles && res->time_us > 0)
		rc = asprintf(&out->message, "%s cycles, %s us", c, us);
	else if (res->has_cycles)
		rc = asprintf(&out->message, "%s cycles", c);
	else if (res->has_spread) {
		char lo[40], hi[40];
		/* Hardware without a cycle counter: the median and how
		 * far the timed launches strayed from it. */
		rc = asprintf(&out->message, "%s us (median of %u launches; min %s, max %s us)",
			      us, res->timed_runs,
			      npukb_fmt_double(lo, sizeof(lo), res->time_min_us, 6),
			      npukb_fmt_double(hi, sizeof(hi), res->time_max_us, 6));
	} else
		rc = asprintf(&out->message, "%s us", us);
	if (rc < 0)
		out->message = NULL;
	/* Backends put their spread and repetition counts here. What
	 * the sample printed stays out of a passing verdict: it is
	 * the sample's text, and reports are ours (issue 15). */
	if (res->has_spread && res->message && *res->message)
		npukb_verdict_set_details(out, res->message);
	/* No work takes no time: a kernel that returns at once is no
	 * speedup, whatever the quotient says. */
	if (res->has_cycles && !(res->cycles > 0))
		npukb_verdict_add_flag(out, "suspect-speedup");
}

static int performance_judge(struct npukb_stage_ctx *ctx, struct npukb_verdict *out)
{
	const char *why;
	struct npukb_case_data data;
	struct npukb_run_request req;
	struct npukb_run_result res;
	char dir[4096], err[1024];
	unsigned nseeds;
	uint64_t seed;
	double t0 = npukb_monotonic_seconds();
	int rc;

	npukb_verdict_init(out, NPUKB_STAGE_PERFORMANCE);
	if (!ctx->task || !ctx->kcase || !ctx->workdir || !ctx->backend) {
		npukb_verdict_fail(out, "internal-error",
				   "performance stage called without a task, case, backend or work directory");
		return 0;
	}
	why = why_not_correct(ctx);
	if (why) {
		npukb_verdict_skip(out, "%s", why);
		return 0;
	}
	if (ctx->case_correctness && ctx->case_correctness->has_checked_cost) {
		memset(&res, 0, sizeof(res));
		res.ok = res.has_cycles = res.cycles_modelled = 1;
		res.cycles = ctx->case_correctness->checked_cycles;
		res.time_us = ctx->case_correctness->checked_time_us;
		timed_pass(out, &res);
		out->wall_seconds = npukb_monotonic_seconds() - t0;
		return 0;
	}

	nseeds = ctx->options && ctx->options->nseeds ? ctx->options->nseeds : NPUKB_DEFAULT_SEEDS;
	seed = npukb_case_seed(ctx->task, ctx->kcase, ctx->options ? ctx->options->base_seed : 0, nseeds);
	if ((size_t)snprintf(dir, sizeof(dir), "%s/perf", ctx->workdir) >= sizeof(dir)) {
		npukb_verdict_fail(out, "internal-error", "work directory path too long");
		return 0;
	}
	rc = npukb_mkdir_p(dir, 0700);
	if (rc) {
		npukb_verdict_fail(out, "internal-error", "cannot create %s: %s", dir, strerror(-rc));
		return 0;
	}
	/* Timing never compares: no reference outputs, no input hashes. */
	rc = npukb_case_data_prepare_args(ctx->task, ctx->kcase, seed, dir, &data, err,
					  sizeof(err));
	if (rc) {
		npukb_verdict_fail(out, "internal-error", "cannot prepare case %s: %s",
				   ctx->kcase->id, err);
		return 0;
	}

	memset(&req, 0, sizeof(req));
	memset(&res, 0, sizeof(res));
	req.task = ctx->task;
	req.kcase = ctx->kcase;
	req.sample = ctx->sample;
	req.options = ctx->options;
	req.artifact = ctx->artifact;
	req.workdir = dir;
	req.data = &data;
	req.want_timing = 1;
	rc = npukb_backend_run(ctx->backend, &req, &res);
	if (rc < 0) {
		npukb_verdict_fail(out, "internal-error", "backend %s could not run the sample: %s",
				   npukb_backend_name(ctx->backend),
				   res.message ? res.message : strerror(-rc));
	} else if (res.skipped) {
		npukb_verdict_skip(out, "%s", res.message ? res.message : "backend cannot run here");
	} else if (!res.ok) {
		/* Correct a moment ago, failing now: flaky, or different when
		 * timed. Either way the sample has no time to report. */
		char what[256];
		npukb_sandbox_describe(&res.proc, what, sizeof(what));
		npukb_verdict_fail(out, npukb_run_category(&res),
				   "timed run failed: %s", res.message && *res.message ? res.message : what);
		npukb_verdict_set_excerpt(out, res.diagnostics, NPUKB_EXCERPT_MAX);
	} else if (!res.has_cycles && !(res.time_us > 0)) {
		npukb_verdict_skip(out, "backend reports no timing");
	} else {
		timed_pass(out, &res);
	}
	out->wall_seconds = npukb_monotonic_seconds() - t0;
	if (!(ctx->options && ctx->options->keep_workdirs)) {
		npukb_case_data_discard(&data);
		rmdir(dir); /* only when nothing else is left in it */
	} else {
		npukb_case_data_free(&data);
	}
	npukb_run_result_clear(&res);
	return 0;
}

static const struct npukb_stage_ops performance_ops = {
	.stage = NPUKB_STAGE_PERFORMANCE,
	.judge = performance_judge,
};

NPUKB_PLUGIN_EXPORT const struct npukb_plugin npukb_performance_plugin = {
	.abi = NPUKB_PLUGIN_ABI,
	.kind = NPUKB_PLUGIN_STAGE,
	.name = "performance",
	.version = "1.0",
	.description = "times correct samples per case (device cycles and microseconds)",
	.init = NULL,
	.fini = NULL,
	.backend = NULL,
	.stage = &performance_ops,
};
