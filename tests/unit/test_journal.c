/* test_journal.c - the journal as the run writes it, read back by the
 * reader `report`, `leaderboard` and `merge` use: every field of a verdict
 * record survives (its figures and times included), records are capped
 * and written whole even by concurrent writers, each is synced, and the
 * end-of-run record tells a complete run from a killed one (issue 15). */
#include "config.h"
#include <criterion/criterion.h>

#include "journal.h"
#include "journal_read.h"
#include "fsutil.h"
#include "render_run.h"
#include "journal_resume.h"
#include "metrics.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* The executable's fdatasync wins over libc's for libnpukb too: every call
 * the journal makes is counted, then done for real. */
static int syncs;
int fdatasync(int fd)
{
	syncs++;
	return (int)syscall(SYS_fdatasync, fd);
}

static char dir[] = "/tmp/npukb-journal-XXXXXX";
static char path[256], err[1024];

static void setup(void)
{
	strcpy(dir, "/tmp/npukb-journal-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/journal.jsonl", dir);
	syncs = 0;
}

static void teardown(void)
{
	unlink(path);
	rmdir(dir);
}

TestSuite(journal, .init = setup, .fini = teardown, .timeout = 60);

static void open_begin(struct npukb_journal *j, const char *run)
{
	cr_assert_eq(npukb_journal_open(j, path, run, err, sizeof err), 0, "%s", err);
	cr_assert_eq(npukb_journal_begin(j, "cpusim", "g++ 12", "ascend910b2", 3, 7, "host-a"), 0);
}

static void read_back(struct npukb_jset *set)
{
	memset(set, 0, sizeof *set);
	cr_assert_eq(npukb_journal_read(set, path, err, sizeof err), 0, "%s", err);
}

Test(journal, every_field_of_a_verdict_comes_back)
{
	struct npukb_journal j;
	struct npukb_jset set;
	struct npukb_verdict c, p;
	const struct npukb_jverdict *v;
	const char *details = "line one \"quoted\"\n\ttab \\ backslash \xc3\xa9 end";

	npukb_verdict_init(&c, NPUKB_STAGE_CORRECTNESS);
	npukb_verdict_fail(&c, "mismatch", "seed %u: 3 of 64 elements out of tolerance", 2u);
	npukb_verdict_set_details(&c, details);
	npukb_verdict_set_rule(&c, "mismatch-rule");
	npukb_verdict_add_flag(&c, "suspect-constant-output");
	/* listed once each, in order, whatever the repeats */
	npukb_verdict_add_defects(&c, "out-of-bounds: 32 bytes past x at k.cpp:4\nsync-race: same values at k.cpp:9");
	npukb_verdict_add_defects(&c, "sync-race: same values at k.cpp:9\n");
	c.has_error_stats = 1;
	c.max_abs_err = 0.25;
	c.max_rel_err = NAN;
	c.bad_count = 3;
	c.first_bad_index = 17;
	c.expected_at_first = 1.5;
	c.actual_at_first = -INFINITY;
	c.wall_seconds = 0.125;
	npukb_verdict_init(&p, NPUKB_STAGE_PERFORMANCE);
	npukb_verdict_pass(&p);
	p.has_timing = 1;
	p.cycles = 21576;
	p.time_us = 11.2375;
	p.wall_seconds = 2.5;

	open_begin(&j, "run-1");
	cr_assert_eq(npukb_journal_append(&j, "level1/Math/AddCustom", "s1", "4", &c), 0);
	cr_assert_eq(npukb_journal_append(&j, "level1/Math/AddCustom", "s1", NULL, &p), 0);
	cr_assert_eq(npukb_journal_end(&j), 0);
	npukb_journal_close(&j);
	cr_assert_eq(syncs, 4, "every record synced: %d fdatasync calls", syncs);

	read_back(&set);
	cr_assert_eq(set.nruns, 1);
	cr_assert_str_eq(set.runs[0].run_id, "run-1");
	cr_assert_str_eq(set.runs[0].backend, "cpusim");
	cr_assert_str_eq(set.runs[0].soc, "ascend910b2");
	cr_assert_str_eq(set.runs[0].toolchain, "g++ 12");
	cr_assert_not_null(set.runs[0].started);
	cr_assert(npukb_jrun_complete(&set.runs[0]));
	cr_assert_eq(set.runs[0].n, 2);

	v = &set.runs[0].v[0];
	cr_assert_str_eq(v->task, "level1/Math/AddCustom");
	cr_assert_str_eq(v->sample, "s1");
	cr_assert_str_eq(v->case_id, "4");
	cr_assert_eq(v->stage, NPUKB_STAGE_CORRECTNESS);
	cr_assert_eq(v->outcome, NPUKB_FAIL);
	cr_assert_str_eq(v->category, "mismatch");
	cr_assert_str_eq(v->rule, "mismatch-rule");
	cr_assert_str_eq(v->message, "seed 2: 3 of 64 elements out of tolerance");
	cr_assert_str_eq(v->flags, "suspect-constant-output");
	cr_assert_str_eq(v->defects, "out-of-bounds: 32 bytes past x at k.cpp:4\nsync-race: same values at k.cpp:9\n");
	cr_assert_str_eq(v->details, details);
	cr_assert(v->has_error_stats);
	cr_assert_float_eq(v->max_abs_err, 0.25, 1e-15);
	cr_assert(isnan(v->max_rel_err));
	cr_assert_eq(v->bad_count, 3);
	cr_assert_eq(v->first_bad_index, 17);
	cr_assert_float_eq(v->expected_at_first, 1.5, 1e-15);
	cr_assert(isinf(v->actual_at_first) && v->actual_at_first < 0);
	cr_assert_float_eq(v->wall_seconds, 0.125, 1e-15);
	cr_assert_not(v->has_timing);

	v = &set.runs[0].v[1];
	cr_assert_null(v->case_id);
	cr_assert_eq(v->stage, NPUKB_STAGE_PERFORMANCE);
	cr_assert_eq(v->outcome, NPUKB_PASS);
	cr_assert_null(v->category);
	cr_assert_null(v->message);
	cr_assert_null(v->flags);
	cr_assert_null(v->defects);
	cr_assert_null(v->details);
	cr_assert(v->has_timing, "cycles and time_us both recorded");
	cr_assert_float_eq(v->cycles, 21576, 1e-9);
	cr_assert_float_eq(v->time_us, 11.2375, 1e-12);
	cr_assert_float_eq(v->wall_seconds, 2.5, 1e-15);
	cr_assert_not(v->has_error_stats);

	npukb_jset_free(&set);
	npukb_verdict_clear(&c);
	npukb_verdict_clear(&p);
}

/* Issue 17: what merge compares across shards comes back from the header. */
Test(journal, a_shard_header_comes_back)
{
	struct npukb_journal j;
	struct npukb_journal_header h;
	struct npukb_jset set;
	const struct npukb_jrun *r;
	memset(&h, 0, sizeof h);
	h.backend = "cpusim";
	h.identity = "g++ 12";
	h.soc = "ascend910b2";
	h.nseeds = 3;
	h.base_seed = 9;
	h.hostname = "node7";
	h.npukb = "9.8.7";
	h.sandbox = "none";
	h.shard_index = 2;
	h.shard_count = 5;
	h.units = 4;
	h.units_total = 21;
	cr_assert_eq(npukb_journal_open(&j, path, "r1", err, sizeof err), 0, "%s", err);
	cr_assert_eq(npukb_journal_write_header(&j, &h), 0);
	cr_assert_eq(npukb_journal_end(&j), 0);
	npukb_journal_close(&j);
	read_back(&set);
	cr_assert_eq(set.nruns, 1);
	r = &set.runs[0];
	cr_assert_str_eq(r->shard, "2/5");
	cr_assert(r->has_shard_units);
	cr_assert_eq(r->shard_units, 4);
	cr_assert_eq(r->shard_units_total, 21);
	cr_assert(r->has_seeds);
	cr_assert_eq(r->nseeds, 3);
	cr_assert_eq(r->base_seed, 9);
	cr_assert_str_eq(r->npukb, "9.8.7");
	cr_assert_str_eq(r->sandbox, "none");
	cr_assert_str_eq(r->host, "node7");
	npukb_jset_free(&set);
}

/* A whole run's header has no shard fields. */
Test(journal, a_whole_run_has_no_shard)
{
	struct npukb_journal j;
	struct npukb_jset set;
	open_begin(&j, "r1");
	npukb_journal_close(&j);
	read_back(&set);
	cr_assert_null(set.runs[0].shard);
	cr_assert(!set.runs[0].has_shard_units);
	cr_assert(set.runs[0].has_seeds);
	cr_assert_eq(set.runs[0].base_seed, 7);
	cr_assert_str_eq(set.runs[0].npukb, PACKAGE_VERSION);
	npukb_jset_free(&set);
}

Test(journal, a_run_without_its_end_record_is_incomplete)
{
	struct npukb_journal j;
	struct npukb_jset set;
	struct npukb_verdict c;

	npukb_verdict_init(&c, NPUKB_STAGE_COMPILE);
	npukb_verdict_pass(&c);
	open_begin(&j, "run-killed");
	cr_assert_eq(npukb_journal_append(&j, "t", "s", NULL, &c), 0);
	npukb_journal_close(&j);

	read_back(&set);
	cr_assert_eq(set.nruns, 1);
	cr_assert_not(npukb_jrun_complete(&set.runs[0]));
	cr_assert_eq(set.nwarnings, 0);
	cr_assert_eq(npukb_jset_warn_incomplete(&set), 0);
	cr_assert_eq(set.nwarnings, 1);
	cr_assert(strstr(set.warnings[0], path), "%s", set.warnings[0]);
	cr_assert(strstr(set.warnings[0], "run-killed is incomplete"), "%s", set.warnings[0]);
	npukb_jset_free(&set);
}

/* The longest line of the journal, in bytes. */
static size_t longest_line(void)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0, most = 0;
	ssize_t n;
	cr_assert_not_null(f);
	while ((n = getline(&line, &cap, f)) > 0)
		if ((size_t)n > most)
			most = (size_t)n;
	free(line);
	fclose(f);
	return most;
}

Test(journal, a_huge_record_is_capped_and_says_so)
{
	struct npukb_journal j;
	struct npukb_jset set;
	struct npukb_verdict c;
	size_t n = 1 << 20, i;
	char *text = malloc(n + 1), *msg = malloc(20001);

	cr_assert(text && msg);
	/* quotes and backslashes: each grows to two when escaped */
	for (i = 0; i < n; i++)
		text[i] = i < 8 ? "FIRSTERR"[i] : "\"\\a"[i % 3];
	text[n] = '\0';
	memset(msg, 'm', 20000);
	msg[20000] = '\0';
	npukb_verdict_init(&c, NPUKB_STAGE_COMPILE);
	npukb_verdict_fail(&c, "syntax", "%s", msg);
	npukb_verdict_set_details(&c, text);
	open_begin(&j, "run-big");
	cr_assert_eq(npukb_journal_append(&j, "t", "s", NULL, &c), 0);
	npukb_journal_close(&j);
	cr_assert_leq(longest_line(), NPUKB_JOURNAL_RECORD_MAX);

	read_back(&set);
	cr_assert_eq(set.runs[0].n, 1);
	cr_assert_eq(strncmp(set.runs[0].v[0].details, "FIRSTERR", 8), 0, "the head is kept");
	cr_assert(strstr(set.runs[0].v[0].details, "bytes cut"), "the cut is said");
	cr_assert_lt(strlen(set.runs[0].v[0].message), 1200);
	npukb_jset_free(&set);
	npukb_verdict_clear(&c);
	free(text);
	free(msg);
}

/* Writers racing on one journal: records are single write()s on an
 * O_APPEND file, so none tears or interleaves with another. */
Test(journal, concurrent_writers_never_interleave)
{
	enum { WRITERS = 4, RECORDS = 40 };
	struct npukb_jset set;
	size_t total = 0, r;
	int w;
	char *text = malloc(40001);

	cr_assert_not_null(text);
	memset(text, 'x', 40000);
	text[40000] = '\0';
	for (w = 0; w < WRITERS; w++) {
		pid_t pid = fork();
		cr_assert_geq(pid, 0);
		if (pid == 0) {
			struct npukb_journal j;
			struct npukb_verdict c;
			char run[16];
			int k, bad = 0;
			snprintf(run, sizeof run, "w%d", w);
			if (npukb_journal_open(&j, path, run, err, sizeof err) != 0)
				_exit(2);
			bad |= npukb_journal_begin(&j, "cpusim", "x", "soc", 1, 1, "h") != 0;
			npukb_verdict_init(&c, NPUKB_STAGE_COMPILE);
			npukb_verdict_fail(&c, "syntax", "record");
			npukb_verdict_set_details(&c, text);
			for (k = 0; k < RECORDS; k++)
				bad |= npukb_journal_append(&j, "t", run, NULL, &c) != 0;
			bad |= npukb_journal_end(&j) != 0;
			npukb_journal_close(&j);
			_exit(bad);
		}
	}
	for (w = 0; w < WRITERS; w++) {
		int status;
		cr_assert_gt(wait(&status), 0);
		cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	read_back(&set);
	cr_assert_eq(set.nwarnings, 0, "%s", set.nwarnings ? set.warnings[0] : "");
	cr_assert_eq(set.nruns, WRITERS);
	for (r = 0; r < set.nruns; r++) {
		total += set.runs[r].n;
		cr_assert(npukb_jrun_complete(&set.runs[r]));
	}
	cr_assert_eq(total, WRITERS * RECORDS);
	npukb_jset_free(&set);
	free(text);
}

/* A unit's records: rendered into a batch, then appended together with
 * the unit record that names its cases, in one write and one sync. */
static void judge_unit(struct npukb_journal *j, const char *task, const char *sample,
		       size_t index, int compile_ok)
{
	static const char *const cases[] = { "0", "4" };
	struct npukb_journal_batch b;
	struct npukb_journal_unit u;
	struct npukb_verdict v;
	size_t i;

	memset(&b, 0, sizeof b);
	npukb_verdict_init(&v, NPUKB_STAGE_COMPILE);
	if (compile_ok)
		npukb_verdict_pass(&v);
	else
		npukb_verdict_fail(&v, "syntax", "expected ';'");
	cr_assert_eq(npukb_journal_batch_add(&b, j, task, sample, NULL, &v), 0);
	npukb_verdict_clear(&v);
	for (i = 0; compile_ok && i < 2; i++) {
		npukb_verdict_init(&v, NPUKB_STAGE_CORRECTNESS);
		if (i == 0)
			npukb_verdict_pass(&v);
		else
			npukb_verdict_fail(&v, "mismatch", "case %s wrong", cases[i]);
		cr_assert_eq(npukb_journal_batch_add(&b, j, task, sample, cases[i], &v), 0);
		npukb_verdict_clear(&v);
	}
	memset(&u, 0, sizeof u);
	u.task = task;
	u.sample = sample;
	u.is_answer = strcmp(sample, "answer") == 0;
	u.index = index;
	u.case_ids = cases;
	u.ncases = 2;
	cr_assert_eq(npukb_journal_batch_commit(j, &b, &u), 0);
	cr_assert_eq(b.len, 0, "a committed batch is empty");
	npukb_journal_batch_free(&b);
}

Test(journal, a_unit_is_appended_whole_with_its_unit_record)
{
	struct npukb_journal j;
	struct npukb_jset set;
	const struct npukb_jrun *r;

	open_begin(&j, "run-units");
	judge_unit(&j, "level1/A/B", "answer", 0, 1);
	cr_assert_eq(syncs, 2, "header, then one sync for the whole unit: %d", syncs);
	judge_unit(&j, "level1/A/B", "broken", 1, 0);
	cr_assert_eq(npukb_journal_end(&j), 0);
	npukb_journal_close(&j);

	read_back(&set);
	r = &set.runs[0];
	cr_assert_eq(r->n, 4);
	cr_assert_eq(r->nunits, 2);
	cr_assert_str_eq(r->units[0].task, "level1/A/B");
	cr_assert_str_eq(r->units[0].sample, "answer");
	cr_assert(r->units[0].is_answer);
	cr_assert_str_eq(r->units[0].cases, "0 4");
	cr_assert_eq(r->units[0].first, 0);
	cr_assert_eq(r->units[0].nverdicts, 3);
	cr_assert_str_eq(r->units[1].sample, "broken");
	cr_assert_not(r->units[1].is_answer);
	cr_assert_eq(r->units[1].index, 1);
	cr_assert_eq(r->units[1].first, 3);
	cr_assert_eq(r->units[1].nverdicts, 1);
	cr_assert_eq(r->level, 0);
	cr_assert(r->has_seeds);
	cr_assert_eq(r->nseeds, 3);
	cr_assert_str_eq(r->host, "host-a");
	npukb_jset_free(&set);
}

Test(journal, a_unit_record_must_follow_its_own_verdicts)
{
	struct npukb_jset set;
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs("{\"type\":\"run\",\"run\":\"r\",\"backend\":\"cpusim\"}\n"
	      "{\"type\":\"verdict\",\"task\":\"t\",\"sample\":\"other\",\"case\":null,"
	      "\"stage\":\"compile\",\"outcome\":\"pass\"}\n"
	      "{\"type\":\"unit\",\"run\":\"r\",\"task\":\"t\",\"sample\":\"s\",\"index\":0,"
	      "\"answer\":false,\"verdicts\":1,\"cases\":\"0\"}\n", f);
	fclose(f);
	memset(&set, 0, sizeof set);
	cr_assert_eq(npukb_journal_read(&set, path, err, sizeof err), -EINVAL);
	cr_assert(strstr(err, ":3: the unit record of t s follows a verdict of t other"), "%s", err);
	npukb_jset_free(&set);
}

/* The reports are the journal's: rendered from it alone, units in the
 * order of the run's plan whatever order they were appended in, a unit
 * whose compile failed listing every case its unit record names. */
Test(journal, reports_are_rendered_from_the_journal)
{
	struct npukb_journal j;
	struct npukb_results res;
	char file[512], *text = NULL;
	size_t len = 0;
	FILE *f;

	open_begin(&j, "run-render");
	judge_unit(&j, "level1/A/B", "broken", 1, 0);
	judge_unit(&j, "level1/A/B", "answer", 0, 1);
	cr_assert_eq(npukb_journal_end(&j), 0);
	npukb_journal_close(&j);

	cr_assert_eq(npukb_render_run_reports(dir, NULL, &res, err, sizeof err), 0, "%s", err);
	cr_assert_eq(res.n, 2);
	cr_assert_str_eq(res.run_id, "run-render");
	cr_assert_str_eq(res.hostname, "host-a");
	cr_assert_str_eq(res.items[0].sample_id, "answer");
	cr_assert(res.items[0].is_answer);
	cr_assert_eq(res.items[0].cases[1].correctness.outcome, NPUKB_FAIL);
	cr_assert_str_eq(res.items[0].cases[1].correctness.message, "case 4 wrong");
	cr_assert_str_eq(res.items[1].sample_id, "broken");
	cr_assert_eq(res.items[1].ncases, 2);
	cr_assert_str_eq(res.items[1].cases[0].case_id, "0");
	cr_assert_str_eq(res.items[1].cases[1].case_id, "4");
	cr_assert_eq(res.items[1].compile.outcome, NPUKB_FAIL);
	npukb_results_free(&res);

	snprintf(file, sizeof file, "%s/summary.txt", dir);
	f = fopen(file, "r");
	cr_assert_not_null(f, "summary.txt written");
	cr_assert_gt(getdelim(&text, &len, '\0', f), 0);
	fclose(f);
	cr_assert(strstr(text, "level1/A/B\tanswer\tcase 0\tpass\nlevel1/A/B\tanswer\tcase 4\tfail"
			       "\tmismatch\tcase 4 wrong\nlevel1/A/B\tbroken\tcase 0\tfail\tsyntax"),
		  "%s", text);
	cr_assert(strstr(text, "1 passed, 3 failed, 0 skipped"), "%s", text);
	free(text);
	snprintf(file, sizeof file, "%s/junit.xml", dir);
	cr_assert_eq(access(file, F_OK), 0, "junit.xml written");
	snprintf(file, sizeof file, "%s/results.xml", dir);
	cr_assert_eq(access(file, F_OK), 0, "results.xml written");
	npukb_rm_rf(dir);
}

/* --label goes into the header record, comes back through the reader,
 * and reaches summary.txt, results.xml and the metrics; a run without one
 * has none. */
Test(journal, a_run_label_is_kept_and_shown)
{
	struct npukb_journal j;
	struct npukb_jset set;
	struct npukb_results res;
	struct npukb_run_metrics m;
	char file[512], *text = NULL;
	size_t len = 0;
	FILE *f;

	cr_assert_eq(npukb_journal_open(&j, path, "run-l", err, sizeof err), 0, "%s", err);
	j.label = "model \"A\" <7b>";
	cr_assert_eq(npukb_journal_begin(&j, "cpusim", "g++ 12", "ascend910b2", 3, 7, "host-a"), 0);
	judge_unit(&j, "level1/A/B", "answer", 0, 1);
	cr_assert_eq(npukb_journal_end(&j), 0);
	npukb_journal_close(&j);

	read_back(&set);
	cr_assert_eq(set.nruns, 1);
	cr_assert_str_eq(set.runs[0].label, "model \"A\" <7b>");
	cr_assert_eq(npukb_metrics_compute(&set.runs[0], NULL, 0, &m, err, sizeof err), 0, "%s", err);
	cr_assert_str_eq(m.label, "model \"A\" <7b>");
	npukb_run_metrics_free(&m);
	npukb_jset_free(&set);

	cr_assert_eq(npukb_render_run_reports(dir, NULL, &res, err, sizeof err), 0, "%s", err);
	npukb_results_free(&res);
	snprintf(file, sizeof file, "%s/summary.txt", dir);
	f = fopen(file, "r");
	cr_assert_not_null(f);
	cr_assert_gt(getdelim(&text, &len, '\0', f), 0);
	fclose(f);
	cr_assert(strstr(text, "npukb run run-l (label model \"A\" <7b>) on cpusim"), "%s", text);
	snprintf(file, sizeof file, "%s/results.xml", dir);
	f = fopen(file, "r");
	cr_assert_not_null(f);
	cr_assert_gt(getdelim(&text, &len, '\0', f), 0);
	fclose(f);
	cr_assert(strstr(text, "<run id=\"run-l\" label=\"model &quot;A&quot; &lt;7b&gt;\""), "%s",
		  text);
	free(text);
	npukb_rm_rf(dir);
}

Test(journal, a_run_without_a_label_has_none)
{
	struct npukb_journal j;
	struct npukb_jset set;

	open_begin(&j, "run-n");
	cr_assert_eq(npukb_journal_end(&j), 0);
	npukb_journal_close(&j);
	read_back(&set);
	cr_assert_eq(set.nruns, 1);
	cr_assert_null(set.runs[0].label);
	npukb_jset_free(&set);
}

/* --resume keeps the whole units of the journal's last run and cuts what
 * a kill left after them: the verdicts of a unit whose unit record never
 * came, and a torn last line. */
Test(journal, resume_keeps_whole_units_only)
{
	struct npukb_journal j;
	struct npukb_journal_resume res;
	struct npukb_verdict v;
	struct stat sb;
	FILE *f;

	open_begin(&j, "run-killed");
	judge_unit(&j, "level1/A/B", "answer", 0, 1);
	npukb_journal_close(&j);
	cr_assert_eq(stat(path, &sb), 0);
	/* a unit cut short: a verdict without its unit record, then a torn line */
	cr_assert_eq(npukb_journal_open(&j, path, "run-killed", err, sizeof err), 0, "%s", err);
	npukb_verdict_init(&v, NPUKB_STAGE_COMPILE);
	npukb_verdict_pass(&v);
	cr_assert_eq(npukb_journal_append(&j, "level1/A/B", "cut", NULL, &v), 0);
	npukb_journal_close(&j);
	npukb_verdict_clear(&v);
	f = fopen(path, "a");
	cr_assert_not_null(f);
	fputs("{\"type\":\"verdict\",\"run\":\"run-kil", f);
	fclose(f);

	cr_assert_eq(npukb_journal_resume_scan(path, &res, err, sizeof err), 0, "%s", err);
	cr_assert(res.has_run);
	cr_assert(res.has_units);
	cr_assert_str_eq(res.run_id, "run-killed");
	cr_assert_str_eq(res.backend, "cpusim");
	cr_assert_eq(res.nseeds, 3);
	cr_assert_eq(res.base_seed, 7);
	cr_assert_eq(res.keep, sb.st_size, "kept %lld of %lld whole bytes", (long long)res.keep,
		     (long long)sb.st_size);
	cr_assert_eq(res.nverdicts, 3);
	cr_assert_eq(res.ndone, 1);
	cr_assert(npukb_journal_resume_done(&res, "level1/A/B", "answer"));
	cr_assert_not(npukb_journal_resume_done(&res, "level1/A/B", "cut"));
	npukb_journal_resume_free(&res);
}
