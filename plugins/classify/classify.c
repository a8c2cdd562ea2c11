/* classify.c - the classify stage: name the category of a failure from a
 * rules file (plugins/classify/rules.conf), not from code.
 *
 * The file is read and every regex compiled once, in init; judge() only
 * matches. The matching order (first matching line, then first rule in the
 * file) and which failures are open to refinement are documented in the
 * rules file's header, where whoever edits the rules reads them. */
#include <npukb/plugin.h>

#include "call_facts.h"
#include "line_facts.h"

#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef NPUKB_CLASSIFY_RULES_FILE
#define NPUKB_CLASSIFY_RULES_FILE "/usr/local/share/npukb/classify-rules.conf"
#endif

/* Diagnostics of a template-heavy build can run to many thousands of lines;
 * the root cause is near the top, so stop looking after this many. */
#define MAX_SCAN_LINES 5000
/* The notes under one error (candidates, deduction failures) read by the
 * note rules; an overload set of AscendC's vector APIs stays well within. */
#define MAX_NOTE_LINES 400

enum rule_stage {
	RULE_COMPILE = 1,
	RULE_RUN = 2,
	RULE_ANY = RULE_COMPILE | RULE_RUN,
	RULE_NOTE = 4 /* only the lines under the deciding compile error */
};

struct rule {
	char *id;
	char *category;
	enum rule_stage stage;
	int line;
	regex_t re;
};

/* Written by init and fini only; judge() reads them from any worker thread
 * (regexec on a compiled pattern is thread-safe). */
static struct rule *rules;
static size_t nrules;

static void free_rules(struct rule *r, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++) {
		free(r[i].id);
		free(r[i].category);
		regfree(&r[i].re);
	}
	free(r);
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

/* Cut the next whitespace-delimited token out of *p. */
static char *next_token(char **p)
{
	char *s = *p, *start;
	while (*s && is_space(*s))
		s++;
	if (!*s)
		return NULL;
	start = s;
	while (*s && !is_space(*s))
		s++;
	if (*s)
		*s++ = '\0';
	*p = s;
	return start;
}

static int parse_stage(const char *s, enum rule_stage *out)
{
	if (strcmp(s, "compile") == 0)
		*out = RULE_COMPILE;
	else if (strcmp(s, "run") == 0)
		*out = RULE_RUN;
	else if (strcmp(s, "any") == 0)
		*out = RULE_ANY;
	else if (strcmp(s, "note") == 0)
		*out = RULE_NOTE;
	else
		return -1;
	return 0;
}

/* Parse one non-comment line into r (its regex compiled). */
static int parse_rule(char *text, const char *path, int lineno, struct rule *r,
		      const struct rule *done, size_t ndone, char *err, size_t errlen)
{
	char *p = text, *id, *stage, *cat, *re, *end;
	size_t i;
	int rc;

	id = next_token(&p);
	stage = next_token(&p);
	cat = next_token(&p);
	while (*p && is_space(*p))
		p++;
	re = p;
	end = re + strlen(re);
	while (end > re && is_space(end[-1]))
		*--end = '\0';
	if (!id || !stage || !cat || !*re) {
		snprintf(err, errlen, "%s:%d: expected '<rule-id> <stage> <category> <regex>'",
			 path, lineno);
		return -EINVAL;
	}
	if (parse_stage(stage, &r->stage) != 0) {
		snprintf(err, errlen, "%s:%d: unknown stage '%s' (compile, run, any or note)", path,
			 lineno, stage);
		return -EINVAL;
	}
	if (!npukb_category_is_known(cat)) {
		snprintf(err, errlen, "%s:%d: unknown category '%s'", path, lineno, cat);
		return -EINVAL;
	}
	for (i = 0; i < ndone; i++) {
		if (strcmp(done[i].id, id) == 0) {
			snprintf(err, errlen, "%s:%d: rule id '%s' already used on line %d", path,
				 lineno, id, done[i].line);
			return -EINVAL;
		}
	}
	rc = regcomp(&r->re, re, REG_EXTENDED | REG_NOSUB);
	if (rc != 0) {
		char why[256];
		regerror(rc, &r->re, why, sizeof(why));
		snprintf(err, errlen, "%s:%d: bad regex '%s': %s", path, lineno, re, why);
		return -EINVAL;
	}
	r->id = strdup(id);
	r->category = strdup(cat);
	r->line = lineno;
	if (!r->id || !r->category) {
		free(r->id);
		free(r->category);
		regfree(&r->re);
		snprintf(err, errlen, "out of memory reading %s", path);
		return -ENOMEM;
	}
	return 0;
}

static int load_rules(const char *path, struct rule **out, size_t *nout, char *err,
		      size_t errlen)
{
	FILE *f = fopen(path, "re");
	struct rule *list = NULL;
	size_t n = 0, cap = 0, len = 0;
	char *line = NULL;
	int lineno = 0, rc = 0;

	if (!f) {
		rc = -errno;
		snprintf(err, errlen,
			 "cannot open classify rules %s: %s (set NPUKB_CLASSIFY_RULES to the rules file)",
			 path, strerror(errno));
		return rc;
	}
	while (getline(&line, &len, f) >= 0) {
		char *p = line;
		lineno++;
		while (*p && is_space(*p))
			p++;
		if (!*p || *p == '#')
			continue;
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 64;
			struct rule *nl = realloc(list, ncap * sizeof(*nl));
			if (!nl) {
				snprintf(err, errlen, "out of memory reading %s", path);
				rc = -ENOMEM;
				break;
			}
			list = nl;
			cap = ncap;
		}
		rc = parse_rule(p, path, lineno, &list[n], list, n, err, errlen);
		if (rc)
			break;
		n++;
	}
	if (rc == 0 && ferror(f)) {
		rc = -EIO;
		snprintf(err, errlen, "%s: read error", path);
	}
	free(line);
	fclose(f);
	if (rc) {
		free_rules(list, n);
		return rc;
	}
	*out = list;
	*nout = n;
	return 0;
}

/* $NPUKB_CLASSIFY_RULES, else the build tree or install root named by
 * $NPUKB_DATADIR when the file is there, else the compiled-in path. */
static const char *rules_path(char *buf, size_t len)
{
	const char *env = getenv("NPUKB_CLASSIFY_RULES");
	const char *data = getenv("NPUKB_DATADIR");
	struct stat sb;
	if (env && *env)
		return env;
	if (data && *data &&
	    (size_t)snprintf(buf, len, "%s/plugins/classify/rules.conf", data) < len &&
	    stat(buf, &sb) == 0 && S_ISREG(sb.st_mode))
		return buf;
	return NPUKB_CLASSIFY_RULES_FILE;
}

static int classify_init(char *err, size_t errlen)
{
	char buf[4096];
	struct rule *list = NULL;
	size_t n = 0;
	int rc = load_rules(rules_path(buf, sizeof(buf)), &list, &n, err, errlen);
	if (rc)
		return rc;
	free_rules(rules, nrules);
	rules = list;
	nrules = n;
	return 0;
}

static void classify_fini(void)
{
	free_rules(rules, nrules);
	rules = NULL;
	nrules = 0;
}

/* Copy [p, end) into dst without ANSI escape sequences and with gcc's
 * typographic quotes (U+2018/2019, U+201C/201D in UTF-8) made ASCII. */
static void normalise_line(const char *p, const char *end, char *dst)
{
	while (p < end) {
		unsigned char c = (unsigned char)*p;
		if (c == 0x1b) {
			p++;
			if (p < end && *p == '[') {
				p++;
				while (p < end && !((*p >= '@' && *p <= '~')))
					p++;
				if (p < end)
					p++;
			}
			continue;
		}
		if (c == 0xe2 && end - p >= 3 && (unsigned char)p[1] == 0x80) {
			unsigned char d = (unsigned char)p[2];
			if (d == 0x98 || d == 0x99) {
				*dst++ = '\'';
				p += 3;
				continue;
			}
			if (d == 0x9c || d == 0x9d) {
				*dst++ = '"';
				p += 3;
				continue;
			}
		}
		if (c == '\r') {
			p++;
			continue;
		}
		*dst++ = *p++;
	}
	*dst = '\0';
}

/* Drop g++'s " {aka 'unsigned int'}" glosses: a rule about a conversion
 * "from 'uint32_t' to 'half'" must not depend on whether the type has one. */
static void drop_aka(char *s)
{
	char *p;
	while ((p = strstr(s, " {aka ")) != NULL) {
		char *end = strchr(p, '}');
		if (!end)
			break;
		memmove(p, end + 1, strlen(end + 1) + 1);
	}
}

/* The end of the line at p, and the start of the next one. */
static const char *line_end(const char *p, const char **next)
{
	const char *end = strchr(p, '\n');
	if (!end)
		end = p + strlen(p);
	*next = *end ? end + 1 : end;
	return end;
}

/* The normalised copy of [p, end), malloc'd. */
static char *normalised(const char *p, const char *end)
{
	char *buf = malloc((size_t)(end - p) + 1);
	if (buf) {
		normalise_line(p, end, buf);
		drop_aka(buf);
	}
	return buf;
}

/* The first rule matching the first line that any rule matches. On a match
 * *matched is the normalised line (malloc'd) and *after the text after it. */
static const struct rule *match_text(const char *text, enum rule_stage stage, int *lines_left,
				     char **matched, const char **after)
{
	const char *p = text;
	while (p && *p && *lines_left > 0) {
		const char *next, *end = line_end(p, &next);
		char *buf;
		size_t i;
		/* "$ command": a backend's echo of the command it ran, not
		 * the tool's own words; a flag like -Werror must not match. */
		if (end - p >= 2 && p[0] == '$' && p[1] == ' ') {
			p = next;
			continue;
		}
		(*lines_left)--;
		buf = normalised(p, end);
		if (!buf)
			break;
		for (i = 0; i < nrules; i++) {
			if (!(rules[i].stage & stage))
				continue;
			if (regexec(&rules[i].re, buf, 0, NULL, 0) == 0) {
				*matched = buf;
				*after = next;
				return &rules[i];
			}
		}
		free(buf);
		p = next;
	}
	return NULL;
}

#define MAX_PAIR_LINES 16

/* The conversion fact (call_facts.h) of error with its notes and the error
 * at p with the lines under it; malloc'd or NULL. */
static char *conversion_pair_fact(const char *error, char *const *notes, size_t n, const char *p)
{
	char *next[MAX_PAIR_LINES], *fact = NULL;
	size_t m = 0, k;
	while (*p && m < MAX_PAIR_LINES) {
		const char *end_next, *end = line_end(p, &end_next);
		char *buf = normalised(p, end);
		if (!buf)
			break;
		if (m > 0 && strstr(buf, "error:")) {
			free(buf);
			break;
		}
		next[m++] = buf;
		p = end_next;
	}
	if (m > 0 && strstr(next[0], "error:"))
		fact = classify_conversion_facts(error, notes, n, next[0], next + 1, m - 1);
	for (k = 0; k < m; k++)
		free(next[k]);
	return fact;
}

/* The note rule earliest in the file matching any of the lines from p up
 * to the next error: the compiler's notes under the deciding error say
 * what was wrong with the call (a type that conflicts, an argument too
 * many, a tensor of the other kind), whichever function it named. On a
 * match *line is that note (malloc'd). */
static const struct rule *match_notes(const char *error, const char *p, char **line)
{
	char *notes[MAX_NOTE_LINES + 2];
	size_t n = 0, i, k;
	const struct rule *r = NULL;

	while (*p && n < MAX_NOTE_LINES) {
		const char *next, *end = line_end(p, &next);
		char *buf = normalised(p, end);
		if (!buf)
			break;
		/* g++ explains a failed deduction with an "error:" line of its
		 * own (a template argument it could not convert): a note. */
		if (strstr(buf, "error:") &&
		    !(n > 0 && strstr(notes[n - 1], "template argument deduction/substitution failed"))) {
			free(buf);
			break;
		}
		notes[n++] = buf;
		p = next;
	}
	/* What the call's and candidates' types say together (call_facts.h),
	 * what the quoted source line says (line_facts.h) and what this error
	 * and the next one say together, as one more line each for the
	 * rules. */
	{
		char *call_fact = classify_call_facts(error, notes, n);
		char *line_fact = classify_line_facts(error, notes, n);
		char *pair_fact = conversion_pair_fact(error, notes, n, p);
		if (call_fact)
			notes[n++] = call_fact;
		if (line_fact)
			notes[n++] = line_fact;
		if (pair_fact)
			notes[n++] = pair_fact;
	}
	for (i = 0; i < nrules && !r; i++) {
		if (rules[i].stage != RULE_NOTE)
			continue;
		for (k = 0; k < n; k++) {
			if (regexec(&rules[i].re, notes[k], 0, NULL, 0) == 0) {
				r = &rules[i];
				*line = notes[k];
				notes[k] = NULL;
				break;
			}
		}
	}
	for (k = 0; k < n; k++)
		free(notes[k]);
	return r;
}

/* Is the incoming category a question the rules may answer? */
static int is_open(const struct npukb_verdict *f)
{
	const char *c = f->category;
	if (f->stage == NPUKB_STAGE_COMPILE)
		return !c || (strcmp(c, "compile-timeout") != 0 && strcmp(c, "internal-error") != 0 &&
			      strcmp(c, "no-code") != 0);
	return !c || !*c || strcmp(c, "crash") == 0;
}

static int classify_judge(struct npukb_stage_ctx *ctx, struct npukb_verdict *out)
{
	const struct npukb_verdict *f = ctx->failure;
	const struct rule *r = NULL, *note = NULL;
	char *matched = NULL, *note_line = NULL;
	const char *msg, *after = NULL;
	int left = MAX_SCAN_LINES;
	enum rule_stage stage;

	npukb_verdict_init(out, NPUKB_STAGE_CLASSIFY);
	if (!f || f->outcome != NPUKB_FAIL) {
		npukb_verdict_fail(out, "internal-error",
				   "classify stage called without a failed verdict");
		return -EINVAL;
	}
	msg = f->message ? f->message : "";
	stage = f->stage == NPUKB_STAGE_COMPILE ? RULE_COMPILE : RULE_RUN;
	if (is_open(f)) {
		r = match_text(f->details, stage, &left, &matched, &after);
		if (!r) {
			left = 1;
			r = match_text(f->message, stage, &left, &matched, &after);
		}
		if (r && stage == RULE_COMPILE)
			note = match_notes(matched, after, &note_line);
	}

	if (note) {
		/* both lines: the error says where, the note why */
		char *both = NULL;
		npukb_verdict_fail(out, note->category, "%s", msg);
		npukb_verdict_set_rule(out, note->id);
		if (asprintf(&both, "%s\n%s", matched, note_line) >= 0)
			npukb_verdict_set_details(out, both);
		else
			npukb_verdict_set_details(out, note_line);
		free(both);
	} else if (r) {
		npukb_verdict_fail(out, r->category, "%s", msg);
		npukb_verdict_set_rule(out, r->id);
		npukb_verdict_set_details(out, matched);
	} else if (f->category && *f->category && strcmp(f->category, "other-compile") != 0) {
		char rule[128];
		snprintf(rule, sizeof(rule), "builtin:%s", f->category);
		npukb_verdict_fail(out, f->category, "%s", msg);
		npukb_verdict_set_rule(out, rule);
	} else {
		/* A compile failure nothing explains; a run failure without any
		 * category cannot happen with the stages as written, and a crash
		 * is the least presumptuous name for it. */
		npukb_verdict_fail(out, f->stage == NPUKB_STAGE_COMPILE ? "other-compile" : "crash",
				   "%s", msg);
		npukb_verdict_set_rule(out, "fallback");
	}
	free(matched);
	free(note_line);
	return 0;
}

static const struct npukb_stage_ops classify_ops = {
	.stage = NPUKB_STAGE_CLASSIFY,
	.judge = classify_judge,
};

NPUKB_PLUGIN_EXPORT const struct npukb_plugin npukb_classify_plugin = {
	.abi = NPUKB_PLUGIN_ABI,
	.kind = NPUKB_PLUGIN_STAGE,
	.name = "classify",
	.version = "1.0",
	.description = "names the category of each failure from a rules file",
	.init = classify_init,
	.fini = classify_fini,
	.backend = NULL,
	.stage = &classify_ops,
};
