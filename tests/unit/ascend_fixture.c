/* ascend_fixture.c - see ascend_fixture.h. */
#include "ascend_fixture.h"

#include <npukb/sandbox.h>

#include <criterion/criterion.h>

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

char fx_tmp[64];

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

void fx_make_tmp(void)
{
	strcpy(fx_tmp, "/tmp/npukb-ascend-dev-XXXXXX");
	cr_assert_not_null(mkdtemp(fx_tmp));
}

void fx_remove_tmp(void)
{
	if (fx_tmp[0] && !getenv("NPUKB_KEEP_TMP"))
		nftw(fx_tmp, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	fx_tmp[0] = '\0';
}

const char *fx_at(const char *rel)
{
	static char bufs[4][PATH_MAX];
	static int next;
	char *b = bufs[next++ % 4];

	snprintf(b, PATH_MAX, "%s/%s", fx_tmp, rel);
	return b;
}

static void make_parents(char *path, size_t from)
{
	for (char *p = path + from; *p; p++) {
		if (*p == '/') {
			*p = '\0';
			mkdir(path, 0755);
			*p = '/';
		}
	}
}

void fx_put_file(const char *rel, const char *content, int executable)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", fx_tmp, rel);
	make_parents(path, strlen(fx_tmp) + 1);
	f = fopen(path, "w");
	cr_assert_not_null(f, "%s: %s", path, strerror(errno));
	fputs(content, f);
	fclose(f);
	chmod(path, executable ? 0755 : 0644);
}

char *fx_slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *s = NULL;
	size_t n = 0, cap = 0, got;

	if (!f)
		return NULL;
	do {
		if (n + 4096 + 1 > cap) {
			char *p = realloc(s, cap = cap ? cap * 2 : 8192);

			cr_assert_not_null(p);
			s = p;
		}
		got = fread(s + n, 1, cap - n - 1, f);
		n += got;
	} while (got > 0);
	fclose(f);
	s[n] = '\0';
	return s;
}

int fx_shell(const char *fmt, ...)
{
	char cmd[8192];
	va_list ap;
	int st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof cmd, fmt, ap);
	va_end(ap);
	st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

const char *fx_src(const char *rel)
{
	static char bufs[4][PATH_MAX];
	static int next;
	const char *src = getenv("NPUKB_SRCDIR");
	char *b = bufs[next++ % 4];

	snprintf(b, PATH_MAX, "%s/%s", src && *src ? src : ".", rel);
	return b;
}

void fx_fake_cann(int bisheng, struct npukb_cann_info *info)
{
	const char *fake = fx_src("tests/data/fake_cann");
	const char *libdir = bisheng ? "cann/lib64" : "cann/runtime/lib64";
	char reason[1024], abs_fake[PATH_MAX];
	struct npukb_cann_env env = { NULL, NULL, fx_tmp, NULL };
	int rc;

	cr_assert_not_null(realpath(fake, abs_fake), "%s", fake);
	fx_put_file(bisheng ? "cann/version.cfg" : "cann/compiler/version.info",
		    bisheng ? "runtime_running_version=[7.8.0.1.100:8.5.0]\n"
			    : "Version=8.0.RC3\n", 0);
	fx_put_file(bisheng ? "cann/bin/.keep" : "cann/compiler/ccec_compiler/bin/.keep", "", 0);
	fx_put_file(bisheng ? "cann/lib64/.keep" : "cann/runtime/lib64/.keep", "", 0);
	cr_assert_eq(fx_shell("cp '%s/fake-cann-cc' '%s' && ln -s '%s/include' '%s'", abs_fake,
			      fx_at(bisheng ? "cann/bin/bisheng"
					    : "cann/compiler/ccec_compiler/bin/ccec"),
			      abs_fake, fx_at("cann/include")), 0);
	cr_assert_eq(fx_shell("cc -std=c11 -shared -fPIC -I'%s/include' '%s/fake_acl.c' -o "
			      "'%s/libascendcl.so' && cc -shared -fPIC -x c /dev/null -o "
			      "'%s/libruntime.so' && cp '%s/libruntime.so' '%s/libnnopbase.so'",
			      abs_fake, abs_fake, fx_at(libdir), fx_at(libdir), fx_at(libdir),
			      fx_at(libdir)),
		     0, "cannot build the fake runtime");
	/* The custom-operator tools: msopgen in the toolkit, cmake on PATH. */
	fx_put_file("cann/python/site-packages/bin/.keep", "", 0);
	fx_put_file("cann/fakebin/.keep", "", 0);
	cr_assert_eq(fx_shell("cp '%s/fake-msopgen' '%s' && cp '%s/fake-cmake' '%s'", abs_fake,
			      fx_at("cann/python/site-packages/bin/msopgen"), abs_fake,
			      fx_at("cann/fakebin/cmake")), 0);
	{
		char path[8192];
		const char *old = getenv("PATH");

		snprintf(path, sizeof path, "%s:%s", fx_at("cann/fakebin"), old ? old : "/usr/bin:/bin");
		setenv("PATH", path, 1);
	}
	setenv("ASCEND_HOME_PATH", fx_at("cann"), 1);
	/* The fake toolkit is test scaffolding, not a sample: it records every
	 * call in ASCEND_FAKE_LOG outside the work folder and reads its helpers
	 * from the source tree through ASCEND_FAKE_DIR, which the sandbox would
	 * (rightly) hide, so these tests run unsandboxed (the variables carry
	 * the ASCEND_ prefix the sandbox's environment allowlist passes on).
	 * They check the generated files, commands and call order; the
	 * sandbox's own tests check the isolation. */
	npukb_sandbox_set_unsafe(1);
	setenv("ASCEND_FAKE_DIR", abs_fake, 1);
	setenv("ASCEND_FAKE_LOG", fx_at("cann-calls.log"), 1);
	unsetenv("ASCEND_TOOLKIT_HOME");
	unsetenv("NPUKB_CXX");
	rc = npukb_cann_probe_env(&env, info, reason, sizeof reason);
	cr_assert(rc == NPUKB_CANN_NO_DEVICE || rc == NPUKB_CANN_OK, "%s", reason);
}

char *fx_replace(const char *text, const char *what, const char *with)
{
	size_t wl = strlen(what), n = 0;
	const char *p;
	char *out, *o;

	for (p = text; (p = strstr(p, what)); p += wl)
		n++;
	out = malloc(strlen(text) + n * strlen(with) + 1);
	cr_assert_not_null(out);
	for (o = out, p = text;;) {
		const char *hit = strstr(p, what);

		if (!hit) {
			strcpy(o, p);
			break;
		}
		memcpy(o, p, (size_t)(hit - p));
		o += hit - p;
		strcpy(o, with);
		o += strlen(with);
		p = hit + wl;
	}
	return out;
}

void fx_add_cmd(char **acc, const struct npukb_cann_cmd *c, const char *root)
{
	size_t len = strlen(c->what) + 4;
	char *line, *masked, *joined;

	for (size_t i = 0; i < c->argc; i++)
		len += strlen(c->argv[i]) + 1;
	line = malloc(len + 1);
	cr_assert_not_null(line);
	snprintf(line, len + 1, "# %s\n", c->what);
	for (size_t i = 0; i < c->argc; i++) {
		strcat(line, c->argv[i]);
		strcat(line, i + 1 < c->argc ? " " : "\n");
	}
	masked = fx_replace(line, root, "@ROOT@");
	free(line);
	if (!*acc) {
		*acc = masked;
		return;
	}
	joined = malloc(strlen(*acc) + strlen(masked) + 1);
	cr_assert_not_null(joined);
	strcpy(joined, *acc);
	strcat(joined, masked);
	free(*acc);
	free(masked);
	*acc = joined;
}

/* The golden text after its notes, and the notes' length. */
static const char *after_notes(const char *g)
{
	while (strncmp(g, "#|", 2) == 0) {
		const char *nl = strchr(g, '\n');

		if (!nl)
			return g + strlen(g);
		g = nl + 1;
	}
	return g;
}

void fx_assert_golden(const char *name, const char *actual)
{
	char rel[PATH_MAX], got[PATH_MAX];
	const char *path, *body;
	char *golden;
	FILE *f;

	snprintf(rel, sizeof rel, "tests/data/ascend/%s", name);
	path = fx_src(rel);
	golden = fx_slurp(path);
	if (getenv("NPUKB_UPDATE_GOLDEN")) {
		body = golden ? after_notes(golden) : "";
		f = fopen(path, "w");
		cr_assert_not_null(f, "%s", path);
		fwrite(golden ? golden : "", 1, golden ? (size_t)(body - golden) : 0, f);
		fputs(actual, f);
		fclose(f);
		free(golden);
		return;
	}
	cr_assert_not_null(golden, "golden file %s is missing", path);
	body = after_notes(golden);
	if (strcmp(body, actual) != 0) {
		snprintf(got, sizeof got, "%s/%s.actual", fx_tmp, name);
		f = fopen(got, "w");
		if (f) {
			fputs(actual, f);
			fclose(f);
		}
		setenv("NPUKB_KEEP_TMP", "1", 1);
		cr_assert_fail("%s differs from its golden file; see diff '%s' '%s'", name, path,
			       got);
	}
	free(golden);
}

void fx_write_bin(const char *rel, const void *buf, size_t n)
{
	FILE *f = fopen(fx_at(rel), "wb");

	cr_assert_not_null(f);
	cr_assert_eq(fwrite(buf, 1, n, f), n);
	fclose(f);
}

char *fx_masked_calls(const struct npukb_cann_info *info)
{
	char *log = fx_slurp(fx_at("cann-calls.log"));
	char *work = realpath(fx_at("work"), NULL);
	char *a, *b;

	cr_assert_not_null(log, "the fake tools were never called");
	cr_assert_not_null(work);
	a = fx_replace(log, info->root, "@ROOT@");
	b = fx_replace(a, work, "@WORK@");
	free(log);
	free(work);
	free(a);
	return b;
}
