/* test_journal_read.c - the journal reader: runs kept apart, shards merged,
 * a torn last line skipped with a warning, any other bad line an error with
 * file:line, strict JSON. Fixtures under tests/data/journals/. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "journal_read.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char err[1024];

static void data_path(char *buf, size_t len, const char *name)
{
	const char *root = getenv("NPUKB_SRCDIR");
	if (!root || !*root)
		root = ".";
	cr_assert_lt((size_t)snprintf(buf, len, "%s/tests/data/journals/%s", root, name), len);
}

static int read_data(struct npukb_jset *set, const char *name)
{
	char path[PATH_MAX];
	data_path(path, sizeof(path), name);
	return npukb_journal_read(set, path, err, sizeof(err));
}

/* Journal text in a temporary file; path written to buf. */
static void temp_journal(char *buf, size_t len, const char *text)
{
	int fd;
	cr_assert_lt((size_t)snprintf(buf, len, "/tmp/npukb-jr-XXXXXX"), len);
	fd = mkstemp(buf);
	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static int read_text(struct npukb_jset *set, const char *text)
{
	char path[64];
	int rc;
	temp_journal(path, sizeof(path), text);
	rc = npukb_journal_read(set, path, err, sizeof(err));
	unlink(path);
	return rc;
}

#define HDR "{\"type\":\"run\",\"run\":\"r\",\"backend\":\"cpusim\"}\n"
#define VERDICT(extra)                                                                  \
	"{\"type\":\"verdict\",\"run\":\"r\",\"task\":\"level1/A\",\"sample\":\"s1\","      \
	"\"case\":\"c1\",\"stage\":\"performance\",\"outcome\":\"pass\"" extra "}\n"

Test(journal_read, reads_a_whole_journal)
{
	struct npukb_jset set = { 0 };
	const struct npukb_jrun *r;
	size_t i, timed = 0;
	cr_assert_eq(read_data(&set, "small.jsonl"), 0, "%s", err);
	cr_assert_eq(set.nruns, 1);
	cr_assert_eq(set.nwarnings, 0);
	r = &set.runs[0];
	cr_assert_str_eq(r->run_id, "runA");
	cr_assert_str_eq(r->backend, "cpusim");
	cr_assert_str_eq(r->soc, "ascend910b2");
	cr_assert_str_eq(r->started, "2026-11-20T10:00:00Z");
	cr_assert_eq(r->nsources, 1);
	cr_assert_eq(r->n, 45);
	cr_assert_str_eq(r->v[0].task, "level1/Math/Add");
	cr_assert_str_eq(r->v[0].sample, "answer");
	cr_assert_null(r->v[0].case_id);
	cr_assert_eq(r->v[0].stage, NPUKB_STAGE_COMPILE);
	cr_assert_eq(r->v[0].outcome, NPUKB_PASS);
	for (i = 0; i < r->n; i++)
		timed += r->v[i].has_timing;
	cr_assert_eq(timed, 13);
	cr_assert_eq(r->v[4].stage, NPUKB_STAGE_PERFORMANCE);
	cr_assert_float_eq(r->v[4].cycles, 4000.0, 1e-9);
	cr_assert_float_eq(r->v[4].time_us, 4.0, 1e-12);
	npukb_jset_free(&set);
}

Test(journal_read, torn_last_line_is_a_warning)
{
	struct npukb_jset set = { 0 };
	cr_assert_eq(read_data(&set, "torn.jsonl"), 0, "%s", err);
	cr_assert_eq(set.nruns, 1);
	cr_assert_eq(set.runs[0].n, 2, "the two whole verdicts are kept");
	cr_assert_eq(set.nwarnings, 1);
	cr_assert_not_null(strstr(set.warnings[0], "torn.jsonl:4:"), "%s", set.warnings[0]);
	cr_assert_not_null(strstr(set.warnings[0], "torn"), "%s", set.warnings[0]);
	npukb_jset_free(&set);
}

Test(journal_read, bad_line_is_an_error_with_its_line)
{
	struct npukb_jset set = { 0 };
	cr_assert_eq(read_data(&set, "bad.jsonl"), -EINVAL);
	cr_assert_not_null(strstr(err, "bad.jsonl:3: "), "%s", err);
	cr_assert_not_null(strstr(err, "invalid JSON"), "%s", err);
	npukb_jset_free(&set);
}

Test(journal_read, line_numbers_count_blank_lines)
{
	struct npukb_jset set = { 0 };
	cr_assert_eq(read_data(&set, "badstage.jsonl"), -EINVAL);
	cr_assert_not_null(strstr(err, "badstage.jsonl:3: \"stage\""), "%s", err);
	npukb_jset_free(&set);
}

Test(journal_read, two_runs_in_two_files_stay_apart)
{
	struct npukb_jset set = { 0 };
	cr_assert_eq(read_data(&set, "small.jsonl"), 0, "%s", err);
	cr_assert_eq(read_data(&set, "runB.jsonl"), 0, "%s", err);
	cr_assert_eq(set.nruns, 2);
	cr_assert_str_eq(set.runs[0].run_id, "runA");
	cr_assert_str_eq(set.runs[1].run_id, "runB");
	cr_assert_eq(set.runs[0].n, 45);
	cr_assert_eq(set.runs[1].n, 7);
	cr_assert_eq(set.runs[1].nsources, 1);
	cr_assert_not_null(strstr(set.runs[1].sources[0], "runB.jsonl"));
	npukb_jset_free(&set);
}

Test(journal_read, shards_of_one_run_merge)
{
	struct npukb_jset set = { 0 };
	cr_assert_eq(read_data(&set, "shard1.jsonl"), 0, "%s", err);
	cr_assert_eq(read_data(&set, "shard2.jsonl"), 0, "%s", err);
	cr_assert_eq(set.nruns, 1);
	cr_assert_eq(set.runs[0].n, 4);
	cr_assert_eq(set.runs[0].nsources, 2);
	/* the first header's start time is kept */
	cr_assert_str_eq(set.runs[0].started, "2026-11-21T10:00:00Z");
	npukb_jset_free(&set);
}

Test(journal_read, shards_must_agree_on_the_backend)
{
	struct npukb_jset set = { 0 };
	cr_assert_eq(read_data(&set, "shard1.jsonl"), 0, "%s", err);
	cr_assert_eq(read_data(&set, "conflict.jsonl"), -EINVAL);
	cr_assert_not_null(strstr(err, "conflict.jsonl:1: run runC: backend"), "%s", err);
	npukb_jset_free(&set);
}

Test(journal_read, resumed_run_after_a_torn_record)
{
	struct npukb_jset set = { 0 };
	cr_assert_eq(read_data(&set, "resumed.jsonl"), 0, "%s", err);
	cr_assert_eq(set.nwarnings, 1);
	cr_assert_not_null(strstr(set.warnings[0], "resumed.jsonl:1:"), "%s", set.warnings[0]);
	cr_assert_eq(set.nruns, 1);
	cr_assert_str_eq(set.runs[0].run_id, "runD");
	cr_assert_eq(set.runs[0].n, 2);
	npukb_jset_free(&set);
}

Test(journal_read, missing_file)
{
	struct npukb_jset set = { 0 };
	cr_assert_eq(read_data(&set, "no-such-journal.jsonl"), -ENOENT);
	cr_assert_not_null(strstr(err, "no-such-journal.jsonl"), "%s", err);
	npukb_jset_free(&set);
}

Test(journal_read, empty_file_has_no_run)
{
	struct npukb_jset set = { 0 };
	cr_assert_eq(read_text(&set, ""), 0, "%s", err);
	cr_assert_eq(set.nruns, 0);
	npukb_jset_free(&set);
}

Test(journal_read, verdict_takes_run_from_header)
{
	struct npukb_jset set = { 0 };
	cr_assert_eq(read_text(&set, HDR "{\"type\":\"verdict\",\"task\":\"t\",\"sample\":\"s\","
					 "\"stage\":\"compile\",\"outcome\":\"skipped\"}\n"),
		     0, "%s", err);
	cr_assert_eq(set.nruns, 1);
	cr_assert_eq(set.runs[0].n, 1);
	cr_assert_eq(set.runs[0].v[0].outcome, NPUKB_SKIPPED);
	npukb_jset_free(&set);
}

Test(journal_read, verdict_without_any_run_is_an_error)
{
	struct npukb_jset set = { 0 };
	cr_assert_eq(read_text(&set, "{\"type\":\"verdict\",\"task\":\"t\",\"sample\":\"s\","
				     "\"stage\":\"compile\",\"outcome\":\"pass\"}\n"),
		     -EINVAL);
	cr_assert_not_null(strstr(err, ":1: "), "%s", err);
	npukb_jset_free(&set);
}

Test(journal_read, timing_needs_both_finite_figures)
{
	struct npukb_jset set = { 0 };
	cr_assert_eq(read_text(&set, HDR VERDICT(",\"cycles\":120.5,\"time_us\":1e-1")
				     VERDICT(",\"cycles\":\"nan\",\"time_us\":2")
				     VERDICT(",\"cycles\":3")),
		     0, "%s", err);
	cr_assert_eq(set.runs[0].n, 3);
	cr_assert_eq(set.runs[0].v[0].has_timing, 1);
	cr_assert_float_eq(set.runs[0].v[0].cycles, 120.5, 1e-12);
	cr_assert_float_eq(set.runs[0].v[0].time_us, 0.1, 1e-15);
	cr_assert_eq(set.runs[0].v[1].has_timing, 0);
	cr_assert_eq(set.runs[0].v[2].has_timing, 0);
	npukb_jset_free(&set);
}

Test(journal_read, strings_unescape)
{
	struct npukb_jset set = { 0 };
	cr_assert_eq(read_text(&set, HDR "{\"type\":\"verdict\",\"run\":\"r\",\"task\":"
					 "\"a\\\"b\\\\c\\u00e9\\ud83d\\ude00\\/\",\"sample\":\"s\\tx\","
					 "\"stage\":\"compile\",\"outcome\":\"pass\"}\n"),
		     0, "%s", err);
	cr_assert_str_eq(set.runs[0].v[0].task, "a\"b\\c\xC3\xA9\xF0\x9F\x98\x80/");
	cr_assert_str_eq(set.runs[0].v[0].sample, "s\tx");
	npukb_jset_free(&set);
}

Test(journal_read, unknown_nested_fields_are_ignored)
{
	struct npukb_jset set = { 0 };
	cr_assert_eq(read_text(&set, HDR VERDICT(",\"extra\":{\"a\":[1,2,{\"b\":null}],\"c\":true}")),
		     0, "%s", err);
	cr_assert_eq(set.runs[0].n, 1);
	npukb_jset_free(&set);
}

/* Criterion runs each parameter in a new process: the parameters hold
 * their text, not pointers into this one. */
struct bad_case {
	char line[400];
	char why[64];
};

ParameterizedTestParameters(journal_read, strict_json)
{
	static struct bad_case cases[] = {
		{ "{\"type\":\"run\",\"run\":\"r\",}\n", "expected a key" },
		{ "{\"type\":\"run\",\"run\":\"r\",\"run\":\"q\"}\n", "duplicate key" },
		{ "{\"type\":\"run\",\"run\":\"r\\x\"}\n", "bad escape" },
		{ "{\"type\":\"run\",\"run\":\"r\",\"seeds\":05}\n", "expected ',' or '}'" },
		{ "{\"type\":\"run\",\"run\":\"r\",\"seeds\":1.}\n", "bad number" },
		{ "{\"type\":\"run\",\"run\":\"r\"} x\n", "text after the object" },
		{ "[1,2]\n", "must be a JSON object" },
		{ "{\"type\":\"run\",\"run\":\"r\",\"a\":nul}\n", "expected a value" },
		{ "{\"type\":\"vote\",\"run\":\"r\"}\n", "unknown record type" },
		{ "{\"run\":\"r\"}\n", "needs a \"type\"" },
		{ "{\"type\":\"run\"}\n", "needs a \"run\" id" },
		{ HDR "{\"type\":\"verdict\",\"run\":\"r\",\"task\":\"t\",\"sample\":\"s\","
		      "\"stage\":\"compile\",\"outcome\":\"maybe\"}\n",
		  "\"outcome\" must be" },
		{ HDR "{\"type\":\"verdict\",\"run\":\"r\",\"task\":7,\"sample\":\"s\","
		      "\"stage\":\"compile\",\"outcome\":\"pass\"}\n",
		  "\"task\" string" },
		{ HDR VERDICT(",\"cycles\":\"fast\""), "must be numbers" },
	};
	return cr_make_param_array(struct bad_case, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(struct bad_case *c, journal_read, strict_json)
{
	struct npukb_jset set = { 0 };
	cr_assert_eq(read_text(&set, c->line), -EINVAL, "accepted: %s", c->line);
	cr_assert_not_null(strstr(err, c->why), "error '%s' does not say '%s'", err, c->why);
	cr_assert_not_null(strstr(err, "/tmp/npukb-jr-"), "no file name: %s", err);
	npukb_jset_free(&set);
}

Test(journal_read, invalid_line_in_the_middle_is_not_torn)
{
	struct npukb_jset set = { 0 };
	/* unterminated only counts as torn on the last line; a broken line
	 * that has its newline was written whole and is corrupt */
	cr_assert_eq(read_text(&set, HDR "{\"type\":\"verdict\",\"run\":\"r\",\"ta\n" HDR), -EINVAL);
	cr_assert_not_null(strstr(err, ":2: invalid JSON"), "%s", err);
	npukb_jset_free(&set);
}

Test(journal_read, unterminated_but_whole_last_line_is_kept)
{
	struct npukb_jset set = { 0 };
	cr_assert_eq(read_text(&set, "{\"type\":\"run\",\"run\":\"r\"}"), 0, "%s", err);
	cr_assert_eq(set.nruns, 1);
	cr_assert_eq(set.nwarnings, 0);
	npukb_jset_free(&set);
}
