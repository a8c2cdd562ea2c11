/* util.h - the plugin toolkit: the small helpers every stage and backend
 * needs (a clock, mkdir -p, numbers written and read the C way whatever
 * the process locale, a failed run's category, the run defaults), so that
 * no plugin keeps a copy of its own. The core uses the same functions. */
#ifndef NPUKB_UTIL_H
#define NPUKB_UTIL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct npukb_run_result;

/* Seeds each case is judged with when the run's options name none
 * (options->nseeds == 0). */
#define NPUKB_DEFAULT_SEEDS 5u

/* Seconds on the monotonic clock, for measuring durations (the origin is
 * arbitrary: only differences mean anything). */
double npukb_monotonic_seconds(void);

/* mkdir -p: path and every missing parent, made with mode; a folder that
 * already exists is fine. 0, or a negative errno (-ENOTDIR when path ends
 * up being something other than a folder). */
int npukb_mkdir_p(const char *path, int mode);

/* snprintf "%.*g" with '.' as the decimal point whatever LC_NUMERIC says;
 * NaN and infinities as "nan", "inf", "-inf". For anything a machine reads
 * back (XML, JSON, messages in reports). Returns buf. */
const char *npukb_fmt_double(char *buf, size_t len, double v, int precision);

/* strtod that reads '.' as the decimal point whatever LC_NUMERIC says
 * (the counterpart of npukb_fmt_double); end as strtod's, may be NULL. */
double npukb_strtod(const char *s, char **end);

/* Category of a backend run that did not complete (ok == 0): the
 * backend's own when it named one (a simulator check such as
 * "ub-overflow"), else what the process's fate says (npukb_sandbox_category:
 * "timeout", "resource-limit", "sandbox-violation", "crash"), and "crash"
 * for a clean exit that still did not finish. Never NULL. */
const char *npukb_run_category(const struct npukb_run_result *r);

#ifdef __cplusplus
}
#endif

#endif
