/* build_step.c - see build_step.h. */
#include "build_step.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int npukb_step_run(const struct npukb_cann_cmd *cmd, char *const *envp, const char *workdir,
		   const char *const *reads, const char *log, const struct npukb_limits *limits,
		   struct npukb_sandbox_result *proc, char *err, size_t errlen)
{
	struct npukb_sandbox_spec spec;

	memset(&spec, 0, sizeof spec);
	spec.argv = (const char *const *)cmd->argv;
	spec.read_paths = reads;
	spec.envp = (const char *const *)envp;
	spec.workdir = cmd->workdir ? cmd->workdir : workdir;
	spec.stdout_path = log;
	spec.stderr_path = log;
	if (limits)
		spec.limits = *limits;
	spec.isolate_network = 1;
	return npukb_sandbox_run(&spec, proc, err, errlen);
}

int npukb_step_ok(const struct npukb_sandbox_result *p, const char *output)
{
	return p->kind == NPUKB_EXIT_NORMAL && p->exit_code == 0 && access(output, F_OK) == 0;
}

int npukb_step_copy_file(const char *from, const char *to)
{
	char buf[65536];
	int in = open(from, O_RDONLY | O_CLOEXEC);
	int out, rc = 0;
	ssize_t n;

	if (in < 0)
		return -errno;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0) {
		rc = -errno;
		close(in);
		return rc;
	}
	while ((n = read(in, buf, sizeof buf)) > 0) {
		for (ssize_t off = 0; off < n;) {
			ssize_t w = write(out, buf + off, (size_t)(n - off));

			if (w < 0) {
				rc = -errno;
				goto done;
			}
			off += w;
		}
	}
	if (n < 0)
		rc = -errno;
done:
	if (close(out) < 0 && rc == 0)
		rc = -errno;
	close(in);
	return rc;
}

int npukb_step_write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "we");
	int rc = 0;

	if (!f)
		return -errno;
	if (fputs(text, f) == EOF)
		rc = -EIO;
	if (fclose(f) != 0 && rc == 0)
		rc = -errno;
	return rc;
}

char *npukb_step_join(char *a, char *b)
{
	char *s;

	if (!a)
		return b;
	if (!b)
		return a;
	if (asprintf(&s, "%s%s%s", a, a[0] && a[strlen(a) - 1] != '\n' ? "\n" : "", b) < 0)
		s = NULL;
	if (s) {
		free(a);
		free(b);
		return s;
	}
	free(b);
	return a;
}
