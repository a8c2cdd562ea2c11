/* test_slice.c - the walking skeleton end to end: AddCustom's expert
 * answer and broken samples through every stage on cpusim, into the
 * journal and a schema-valid JUnit file. */
#include <criterion/criterion.h>

#include "fsutil.h"
#include "cpusim_run.h"
#include "results.h"

#include <libxml/parser.h>
#include <libxml/xmlschemas.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TASK "level1/Math/AddCustom"

static char outdir[] = "/tmp/npukb-slice-XXXXXX";
static struct npukb_results results;
static struct npukb_plugin_set plugins;
static int ran;

static const struct npukb_sample_result *sample(const char *id)
{
	size_t i;
	for (i = 0; i < results.n; i++)
		if (strcmp(results.items[i].sample_id, id) == 0)
			return &results.items[i];
	cr_assert_fail("no result for sample %s", id);
	return NULL;
}

/* Criterion runs each Test in its own process, so the expensive run is done
 * once, in one test, and each check below is a function of it. */
static void run_once(void)
{
	static const char *ids[] = { TASK, NULL };
	static const char *const names[] = { "compile_error", "wrong_result", "hang", "crash",
					     "ub_overflow", NULL };
	struct npukb_run_config cfg;
	char err[8192] = "";
	int rc;

	if (ran)
		return;
	test_cpusim_config(&cfg, &plugins, "levels", outdir);
	cfg.task_ids = ids;
	cfg.sample_dirs = test_sample_dirs("tests/samples/AddCustom", names);
	cfg.include_answer = 1;
	cfg.options.nseeds = 2;
	cfg.options.base_seed = 11;
	cfg.options.run_limits.wall_seconds = 3;
	cfg.options.run_limits.cpu_seconds = 10;
	rc = npukb_run_execute(&cfg, &results, err, sizeof(err));
	cr_assert_eq(rc, 0, "run failed: %s", err);
	ran = 1;
}

static void answer_passes_every_case_with_cycles(void)
{
	const struct npukb_sample_result *s = sample("answer");
	size_t i;
	cr_assert_eq(s->compile.outcome, NPUKB_PASS, "compile: %s\n%s", s->compile.message,
		     s->compile.details);
	cr_assert_eq(s->ncases, 5);
	for (i = 0; i < s->ncases; i++) {
		cr_assert_eq(s->cases[i].correctness.outcome, NPUKB_PASS, "case %s: %s",
			     s->cases[i].case_id, s->cases[i].correctness.message);
		cr_assert_eq(s->cases[i].performance.outcome, NPUKB_PASS);
		cr_assert(s->cases[i].performance.has_timing);
		cr_assert_gt(s->cases[i].performance.cycles, 0);
	}
}

static void compile_error_has_diagnostics_and_category(void)
{
	const struct npukb_sample_result *s = sample("compile_error");
	const char *cat, *rule;
	const struct npukb_verdict *v = npukb_case_outcome(s, 0, &cat, &rule);
	cr_assert_eq(s->compile.outcome, NPUKB_FAIL);
	cr_assert_not_null(s->compile.details);
	cr_assert_not_null(strstr(s->compile.details, "error"), "%s", s->compile.details);
	cr_assert_eq(v, &s->compile);
	cr_assert_str_eq(cat, "api-signature");
	cr_assert_not_null(rule);
}

static void wrong_result_is_a_mismatch_with_figures(void)
{
	const struct npukb_sample_result *s = sample("wrong_result");
	const struct npukb_verdict *v = &s->cases[0].correctness;
	cr_assert_eq(s->compile.outcome, NPUKB_PASS);
	cr_assert_eq(v->outcome, NPUKB_FAIL);
	cr_assert_str_eq(v->category, "mismatch", "%s: %s", v->category, v->message);
	cr_assert(v->has_error_stats);
	cr_assert_gt(v->max_abs_err, 0);
	cr_assert_gt(v->max_rel_err, 0);
	cr_assert_gt(v->bad_count, 0);
	cr_assert_geq(v->first_bad_index, 0);
	cr_assert_eq(s->cases[0].performance.outcome, 0, "no performance for a wrong sample");
}

static void hang_is_a_timeout_and_the_run_goes_on(void)
{
	const struct npukb_sample_result *s = sample("hang");
	size_t i;
	cr_assert_eq(s->compile.outcome, NPUKB_PASS);
	for (i = 0; i < s->ncases; i++) {
		const char *cat, *rule;
		npukb_case_outcome(s, i, &cat, &rule);
		cr_assert_eq(s->cases[i].correctness.outcome, NPUKB_FAIL);
		cr_assert_str_eq(cat, "timeout");
	}
	/* the sample after the hang was still judged */
	cr_assert_eq(sample("crash")->compile.outcome, NPUKB_PASS);
}

/* ub_overflow fits in UB on cases 2 and 4 only: correct there, but a
 * sample that is not correct on every case gets no performance figures. */
static void no_performance_unless_correct_everywhere(void)
{
	const struct npukb_sample_result *s = sample("ub_overflow");
	cr_assert_eq(s->cases[0].correctness.outcome, NPUKB_FAIL);
	cr_assert_eq(s->cases[2].correctness.outcome, NPUKB_PASS, "%s", s->cases[2].correctness.message);
	cr_assert_eq(s->cases[2].performance.outcome, 0);
	cr_assert_eq(s->cases[4].performance.outcome, 0);
}

static void crash_is_a_crash(void)
{
	const struct npukb_sample_result *s = sample("crash");
	const char *cat, *rule;
	npukb_case_outcome(s, 0, &cat, &rule);
	cr_assert_eq(s->cases[0].correctness.outcome, NPUKB_FAIL);
	cr_assert_str_eq(cat, "crash", "%s", s->cases[0].correctness.message);
}

static void reports_written_and_junit_valid(void)
{
	char path[8192], line[1 << 16];
	const char *xsd = getenv("NPUKB_JUNIT_XSD");
	FILE *f;
	size_t verdicts = 0, runs = 0;

	snprintf(path, sizeof(path), "%s/journal.jsonl", outdir);
	f = fopen(path, "r");
	cr_assert_not_null(f);
	while (fgets(line, sizeof(line), f)) {
		runs += strncmp(line, "{\"type\":\"run\"", 13) == 0;
		verdicts += strncmp(line, "{\"type\":\"verdict\"", 17) == 0;
	}
	fclose(f);
	cr_assert_eq(runs, 1);
	/* answer: 1 compile + 5 x (correctness + performance) = 11;
	 * compile_error: compile + classify = 2;
	 * wrong_result: 1 + at least case 0 correctness + classify;
	 * hang and crash: 1 + 5 x (correctness + classify) = 11 each */
	cr_assert_geq(verdicts, 11 + 2 + 3 + 11 + 11, "%zu verdicts", verdicts);

	snprintf(path, sizeof(path), "%s/junit.xml", outdir);
	cr_assert(npukb_is_file(path));
	if (xsd && access(xsd, R_OK) == 0) {
		xmlSchemaParserCtxtPtr pc = xmlSchemaNewParserCtxt(xsd);
		xmlSchemaPtr schema = xmlSchemaParse(pc);
		xmlSchemaValidCtxtPtr vc = xmlSchemaNewValidCtxt(schema);
		cr_assert_eq(xmlSchemaValidateFile(vc, path, 0), 0, "%s invalid", path);
		xmlSchemaFreeValidCtxt(vc);
		xmlSchemaFree(schema);
		xmlSchemaFreeParserCtxt(pc);
	} else if (getenv("NPUKB_REQUIRE_JUNIT_XSD")) {
		cr_assert_fail("JUnit.xsd not found");
	}
	snprintf(path, sizeof(path), "%s/summary.txt", outdir);
	cr_assert(npukb_is_file(path));
}

Test(slice, end_to_end, .timeout = 1200)
{
	run_once();
	answer_passes_every_case_with_cycles();
	compile_error_has_diagnostics_and_category();
	wrong_result_is_a_mismatch_with_figures();
	hang_is_a_timeout_and_the_run_goes_on();
	crash_is_a_crash();
	no_performance_unless_correct_everywhere();
	reports_written_and_junit_valid();
	npukb_results_free(&results);
	npukb_plugins_unload(&plugins);
	npukb_rm_rf(outdir);
}
