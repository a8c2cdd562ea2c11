/* util.c - the plugin toolkit (npukb/util.h). */
#include <npukb/util.h>
#include <npukb/plugin.h>
#include <npukb/sandbox.h>

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

double npukb_monotonic_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int npukb_mkdir_p(const char *path, int mode)
{
	char *copy = strdup(path), *p;
	struct stat st;
	int rc = 0;

	if (!copy)
		return -ENOMEM;
	for (p = copy + 1; ; p++) {
		if (*p == '/' || *p == '\0') {
			char saved = *p;
			*p = '\0';
			if (mkdir(copy, (mode_t)mode) != 0 && errno != EEXIST) {
				rc = -errno;
				break;
			}
			*p = saved;
			if (saved == '\0')
				break;
		}
	}
	free(copy);
	if (rc == 0 && !(stat(path, &st) == 0 && S_ISDIR(st.st_mode)))
		rc = -ENOTDIR;
	return rc;
}

/* The "C" locale for numbers; (locale_t)0 when it cannot be had, and the
 * callers fall back on the process locale. */
static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;
static locale_t c_locale;

static void c_locale_init(void)
{
	c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
}

static locale_t numeric_c_locale(void)
{
	pthread_once(&c_locale_once, c_locale_init);
	return c_locale;
}

const char *npukb_fmt_double(char *buf, size_t len, double v, int precision)
{
	locale_t c, old;

	if (isnan(v)) {
		snprintf(buf, len, "nan");
		return buf;
	}
	if (isinf(v)) {
		snprintf(buf, len, v < 0 ? "-inf" : "inf");
		return buf;
	}
	c = numeric_c_locale();
	if (!c) {
		snprintf(buf, len, "%.*g", precision, v);
		return buf;
	}
	old = uselocale(c);
	snprintf(buf, len, "%.*g", precision, v);
	uselocale(old);
	return buf;
}

double npukb_strtod(const char *s, char **end)
{
	locale_t c = numeric_c_locale();

	return c ? strtod_l(s, end, c) : strtod(s, end);
}

const char *npukb_run_category(const struct npukb_run_result *r)
{
	const char *cat;

	if (r->category && *r->category)
		return r->category;
	cat = npukb_sandbox_category(&r->proc);
	return cat ? cat : "crash";
}
