/* progress.h - what `npukb run` shows while it works (private).
 *
 * A unit is one (task, sample, case): the thing a verdict is about. On a
 * terminal one status line is rewritten in place; in a log (CI) one plain
 * line is printed per finished task; quiet prints nothing. The formatters
 * are pure functions so tests can pin the text down. */
#ifndef NPUKB_PROGRESS_H
#define NPUKB_PROGRESS_H

#include <stddef.h>
#include <stdio.h>
#include <npukb/verdict.h>

enum npukb_progress_mode {
	NPUKB_PROGRESS_OFF = 0,
	NPUKB_PROGRESS_LINES, /* a line per finished task */
	NPUKB_PROGRESS_TTY,   /* one status line rewritten with \r */
	NPUKB_PROGRESS_RELAY  /* a worker's events, as lines on a pipe (npukb_progress_relay) */
};

/* Workers a display tells apart; worker numbers wrap around beyond it. */
#define NPUKB_PROGRESS_MAX_WORKERS 64

struct npukb_progress_counts {
	size_t done, total; /* units */
	size_t passed, failed, skipped;
	size_t flagged; /* units with a suspicion flag (the task line shows it) */
};

/* The terminal status line, without the leading \r or the clear-to-end
 * escape: "[ 12/40] 10 pass 2 fail | level1/Math/AddCustom answer |
 * 0:03 elapsed, ~0:07 left". At most width-1 visible characters (the last
 * column is left free so the terminal never wraps); colour adds SGR codes
 * around the counts that do not count towards the width. ETA is shown
 * once at least one unit is done. Returns strlen of buf. */
size_t npukb_progress_format_status(char *buf, size_t len,
				    const struct npukb_progress_counts *c,
				    const char *current, double elapsed, int width,
				    int colour);

/* The log line for one finished task: "[ 12/40] level1/Math/AddCustom:
 * 2 samples, 10 cases: 8 pass, 2 fail (mismatch 2), 0 skipped, 0:03",
 * with ", 1 flagged (see the journal)" before the time when units carry
 * suspicion flags. fail_summary may be NULL or "". Returns strlen of buf. */
size_t npukb_progress_format_task(char *buf, size_t len,
				  const struct npukb_progress_counts *overall,
				  const char *task, size_t nsamples,
				  const struct npukb_progress_counts *task_counts,
				  const char *fail_summary, double elapsed);

/* "0:07", "12:05", "1:02:03". Negative or NaN: "?". */
void npukb_progress_format_duration(char *buf, size_t len, double seconds);

/* What mode and colour fit an output stream: OFF when quiet; TTY when fd
 * is a terminal whose TERM is not "dumb"; LINES otherwise. Colour only on
 * a TTY and only when NO_COLOR is unset or empty (no-color.org). */
enum npukb_progress_mode npukb_progress_mode_for(int fd, int quiet, int *colour);

struct npukb_progress;

/* out is borrowed. Returns NULL on out of memory (the run goes on silently). */
struct npukb_progress *npukb_progress_new(FILE *out, enum npukb_progress_mode mode,
					  int colour);
void npukb_progress_free(struct npukb_progress *p);

/* A worker process's display: every call below becomes one line on fd
 * (one write, shorter than PIPE_BUF, so workers sharing a pipe never mix
 * their lines), which the run's display reads back with
 * npukb_progress_feed. NULL on out of memory. */
struct npukb_progress *npukb_progress_relay(int fd, unsigned worker);
/* Applies one relayed line (without its newline): -1 when it is not one. */
int npukb_progress_feed(struct npukb_progress *p, const char *line);

/* The task will have this many units: its log line is printed once they
 * are in, whatever order workers finish them in. A task without one is
 * closed when another task starts (one worker, tasks in order). */
void npukb_progress_expect(struct npukb_progress *p, const char *task, size_t units);
/* The run knows how many units it will judge before it starts. */
void npukb_progress_start(struct npukb_progress *p, size_t total_units);
/* Work on (task, sample) begins; a new task id closes the previous task. */
void npukb_progress_sample(struct npukb_progress *p, const char *task, const char *sample);
/* One unit is decided; category is the failure category or NULL. */
void npukb_progress_unit(struct npukb_progress *p, enum npukb_outcome outcome,
			 const char *category);
/* The folder of the sample just started (for its failures' locations). */
void npukb_progress_sample_dir(struct npukb_progress *p, const char *dir);
/* The unit about to be reported failed with v: the first failure of each
 * sample is named under its task's line, with the sample's own file:line
 * (diag_loc.h) and the first line of its message. */
void npukb_progress_failure(struct npukb_progress *p, const char *category,
			    const struct npukb_verdict *v);
/* That line: "  SAMPLE: CATEGORY at FILE:LINE: first line of the message"
 * (no " at ..." when file is NULL; the message cut at 160 bytes with
 * "...", control bytes shown as '?'). Returns strlen of buf. */
size_t npukb_progress_format_failure(char *buf, size_t len, const char *sample,
				     const char *category, const char *message,
				     const char *file, long line);
/* The line npukb_progress_failure shows for a failure v of SAMPLE (whose
 * folder is dir): into buf (len bytes); returns strlen of buf. */
size_t npukb_progress_failure_line(char *buf, size_t len, const char *sample, const char *dir,
				   const char *category, const struct npukb_verdict *v);
/* The same with that line already made (a unit replayed from the cache). */
void npukb_progress_failure_text(struct npukb_progress *p, const char *text);
void npukb_progress_failure_text_w(struct npukb_progress *p, unsigned worker, const char *text);
/* The unit just reported carries a suspicion flag. */
void npukb_progress_flagged(struct npukb_progress *p);
/* A message that must not be torn by the status line (warnings). */
void npukb_progress_note(struct npukb_progress *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The same for worker w of several (the calls above are worker 0's). */
void npukb_progress_sample_w(struct npukb_progress *p, unsigned worker, const char *task,
			     const char *sample);
void npukb_progress_unit_w(struct npukb_progress *p, unsigned worker,
			   enum npukb_outcome outcome, const char *category);
void npukb_progress_flagged_w(struct npukb_progress *p, unsigned worker);
void npukb_progress_sample_dir_w(struct npukb_progress *p, unsigned worker, const char *dir);
void npukb_progress_failure_w(struct npukb_progress *p, unsigned worker, const char *category,
			      const struct npukb_verdict *v);
/* Worker w has nothing to do any more. */
void npukb_progress_idle(struct npukb_progress *p, unsigned worker);
/* Time passes: redraws the terminal's elapsed time (call at least once a
 * second while waiting). */
void npukb_progress_tick(struct npukb_progress *p);
/* Close the last task and leave the terminal line clean. */
void npukb_progress_finish(struct npukb_progress *p);

#endif
