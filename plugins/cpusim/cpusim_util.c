/* cpusim_util.c - the small helpers the cpusim backend's files share:
 * strings, paths, reading files, running a command, the data folder. */
#include "cpusim_internal.h"

void set_err(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!err || len == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
}

char *xstrdup(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* malloc'd printf; NULL when out of memory. */
char *format(const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	return n < 0 ? NULL : s;
}

/* Set by the run's --backend-opt (cpusim_configure); NULL: the default. */
static char *opt_cxx, *opt_data_dir;

void cpusim_set_config(const char *cxx, const char *dir)
{
	free(opt_cxx);
	free(opt_data_dir);
	opt_cxx = cxx ? strdup(cxx) : NULL;
	opt_data_dir = dir ? strdup(dir) : NULL;
}

const char *compiler(void)
{
	const char *c = opt_cxx ? opt_cxx : getenv("NPUKB_CXX");
	return c && *c ? c : "g++";
}

int is_identifier(const char *s)
{
	const char *p;

	if (!s || !*s || (*s >= '0' && *s <= '9'))
		return 0;
	for (p = s; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_'))
			return 0;
	return 1;
}

/* A path that can sit inside a C string literal on the compiler's command
 * line without escaping. */
int is_plain_path(const char *s)
{
	for (; *s; s++)
		if (*s == '"' || *s == '\\' || *s == '\n')
			return 0;
	return 1;
}

int has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* The absolute, resolved form of path (malloc'd), or NULL with errno. */
/* "list=OFFxD0xD1,OFFxD0...@PATH": a tensor list's members (byte offset in
 * the file, then dims) for the harness to build the ListTensorDesc. */
char *list_arg(const struct npukb_case_tensor *t, const char *path)
{
	size_t esize = npukb_dtype_size(t->dtype), cap = 64 + strlen(path), len;
	char *s, *out;

	for (size_t m = 0; m < t->nmembers; m++)
		cap += 24 + 24 * (size_t)t->members[m].rank;
	s = malloc(cap);
	if (!s)
		return NULL;
	len = (size_t)snprintf(s, cap, "list=");
	for (size_t m = 0; m < t->nmembers; m++) {
		len += (size_t)snprintf(s + len, cap - len, "%s%zu", m ? "," : "",
					t->member_offsets[m] * esize);
		for (int d = 0; d < t->members[m].rank; d++)
			len += (size_t)snprintf(s + len, cap - len, "x%lld",
						(long long)t->members[m].dims[d]);
	}
	snprintf(s + len, cap - len, "@%s", path);
	out = s;
	return out;
}

char *absolute(const char *path)
{
	return realpath(path, NULL);
}

/* Reads at most max bytes of a file; the tail is kept when keep_tail, the
 * head otherwise, and a marker says what was cut. NULL when unreadable. */
char *read_text(const char *path, size_t max, int keep_tail)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long size;
	size_t n, off = 0, want;
	static const char cut[] = "[... truncated ...]\n";

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0) {
		fclose(f);
		return NULL;
	}
	want = (size_t)size;
	if (want > max) {
		if (keep_tail)
			off = want - max;
		want = max;
	}
	if (fseek(f, (long)off, SEEK_SET) != 0) {
		fclose(f);
		return NULL;
	}
	buf = malloc(want + sizeof cut + 1);
	if (!buf) {
		fclose(f);
		return NULL;
	}
	n = 0;
	if (off > 0) {
		memcpy(buf, cut, sizeof cut - 1);
		n = sizeof cut - 1;
	}
	n += fread(buf + n, 1, want, f);
	if (off == 0 && (size_t)size > max) {
		memcpy(buf + n, cut, sizeof cut - 1);
		n += sizeof cut - 1;
	}
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* First line of text containing needle, as a malloc'd string. */
char *line_with(const char *text, const char *needle, int at_start)
{
	const char *p = text, *end;

	while (p && *p) {
		end = strchr(p, '\n');
		if (!end)
			end = p + strlen(p);
		if (at_start ? strncmp(p, needle, strlen(needle)) == 0
			     : (memmem(p, (size_t)(end - p), needle, strlen(needle)) != NULL))
			return strndup(p, (size_t)(end - p));
		p = *end ? end + 1 : NULL;
	}
	return NULL;
}

/* Runs argv with stdout and stderr into a pipe, without a shell; copies the
 * first line of output into line. Returns the exit status, or -1. */
int run_capture(const char *const *argv, char *line, size_t len)
{
	posix_spawn_file_actions_t fa;
	int fds[2], status = -1;
	pid_t pid;
	char buf[512];
	size_t got = 0;
	ssize_t r;

	if (line && len)
		line[0] = '\0';
	if (pipe2(fds, O_CLOEXEC) != 0)
		return -1;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	if (posix_spawnp(&pid, argv[0], &fa, NULL, (char *const *)argv, environ) != 0) {
		posix_spawn_file_actions_destroy(&fa);
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	while ((r = read(fds[0], buf + got, sizeof buf - 1 - got)) > 0 ||
	       (r < 0 && errno == EINTR)) {
		if (r > 0)
			got += (size_t)r;
		if (got == sizeof buf - 1) {
			char sink[256];
			while (read(fds[0], sink, sizeof sink) > 0)
				;
			break;
		}
	}
	close(fds[0]);
	buf[got] = '\0';
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (line && len) {
		size_t n = strcspn(buf, "\n");
		snprintf(line, len, "%.*s", (int)n, buf);
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The data directory (include/, runtime/, soc/), resolved; malloc'd. */
char *data_dir(char *err, size_t len)
{
	const char *d = opt_data_dir ? opt_data_dir : getenv("NPUKB_CPUSIM_DIR");
	char *abs, *probe;

	if (!d || !*d)
		d = NPUKB_CPUSIM_DATADIR;
	abs = absolute(d);
	if (!abs) {
		set_err(err, len, "cpusim data directory %s not found: set --backend-opt data-dir or NPUKB_CPUSIM_DIR", d);
		return NULL;
	}
	probe = format("%s/include/kernel_operator.h", abs);
	if (!probe || access(probe, R_OK) != 0) {
		set_err(err, len, "cpusim data directory %s lacks include/kernel_operator.h: set --backend-opt "
			"data-dir or NPUKB_CPUSIM_DIR", abs);
		free(probe);
		free(abs);
		return NULL;
	}
	free(probe);
	if (!is_plain_path(abs)) {
		set_err(err, len, "cpusim data directory %s has quotes or backslashes in its path", abs);
		free(abs);
		return NULL;
	}
	return abs;
}
