/* classify.c - the classify stage: name the category of a failure from a
 * rules file (plugins/classify/rules.conf), not from code.
 *
 * The file is read and every regex compiled once, in init; judge() only
 * matches. The matching order (first matching line, then first rule in the
 * file) and which failures are open to refinement are documented in the
 * rules file's header, where whoever edits the rules reads them. */
#include <npukb/plugin.h>

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

enum rule_stage {
	RULE_COMPILE = 1,
	RULE_RUN = 2,
	RULE_ANY = RULE_COMPILE | RULE_RUN
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
		snprintf(err, errlen, "%s:%d: unknown stage '%s' (compile, run or any)", path,
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

/* The first rule matching the first line that any rule matches. On a match
 * *matched is the normalised line (malloc'd). */
static const struct rule *match_text(const char *text, enum rule_stage stage, int *lines_left,
				     char **matched)
{
	const char *p = text;
	char *buf = NULL;
	size_t cap = 0;
	while (p && *p && *lines_left > 0) {
		const char *end = strchr(p, '\n');
		size_t n, i;
		if (!end)
			end = p + strlen(p);
		n = (size_t)(end - p);
		/* "$ command": a backend's echo of the command it ran, not
		 * the tool's own words; a flag like -Werror must not match. */
		if (n >= 2 && p[0] == '$' && p[1] == ' ') {
			p = *end ? end + 1 : end;
			continue;
		}
		(*lines_left)--;
		if (!buf || n + 1 > cap) {
			char *nb = realloc(buf, n + 1);
			if (!nb)
				break;
			buf = nb;
			cap = n + 1;
		}
		normalise_line(p, end, buf);
		for (i = 0; i < nrules; i++) {
			if (!(rules[i].stage & stage))
				continue;
			if (regexec(&rules[i].re, buf, 0, NULL, 0) == 0) {
				*matched = buf;
				return &rules[i];
			}
		}
		p = *end ? end + 1 : end;
	}
	free(buf);
	return NULL;
}

/* Is the incoming category a question the rules may answer? */
static int is_open(const struct npukb_verdict *f)
{
	const char *c = f->category;
	if (f->stage == NPUKB_STAGE_COMPILE)
		return !c || (strcmp(c, "compile-timeout") != 0 && strcmp(c, "internal-error") != 0);
	return !c || !*c || strcmp(c, "crash") == 0;
}

static int classify_judge(struct npukb_stage_ctx *ctx, struct npukb_verdict *out)
{
	const struct npukb_verdict *f = ctx->failure;
	const struct rule *r = NULL;
	char *matched = NULL;
	const char *msg;
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
		r = match_text(f->details, stage, &left, &matched);
		if (!r) {
			left = 1;
			r = match_text(f->message, stage, &left, &matched);
		}
	}

	if (r) {
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
