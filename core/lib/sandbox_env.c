/* sandbox_env.c - a sandboxed command's environment, rebuilt from an
 * allowlist.
 *
 * Nothing of the invoking user's environment reaches a sample unless it is
 * named here: tokens, proxies, SSH agents, a HOME full of secrets, and the
 * run's own paths stay out. What passes is what the toolchains need: PATH
 * (the compiler driver finds as and ld through it), LD_LIBRARY_PATH and the
 * CANN toolkit's ASCEND_* (the ascend backends), the sanitizers' options
 * (a --enable-sanitizers build), and NPUKB_CPUSIM_* (cpusim's harness). HOME
 * is the work folder, TMPDIR the private /tmp, LANG and LC_ALL are C so that
 * diagnostics do not depend on the user's locale. */

#include "sandbox_private.h"

#include <stdlib.h>
#include <string.h>

extern char **environ;

static const char *const exact[] = {
	"PATH", "LD_LIBRARY_PATH", "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS",
	"TSAN_OPTIONS", "MSAN_OPTIONS",
};
static const char *const prefixes[] = { "ASCEND_", "NPUKB_CPUSIM_" };

static int allowed(const char *entry)
{
	size_t n = strcspn(entry, "=");

	if (entry[n] != '=')
		return 0;
	for (size_t i = 0; i < sizeof exact / sizeof *exact; i++)
		if (strlen(exact[i]) == n && strncmp(entry, exact[i], n) == 0)
			return 1;
	for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++)
		if (strncmp(entry, prefixes[i], strlen(prefixes[i])) == 0 && n > strlen(prefixes[i]))
			return 1;
	return 0;
}

char **sbx_env_build(char *const *envp, const char *workdir)
{
	static const char *const fixed[] = { "LANG=C", "LC_ALL=C", "TMPDIR=/tmp" };
	char *const *src = envp ? envp : environ;
	size_t n = 0, bytes = 0, nfixed = sizeof fixed / sizeof *fixed;
	int have_path = 0;
	char **out;
	char *s;

	for (size_t i = 0; src && src[i]; i++)
		if (allowed(src[i])) {
			n++;
			bytes += strlen(src[i]) + 1;
			have_path |= strncmp(src[i], "PATH=", 5) == 0;
		}
	bytes += strlen("HOME=") + strlen(workdir) + 1 + strlen("PATH=/usr/local/bin:/usr/bin:/bin") + 1;
	for (size_t i = 0; i < nfixed; i++)
		bytes += strlen(fixed[i]) + 1;
	out = malloc((n + nfixed + 3) * sizeof *out + bytes);
	if (!out)
		return NULL;
	s = (char *)(out + n + nfixed + 3);
	n = 0;
	for (size_t i = 0; src && src[i]; i++)
		if (allowed(src[i])) {
			out[n++] = s;
			s = stpcpy(s, src[i]) + 1;
		}
	if (!have_path) {
		out[n++] = s;
		s = stpcpy(s, "PATH=/usr/local/bin:/usr/bin:/bin") + 1;
	}
	out[n++] = s;
	s = stpcpy(stpcpy(s, "HOME="), workdir) + 1;
	for (size_t i = 0; i < nfixed; i++) {
		out[n++] = s;
		s = stpcpy(s, fixed[i]) + 1;
	}
	out[n] = NULL;
	return out;
}
