/* progress.c - live status line on a terminal, a line per task in a log.
 *
 * The status line is redrawn with "\r" + text + "\033[K" (erase to end of
 * line) and never reaches the last column, so the terminal never wraps it
 * and the next "\r" always lands on the same line. */
#include "progress.h"
#include "diag_loc.h"

#include <npukb/util.h>

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#define SGR_PASS "\033[32m"
#define SGR_FAIL "\033[31m"
#define SGR_SKIP "\033[33m"
#define SGR_OFF "\033[0m"
#define ERASE_EOL "\033[K"

/* A terminal is redrawn at most this often unless something changed shape
 * (new sample, a note, the end): fast units must not flood a slow tty. */
#define REDRAW_INTERVAL 0.1

#define MAX_CATS 6
/* Failing samples a task's line names; more are counted. */
#define MAX_FAILS 8
#define FAIL_LINE 400

struct cat_count {
	char name[40];
	size_t n;
};

struct npukb_progress {
	FILE *out;
	enum npukb_progress_mode mode;
	int colour;
	double t0, task_t0, last_draw;
	struct npukb_progress_counts all, task;
	char *task_id;
	char *current; /* "task sample" */
	size_t task_samples;
	struct cat_count cats[MAX_CATS];
	size_t ncats, other_fails;
	int drawn;
	char *sample, *sample_dir;  /* the sample being judged and its folder */
	int sample_failed;          /* its first failure is noted */
	char fails[MAX_FAILS][FAIL_LINE];
	size_t nfails, more_fails;
};

void npukb_progress_format_duration(char *buf, size_t len, double seconds)
{
	long s;
	if (!(seconds >= 0) || seconds > 1e9) {
		snprintf(buf, len, "?");
		return;
	}
	s = (long)(seconds + 0.5);
	if (s >= 3600)
		snprintf(buf, len, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
	else
		snprintf(buf, len, "%ld:%02ld", s / 60, s % 60);
}

/* Append to buf at *off, never past len; *off tracks what would have been
 * written so callers can tell truncation. */
static void put(char *buf, size_t len, size_t *off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void put(char *buf, size_t len, size_t *off, const char *fmt, ...)
{
	va_list ap;
	int n;
	va_start(ap, fmt);
	n = vsnprintf(*off < len ? buf + *off : NULL, *off < len ? len - *off : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		*off += (size_t)n;
}

static size_t digits(size_t v)
{
	size_t d = 1;
	while (v >= 10) {
		v /= 10;
		d++;
	}
	return d;
}

size_t npukb_progress_format_status(char *buf, size_t len,
				    const struct npukb_progress_counts *c,
				    const char *current, double elapsed, int width,
				    int colour)
{
	char scratch[160], el[32], left[32], timing[96];
	size_t off = 0, vis_counts, vis_timing, room, cur_len;
	const char *on_p = colour ? SGR_PASS : "", *on_f = colour ? SGR_FAIL : "";
	const char *on_s = colour ? SGR_SKIP : "", *off_c = colour ? SGR_OFF : "";
	int w = (int)digits(c->total);

	if (len == 0)
		return 0;
	buf[0] = '\0';
	if (width < 20)
		width = 20;
	/* counts: visible length computed without the colour codes */
	vis_counts = (size_t)snprintf(scratch, sizeof(scratch), "[%*zu/%zu] %zu pass %zu fail",
				      w, c->done, c->total, c->passed, c->failed);
	if (c->skipped)
		vis_counts += (size_t)snprintf(scratch, sizeof(scratch), " %zu skip", c->skipped);
	npukb_progress_format_duration(el, sizeof(el), elapsed);
	if (c->done >= c->total)
		vis_timing = (size_t)snprintf(timing, sizeof(timing), " | %s elapsed", el);
	else if (c->done == 0)
		vis_timing = (size_t)snprintf(timing, sizeof(timing), " | %s elapsed, ? left", el);
	else {
		npukb_progress_format_duration(left, sizeof(left),
					       elapsed / (double)c->done *
						       (double)(c->total - c->done));
		vis_timing = (size_t)snprintf(timing, sizeof(timing), " | %s elapsed, ~%s left",
					      el, left);
	}

	put(buf, len, &off, "[%*zu/%zu] %s%zu pass%s %s%zu fail%s", w, c->done, c->total, on_p,
	    c->passed, off_c, c->failed ? on_f : "", c->failed, c->failed ? off_c : "");
	if (c->skipped)
		put(buf, len, &off, " %s%zu skip%s", on_s, c->skipped, off_c);

	/* the last column stays free; the timing goes before the name when
	 * both do not fit, since the name is what the eye finds anyway */
	room = (size_t)width - 1;
	if (vis_counts + vis_timing > room) {
		return off < len ? off : len - 1;
	}
	room -= vis_counts + vis_timing;
	cur_len = current ? strlen(current) : 0;
	if (cur_len && room >= 3 + 8) {
		room -= 3; /* " | " */
		if (cur_len <= room)
			put(buf, len, &off, " | %s", current);
		else /* keep the end: the task's own name and the sample */
			put(buf, len, &off, " | ...%s", current + cur_len - (room - 3));
	}
	put(buf, len, &off, "%s", timing);
	return off < len ? off : len - 1;
}

size_t npukb_progress_format_task(char *buf, size_t len,
				  const struct npukb_progress_counts *overall,
				  const char *task, size_t nsamples,
				  const struct npukb_progress_counts *tc,
				  const char *fail_summary, double elapsed)
{
	char el[32];
	size_t off = 0;
	if (len == 0)
		return 0;
	buf[0] = '\0';
	npukb_progress_format_duration(el, sizeof(el), elapsed);
	put(buf, len, &off, "[%*zu/%zu] %s: %zu sample%s, %zu case%s: %zu pass, %zu fail",
	    (int)digits(overall->total), overall->done, overall->total, task, nsamples,
	    nsamples == 1 ? "" : "s", tc->done, tc->done == 1 ? "" : "s", tc->passed,
	    tc->failed);
	if (tc->failed && fail_summary && *fail_summary)
		put(buf, len, &off, " (%s)", fail_summary);
	put(buf, len, &off, ", %zu skipped", tc->skipped);
	if (tc->flagged)
		put(buf, len, &off, ", %zu flagged (see the journal)", tc->flagged);
	put(buf, len, &off, ", %s", el);
	return off < len ? off : len - 1;
}

enum npukb_progress_mode npukb_progress_mode_for(int fd, int quiet, int *colour)
{
	const char *term = getenv("TERM"), *nc = getenv("NO_COLOR");
	*colour = 0;
	if (quiet)
		return NPUKB_PROGRESS_OFF;
	if (!isatty(fd) || (term && strcmp(term, "dumb") == 0))
		return NPUKB_PROGRESS_LINES;
	*colour = !(nc && *nc);
	return NPUKB_PROGRESS_TTY;
}

struct npukb_progress *npukb_progress_new(FILE *out, enum npukb_progress_mode mode,
					  int colour)
{
	struct npukb_progress *p;
	if (!out || mode == NPUKB_PROGRESS_OFF)
		return NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->out = out;
	p->mode = mode;
	p->colour = colour && mode == NPUKB_PROGRESS_TTY;
	p->t0 = p->task_t0 = npukb_monotonic_seconds();
	return p;
}

void npukb_progress_free(struct npukb_progress *p)
{
	if (!p)
		return;
	free(p->task_id);
	free(p->current);
	free(p->sample);
	free(p->sample_dir);
	free(p);
}

static int term_width(FILE *out)
{
	struct winsize ws;
	if (ioctl(fileno(out), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return 80;
}

static void draw(struct npukb_progress *p, int force)
{
	char line[1024];
	double t = npukb_monotonic_seconds();
	if (p->mode != NPUKB_PROGRESS_TTY || (!force && t - p->last_draw < REDRAW_INTERVAL))
		return;
	npukb_progress_format_status(line, sizeof(line), &p->all, p->current, t - p->t0,
				     term_width(p->out), p->colour);
	fprintf(p->out, "\r%s" ERASE_EOL, line);
	fflush(p->out);
	p->last_draw = t;
	p->drawn = 1;
}

static void fail_summary(const struct npukb_progress *p, char *buf, size_t len)
{
	size_t i, off = 0;
	buf[0] = '\0';
	for (i = 0; i < p->ncats; i++)
		put(buf, len, &off, "%s%s %zu", i ? ", " : "", p->cats[i].name, p->cats[i].n);
	if (p->other_fails)
		put(buf, len, &off, "%sother %zu", off ? ", " : "", p->other_fails);
}

static void close_task(struct npukb_progress *p)
{
	char line[1024], summary[512];
	if (!p->task_id)
		return;
	if (p->mode == NPUKB_PROGRESS_LINES) {
		fail_summary(p, summary, sizeof(summary));
		npukb_progress_format_task(line, sizeof(line), &p->all, p->task_id,
					   p->task_samples, &p->task, summary,
					   npukb_monotonic_seconds() - p->task_t0);
		fprintf(p->out, "%s\n", line);
		fflush(p->out);
	}
	if (p->mode != NPUKB_PROGRESS_OFF && p->nfails) {
		size_t i;
		if (p->mode == NPUKB_PROGRESS_TTY && p->drawn)
			fputs("\r" ERASE_EOL, p->out);
		for (i = 0; i < p->nfails; i++)
			fprintf(p->out, "%s\n", p->fails[i]);
		if (p->more_fails)
			fprintf(p->out, "  ... and %zu more failing sample%s (see summary.txt)\n",
				p->more_fails, p->more_fails == 1 ? "" : "s");
		fflush(p->out);
	}
	p->nfails = p->more_fails = 0;
	free(p->task_id);
	p->task_id = NULL;
	memset(&p->task, 0, sizeof(p->task));
	p->task_samples = 0;
	p->ncats = 0;
	p->other_fails = 0;
}

void npukb_progress_start(struct npukb_progress *p, size_t total_units)
{
	if (!p)
		return;
	p->all.total = total_units;
	p->t0 = npukb_monotonic_seconds();
	draw(p, 1);
}

void npukb_progress_sample(struct npukb_progress *p, const char *task, const char *sample)
{
	char *cur;
	if (!p)
		return;
	if (p->task_id && strcmp(p->task_id, task) != 0)
		close_task(p);
	if (!p->task_id) {
		p->task_id = strdup(task);
		p->task_t0 = npukb_monotonic_seconds();
	}
	p->task_samples++;
	free(p->sample);
	p->sample = strdup(sample);
	free(p->sample_dir);
	p->sample_dir = NULL;
	p->sample_failed = 0;
	if (asprintf(&cur, "%s %s", task, sample) >= 0) {
		free(p->current);
		p->current = cur;
	}
	draw(p, 1);
}

static void count_category(struct npukb_progress *p, const char *category)
{
	size_t i;
	if (!category)
		category = "failed";
	for (i = 0; i < p->ncats; i++)
		if (strcmp(p->cats[i].name, category) == 0) {
			p->cats[i].n++;
			return;
		}
	if (p->ncats == MAX_CATS) {
		p->other_fails++;
		return;
	}
	snprintf(p->cats[p->ncats].name, sizeof(p->cats[p->ncats].name), "%s", category);
	p->cats[p->ncats++].n = 1;
}

void npukb_progress_unit(struct npukb_progress *p, enum npukb_outcome outcome,
			 const char *category)
{
	if (!p)
		return;
	p->all.done++;
	p->task.done++;
	if (p->all.total < p->all.done)
		p->all.total = p->all.done;
	if (outcome == NPUKB_PASS) {
		p->all.passed++;
		p->task.passed++;
	} else if (outcome == NPUKB_SKIPPED) {
		p->all.skipped++;
		p->task.skipped++;
	} else {
		p->all.failed++;
		p->task.failed++;
		count_category(p, category);
	}
	draw(p, p->all.done == p->all.total);
}

size_t npukb_progress_format_failure(char *buf, size_t len, const char *sample,
				     const char *category, const char *message,
				     const char *file, long line)
{
	size_t off = 0, n = 0;
	const char *m = message ? message : "";
	buf[0] = '\0';
	put(buf, len, &off, "  %s: %s", sample ? sample : "?", category ? category : "failed");
	if (file && *file)
		put(buf, len, &off, " at %s:%ld", file, line);
	if (*m)
		put(buf, len, &off, ": ");
	/* the first line of the message, at most 160 bytes; a sample's text
	 * may hold escapes and control bytes: they are shown as '?' */
	for (; m[n] && m[n] != '\n' && n < 160 && off + 1 < len; n++)
		buf[off++] = (unsigned char)m[n] < 0x20 || m[n] == 0x7f ? '?' : m[n];
	if (off < len)
		buf[off] = '\0';
	else
		buf[len - 1] = '\0';
	if (m[n] && m[n] != '\n')
		put(buf, len, &off, "...");
	return strlen(buf);
}

void npukb_progress_sample_dir(struct npukb_progress *p, const char *dir)
{
	if (!p)
		return;
	free(p->sample_dir);
	p->sample_dir = dir ? strdup(dir) : NULL;
}

void npukb_progress_failure(struct npukb_progress *p, const char *category,
			    const struct npukb_verdict *v)
{
	char file[256];
	const char *msg;
	long line = 0;
	int located;
	if (!p || !v || p->sample_failed)
		return;
	p->sample_failed = 1;
	if (p->nfails == MAX_FAILS) {
		p->more_fails++;
		return;
	}
	located = npukb_verdict_sample_location(v, p->sample_dir, file, sizeof(file), &line) == 0;
	msg = v->message;
	if (located && msg) {
		/* "/abs/sample/k.cpp:39:17: error: ..." says where twice: keep
		 * the "error: ..." */
		char needle[300];
		const char *at;
		snprintf(needle, sizeof(needle), "/%s:%ld:", file, line);
		at = strstr(msg, needle);
		if (at && at - msg < 4096 && !memchr(msg, ' ', (size_t)(at - msg))) {
			at += strlen(needle);
			at += strspn(at, "0123456789");
			at += strspn(at, ": ");
			msg = at;
		}
	}
	npukb_progress_format_failure(p->fails[p->nfails++], FAIL_LINE, p->sample, category,
				      msg, located ? file : NULL, line);
}

void npukb_progress_flagged(struct npukb_progress *p)
{
	if (!p)
		return;
	p->all.flagged++;
	p->task.flagged++;
}

void npukb_progress_note(struct npukb_progress *p, const char *fmt, ...)
{
	va_list ap;
	if (!p)
		return;
	if (p->mode == NPUKB_PROGRESS_TTY && p->drawn)
		fputs("\r" ERASE_EOL, p->out);
	va_start(ap, fmt);
	vfprintf(p->out, fmt, ap);
	va_end(ap);
	fputc('\n', p->out);
	fflush(p->out);
	draw(p, 1);
}

void npukb_progress_finish(struct npukb_progress *p)
{
	if (!p)
		return;
	close_task(p);
	if (p->mode == NPUKB_PROGRESS_TTY && p->drawn) {
		/* leave the final count on screen as a line of its own */
		free(p->current);
		p->current = NULL;
		draw(p, 1);
		fputc('\n', p->out);
		fflush(p->out);
	}
}
