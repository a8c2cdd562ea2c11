/* progress.c - live status line on a terminal, a line per task in a log.
 *
 * The status line is redrawn with "\r" + text + "\033[K" (erase to end of
 * line) and never reaches the last column, so the terminal never wraps it
 * and the next "\r" always lands on the same line. */
#include "progress.h"
#include "diag_loc.h"

#include <npukb/util.h>

#include <errno.h>
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

/* A task whose units are being counted: closed (its log line printed)
 * once its expected units are in, or at the end. */
struct task_acc {
	char *id;
	size_t expected; /* 0: unknown, closed when another task starts */
	double t0;
	struct npukb_progress_counts counts;
	size_t samples;
	struct cat_count cats[MAX_CATS];
	size_t ncats, other_fails;
	char fails[MAX_FAILS][FAIL_LINE]; /* its failing samples, first failure each */
	size_t nfails, more_fails;
};

struct worker_now {
	char *task, *sample; /* NULL: idle */
	char *dir;           /* the sample's folder, for its failures' locations */
	int failed;          /* the sample's first failure is noted */
};

struct npukb_progress {
	FILE *out;
	enum npukb_progress_mode mode;
	int colour;
	int relay_fd;      /* NPUKB_PROGRESS_RELAY: where events go */
	unsigned relay_worker;
	double t0, last_draw;
	struct npukb_progress_counts all;
	struct task_acc *tasks; /* open tasks, in the order they opened */
	size_t ntasks, tasks_cap;
	/* expected units per task id, set before the start */
	char **expect_ids;
	size_t *expect_n, nexpect;
	struct worker_now now[NPUKB_PROGRESS_MAX_WORKERS];
	int drawn;
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
	if (!out || mode == NPUKB_PROGRESS_OFF || mode == NPUKB_PROGRESS_RELAY)
		return NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->out = out;
	p->mode = mode;
	p->colour = colour && mode == NPUKB_PROGRESS_TTY;
	p->relay_fd = -1;
	p->t0 = npukb_monotonic_seconds();
	return p;
}

struct npukb_progress *npukb_progress_relay(int fd, unsigned worker)
{
	struct npukb_progress *p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->mode = NPUKB_PROGRESS_RELAY;
	p->relay_fd = fd;
	p->relay_worker = worker;
	return p;
}

static void acc_free(struct task_acc *a)
{
	free(a->id);
	memset(a, 0, sizeof(*a));
}

void npukb_progress_free(struct npukb_progress *p)
{
	size_t i;
	if (!p)
		return;
	for (i = 0; i < p->ntasks; i++)
		acc_free(&p->tasks[i]);
	free(p->tasks);
	for (i = 0; i < p->nexpect; i++)
		free(p->expect_ids[i]);
	free(p->expect_ids);
	free(p->expect_n);
	for (i = 0; i < NPUKB_PROGRESS_MAX_WORKERS; i++) {
		free(p->now[i].task);
		free(p->now[i].sample);
		free(p->now[i].dir);
	}
	free(p);
}

static int term_width(FILE *out)
{
	struct winsize ws;
	if (ioctl(fileno(out), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return 80;
}

/* What the workers are doing: "task sample" for one, the tasks' last
 * path parts with their samples for several. */
static void current_work(const struct npukb_progress *p, char *buf, size_t len)
{
	size_t i, busy = 0, off = 0;
	buf[0] = '\0';
	for (i = 0; i < NPUKB_PROGRESS_MAX_WORKERS; i++)
		busy += p->now[i].task != NULL;
	for (i = 0; i < NPUKB_PROGRESS_MAX_WORKERS; i++) {
		const char *t = p->now[i].task, *slash;
		if (!t)
			continue;
		if (busy > 1 && (slash = strrchr(t, '/')) != NULL)
			t = slash + 1;
		put(buf, len, &off, "%s%s %s", off ? ", " : "", t, p->now[i].sample);
	}
}

static void draw(struct npukb_progress *p, int force)
{
	char line[1024], cur[768];
	double t = npukb_monotonic_seconds();
	if (p->mode != NPUKB_PROGRESS_TTY || (!force && t - p->last_draw < REDRAW_INTERVAL))
		return;
	current_work(p, cur, sizeof(cur));
	npukb_progress_format_status(line, sizeof(line), &p->all, cur[0] ? cur : NULL,
				     t - p->t0, term_width(p->out), p->colour);
	fprintf(p->out, "\r%s" ERASE_EOL, line);
	fflush(p->out);
	p->last_draw = t;
	p->drawn = 1;
}

static void fail_summary(const struct task_acc *a, char *buf, size_t len)
{
	size_t i, off = 0;
	buf[0] = '\0';
	for (i = 0; i < a->ncats; i++)
		put(buf, len, &off, "%s%s %zu", i ? ", " : "", a->cats[i].name, a->cats[i].n);
	if (a->other_fails)
		put(buf, len, &off, "%sother %zu", off ? ", " : "", a->other_fails);
}

/* Prints task k's log line and forgets it. */
static void close_task(struct npukb_progress *p, size_t k)
{
	char line[1024], summary[512];
	struct task_acc *a = &p->tasks[k];
	if (p->mode == NPUKB_PROGRESS_LINES) {
		fail_summary(a, summary, sizeof(summary));
		npukb_progress_format_task(line, sizeof(line), &p->all, a->id, a->samples,
					   &a->counts, summary, npukb_monotonic_seconds() - a->t0);
		fprintf(p->out, "%s\n", line);
		fflush(p->out);
	}
	if (a->nfails) {
		size_t i;
		if (p->mode == NPUKB_PROGRESS_TTY && p->drawn)
			fputs("\r" ERASE_EOL, p->out);
		for (i = 0; i < a->nfails; i++)
			fprintf(p->out, "%s\n", a->fails[i]);
		if (a->more_fails)
			fprintf(p->out, "  ... and %zu more failing sample%s (see summary.txt)\n",
				a->more_fails, a->more_fails == 1 ? "" : "s");
		fflush(p->out);
	}
	acc_free(a);
	memmove(a, a + 1, (p->ntasks - k - 1) * sizeof(*a));
	p->ntasks--;
}

static size_t expected_units(const struct npukb_progress *p, const char *task)
{
	size_t i;
	for (i = 0; i < p->nexpect; i++)
		if (strcmp(p->expect_ids[i], task) == 0)
			return p->expect_n[i];
	return 0;
}

static struct task_acc *find_task(struct npukb_progress *p, const char *task)
{
	size_t i;
	for (i = 0; i < p->ntasks; i++)
		if (strcmp(p->tasks[i].id, task) == 0)
			return &p->tasks[i];
	return NULL;
}

/* A control character in an id would break the relay's lines. */
static void relay(struct npukb_progress *p, char kind, const char *a, const char *b)
{
	char line[1024];
	size_t off = 0, i;
	ssize_t n;
	put(line, sizeof(line) - 1, &off, "%c %u\t%s%s%s", kind, p->relay_worker, a ? a : "",
	    b ? "\t" : "", b ? b : "");
	if (off > sizeof(line) - 2)
		off = sizeof(line) - 2;
	for (i = 2; i < off; i++)
		if ((unsigned char)line[i] < 0x20 && line[i] != '\t')
			line[i] = '?';
	line[off++] = '\n';
	/* one write below PIPE_BUF: lines of several workers never mix */
	do
		n = write(p->relay_fd, line, off);
	while (n < 0 && errno == EINTR);
}

void npukb_progress_expect(struct npukb_progress *p, const char *task, size_t units)
{
	char **ids;
	size_t *ns;
	if (!p || p->mode == NPUKB_PROGRESS_RELAY)
		return;
	ids = realloc(p->expect_ids, (p->nexpect + 1) * sizeof(*ids));
	if (!ids)
		return;
	p->expect_ids = ids;
	ns = realloc(p->expect_n, (p->nexpect + 1) * sizeof(*ns));
	if (!ns)
		return;
	p->expect_n = ns;
	if (!(ids[p->nexpect] = strdup(task)))
		return;
	ns[p->nexpect++] = units;
}

void npukb_progress_start(struct npukb_progress *p, size_t total_units)
{
	if (!p || p->mode == NPUKB_PROGRESS_RELAY)
		return;
	p->all.total = total_units;
	p->t0 = npukb_monotonic_seconds();
	draw(p, 1);
}

static int set_str(char **slot, const char *v)
{
	char *c = v ? strdup(v) : NULL;
	if (v && !c)
		return -1;
	free(*slot);
	*slot = c;
	return 0;
}

void npukb_progress_sample_w(struct npukb_progress *p, unsigned worker, const char *task,
			     const char *sample)
{
	struct task_acc *a;
	size_t k;
	if (!p)
		return;
	if (p->mode == NPUKB_PROGRESS_RELAY) {
		/* the worker's own sample, for its failure lines */
		set_str(&p->now[0].sample, sample);
		free(p->now[0].dir);
		p->now[0].dir = NULL;
		p->now[0].failed = 0;
		relay(p, 'S', task, sample);
		return;
	}
	worker %= NPUKB_PROGRESS_MAX_WORKERS;
	free(p->now[worker].dir);
	p->now[worker].dir = NULL;
	p->now[worker].failed = 0;
	/* a task nobody said the size of ends when the next one starts */
	for (k = 0; k < p->ntasks;)
		if (!p->tasks[k].expected && strcmp(p->tasks[k].id, task) != 0)
			close_task(p, k);
		else
			k++;
	if (!(a = find_task(p, task))) {
		struct task_acc *grown = p->tasks;
		if (p->ntasks == p->tasks_cap) {
			size_t cap = p->tasks_cap ? 2 * p->tasks_cap : 8;
			if (!(grown = realloc(p->tasks, cap * sizeof(*grown))))
				return;
			p->tasks = grown;
			p->tasks_cap = cap;
		}
		a = &p->tasks[p->ntasks];
		memset(a, 0, sizeof(*a));
		if (!(a->id = strdup(task)))
			return;
		a->expected = expected_units(p, task);
		a->t0 = npukb_monotonic_seconds();
		p->ntasks++;
	}
	a->samples++;
	if (set_str(&p->now[worker].task, task) || set_str(&p->now[worker].sample, sample)) {
		free(p->now[worker].task);
		p->now[worker].task = NULL;
	}
	draw(p, 1);
}

void npukb_progress_sample(struct npukb_progress *p, const char *task, const char *sample)
{
	npukb_progress_sample_w(p, 0, task, sample);
}

static void count_category(struct task_acc *a, const char *category)
{
	size_t i;
	if (!category)
		category = "failed";
	for (i = 0; i < a->ncats; i++)
		if (strcmp(a->cats[i].name, category) == 0) {
			a->cats[i].n++;
			return;
		}
	if (a->ncats == MAX_CATS) {
		a->other_fails++;
		return;
	}
	snprintf(a->cats[a->ncats].name, sizeof(a->cats[a->ncats].name), "%s", category);
	a->cats[a->ncats++].n = 1;
}

/* The task worker w is on, or NULL. */
static struct task_acc *worker_task(struct npukb_progress *p, unsigned worker)
{
	const char *t = p->now[worker % NPUKB_PROGRESS_MAX_WORKERS].task;
	return t ? find_task(p, t) : NULL;
}

void npukb_progress_unit_w(struct npukb_progress *p, unsigned worker, enum npukb_outcome outcome,
			   const char *category)
{
	struct task_acc *a;
	struct npukb_progress_counts scratch;
	struct npukb_progress_counts *tc;
	if (!p)
		return;
	if (p->mode == NPUKB_PROGRESS_RELAY) {
		relay(p, outcome == NPUKB_PASS ? 'P' : outcome == NPUKB_SKIPPED ? 'K' : 'F',
		      category, NULL);
		return;
	}
	a = worker_task(p, worker);
	memset(&scratch, 0, sizeof(scratch));
	tc = a ? &a->counts : &scratch;
	p->all.done++;
	tc->done++;
	if (p->all.total < p->all.done)
		p->all.total = p->all.done;
	if (outcome == NPUKB_PASS) {
		p->all.passed++;
		tc->passed++;
	} else if (outcome == NPUKB_SKIPPED) {
		p->all.skipped++;
		tc->skipped++;
	} else {
		p->all.failed++;
		tc->failed++;
		if (a)
			count_category(a, category);
	}
	if (a && a->expected && a->counts.done >= a->expected)
		close_task(p, (size_t)(a - p->tasks));
	draw(p, p->all.done == p->all.total);
}

void npukb_progress_unit(struct npukb_progress *p, enum npukb_outcome outcome,
			 const char *category)
{
	npukb_progress_unit_w(p, 0, outcome, category);
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

void npukb_progress_sample_dir_w(struct npukb_progress *p, unsigned worker, const char *dir)
{
	struct worker_now *now;
	if (!p)
		return;
	now = &p->now[p->mode == NPUKB_PROGRESS_RELAY ? 0 : worker % NPUKB_PROGRESS_MAX_WORKERS];
	set_str(&now->dir, dir);
}

void npukb_progress_sample_dir(struct npukb_progress *p, const char *dir)
{
	npukb_progress_sample_dir_w(p, 0, dir);
}

/* A failure line joins the task worker w is on. */
static void add_failure(struct npukb_progress *p, unsigned worker, const char *line)
{
	struct task_acc *a = worker_task(p, worker);
	if (!a)
		return;
	if (a->nfails == MAX_FAILS) {
		a->more_fails++;
		return;
	}
	snprintf(a->fails[a->nfails++], FAIL_LINE, "%s", line);
}

size_t npukb_progress_failure_line(char *buf, size_t len, const char *sample, const char *dir,
				   const char *category, const struct npukb_verdict *v)
{
	char file[256];
	const char *msg = v->message;
	long line = 0;
	int located = npukb_verdict_sample_location(v, dir, file, sizeof(file), &line) == 0;

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
	return npukb_progress_format_failure(buf, len, sample, category, msg,
					     located ? file : NULL, line);
}

void npukb_progress_failure_text_w(struct npukb_progress *p, unsigned worker, const char *text)
{
	struct worker_now *now;
	if (!p || !text)
		return;
	now = &p->now[p->mode == NPUKB_PROGRESS_RELAY ? 0 : worker % NPUKB_PROGRESS_MAX_WORKERS];
	if (now->failed)
		return;
	now->failed = 1;
	if (p->mode == NPUKB_PROGRESS_RELAY)
		relay(p, 'X', text, NULL);
	else
		add_failure(p, worker, text);
}

void npukb_progress_failure_w(struct npukb_progress *p, unsigned worker, const char *category,
			      const struct npukb_verdict *v)
{
	char line_text[FAIL_LINE];
	struct worker_now *now;
	if (!p || !v)
		return;
	now = &p->now[p->mode == NPUKB_PROGRESS_RELAY ? 0 : worker % NPUKB_PROGRESS_MAX_WORKERS];
	if (now->failed)
		return;
	npukb_progress_failure_line(line_text, sizeof(line_text), now->sample, now->dir, category, v);
	npukb_progress_failure_text_w(p, worker, line_text);
}

void npukb_progress_failure_text(struct npukb_progress *p, const char *text)
{
	npukb_progress_failure_text_w(p, 0, text);
}

void npukb_progress_failure(struct npukb_progress *p, const char *category,
			    const struct npukb_verdict *v)
{
	npukb_progress_failure_w(p, 0, category, v);
}

void npukb_progress_flagged_w(struct npukb_progress *p, unsigned worker)
{
	struct task_acc *a;
	if (!p)
		return;
	if (p->mode == NPUKB_PROGRESS_RELAY) {
		relay(p, 'G', NULL, NULL);
		return;
	}
	p->all.flagged++;
	/* the flag follows its unit, which may have closed its task */
	if ((a = worker_task(p, worker)) != NULL)
		a->counts.flagged++;
}

void npukb_progress_flagged(struct npukb_progress *p)
{
	npukb_progress_flagged_w(p, 0);
}

static void note_text(struct npukb_progress *p, const char *text)
{
	if (p->mode == NPUKB_PROGRESS_TTY && p->drawn)
		fputs("\r" ERASE_EOL, p->out);
	fputs(text, p->out);
	fputc('\n', p->out);
	fflush(p->out);
	draw(p, 1);
}

void npukb_progress_note(struct npukb_progress *p, const char *fmt, ...)
{
	char *text = NULL;
	va_list ap;
	int n;
	if (!p)
		return;
	va_start(ap, fmt);
	n = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (p->mode == NPUKB_PROGRESS_RELAY)
		relay(p, 'N', text, NULL);
	else
		note_text(p, text);
	free(text);
}

void npukb_progress_idle(struct npukb_progress *p, unsigned worker)
{
	if (!p || p->mode == NPUKB_PROGRESS_RELAY)
		return;
	worker %= NPUKB_PROGRESS_MAX_WORKERS;
	free(p->now[worker].task);
	free(p->now[worker].sample);
	p->now[worker].task = p->now[worker].sample = NULL;
	draw(p, 1);
}

int npukb_progress_feed(struct npukb_progress *p, const char *line)
{
	char kind, *copy, *a, *b, *end;
	unsigned long w;
	if (!p || p->mode == NPUKB_PROGRESS_RELAY)
		return 0;
	if (!line[0] || line[1] != ' ')
		return -1;
	kind = line[0];
	w = strtoul(line + 2, &end, 10);
	if (end == line + 2 || *end != '\t' || w >= NPUKB_PROGRESS_MAX_WORKERS)
		return -1;
	if (!(copy = strdup(end + 1)))
		return -1;
	a = copy;
	/* a note's and a failure line's text is all the rest */
	b = kind == 'N' || kind == 'X' ? NULL : strchr(a, '\t');
	if (b)
		*b++ = '\0';
	else
		b = a + strlen(a);
	switch (kind) {
	case 'S': npukb_progress_sample_w(p, (unsigned)w, a, b); break;
	case 'P': npukb_progress_unit_w(p, (unsigned)w, NPUKB_PASS, NULL); break;
	case 'K': npukb_progress_unit_w(p, (unsigned)w, NPUKB_SKIPPED, NULL); break;
	case 'F': npukb_progress_unit_w(p, (unsigned)w, NPUKB_FAIL, *a ? a : NULL); break;
	case 'G': npukb_progress_flagged_w(p, (unsigned)w); break;
	case 'N': note_text(p, a); break;
	case 'X': add_failure(p, (unsigned)w, a); break;
	default: free(copy); return -1;
	}
	free(copy);
	return 0;
}

void npukb_progress_tick(struct npukb_progress *p)
{
	if (p && p->mode == NPUKB_PROGRESS_TTY)
		draw(p, 0);
}

void npukb_progress_finish(struct npukb_progress *p)
{
	size_t i;
	if (!p || p->mode == NPUKB_PROGRESS_RELAY)
		return;
	while (p->ntasks)
		close_task(p, 0);
	if (p->mode == NPUKB_PROGRESS_TTY && p->drawn) {
		/* leave the final count on screen as a line of its own */
		for (i = 0; i < NPUKB_PROGRESS_MAX_WORKERS; i++) {
			free(p->now[i].task);
			free(p->now[i].sample);
			p->now[i].task = p->now[i].sample = NULL;
		}
		draw(p, 1);
		fputc('\n', p->out);
		fflush(p->out);
	}
}
