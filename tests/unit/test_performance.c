/* test_performance.c - the performance stage with a backend that measures
 * time but no cycles (what ascend-device reports): the verdict carries the
 * median and the spread, and the stage passes the run's repetition counts
 * through the options. The stage's source is compiled in; the backend is a
 * fake whose answer each test sets. */
#include <criterion/criterion.h>

#include "../../plugins/performance/performance.c"
#include "fsutil.h"
#include "plugin_loader.h"

static char n_x[] = "x", n_y[] = "y", n_z[] = "z", n_ws[] = "workspace", n_t[] = "tiling";
static char dt_case[] = "$dtype", x_ref[] = "x", f_total[] = "totalLength",
	    e_total[] = "numel(x)", ref_add[] = "add", id0[] = "0", path[] = "task.xml",
	    rule[] = "default", kernel[] = "add_custom";

static struct npukb_param params[] = {
	{ n_x, NPUKB_PARAM_INPUT, NULL, NULL }, { n_y, NPUKB_PARAM_INPUT, NULL, NULL }, { n_z, NPUKB_PARAM_OUTPUT, NULL, NULL },
	{ n_ws, NPUKB_PARAM_WORKSPACE, NULL, NULL }, { n_t, NPUKB_PARAM_TILING, NULL, NULL },
};
static struct npukb_tensor_decl tensors[] = {
	{ n_x, 0, dt_case, NULL, { NPUKB_DIST_UNIFORM, -1, 1, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL }, 0, 0, 0, 0 },
	{ n_y, 0, dt_case, x_ref, { NPUKB_DIST_UNIFORM, -1, 1, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL }, 0, 0, 0, 0 },
	{ n_z, 1, dt_case, x_ref, { 0, 0, 0, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL }, 0, 0, 0, 0 },
};
static struct npukb_tiling_field fields[] = { { f_total, NPUKB_DT_INT32, 1, e_total } };
static struct npukb_named_shape shapes[] = { { x_ref, { 1, { 64 } }, 0, NULL } };
static struct npukb_case kcase = { id0, NPUKB_DT_FLOAT32, 1, shapes, 0, NULL, 1, 0, NULL, 0, NULL };
static struct npukb_task task;
static char workdir[] = "/tmp/npukb-perf-XXXXXX";

/* What the fake backend answers, and what it was asked. */
static struct npukb_run_result answer;
static unsigned seen_warmup, seen_runs, nruns;
static int seen_timing;

static int fake_probe(char *reason, size_t len)
{
	(void)reason;
	(void)len;
	return 0;
}

static int fake_build(const struct npukb_build_request *req, struct npukb_build_result *res)
{
	(void)req;
	memset(res, 0, sizeof *res);
	return 0;
}

static int fake_run(const struct npukb_run_request *req, struct npukb_run_result *res)
{
	nruns++;
	seen_timing = req->want_timing;
	seen_warmup = req->options->perf_warmup;
	seen_runs = req->options->perf_runs;
	*res = answer;
	res->message = answer.message ? strdup(answer.message) : NULL;
	res->diagnostics = answer.diagnostics ? strdup(answer.diagnostics) : NULL;
	return 0;
}

static const struct npukb_backend_ops fake_ops = {
	.probe = fake_probe, .build = fake_build, .run = fake_run,
};
static const struct npukb_plugin fake_plugin = {
	.abi = NPUKB_PLUGIN_ABI, .kind = NPUKB_PLUGIN_BACKEND, .name = "fake-npu",
	.backend = &fake_ops,
};

static void setup(void)
{
	memset(&task, 0, sizeof(task));
	task.manifest_path = path;
	task.kernel_name = kernel;
	task.nparams = 5;
	task.params = params;
	task.ntensors = 3;
	task.tensors = tensors;
	task.block_dim = 8;
	task.ntiling = 1;
	task.tiling = fields;
	task.tolerance.rule = rule;
	task.reference = ref_add;
	task.ncases = 1;
	task.cases = &kcase;
	strcpy(workdir, "/tmp/npukb-perf-XXXXXX");
	cr_assert_not_null(mkdtemp(workdir));
	memset(&answer, 0, sizeof answer);
	nruns = 0;
}

static void teardown(void)
{
	npukb_rm_rf(workdir);
}

TestSuite(performance, .init = setup, .fini = teardown, .timeout = 30);

/* The performance verdict after a correctness pass; cost, when not NULL,
 * is what a backend with modelled cycles left in that pass. */
static void judge_after(struct npukb_options *opt, const struct npukb_verdict *cost,
			struct npukb_verdict *v)
{
	struct npukb_backend backend = { &fake_plugin, 1, "" };
	struct npukb_verdict correct;
	struct npukb_stage_ctx ctx;

	npukb_verdict_init(&correct, NPUKB_STAGE_CORRECTNESS);
	npukb_verdict_pass(&correct);
	if (cost) {
		correct.has_checked_cost = cost->has_checked_cost;
		correct.checked_cycles = cost->checked_cycles;
		correct.checked_time_us = cost->checked_time_us;
	}
	memset(&ctx, 0, sizeof ctx);
	ctx.task = &task;
	ctx.kcase = &kcase;
	ctx.options = opt;
	ctx.backend = &backend;
	ctx.workdir = workdir;
	ctx.artifact = "/nonexistent/npukb_host";
	ctx.previous = &correct;
	ctx.nprevious = 1;
	ctx.case_correctness = &correct;
	cr_assert_eq(performance_judge(&ctx, v), 0);
	npukb_verdict_clear(&correct);
}

static void judge(struct npukb_options *opt, struct npukb_verdict *v)
{
	judge_after(opt, NULL, v);
}

/* cpusim: the same launch always costs the same, so the cost of the
 * checked launch is reported and the kernel is not launched again. */
Test(performance, a_modelled_cost_is_the_checked_launchs)
{
	struct npukb_options opt;
	struct npukb_verdict v, cost;

	memset(&opt, 0, sizeof opt);
	memset(&cost, 0, sizeof cost);
	cost.has_checked_cost = 1;
	cost.checked_cycles = 4096;
	cost.checked_time_us = 2.5;
	answer.ok = 1;
	answer.has_cycles = 1;
	answer.cycles = 1; /* what a launch would say: must not be asked */
	judge_after(&opt, &cost, &v);
	cr_expect_eq(nruns, 0, "the kernel was launched again");
	cr_assert_eq(v.outcome, NPUKB_PASS, "%s", v.message);
	cr_expect(v.has_timing);
	cr_expect_float_eq(v.cycles, 4096, 1e-9);
	cr_expect_float_eq(v.time_us, 2.5, 1e-9);
	cr_expect_str_eq(v.message, "4096 cycles, 2.5 us");
	npukb_verdict_clear(&v);

	/* without a checked cost (measured time): a timed launch */
	judge_after(&opt, NULL, &v);
	cr_expect_eq(nruns, 1);
	cr_expect_float_eq(v.cycles, 1, 1e-9);
	npukb_verdict_clear(&v);
}

Test(performance, time_with_spread_and_no_cycles)
{
	struct npukb_options opt;
	struct npukb_verdict v;

	memset(&opt, 0, sizeof opt);
	opt.perf_warmup = 3;
	opt.perf_runs = 11;
	answer.ok = 1;
	answer.time_us = 12.5;
	answer.has_spread = 1;
	answer.time_min_us = 11.25;
	answer.time_max_us = 20;
	answer.timed_runs = 11;
	answer.message = (char *)"median 12.500 us (min 11.250, max 20.000) over 11 timed launches "
				 "after 3 warm-ups";
	judge(&opt, &v);
	cr_assert(seen_timing);
	cr_assert_eq(seen_warmup, 3);
	cr_assert_eq(seen_runs, 11);
	cr_assert_eq(v.outcome, NPUKB_PASS, "%s", v.message);
	cr_assert(v.has_timing);
	cr_assert_float_eq(v.time_us, 12.5, 1e-9);
	cr_assert_float_eq(v.cycles, 0, 1e-9);
	cr_assert_str_eq(v.message, "12.5 us (median of 11 launches; min 11.25, max 20 us)");
	cr_assert_not_null(v.details);
	cr_assert(strstr(v.details, "after 3 warm-ups"), "%s", v.details);
	npukb_verdict_clear(&v);
}

Test(performance, time_without_spread_keeps_the_short_message)
{
	struct npukb_options opt;
	struct npukb_verdict v;

	memset(&opt, 0, sizeof opt);
	answer.ok = 1;
	answer.time_us = 7;
	judge(&opt, &v);
	cr_assert_eq(seen_runs, 0, "0 asks for the backend's default");
	cr_assert_eq(v.outcome, NPUKB_PASS, "%s", v.message);
	cr_assert_str_eq(v.message, "7 us");
	npukb_verdict_clear(&v);
}

Test(performance, skipped_backend_is_a_skip_with_its_reason)
{
	struct npukb_options opt;
	struct npukb_verdict v;

	memset(&opt, 0, sizeof opt);
	answer.skipped = 1;
	answer.message = (char *)"CANN found at /x but no NPU device (/dev/davinci0 missing)";
	judge(&opt, &v);
	cr_assert_eq(v.outcome, NPUKB_SKIPPED);
	cr_assert(strstr(v.message, "/dev/davinci0 missing"), "%s", v.message);
	cr_assert_not(v.has_timing);
	npukb_verdict_clear(&v);
}

/* What a passing sample printed is its own text: no report carries it. */
Test(performance, passing_run_drops_what_the_sample_printed)
{
	struct npukb_options opt;
	struct npukb_verdict v;

	memset(&opt, 0, sizeof opt);
	answer.ok = 1;
	answer.has_cycles = 1;
	answer.cycles = 1000;
	answer.time_us = 0.5;
	answer.diagnostics = (char *)"root:x:0:0:SECRET-PASSWD-LINE\n";
	judge(&opt, &v);
	cr_assert_eq(v.outcome, NPUKB_PASS, "%s", v.message);
	cr_assert_null(v.details, "%s", v.details);
	cr_assert_null(strstr(v.message, "SECRET"), "%s", v.message);
	cr_assert_not(npukb_verdict_has_flag(&v, "suspect-speedup"), "%s", v.flags);
	npukb_verdict_clear(&v);
}

/* A failing run keeps the tail of what it printed, capped. */
Test(performance, failing_run_keeps_a_capped_excerpt)
{
	struct npukb_options opt;
	struct npukb_verdict v;
	size_t n = 100000, i;
	char *text = malloc(n + 32);

	cr_assert_not_null(text);
	for (i = 0; i < n; i++)
		text[i] = i % 64 == 63 ? '\n' : 'a';
	strcpy(text + n, "LAST-WORDS\n");
	memset(&opt, 0, sizeof opt);
	answer.proc.kind = NPUKB_EXIT_SIGNAL;
	answer.proc.signal = 11;
	answer.diagnostics = text;
	judge(&opt, &v);
	cr_assert_eq(v.outcome, NPUKB_FAIL, "%s", v.message);
	cr_assert_not_null(v.details);
	cr_assert_leq(strlen(v.details), NPUKB_EXCERPT_MAX + 64, "%zu bytes kept", strlen(v.details));
	cr_assert(strstr(v.details, "LAST-WORDS"), "the tail is kept");
	cr_assert(strstr(v.details, "bytes of output left out"), "%.80s", v.details);
	npukb_verdict_clear(&v);
	free(text);
}

/* A kernel that does no work reports no time: its "speedup" is suspect. */
Test(performance, zero_cycles_is_a_suspect_speedup)
{
	struct npukb_options opt;
	struct npukb_verdict v;

	memset(&opt, 0, sizeof opt);
	answer.ok = 1;
	answer.has_cycles = 1;
	answer.cycles = 0;
	answer.time_us = 0;
	judge(&opt, &v);
	cr_assert_eq(v.outcome, NPUKB_PASS, "%s", v.message);
	cr_assert(npukb_verdict_has_flag(&v, "suspect-speedup"), "flags: %s", v.flags);
	npukb_verdict_clear(&v);
}
