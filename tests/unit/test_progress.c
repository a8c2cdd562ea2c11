/* test_progress.c - the live progress of `npukb run`: the formatters as
 * pure functions, the mode choice (terminal, log, quiet, NO_COLOR), and the
 * status line really rewritten in place on a pseudo-terminal, both through
 * the module and through the npukb command itself. */
#include <criterion/criterion.h>

#include "progress.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

/* visible length: SGR escapes (ESC [ ... m) take no columns */
static size_t visible(const char *s)
{
	size_t n = 0;
	while (*s) {
		if (s[0] == '\033' && s[1] == '[') {
			s += 2;
			while (*s && *s != 'm')
				s++;
			if (*s)
				s++;
			continue;
		}
		n++;
		s++;
	}
	return n;
}

Test(format, duration)
{
	char b[32];
	npukb_progress_format_duration(b, sizeof(b), 0);
	cr_assert_str_eq(b, "0:00");
	npukb_progress_format_duration(b, sizeof(b), 7.4);
	cr_assert_str_eq(b, "0:07");
	npukb_progress_format_duration(b, sizeof(b), 725);
	cr_assert_str_eq(b, "12:05");
	npukb_progress_format_duration(b, sizeof(b), 3723);
	cr_assert_str_eq(b, "1:02:03");
	npukb_progress_format_duration(b, sizeof(b), -1);
	cr_assert_str_eq(b, "?");
	npukb_progress_format_duration(b, sizeof(b), 0.0 / 0.0);
	cr_assert_str_eq(b, "?");
}

/* The line naming a failing sample under its task's line. */
Test(format, failure_line)
{
	char buf[400], long_msg[300];
	size_t n;
	n = npukb_progress_format_failure(buf, sizeof(buf), "s1", "api-signature",
					  "error: no match\nnote: candidate", "k.cpp", 39);
	cr_assert_str_eq(buf, "  s1: api-signature at k.cpp:39: error: no match");
	cr_assert_eq(n, strlen(buf));
	npukb_progress_format_failure(buf, sizeof(buf), "s2", "mismatch", "bad \033[31mred\x7f",
				      NULL, 0);
	cr_assert_str_eq(buf, "  s2: mismatch: bad ?[31mred?");
	memset(long_msg, 'x', sizeof(long_msg) - 1);
	long_msg[sizeof(long_msg) - 1] = '\0';
	npukb_progress_format_failure(buf, sizeof(buf), "s3", NULL, long_msg, NULL, 0);
	cr_assert_eq(strlen(buf), strlen("  s3: failed: ") + 160 + 3, "%s", buf);
	cr_assert(strstr(buf, "x..."));
	/* a short buffer is filled, never overrun */
	npukb_progress_format_failure(buf, 12, "sample", "cat", long_msg, "f.c", 1);
	cr_assert_eq(strlen(buf), 11);
}

Test(format, status_counts_task_and_eta)
{
	struct npukb_progress_counts c = { .done = 10, .total = 40, .passed = 8, .failed = 2 };
	char b[256];
	size_t n = npukb_progress_format_status(b, sizeof(b), &c, "level1/Math/AddCustom answer",
						 30.0, 120, 0);
	cr_assert_eq(n, strlen(b));
	/* 30 s for 10 units: 30 units left take 90 s */
	cr_assert_str_eq(b, "[10/40] 8 pass 2 fail | level1/Math/AddCustom answer | "
			    "0:30 elapsed, ~1:30 left");
}

Test(format, status_pads_done_to_total_width)
{
	struct npukb_progress_counts c = { .done = 3, .total = 150, .passed = 3 };
	char b[256];
	npukb_progress_format_status(b, sizeof(b), &c, NULL, 1.0, 120, 0);
	cr_assert(strncmp(b, "[  3/150] 3 pass 0 fail |", 25) == 0, "got '%s'", b);
}

Test(format, status_no_eta_before_first_unit_and_at_end)
{
	struct npukb_progress_counts c = { .done = 0, .total = 5 };
	char b[256];
	npukb_progress_format_status(b, sizeof(b), &c, "t s", 2.0, 120, 0);
	cr_assert(strstr(b, "0:02 elapsed, ? left") != NULL, "got '%s'", b);
	c.done = c.total = 5;
	c.passed = 4;
	c.skipped = 1;
	npukb_progress_format_status(b, sizeof(b), &c, "t s", 9.0, 120, 0);
	cr_assert_str_eq(b, "[5/5] 4 pass 0 fail 1 skip | t s | 0:09 elapsed");
}

Test(format, status_never_reaches_last_column)
{
	struct npukb_progress_counts c = { .done = 1, .total = 2, .passed = 1 };
	const char *cur = "level3/SomeVeryLongCategoryName/AnOperatorWithAVeryLongName sample-000042";
	char b[512];
	int w;
	for (w = 20; w <= 120; w++) {
		npukb_progress_format_status(b, sizeof(b), &c, cur, 5.0, w, 0);
		cr_assert_leq(strlen(b), (size_t)w - 1, "width %d: '%s' (%zu)", w, b, strlen(b));
	}
	/* where the name is cut, its end (the sample) is kept */
	npukb_progress_format_status(b, sizeof(b), &c, cur, 5.0, 80, 0);
	cr_assert(strstr(b, "...") && strstr(b, "sample-000042"), "got '%s'", b);
	cr_assert(strstr(b, "left") != NULL, "got '%s'", b);
}

Test(format, status_colour_adds_no_columns)
{
	struct npukb_progress_counts c = { .done = 2, .total = 4, .passed = 1, .failed = 1,
					   .skipped = 0 };
	char plain[256], col[256];
	npukb_progress_format_status(plain, sizeof(plain), &c, "a b", 1.0, 60, 0);
	npukb_progress_format_status(col, sizeof(col), &c, "a b", 1.0, 60, 1);
	cr_assert_null(strchr(plain, '\033'));
	cr_assert(strstr(col, "\033[32m1 pass\033[0m") != NULL, "got '%s'", col);
	cr_assert(strstr(col, "\033[31m1 fail\033[0m") != NULL, "got '%s'", col);
	cr_assert_eq(visible(col), strlen(plain));
}

Test(format, task_line)
{
	struct npukb_progress_counts all = { .done = 12, .total = 40 };
	struct npukb_progress_counts t = { .done = 10, .passed = 8, .failed = 2 };
	char b[256];
	npukb_progress_format_task(b, sizeof(b), &all, "level1/Math/AddCustom", 2, &t,
				   "mismatch 2", 3.2);
	cr_assert_str_eq(b, "[12/40] level1/Math/AddCustom: 2 samples, 10 cases: 8 pass, "
			    "2 fail (mismatch 2), 0 skipped, 0:03");
	t.failed = 0;
	t.passed = 1;
	t.done = 1;
	npukb_progress_format_task(b, sizeof(b), &all, "x/y/z", 1, &t, "", 0);
	cr_assert_str_eq(b, "[12/40] x/y/z: 1 sample, 1 case: 1 pass, 0 fail, 0 skipped, 0:00");
	t.flagged = 1;
	npukb_progress_format_task(b, sizeof(b), &all, "x/y/z", 1, &t, "", 0);
	cr_assert_str_eq(b, "[12/40] x/y/z: 1 sample, 1 case: 1 pass, 0 fail, 0 skipped, "
			    "1 flagged (see the journal), 0:00");
}

Test(format, tiny_buffers_are_terminated)
{
	struct npukb_progress_counts c = { .done = 1, .total = 2 };
	char b[8];
	memset(b, 'x', sizeof(b));
	npukb_progress_format_status(b, sizeof(b), &c, "task", 1.0, 80, 1);
	cr_assert_eq(strlen(b), sizeof(b) - 1);
	npukb_progress_format_task(b, sizeof(b), &c, "task", 1, &c, NULL, 1.0);
	cr_assert_eq(strlen(b), sizeof(b) - 1);
}

/* ---- mode choice ---------------------------------------------------------- */

Test(mode, pipe_is_a_log_and_quiet_is_off)
{
	int fds[2], colour = 7;
	cr_assert_eq(pipe(fds), 0);
	cr_assert_eq(npukb_progress_mode_for(fds[1], 0, &colour), NPUKB_PROGRESS_LINES);
	cr_assert_eq(colour, 0);
	cr_assert_eq(npukb_progress_mode_for(fds[1], 1, &colour), NPUKB_PROGRESS_OFF);
	close(fds[0]);
	close(fds[1]);
}

Test(mode, terminal_and_no_color)
{
	int m, s, colour;
	cr_assert_eq(openpty(&m, &s, NULL, NULL, NULL), 0);
	setenv("TERM", "xterm", 1);
	unsetenv("NO_COLOR");
	cr_assert_eq(npukb_progress_mode_for(s, 0, &colour), NPUKB_PROGRESS_TTY);
	cr_assert_eq(colour, 1);
	/* no-color.org: set and non-empty disables colour; empty does not */
	setenv("NO_COLOR", "1", 1);
	cr_assert_eq(npukb_progress_mode_for(s, 0, &colour), NPUKB_PROGRESS_TTY);
	cr_assert_eq(colour, 0);
	setenv("NO_COLOR", "", 1);
	npukb_progress_mode_for(s, 0, &colour);
	cr_assert_eq(colour, 1);
	/* a terminal that cannot erase a line gets the log lines */
	setenv("TERM", "dumb", 1);
	cr_assert_eq(npukb_progress_mode_for(s, 0, &colour), NPUKB_PROGRESS_LINES);
	cr_assert_eq(npukb_progress_mode_for(s, 1, &colour), NPUKB_PROGRESS_OFF);
	close(m);
	close(s);
}

/* ---- the module writing to a log and to a terminal ------------------------ */

Test(module, log_mode_prints_a_line_per_task)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct npukb_progress *p = npukb_progress_new(f, NPUKB_PROGRESS_LINES, 1);
	cr_assert_not_null(p);
	npukb_progress_start(p, 5);
	npukb_progress_sample(p, "level1/A/X", "answer");
	npukb_progress_unit(p, NPUKB_PASS, NULL);
	npukb_progress_unit(p, NPUKB_PASS, NULL);
	npukb_progress_sample(p, "level1/A/X", "bad");
	npukb_progress_unit(p, NPUKB_FAIL, "mismatch");
	npukb_progress_unit(p, NPUKB_FAIL, "mismatch");
	npukb_progress_flagged(p);
	npukb_progress_sample(p, "level1/A/Y", "answer");
	npukb_progress_unit(p, NPUKB_SKIPPED, NULL);
	npukb_progress_finish(p);
	npukb_progress_free(p);
	fclose(f);
	cr_assert_str_eq(buf,
			 "[4/5] level1/A/X: 2 samples, 4 cases: 2 pass, 2 fail (mismatch 2), "
			 "0 skipped, 1 flagged (see the journal), 0:00\n"
			 "[5/5] level1/A/Y: 1 sample, 1 case: 0 pass, 0 fail, 1 skipped, 0:00\n");
	free(buf);
}

/* Workers' events come back through a pipe as lines; two workers
 * interleave their tasks, and each task's line is printed once its
 * expected units are in, with its own counts. */
Test(module, relayed_workers_close_each_task_when_its_units_are_in)
{
	char *buf = NULL, line[2048];
	size_t len = 0, n = 0;
	int fds[2];
	FILE *f = open_memstream(&buf, &len), *in;
	struct npukb_progress *p = npukb_progress_new(f, NPUKB_PROGRESS_LINES, 0);
	struct npukb_progress *w0, *w1;
	cr_assert_eq(pipe(fds), 0);
	w0 = npukb_progress_relay(fds[1], 0);
	w1 = npukb_progress_relay(fds[1], 1);
	cr_assert(w0 && w1 && p);
	npukb_progress_expect(p, "level1/A/X", 3);
	npukb_progress_expect(p, "level1/A/Y", 2);
	npukb_progress_start(p, 5);
	npukb_progress_sample(w0, "level1/A/X", "answer");
	npukb_progress_sample(w1, "level1/A/Y", "an\tswer\n"); /* tamed, not split */
	npukb_progress_unit(w0, NPUKB_PASS, NULL);
	npukb_progress_unit(w1, NPUKB_FAIL, "crash");
	npukb_progress_flagged(w1);
	npukb_progress_unit(w0, NPUKB_FAIL, "mismatch");
	npukb_progress_unit(w1, NPUKB_SKIPPED, NULL);
	npukb_progress_note(w0, "warning %d", 7);
	npukb_progress_unit(w0, NPUKB_PASS, NULL);
	npukb_progress_free(w0);
	npukb_progress_free(w1);
	close(fds[1]);
	in = fdopen(fds[0], "r");
	while (fgets(line, sizeof(line), in)) {
		line[strcspn(line, "\n")] = '\0';
		cr_assert_eq(npukb_progress_feed(p, line), 0, "refused '%s'", line);
		n++;
	}
	fclose(in);
	cr_assert_eq(n, 9);
	cr_assert_eq(npukb_progress_feed(p, "S 99\ta\tb"), -1, "worker out of range taken");
	cr_assert_eq(npukb_progress_feed(p, "Q 0\ta\tb"), -1, "unknown event taken");
	cr_assert_eq(npukb_progress_feed(p, "S0\ta"), -1, "malformed line taken");
	npukb_progress_finish(p);
	npukb_progress_free(p);
	fclose(f);
	cr_assert_str_eq(buf,
			 "[4/5] level1/A/Y: 1 sample, 2 cases: 0 pass, 1 fail (crash 1), "
			 "1 skipped, 1 flagged (see the journal), 0:00\n"
			 "warning 7\n"
			 "[5/5] level1/A/X: 1 sample, 3 cases: 2 pass, 1 fail (mismatch 1), "
			 "0 skipped, 0:00\n");
	free(buf);
}

/* Everything the master side of a pty has to read within ms milliseconds. */
static size_t drain(int fd, char *buf, size_t cap, int ms)
{
	size_t n = 0;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	while (n + 1 < cap && poll(&pfd, 1, ms) > 0) {
		ssize_t r = read(fd, buf + n, cap - 1 - n);
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	buf[n] = '\0';
	return n;
}

Test(module, terminal_mode_rewrites_one_line)
{
	int m, s;
	struct winsize ws = { .ws_row = 24, .ws_col = 100 };
	char out[8192];
	FILE *f;
	struct npukb_progress *p;
	cr_assert_eq(openpty(&m, &s, NULL, NULL, &ws), 0);
	f = fdopen(s, "w");
	cr_assert_not_null(f);
	p = npukb_progress_new(f, NPUKB_PROGRESS_TTY, 0);
	npukb_progress_start(p, 3);
	npukb_progress_sample(p, "level1/A/X", "answer");
	npukb_progress_unit(p, NPUKB_PASS, NULL);
	npukb_progress_unit(p, NPUKB_FAIL, "crash");
	npukb_progress_note(p, "npukb: warning: %s", "something");
	npukb_progress_unit(p, NPUKB_PASS, NULL);
	npukb_progress_finish(p);
	npukb_progress_free(p);
	fflush(f);
	drain(m, out, sizeof(out), 200);
	fclose(f);
	close(m);
	cr_assert(strstr(out, "\r[0/3] 0 pass 0 fail | level1/A/X answer | ") != NULL,
		  "no first status line in '%s'", out);
	cr_assert(strstr(out, "\033[K") != NULL, "no erase-to-end-of-line");
	/* the note clears the status line, stands on its own, then the status returns */
	cr_assert(strstr(out, "\r\033[Knpukb: warning: something\r\n\r[2/3] 1 pass 1 fail") != NULL,
		  "note not on its own line: '%s'", out);
	/* the final count stays on screen, ended by a newline; no per-task log line */
	cr_assert(strstr(out, "\r[3/3] 2 pass 1 fail | 0:00 elapsed\033[K\r\n") != NULL,
		  "no final line in '%s'", out);
	cr_assert_null(strstr(out, "1 sample,"));
}

/* ---- the command on a terminal and in a log -------------------------------- */

static const char *npukb_path(void)
{
	static char path[4096];
	const char *b = getenv("NPUKB_BUILDDIR");
	if (!b)
		return NULL;
	snprintf(path, sizeof(path), "%s/npukb", b);
	return access(path, X_OK) == 0 ? path : NULL;
}

static char outdir[] = "/tmp/npukb-progress-XXXXXX";

/* What a child wrote to its terminal m until it closed it (at most len - 1
 * bytes, NUL-terminated); closes m. */
static void read_pty(int m, char *out, size_t len)
{
	size_t n = 0;
	for (;;) {
		ssize_t r = read(m, out + n, len - 1 - n);
		if (r <= 0)
			break;
		n += (size_t)r;
		if (n + 1 >= len)
			break;
	}
	out[n] = '\0';
	close(m);
}

Test(command, status_line_on_a_pseudo_terminal, .timeout = 240)
{
	const char *npukb = npukb_path();
	struct winsize ws = { .ws_row = 24, .ws_col = 120 };
	static char out[1 << 16];
	int m, status;
	pid_t pid;
	if (!npukb)
		cr_skip_test("NPUKB_BUILDDIR is not set: run through make check");
	cr_assert_not_null(mkdtemp(outdir));
	pid = forkpty(&m, NULL, NULL, &ws);
	cr_assert_neq(pid, -1);
	if (pid == 0) {
		setenv("TERM", "xterm", 1);
		unsetenv("NO_COLOR");
		/* a backend that is not usable here skips every case at once:
		 * the display is what is tested, not the kernels */
		execl(npukb, "npukb", "run", "--task", "level1/Math/AddCustom", "--backend",
		      "ascend-device", "-o", outdir, (char *)NULL);
		_exit(127);
	}
	read_pty(m, out, sizeof(out));
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "npukb status %d: %s", status, out);
	cr_assert(strstr(out, "\r[0/5] \033[32m0 pass\033[0m 0 fail | level1/Math/AddCustom answer") !=
			  NULL,
		  "no coloured status line: '%s'", out);
	cr_assert(strstr(out, "\033[K") != NULL);
	cr_assert(strstr(out, "\r[5/5] \033[32m0 pass\033[0m 0 fail \033[33m5 skip\033[0m | ") != NULL,
		  "no final count: '%s'", out);
	cr_assert(strstr(out, "0 passed, 0 failed, 5 skipped") != NULL);
	/* the log line belongs to logs only */
	cr_assert_null(strstr(out, "1 sample, 5 cases"));
	{
		char cmd[8192];
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", outdir);
		cr_assert_eq(system(cmd), 0);
	}
}

Test(command, log_lines_and_quiet_in_a_pipe, .timeout = 240)
{
	const char *npukb = npukb_path();
	char cmd[8192], line[1024], all[8192] = "";
	FILE *p;
	int status;
	if (!npukb)
		cr_skip_test("NPUKB_BUILDDIR is not set: run through make check");
	cr_assert_not_null(mkdtemp(outdir));
	snprintf(cmd, sizeof(cmd),
		 "'%s' run --task level1/Math/AddCustom --seeds 1 --sample '%s/tests/samples/"
		 "AddCustom/wrong_result' -o '%s'",
		 npukb, getenv("NPUKB_SRCDIR") ? getenv("NPUKB_SRCDIR") : ".", outdir);
	p = popen(cmd, "r");
	cr_assert_not_null(p);
	while (fgets(line, sizeof(line), p))
		strncat(all, line, sizeof(all) - strlen(all) - 1);
	status = pclose(p);
	cr_assert_eq(WEXITSTATUS(status), 1, "%s", all);
	cr_assert_null(strchr(all, '\r'), "a carriage return in a log: '%s'", all);
	cr_assert_null(strchr(all, '\033'), "an escape in a log: '%s'", all);
	cr_assert(strstr(all, "[10/10] level1/Math/AddCustom: 2 samples, 10 cases: 5 pass, "
			      "5 fail (mismatch 5), 0 skipped, ") == all,
		  "got '%s'", all);

	/* --quiet: nothing at all (a fast run: the backend skips everything) */
	snprintf(cmd, sizeof(cmd),
		 "'%s' run --task level1/Math/AddCustom --backend ascend-device --quiet -o '%s'",
		 npukb, outdir);
	p = popen(cmd, "r");
	cr_assert_not_null(p);
	all[0] = '\0';
	while (fgets(line, sizeof(line), p))
		strncat(all, line, sizeof(all) - strlen(all) - 1);
	pclose(p);
	cr_assert_str_eq(all, "", "--quiet printed '%s'", all);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", outdir);
	cr_assert_eq(system(cmd), 0);
}

/* A unit that takes seconds (a kernel that hangs until its timeout) must
 * not freeze the terminal: the run redraws the elapsed time at least once
 * a second while no unit finishes. */
Test(command, status_line_ticks_while_a_unit_runs, .timeout = 240)
{
	const char *npukb = npukb_path();
	const char *src = getenv("NPUKB_SRCDIR") ? getenv("NPUKB_SRCDIR") : ".";
	struct winsize ws = { .ws_row = 24, .ws_col = 160 };
	static char out[1 << 16];
	char sample[4096];
	int m, status, s;
	unsigned ticks = 0;
	pid_t pid;
	if (!npukb)
		cr_skip_test("NPUKB_BUILDDIR is not set: run through make check");
	cr_assert_not_null(mkdtemp(outdir));
	snprintf(sample, sizeof(sample), "%s/tests/samples/AddCustom/hang", src);
	pid = forkpty(&m, NULL, NULL, &ws);
	cr_assert_neq(pid, -1);
	if (pid == 0) {
		setenv("TERM", "xterm", 1);
		setenv("NO_COLOR", "1", 1);
		execl(npukb, "npukb", "run", "--task", "level1/Math/AddCustom", "--no-answer",
		      "--sample", sample, "--cases", "smallest-one", "--seeds", "1",
		      "--run-timeout", "4", "-j", "1", "-o", outdir, (char *)NULL);
		_exit(127);
	}
	read_pty(m, out, sizeof(out));
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 1, "npukb status %d: %s", status, out);
	cr_assert(strstr(out, "timeout") != NULL || strstr(out, "1 failed") != NULL, "%s", out);
	/* while the hanging unit runs ([0/1]), the elapsed time goes on */
	for (s = 1; s <= 4; s++) {
		char want[64];
		snprintf(want, sizeof(want), "0:%02d elapsed, ? left", s);
		ticks += strstr(out, want) != NULL;
	}
	cr_assert_geq(ticks, 3, "the status line froze: '%s'", out);
	{
		char cmd[8192];
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", outdir);
		cr_assert_eq(system(cmd), 0);
	}
}
