/* cpusim.c - the cpusim backend: AscendC kernels compiled for and run on the
 * host CPU.
 *
 * build() compiles the sample's sources together with cpusim's AscendC
 * emulation headers (include/), a generated launcher that calls the kernel
 * with its arguments, and the harness (runtime/harness.cpp) into one
 * executable. run() executes it on the case's tensor files; the harness
 * reports check failures as `npukb-cpusim: <category>: ...` with exit
 * status 3, and the cost model's cycles in a stats file. Both steps go
 * through npukb_sandbox_run(): the sample is hostile until proven otherwise.
 *
 * The data directory (include/, runtime/, soc/) is $NPUKB_CPUSIM_DIR, else
 * NPUKB_CPUSIM_DATADIR fixed at build time. The C++ compiler is
 * $NPUKB_CXX (one program name), else g++. */
#include <npukb/plugin.h>

#include "hostdev_case.h"
#include "cmake_sources.h"
#include "chevron.h"
#include "harness_cache.h"
#include "srcloc_hide.h"
#include "socs.h"

#include <ctype.h>
#include <sys/random.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef NPUKB_CPUSIM_DATADIR
#define NPUKB_CPUSIM_DATADIR "/usr/local/share/npukb/cpusim"
#endif

#define CPUSIM_VERSION "0.1"
#define DEFAULT_SOC "ascend910b2"
#define EXE_NAME "kernel.exe"
#define LAUNCHER_NAME "launcher.cpp"
#define TILING_HEADER "npukb_tiling.h"
/* runtime/harness.cpp compiled once per build, linked into every variant. */
#define HARNESS_OBJ "npukb_harness.o"
/* A fresh random token per launch, written here before the harness starts;
 * the harness reads and deletes it before any code of the sample runs and
 * writes it into the stats file, so a kernel cannot forge its timing by
 * writing that file and ending the process (runtime/harness.cpp). */
#define RUN_TOKEN_NAME "npukb-run-token"
#define COMPILE_LOG "compile.log"
/* Every compiler command of the build, one shell-quoted line each, so that
 * a build can be repeated by hand in the kept work folder (--keep-work). */
#define COMMANDS_LOG "commands.log"
#define RUN_OUT "run.out"
#define RUN_ERR "run.err"
#define STATS_NAME "stats.txt"
#define CASE_FILE "case.txt"
#define DIAG_MAX (64 * 1024)
#define REPORT_PREFIX "npukb-cpusim: "
/* Status the harness exits with after a check failure. */
#define CHECK_EXIT 3
/* ... after a misuse of its command line or bad SoC data. */
#define USAGE_EXIT 2
#define USAGE_PREFIX "npukb-cpusim-harness: "
/* ... after the op_host tiling of a host+device sample failed. */
#define TILING_EXIT 4
#define TILING_PREFIX "npukb-cpusim-hostdev: "

extern char **environ;

/* ---- small helpers ------------------------------------------------------- */

static void set_err(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void set_err(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!err || len == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
}

static char *xstrdup(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* malloc'd printf; NULL when out of memory. */
static char *format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *format(const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	return n < 0 ? NULL : s;
}

static const char *compiler(void)
{
	const char *c = getenv("NPUKB_CXX");
	return c && *c ? c : "g++";
}

static int is_identifier(const char *s)
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
static int is_plain_path(const char *s)
{
	for (; *s; s++)
		if (*s == '"' || *s == '\\' || *s == '\n')
			return 0;
	return 1;
}

static int has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* The absolute, resolved form of path (malloc'd), or NULL with errno. */
/* "list=OFFxD0xD1,OFFxD0...@PATH": a tensor list's members (byte offset in
 * the file, then dims) for the harness to build the ListTensorDesc. */
static char *list_arg(const struct npukb_case_tensor *t, const char *path)
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

static char *absolute(const char *path)
{
	return realpath(path, NULL);
}

/* Reads at most max bytes of a file; the tail is kept when keep_tail, the
 * head otherwise, and a marker says what was cut. NULL when unreadable. */
static char *read_text(const char *path, size_t max, int keep_tail)
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
static char *line_with(const char *text, const char *needle, int at_start)
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
static int run_capture(const char *const *argv, char *line, size_t len)
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
static char *data_dir(char *err, size_t len)
{
	const char *d = getenv("NPUKB_CPUSIM_DIR");
	char *abs, *probe;

	if (!d || !*d)
		d = NPUKB_CPUSIM_DATADIR;
	abs = absolute(d);
	if (!abs) {
		set_err(err, len, "cpusim data directory %s not found: set NPUKB_CPUSIM_DIR", d);
		return NULL;
	}
	probe = format("%s/include/kernel_operator.h", abs);
	if (!probe || access(probe, R_OK) != 0) {
		set_err(err, len, "cpusim data directory %s lacks include/kernel_operator.h: set NPUKB_CPUSIM_DIR",
			abs);
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

/* ---- probe / identity ------------------------------------------------------ */

static int cpusim_probe(char *reason, size_t len)
{
	const char *cxx = compiler();
	const char *version[] = { cxx, "--version", NULL };
	const char *cxx17[] = { cxx, "-std=c++17", "-fsyntax-only", "-x", "c++", "/dev/null", NULL };
	char line[256], *dir;

	if (run_capture(version, line, sizeof line) != 0) {
		set_err(reason, len, "C++ compiler '%s' does not run: install g++ or set NPUKB_CXX", cxx);
		return 1;
	}
	if (run_capture(cxx17, line, sizeof line) != 0) {
		set_err(reason, len, "C++ compiler '%s' rejects -std=c++17: %s", cxx, line);
		return 1;
	}
	dir = data_dir(reason, len);
	if (!dir)
		return 1;
	free(dir);
	return 0;
}

/* A short fingerprint of the cost-model parameter files (soc/ *.conf, in
 * name order): reports name the parameters their cycles came from. */
static unsigned long long soc_params_hash(void)
{
	char err[256], *dir = data_dir(err, sizeof(err)), *soc = NULL;
	struct dirent **names = NULL;
	unsigned long long h = 0xcbf29ce484222325ull;
	int n, i;
	if (!dir || !(soc = format("%s/soc", dir))) {
		free(dir);
		return 0;
	}
	n = scandir(soc, &names, NULL, alphasort);
	for (i = 0; i < n; i++) {
		size_t nl = strlen(names[i]->d_name);
		if (nl > 5 && strcmp(names[i]->d_name + nl - 5, ".conf") == 0) {
			char *path = format("%s/%s", soc, names[i]->d_name);
			FILE *f = path ? fopen(path, "rb") : NULL;
			int c;
			const char *p;
			for (p = names[i]->d_name; *p; p++)
				h = (h ^ (unsigned char)*p) * 0x100000001b3ull;
			while (f && (c = fgetc(f)) != EOF)
				h = (h ^ (unsigned char)c) * 0x100000001b3ull;
			if (f)
				fclose(f);
			free(path);
		}
		free(names[i]);
	}
	free(names);
	free(soc);
	free(dir);
	return h;
}

static int cpusim_identity(char *buf, size_t len)
{
	const char *argv[] = { compiler(), "--version", NULL };
	char cc[256];
	unsigned long long h;

	if (run_capture(argv, cc, sizeof(cc)) != 0 || !cc[0]) {
		set_err(buf, len, "%s (version unknown)", compiler());
		return -ENOENT;
	}
	h = soc_params_hash();
	snprintf(buf, len, "cpusim %s, cost-model parameters %08llx; %s", CPUSIM_VERSION,
		 h & 0xffffffffull, cc);
	return 0;
}

/* ---- build ---------------------------------------------------------------- */

/* The C++ type a kernel sees for a tensor dtype, or NULL. */
static const char *kernel_ctype(enum npukb_dtype dt)
{
	switch (dt) {
	case NPUKB_DT_FLOAT16: return "half";
	case NPUKB_DT_BFLOAT16: return "bfloat16_t";
	case NPUKB_DT_FLOAT32: return "float";
	case NPUKB_DT_INT8: return "int8_t";
	case NPUKB_DT_UINT8: return "uint8_t";
	case NPUKB_DT_INT16: return "int16_t";
	case NPUKB_DT_INT32: return "int32_t";
	case NPUKB_DT_INT64: return "int64_t";
	case NPUKB_DT_BOOL: return "bool";
	default: return NULL;
	}
}

/* The dtype of tensor i in case c (c NULL: the task has no cases), or
 * NPUKB_DT_INVALID when it cannot be resolved. */
static enum npukb_dtype tensor_dtype(const struct npukb_task *t, size_t i, const struct npukb_case *c)
{
	const struct npukb_tensor_decl *d = &t->tensors[i];
	enum npukb_dtype dt;
	char err[256];

	if (!d->dtype)
		return NPUKB_DT_INVALID;
	if (d->dtype[0] != '$')
		return npukb_dtype_from_name(d->dtype);
	if (!c || npukb_case_tensor_dtype(t, c, d->name, &dt, err, sizeof err) != 0)
		return NPUKB_DT_INVALID;
	return dt;
}

/* A build variant is one combination of tensor dtypes among the task's
 * cases: CANN compiles an operator's kernel once per dtype combination of
 * its OpDef, with DTYPE_<TENSOR> naming the element types, and kernel-only
 * samples are built the same way so that one source serves every case.
 * Variants are numbered in the order their first case appears. */
struct variants {
	size_t n;
	size_t *of_case;  /* variant of each case */
	size_t *example;  /* a case of each variant */
};

static int same_dtypes(const struct npukb_task *t, const struct npukb_case *a, const struct npukb_case *b)
{
	size_t i;

	for (i = 0; i < t->ntensors; i++)
		if (tensor_dtype(t, i, a) != tensor_dtype(t, i, b))
			return 0;
	return 1;
}

static int variants_compute(const struct npukb_task *t, struct variants *v)
{
	size_t k, j;

	memset(v, 0, sizeof(*v));
	v->of_case = calloc(t->ncases + 1, sizeof(*v->of_case));
	v->example = calloc(t->ncases + 1, sizeof(*v->example));
	if (!v->of_case || !v->example) {
		free(v->of_case);
		free(v->example);
		return -ENOMEM;
	}
	for (k = 0; k < t->ncases; k++) {
		for (j = 0; j < v->n; j++)
			if (same_dtypes(t, &t->cases[v->example[j]], &t->cases[k]))
				break;
		if (j == v->n)
			v->example[v->n++] = k;
		v->of_case[k] = j;
	}
	if (v->n == 0)
		v->n = 1; /* no cases: one build with the fixed dtypes */
	return 0;
}

static void variants_free(struct variants *v)
{
	free(v->of_case);
	free(v->example);
}

/* The case a variant is built for; NULL when the task has no cases. */
static const struct npukb_case *variant_case(const struct npukb_task *t, const struct variants *v, size_t k)
{
	return t->ncases ? &t->cases[v->example[k]] : NULL;
}

/* kernel.exe for variant 0, kernel.v<k>.exe for the others: the artifact
 * build() returns is variant 0's, and run() derives the others from it. */
static char *variant_exe(const char *first, size_t k)
{
	const char *slash = strrchr(first, '/');
	int dir = slash ? (int)(slash - first) : 0;

	if (k == 0)
		return xstrdup(first);
	return format("%.*s%skernel.v%zu.exe", dir, first, slash ? "/" : "", k);
}

/* Kernel names that are C library functions (NPUKernelBench's Sqrt task
 * names its kernel `sqrt`): an extern "C" kernel of that name conflicts
 * with <math.h> in a host build, so the forced header renames it after
 * the library headers are in (every one the harness and the emulation
 * headers include: a std header read after the rename would break). */
static int is_libc_name(const char *name)
{
	static const char *const names[] = {
		"abs", "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "cbrt", "ceil",
		"copysign", "cos", "cosh", "div", "erf", "erfc", "exp", "exp2", "expm1", "fabs",
		"fdim", "floor", "fma", "fmax", "fmin", "fmod", "frexp", "hypot", "ldexp", "lgamma",
		"llabs", "labs", "log", "log10", "log1p", "log2", "logb", "lround", "memcpy", "memset",
		"modf", "nearbyint", "pow", "remainder", "rint", "round", "scalbn", "sin", "sinh",
		"sqrt", "tan", "tanh", "tgamma", "trunc", "qsort", "rand", "free", "malloc", "exit",
		"abort", "signbit", "isnan", "isinf", "isfinite", "fill", "copy", "sort",
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(name, names[i]) == 0)
			return 1;
	return 0;
}

/* The name the launcher calls: the kernel's own, or its rename. */
static char *kernel_symbol(const struct npukb_task *t)
{
	return is_libc_name(t->kernel_name) ? format("npukb_kernel_%s", t->kernel_name)
					    : xstrdup(t->kernel_name);
}

/* The ge::DataType numbers as the macros ORIG_DTYPE_* are compared with. */
static const char ge_dtype_macros[] =
	"#ifndef DT_FLOAT\n"
	"#define DT_FLOAT 0\n#define DT_FLOAT16 1\n#define DT_INT8 2\n#define DT_INT32 3\n"
	"#define DT_UINT8 4\n#define DT_INT16 6\n#define DT_UINT16 7\n#define DT_UINT32 8\n"
	"#define DT_INT64 9\n#define DT_UINT64 10\n#define DT_DOUBLE 11\n#define DT_BOOL 12\n"
	"#define DT_COMPLEX64 16\n#define DT_BF16 27\n"
	"#endif\n";

/* The header forced into every source of variant k: the tiling struct of
 * kernel-only mode (the question says the framework provides it, as CANN
 * generates it from the op_host), DTYPE_<TENSOR> for every tensor, and the
 * kernel's rename when it clashes with the C library. */
static int write_forced_header(const char *path, const struct npukb_task *t, const struct npukb_case *c,
			       char *const *tiling_headers)
{
	FILE *f = fopen(path, "w");
	char *src = NULL;
	size_t i, j;
	int rc = 0;

	if (!f)
		return -errno;
	fputs("/* generated by npukb cpusim for one dtype combination of the task */\n"
	      "#pragma once\n#include <stdint.h>\n", f);
	if (tiling_headers) {
		/* Host+device: the op_host's tiling header, expanded for the
		 * kernel side into the plain struct GET_TILING_DATA reads. Its
		 * namespace is renamed in the kernel's translation unit: a
		 * function the header defines (not inline) is then a different
		 * symbol from the op_host objects' copy, not a second
		 * definition at link time. */
		fputs("#define NPUKB_CPUSIM_KERNEL_SIDE 1\n#define optiling npukb_kernel_side_optiling\n", f);
		for (i = 0; tiling_headers[i]; i++)
			fprintf(f, "#include \"%s\"\n", tiling_headers[i]);
		/* CANN generates the structs at global scope; op_host headers
		 * declare them in namespace optiling, next to constants the
		 * kernel may define too. Only the structs come in: their
		 * aliases in npukb_tiling_types (ophost_tiling.h). */
		fputs("namespace npukb_tiling_types {}\nusing namespace npukb_tiling_types;\n"
		      "namespace optiling { namespace npukb_tiling_types {} }\n"
		      "using namespace optiling::npukb_tiling_types;\n", f);
	} else if (t->tiling_struct) {
		rc = npukb_tiling_struct_source(t, &src);
		if (rc == 0)
			fputs(src, f);
		free(src);
	}
	for (i = 0; rc == 0 && i < t->ntensors; i++) {
		const char *name = t->tensors[i].name;
		enum npukb_dtype dt = tensor_dtype(t, i, c);
		const char *ct = dt == NPUKB_DT_COMPLEX64 ? "float" : kernel_ctype(dt);
		char macro[128];

		if (!ct || !name || strlen(name) + 16 >= sizeof macro)
			continue;
		strcpy(macro, "DTYPE_");
		for (j = 0; name[j]; j++)
			macro[6 + j] = isalnum((unsigned char)name[j]) ? (char)toupper((unsigned char)name[j]) : '_';
		macro[6 + j] = '\0';
		fprintf(f, "#ifndef %s\n#define %s %s\n#endif\n", macro, macro, ct);
		/* complex64 is stored as (real, imaginary) float pairs */
		fprintf(f, "#ifndef %s_COMPLEX\n#define %s_COMPLEX %d\n#endif\n", macro, macro,
			dt == NPUKB_DT_COMPLEX64);
		/* ORIG_DTYPE_<TENSOR>: the ge::DataType, compared with DT_*
		 * in #if (CANN's op build defines both as numbers). */
		if (cpusim_ge_datatype(dt) >= 0)
			fprintf(f, "#ifndef ORIG_%s\n#define ORIG_%s %d\n#endif\n", macro, macro,
				cpusim_ge_datatype(dt));
	}
	if (rc == 0)
		fputs(ge_dtype_macros, f);
	if (rc == 0 && is_libc_name(t->kernel_name))
		fprintf(f, "#include <math.h>\n#include <stdlib.h>\n#include <string.h>\n"
			   "#include <cmath>\n#include <cstdlib>\n#include <cstring>\n#include <algorithm>\n"
			   "#include <string>\n#include <vector>\n"
			   "#include \"kernel_operator.h\"\n#define %s npukb_kernel_%s\n",
			t->kernel_name, t->kernel_name);
	if (fclose(f) != 0 && rc == 0)
		rc = -EIO;
	return rc;
}

/* launcher.cpp: declares the kernel with one uint8_t* per parameter and
 * calls it with the harness's argument array. */
static int write_launcher(const char *path, const struct npukb_task *t, int auto_sync, char *err, size_t len)
{
	FILE *f = fopen(path, "w");
	char *sym = kernel_symbol(t);
	size_t i;

	if (!f || !sym) {
		int e = f ? ENOMEM : errno;
		if (f)
			fclose(f);
		free(sym);
		set_err(err, len, "cannot write %s: %s", path, strerror(e));
		return -e;
	}
	fputs("/* generated by npukb cpusim: calls the kernel with the harness's arguments */\n"
	      "#include <stdint.h>\n", f);
	fprintf(f, "extern \"C\" void %s(", sym);
	for (i = 0; i < t->nparams; i++)
		fprintf(f, "%suint8_t *", i ? ", " : "");
	fputs(");\n", f);
	fprintf(f, "extern \"C\" const int npukb_cpusim_nargs = %zu;\n", t->nparams);
	fprintf(f, "extern \"C\" const int npukb_cpusim_auto_sync = %d;\n", auto_sync);
	fputs("extern \"C\" void npukb_cpusim_launch(uint8_t **args)\n{\n", f);
	fprintf(f, "\t%s(", sym);
	for (i = 0; i < t->nparams; i++)
		fprintf(f, "%sargs[%zu]", i ? ", " : "", i);
	fputs(");\n}\n", f);
	free(sym);
	if (fclose(f) != 0) {
		set_err(err, len, "cannot write %s", path);
		return -EIO;
	}
	return 0;
}

/* Whether the sample's CMake project builds its kernel with
 * --cce-auto-sync=off (CANN's default is on; see runtime.h auto_sync). */
static int auto_sync_off(const char *sdir)
{
	static const char *const lists[] = { "CMakeLists.txt", "op_kernel/CMakeLists.txt" };
	int off = 0;

	for (size_t i = 0; i < sizeof lists / sizeof lists[0] && !off; i++) {
		char *path = format("%s/%s", sdir, lists[i]);
		FILE *f = path ? fopen(path, "r") : NULL;
		char line[4096];

		while (f && fgets(line, sizeof line, f))
			if (strstr(line, "--cce-auto-sync=off") && line[strspn(line, " \t")] != '#')
				off = 1;
		if (f)
			fclose(f);
		free(path);
	}
	return off;
}

/* One compiler run in the sandbox: argv into exe, log into COMPILE_LOG.
 * Fills res (ok, message, diagnostics, proc); label names the variant in
 * messages when there are several. Returns 0 or a negative errno when the
 * compiler could not even be started. */
/* argv as one shell line: words with anything but [A-Za-z0-9_./=+,:@%-]
 * in single quotes (malloc'd, NULL without memory). */
static char *shell_line(const char *const *argv)
{
	size_t cap = 1, i, n = 0;
	char *out;

	for (i = 0; argv[i]; i++)
		cap += 3 + 4 * strlen(argv[i]);
	out = malloc(cap);
	if (!out)
		return NULL;
	for (i = 0; argv[i]; i++) {
		const char *a = argv[i];
		int plain = *a != '\0' && strspn(a, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
					     "0123456789_./=+,:@%-") == strlen(a);
		if (i)
			out[n++] = ' ';
		if (plain) {
			memcpy(out + n, a, strlen(a));
			n += strlen(a);
			continue;
		}
		out[n++] = '\'';
		for (; *a; a++) {
			if (*a == '\'') {
				memcpy(out + n, "'\\''", 4);
				n += 4;
			} else {
				out[n++] = *a;
			}
		}
		out[n++] = '\'';
	}
	out[n] = '\0';
	return out;
}

/* Appends the command to COMMANDS_LOG in work; best effort (the log is
 * for people, the build does not depend on it). */
static void log_command(const char *work, const char *const *argv)
{
	char *path = format("%s/%s", work, COMMANDS_LOG), *line = shell_line(argv);
	FILE *f = path && line ? fopen(path, "a") : NULL;

	if (f) {
		fprintf(f, "%s\n", line);
		fclose(f);
	}
	free(line);
	free(path);
}

/* A comment line in commands.log for a step that ran no command. */
static void log_note(const char *work, const char *what, const char *detail)
{
	char *path = format("%s/%s", work, COMMANDS_LOG);
	FILE *f = path ? fopen(path, "a") : NULL;

	if (f) {
		fprintf(f, "# %s (%s)\n", what, detail);
		fclose(f);
	}
	free(path);
}

static int compile_one(const struct npukb_build_request *req, const char *work, const char **argv,
		       const char *exe, const char *label, struct npukb_build_result *res)
{
	struct npukb_sandbox_spec spec;
	char err[512] = "", desc[256];
	char *log, *reads[3] = { NULL, NULL, NULL };
	int rc;

	log_command(work, argv);

	/* The compiler sees the sample and the emulation headers, read-only,
	 * besides the toolchain: nothing else (npukb/sandbox.h). */
	reads[0] = data_dir(err, sizeof err);
	reads[1] = reads[0] ? absolute(req->sample->dir) : NULL;
	memset(&spec, 0, sizeof(spec));
	spec.argv = argv;
	spec.workdir = work;
	spec.stdout_path = COMPILE_LOG;
	spec.stderr_path = COMPILE_LOG;
	spec.limits = req->options->build_limits;
	spec.isolate_network = 1;
	spec.read_paths = (const char *const *)reads;
	rc = reads[1] ? npukb_sandbox_run(&spec, &res->proc, err, sizeof err) : -ENOENT;
	free(reads[0]);
	free(reads[1]);
	if (rc < 0) {
		res->message = format("cpusim: cannot run the compiler: %s", err);
		return rc;
	}
	free(res->diagnostics);
	res->diagnostics = NULL;
	log = format("%s/%s", work, COMPILE_LOG);
	if (log)
		res->diagnostics = read_text(log, DIAG_MAX, 0);
	free(log);
	{
		char *plain = NULL;
		if (cpusim_srcloc_hide(res->diagnostics, &plain) == 0 && plain) {
			free(res->diagnostics);
			res->diagnostics = plain;
		}
	}
	if (res->proc.kind == NPUKB_EXIT_NORMAL && res->proc.exit_code == 0 && access(exe, X_OK) == 0) {
		res->ok = 1;
		return 0;
	}
	npukb_sandbox_describe(&res->proc, desc, sizeof desc);
	if (res->proc.kind == NPUKB_EXIT_TIMEOUT || res->proc.kind == NPUKB_EXIT_CPU_LIMIT ||
	    res->proc.kind == NPUKB_EXIT_VIOLATION || res->proc.limits_hit) {
		res->message = format("compiler %s%s", desc, label);
	} else {
		/* gcc's "error:" first: a path may hold the word (.../compile_error/) */
		char *first = res->diagnostics ? line_with(res->diagnostics, "error:", 0) : NULL;
		if (!first && res->diagnostics)
			first = line_with(res->diagnostics, "error", 0);
		res->message = first ? format("%s%s", first, label) : format("compiler %s%s", desc, label);
		free(first);
	}
	/* A failed step's details start with its command, to repeat it by
	 * hand (after the message is taken from the compiler's own lines). */
	{
		char *line = shell_line(argv);
		char *with = line ? format("$ %s\n%s", line, res->diagnostics ? res->diagnostics : "") : NULL;
		if (with) {
			free(res->diagnostics);
			res->diagnostics = with;
		}
		free(line);
	}
	return 0;
}

/* " (build for float32, int32)" naming a variant's dtypes, or "" when the
 * task has one variant. malloc'd. */
static char *variant_label(const struct npukb_task *t, const struct variants *v, size_t k)
{
	const struct npukb_case *c = variant_case(t, v, k);
	char buf[256] = "";
	size_t i, n = 0;

	if (v->n < 2)
		return xstrdup("");
	for (i = 0; i < t->ntensors && n < sizeof buf; i++) {
		const char *name = npukb_dtype_name(tensor_dtype(t, i, c));
		if (t->tensors[i].dtype && t->tensors[i].dtype[0] == '$' && !strstr(buf, name ? name : "?"))
			n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", n ? ", " : "", name ? name : "?");
	}
	return format(" (build for %s)", buf);
}

/* Sample files (paths relative to the sample) under folder `under` ("" for
 * any) with one of the C++ source suffixes (and, with `only`, that the
 * project's CMakeLists.txt builds), or, with headers_named, the .h files
 * whose name contains that word; as absolute paths (malloc'd,
 * NULL-terminated). */
/* CANN's build gives the kernel every tiling struct the op_host registers,
 * whatever header declares it (MaskedSelectV3's is masked_select_v3.h), so
 * a header that defines one counts as a tiling header. */
static int defines_tiling_data(const char *sdir, const char *rel)
{
	char *path = format("%s/%s", sdir, rel), *text;
	int yes;

	if (!path)
		return 0;
	text = read_text(path, 1u << 20, 0);
	yes = text && strstr(text, "BEGIN_TILING_DATA_DEF") != NULL;
	free(text);
	free(path);
	return yes;
}

static char **sample_files(const struct npukb_sample *s, const char *sdir, const char *under,
			   const char *headers_named, const struct cmake_host_sources *only, size_t *count)
{
	char **out = calloc(s->nfiles + 1, sizeof(*out));
	size_t i, n = 0, ul = strlen(under);

	if (!out)
		return NULL;
	for (i = 0; i < s->nfiles; i++) {
		const char *f = s->files[i], *base = strrchr(f, '/');
		int want;

		if (strncmp(f, under, ul) != 0)
			continue;
		base = base ? base + 1 : f;
		if (headers_named)
			want = has_suffix(f, ".h") &&
			       (strstr(base, headers_named) || defines_tiling_data(sdir, f));
		else
			want = (has_suffix(f, ".cpp") || has_suffix(f, ".cc") || has_suffix(f, ".cxx")) &&
			       (!only || cmake_host_sources_wants(only, f));
		if (!want)
			continue;
		out[n] = format("%s/%s", sdir, f);
		if (!out[n] || !is_plain_path(out[n])) {
			free(out[n]);
			out[n] = NULL;
			for (i = 0; i < n; i++)
				free(out[i]);
			free(out);
			return NULL;
		}
		n++;
	}
	*count = n;
	return out;
}

static void free_list(char **l)
{
	size_t i;

	for (i = 0; l && l[i]; i++)
		free(l[i]);
	free(l);
}

/* Everything a build needs, owned by the build; filled by build_setup(). */
struct build_ctx {
	const struct npukb_build_request *req;
	char *data, *work, *sdir;
	char *launcher, *exe0, *inc, *sinc, *soc_def, *prefix_map, *harness, *hostdev;
	char *arch_def, *npu_arch_def; /* __CCE_AICORE__, __NPU_ARCH__ of the SoC */
	struct variants v;
};

static void build_ctx_free(struct build_ctx *b)
{
	variants_free(&b->v);
	free(b->data);
	free(b->work);
	free(b->sdir);
	free(b->launcher);
	free(b->exe0);
	free(b->inc);
	free(b->sinc);
	free(b->soc_def);
	free(b->arch_def);
	free(b->npu_arch_def);
	free(b->prefix_map);
	free(b->harness);
	free(b->hostdev);
}

/* Kernel sources only (CANN compiles op_host code with g++): CANN's kernel
 * compiler is clang, for which a narrowing conversion in braces is an
 * error; g++ only warns, and a kernel cpusim accepted would then not
 * build on the device. */
#define KERNEL_STRICTNESS "-Werror=narrowing"

/* The compiler options every compile of a build shares. */
static size_t common_args(const struct build_ctx *b, const char **argv)
{
	size_t argc = 0;

	argv[argc++] = compiler();
	argv[argc++] = "-std=c++17";
	argv[argc++] = "-O2";
	argv[argc++] = "-pipe";
	argv[argc++] = b->inc;
	argv[argc++] = b->sinc;
	argv[argc++] = b->soc_def;
	argv[argc++] = b->arch_def;
	argv[argc++] = b->npu_arch_def;
	argv[argc++] = b->prefix_map;
	return argc;
}

/* Compiles every dtype variant: argv[0..argc) is the command without the
 * forced header and the output; sources come after the forced header. */
static int build_variants(struct build_ctx *b, const char **argv, size_t argc, const char *const *tail,
			  char *const *tiling_headers, struct npukb_build_result *res)
{
	const struct npukb_task *t = b->req->task;
	size_t k, i, n, forced_at;
	double wall = 0;
	int rc = 0;

	argv[argc++] = "-include";
	forced_at = argc++;
	for (i = 0; tail[i]; i++)
		argv[argc++] = tail[i];
	argv[argc++] = "-o";
	n = argc;
	for (k = 0; k < b->v.n; k++) {
		char *forced = k ? format("%s/npukb_tiling.v%zu.h", b->work, k)
				 : format("%s/%s", b->work, TILING_HEADER);
		char *exe = variant_exe(b->exe0, k), *label = variant_label(t, &b->v, k);

		if (!forced || !exe || !label) {
			rc = -ENOMEM;
		} else {
			rc = write_forced_header(forced, t, variant_case(t, &b->v, k), tiling_headers);
			if (rc < 0) {
				res->message = format("cpusim: cannot write %s: %s", forced, strerror(-rc));
			} else {
				argv[forced_at] = forced;
				argv[n] = strrchr(exe, '/') + 1;
				argv[n + 1] = NULL;
				res->ok = 0;
				rc = compile_one(b->req, b->work, argv, exe, label, res);
				wall += res->proc.wall_seconds;
			}
		}
		free(forced);
		free(exe);
		free(label);
		if (rc < 0 || !res->ok)
			return rc;
		free(res->message);
		res->message = NULL;
	}
	res->artifact = b->exe0;
	b->exe0 = NULL;
	if (b->v.n > 1)
		res->message = format("compiled %zu dtype builds with %s in %.2f s", b->v.n, compiler(), wall);
	else
		res->message = format("compiled with %s in %.2f s", compiler(), wall);
	return 0;
}

/* The harness's command line: the build's compiler and SoC macros, never
 * the sample's include folder or its prefix map (host code that reads
 * neither the forced header nor the sample's files), so one object serves
 * every sample. */
static size_t harness_args(const struct build_ctx *b, const char **argv)
{
	size_t argc = 0;

	argv[argc++] = compiler();
	argv[argc++] = "-std=c++17";
	argv[argc++] = "-O2";
	argv[argc++] = "-pipe";
	argv[argc++] = b->inc;
	argv[argc++] = b->soc_def;
	argv[argc++] = b->arch_def;
	argv[argc++] = b->npu_arch_def;
	argv[argc++] = "-c";
	argv[argc++] = b->harness;
	argv[argc++] = "-o";
	argv[argc++] = HARNESS_OBJ;
	argv[argc] = NULL;
	return argc;
}

/* Puts runtime/harness.cpp's object at HARNESS_OBJ in the work directory:
 * from the cache when the backend has one and holds this harness for this
 * compiler (harness_cache.h), else compiled here, before any of the
 * sample's sources, and then stored in the cache. Every dtype variant
 * links the same object. Any object left in the work directory is
 * replaced, never reused. Sets res->ok on success. */
static int build_harness(struct build_ctx *b, const char **argv, struct npukb_build_result *res)
{
	const char *cache = b->req->options->cache_dir;
	char *obj = format("%s/%s", b->work, HARNESS_OBJ), *inc_dir = NULL;
	char key[40] = "", err[256] = "";
	int rc;

	if (!obj)
		return -ENOMEM;
	if (unlink(obj) != 0 && errno != ENOENT) {
		res->message = format("cpusim: cannot remove %s: %s", obj, strerror(errno));
		free(obj);
		return 0;
	}
	harness_args(b, argv);
	if (cache && *cache) {
		inc_dir = format("%s/include", b->data);
		if (!inc_dir) {
			free(obj);
			return -ENOMEM;
		}
		if (harness_cache_key(CPUSIM_VERSION, argv, b->harness, inc_dir, key, sizeof key, err,
				      sizeof err) < 0)
			key[0] = '\0'; /* no cache for this build; compile it */
		free(inc_dir);
		if (key[0] && harness_cache_get(cache, key, obj) == 0) {
			log_note(b->work, "harness object from the cache", key);
			res->ok = 1;
			free(obj);
			return 0;
		}
	}
	res->ok = 0;
	rc = compile_one(b->req, b->work, argv, "/dev/null", " (harness)", res);
	if (rc == 0 && res->proc.kind == NPUKB_EXIT_NORMAL && res->proc.exit_code == 0 &&
	    access(obj, R_OK) == 0) {
		free(res->message);
		res->message = NULL;
		res->ok = 1;
		/* A cache that cannot take it costs the next build a compile,
		 * nothing more. */
		if (key[0])
			(void)harness_cache_put(cache, key, obj);
	}
	free(obj);
	return rc;
}

/* The kernel's own sources (srcs, n of them) that hold CCE launches
 * (`name<<<...>>>(args)`, chevron.h) are compiled from a rewritten copy
 * in the work directory: srcs[i] becomes the copy's path, and quote_dirs
 * (NULL-terminated, room for n) gets "-iquote<folder of the original>"
 * for each, so that the copy's quoted includes resolve as the original's
 * did. Headers are not rewritten: the launch wrappers seen so far sit in
 * the kernel's .cpp. Returns 0 or a negative errno, with res->message. */
static int rewrite_launches(const struct build_ctx *b, char **srcs, size_t n, char **quote_dirs,
			    struct npukb_build_result *res)
{
	char err[512] = "";
	size_t nq = 0;

	for (size_t i = 0; i < n; i++) {
		const char *base = strrchr(srcs[i], '/');
		char *copy = format("%s/npukb_launch%zu_%s", b->work, i, base ? base + 1 : srcs[i]);
		int rewritten = 0, rc;

		if (!copy)
			return -ENOMEM;
		rc = chevron_rewrite(srcs[i], copy, &rewritten, err, sizeof err);
		if (rc < 0) {
			res->message = format("cpusim: %s", err);
			free(copy);
			return rc;
		}
		if (!rewritten) {
			free(copy);
			continue;
		}
		quote_dirs[nq] = format("-iquote%.*s", base ? (int)(base - srcs[i]) : 1, base ? srcs[i] : ".");
		if (!quote_dirs[nq]) {
			free(copy);
			return -ENOMEM;
		}
		nq++;
		free(srcs[i]);
		srcs[i] = copy;
	}
	return 0;
}

static int build_kernel_only(struct build_ctx *b, struct npukb_build_result *res)
{
	const struct npukb_task *t = b->req->task;
	const struct npukb_sample *s = b->req->sample;
	char **srcs = NULL, **quote_dirs = NULL, *tiling_def = NULL;
	const char **argv = NULL, **tail = NULL;
	size_t i, nsrc = 0, argc;
	int rc = 0;

	srcs = sample_files(s, b->sdir, "", NULL, NULL, &nsrc);
	quote_dirs = calloc(s->nfiles + 1, sizeof(*quote_dirs));
	argv = calloc(2 * s->nfiles + 26, sizeof(*argv));
	tail = calloc(s->nfiles + 4, sizeof(*tail));
	if (t->tiling_struct)
		tiling_def = format("-DNPUKB_TILING_STRUCT=%s", t->tiling_struct);
	if (!srcs || !quote_dirs || !argv || !tail || (t->tiling_struct && !tiling_def)) {
		rc = -ENOMEM;
		goto out;
	}
	if (nsrc == 0) {
		res->message = xstrdup("sample has no C++ source file (.cpp)");
		goto out;
	}
	rc = rewrite_launches(b, srcs, nsrc, quote_dirs, res);
	if (rc < 0)
		goto out;
	rc = build_harness(b, argv, res);
	if (rc < 0 || !res->ok)
		goto out;
	res->ok = 0;
	argc = common_args(b, argv);
	argv[argc++] = KERNEL_STRICTNESS;
	if (tiling_def)
		argv[argc++] = tiling_def;
	for (i = 0; quote_dirs[i]; i++)
		argv[argc++] = quote_dirs[i];
	/* The harness first: its .preinit_array entry (the run token) must
	 * run before anything of the sample's, and those run in link order. */
	i = 0;
	tail[i++] = HARNESS_OBJ;
	for (size_t j = 0; j < nsrc; j++)
		tail[i++] = srcs[j];
	tail[i++] = LAUNCHER_NAME;
	tail[i] = NULL;
	rc = build_variants(b, argv, argc, tail, NULL, res);
out:
	free_list(srcs);
	free_list(quote_dirs);
	free(argv);
	free(tail);
	free(tiling_def);
	return rc;
}

/* "dir/name.cpp" -> "name.o": the object a source compiles to in the
 * work directory. malloc'd. */
static char *object_name(const char *src)
{
	const char *base = strrchr(src, '/'), *dot;

	base = base ? base + 1 : src;
	dot = strrchr(base, '.');
	return format("%.*s.o", (int)(dot ? dot - base : (long)strlen(base)), base);
}

/* The op_host libraries. CANN links each target of the project
 * (optiling: the tiling; opsproto: InferShape and the OpDef; op_host_aclnn:
 * the OpDef for its code generator) into a shared library of its own, so
 * a helper that files of two targets both define (not inline) is two
 * symbols there, not a multiple definition. cpusim does the same: one
 * shared library per target from the objects of its files (a file two
 * targets name goes into both, as in CANN; its OpDef is then registered
 * twice, which the driver takes as one), and the kernel program loads
 * them all. Like the libraries CANN loads into one process, a name they
 * share binds to one definition at run time, and the emulation's
 * registries (inline functions' statics) are the program's own copies:
 * the program exports its symbols (-rdynamic) for that. A project whose
 * CMakeLists.txt names no target file (or has none) is one library.
 * Appends the libraries' names to libs (NULL-terminated); sets res->ok. */
static int build_host_libraries(struct build_ctx *b, const struct cmake_host_sources *cmake,
				 char *const *host, size_t nhost, char **libs, struct npukb_build_result *res)
{
	const size_t ngroups = cmake->built_exists && cmake->ntargets ? cmake->ntargets : 1;
	const char **argv = calloc(nhost + 8, sizeof(*argv));
	char **owned = calloc(nhost + 3, sizeof(*owned));
	size_t nlib = 0;
	int rc = 0;

	if (!argv || !owned) {
		rc = -ENOMEM;
		goto out;
	}
	res->ok = 1;
	for (size_t g = 0; g < ngroups && rc == 0 && res->ok; g++) {
		const struct cmake_target *t = cmake->built_exists && cmake->ntargets ? &cmake->targets[g] : NULL;
		size_t argc = 0, nown = 0;
		char *path;

		if (t && !is_identifier(t->name))
			owned[nown++] = format("libnpukb_target%zu.so", g);
		else
			owned[nown++] = format("libnpukb_%s.so", t ? t->name : "op_host");
		owned[nown] = owned[0] ? format("-Wl,-soname,%s", owned[0]) : NULL;
		if (!owned[nown++]) {
			rc = -ENOMEM;
			break;
		}
		argv[argc++] = compiler();
		argv[argc++] = "-shared";
		argv[argc++] = owned[1];
		argv[argc++] = "-o";
		argv[argc++] = owned[0];
		for (size_t i = 0; i < nhost && rc == 0; i++) {
			const char *rel = host[i] + strlen(b->sdir) + 1;
			int in = !t;

			for (size_t j = 0; t && j < t->files.n && !in; j++)
				in = strcmp(t->files.files[j], rel) == 0;
			if (!in)
				continue;
			owned[nown] = object_name(host[i]);
			if (!owned[nown])
				rc = -ENOMEM;
			argv[argc++] = owned[nown++];
		}
		argv[argc] = NULL;
		if (rc == 0 && argc > 5) {
			char *label = format(" (op_host library of target %s)", t ? t->name : "op_host");

			path = format("%s/%s", b->work, owned[0]);
			if (!path || !label) {
				rc = -ENOMEM;
			} else {
				res->ok = 0;
				rc = compile_one(b->req, b->work, argv, path, label, res);
				if (rc == 0 && res->ok) {
					libs[nlib++] = owned[0];
					owned[0] = NULL;
				}
			}
			free(path);
			free(label);
		}
		for (size_t i = 0; i < nown; i++) {
			free(owned[i]);
			owned[i] = NULL;
		}
	}
	libs[nlib] = NULL;
out:
	free(argv);
	free(owned);
	return rc;
}

/* Host+device: the op_host sources, the launcher, the harness and the
 * op-host driver are compiled once into objects (without the forced
 * header: they are host code), and the op_host objects linked into one
 * shared library per CANN target (build_host_libraries); then each dtype
 * variant compiles the op_kernel sources with the forced header, which
 * brings the op_host's tiling header in its kernel-side form, and links
 * the objects and the libraries. */
static int build_host_device(struct build_ctx *b, struct npukb_build_result *res)
{
	const struct npukb_sample *s = b->req->sample;
	char **host = NULL, **kern = NULL, **tiling = NULL, **objs = NULL, **libs = NULL, **quote_dirs = NULL;
	char *host_inc = NULL, *kern_inc = NULL, *tiling_def = NULL;
	const char **argv = NULL, **tail = NULL;
	size_t i, nhost = 0, nkern = 0, ntiling = 0, argc, nobj = 0;
	struct cmake_host_sources cmake;
	int rc = 0;

	rc = cmake_host_sources_read(b->sdir, b->req->task->kernel_name, &cmake);
	if (rc < 0) {
		res->message = format("cpusim: cannot read %s/CMakeLists.txt: %s", b->sdir, strerror(-rc));
		goto out;
	}
	host = sample_files(s, b->sdir, "op_host/", NULL, &cmake, &nhost);
	kern = sample_files(s, b->sdir, "op_kernel/", NULL, NULL, &nkern);
	tiling = sample_files(s, b->sdir, "op_host/", "tiling", NULL, &ntiling);
	objs = calloc(s->nfiles + 4, sizeof(*objs));
	libs = calloc(cmake.ntargets + 2, sizeof(*libs));
	quote_dirs = calloc(s->nfiles + 1, sizeof(*quote_dirs));
	argv = calloc(2 * s->nfiles + 34, sizeof(*argv));
	tail = calloc(s->nfiles + cmake.ntargets + 16, sizeof(*tail));
	host_inc = format("-I%s/op_host", b->sdir);
	kern_inc = format("-I%s/op_kernel", b->sdir);
	tiling_def = format("-DNPUKB_TILING_STRUCT=npukb_tiling_reg_%s", b->req->task->name);
	if (!host || !kern || !tiling || !objs || !libs || !quote_dirs || !argv || !tail || !host_inc ||
	    !kern_inc || !tiling_def) {
		rc = -ENOMEM;
		goto out;
	}
	if (nhost == 0 || nkern == 0) {
		res->message = format("host+device sample without %s sources (.cpp)",
				      nhost == 0 ? "op_host/" : "op_kernel/");
		goto out;
	}

	/* Step 1: host objects, named after their sources in the work dir;
	 * position-independent, for the op_host libraries. */
	argc = common_args(b, argv);
	argv[argc++] = host_inc;
	argv[argc++] = "-fPIC";
	argv[argc++] = "-c";
	for (i = 0; i < nhost; i++)
		argv[argc++] = host[i];
	argv[argc++] = LAUNCHER_NAME;
	argv[argc++] = b->harness;
	argv[argc++] = b->hostdev;
	argv[argc] = NULL;
	for (i = nhost; i < nhost + 3; i++) {
		objs[nobj] = object_name(argv[argc - nhost - 3 + i]);
		if (!objs[nobj]) {
			rc = -ENOMEM;
			goto out;
		}
		nobj++;
	}
	res->ok = 0;
	rc = compile_one(b->req, b->work, argv, "/dev/null", " (op_host)", res);
	if (rc < 0)
		goto out;
	if (!(res->proc.kind == NPUKB_EXIT_NORMAL && res->proc.exit_code == 0)) {
		res->ok = 0;
		goto out;
	}
	free(res->message);
	res->message = NULL;
	rc = build_host_libraries(b, &cmake, host, nhost, libs, res);
	if (rc < 0 || !res->ok)
		goto out;
	free(res->message);
	res->message = NULL;
	res->ok = 0;

	/* Step 2: per dtype variant, the kernel sources linked with them.
	 * GET_TILING_DATA reads the struct the op_host registered for the
	 * operator (REGISTER_TILING_DATA_CLASS(<task name>, ...)), and the
	 * workspace starts with the system part GetUserWorkspace skips. The
	 * libraries are found next to the program ($ORIGIN), and linked even
	 * though the program calls none of them (only their constructors
	 * register anything). */
	rc = rewrite_launches(b, kern, nkern, quote_dirs, res);
	if (rc < 0)
		goto out;
	argc = common_args(b, argv);
	argv[argc++] = KERNEL_STRICTNESS;
	argv[argc++] = kern_inc;
	argv[argc++] = tiling_def;
	argv[argc++] = "-DNPUKB_SYS_WORKSPACE=16777216";
	for (i = 0; quote_dirs[i]; i++)
		argv[argc++] = quote_dirs[i];
	/* Our objects (the harness among them) before the sample's sources:
	 * .preinit_array entries run in link order, the run token's first. */
	i = 0;
	for (size_t j = 0; j < nobj; j++)
		tail[i++] = objs[j];
	for (size_t j = 0; j < nkern; j++)
		tail[i++] = kern[j];
	tail[i++] = "-Wl,--no-as-needed";
	for (size_t j = 0; libs[j]; j++)
		tail[i++] = libs[j];
	tail[i++] = "-Wl,-rpath,$ORIGIN";
	tail[i++] = "-rdynamic";
	tail[i] = NULL;
	rc = build_variants(b, argv, argc, tail, tiling, res);
out:
	cmake_host_sources_free(&cmake);
	free_list(host);
	free_list(kern);
	free_list(tiling);
	free_list(objs);
	free_list(libs);
	free_list(quote_dirs);
	free(argv);
	free(tail);
	free(host_inc);
	free(kern_inc);
	free(tiling_def);
	return rc;
}

static int cpusim_build(const struct npukb_build_request *req, struct npukb_build_result *res)
{
	const struct npukb_task *t = req->task;
	const struct npukb_sample *s = req->sample;
	struct build_ctx b;
	char err[512] = "";
	int rc = 0;

	memset(res, 0, sizeof(*res));
	memset(&b, 0, sizeof(b));
	b.req = req;
	if (!is_identifier(t->kernel_name)) {
		res->message = format("cpusim: task kernel name '%s' is not a C identifier",
				      t->kernel_name ? t->kernel_name : "");
		return -EINVAL;
	}
	if (t->tiling_struct && !is_identifier(t->tiling_struct)) {
		res->message = format("cpusim: tiling struct '%s' is not a C identifier", t->tiling_struct);
		return -EINVAL;
	}
	b.data = data_dir(err, sizeof err);
	b.work = absolute(req->workdir);
	b.sdir = absolute(s->dir);
	if (!b.data || !b.work || !b.sdir) {
		rc = b.data ? -errno : -ENOENT;
		res->message = format("cpusim: %s", b.data ? "cannot resolve the work or sample directory" : err);
		goto out;
	}
	if (!is_plain_path(b.sdir)) {
		res->message = format("cpusim: sample path %s has quotes or backslashes", b.sdir);
		rc = -EINVAL;
		goto out;
	}
	rc = variants_compute(t, &b.v);
	if (rc < 0)
		goto out;
	b.launcher = format("%s/%s", b.work, LAUNCHER_NAME);
	b.exe0 = format("%s/%s", b.work, EXE_NAME);
	b.inc = format("-I%s/include", b.data);
	b.sinc = format("-I%s", b.sdir);
	b.soc_def = format("-DNPUKB_CPUSIM_SOCDIR=\"%s/soc\"", b.data);
	{
		/* The device compiler's architecture macros, which kernels test
		 * (#if __CCE_AICORE__ == 220): 910B and 910_93 are 220 (arch
		 * 2201), 310P 200 (2002), 310B 300 (3002). */
		const char *soc = req->options && req->options->soc && *req->options->soc ? req->options->soc
											    : DEFAULT_SOC;
		int core = 220, arch = 2201;
		if (strncasecmp(soc, "ascend310p", 10) == 0)
			core = 200, arch = 2002;
		else if (strncasecmp(soc, "ascend310b", 10) == 0)
			core = 300, arch = 3002;
		b.arch_def = format("-D__CCE_AICORE__=%d", core);
		b.npu_arch_def = format("-D__NPU_ARCH__=%d", arch);
	}
	/* Check reports and diagnostics name files relative to the sample. */
	b.prefix_map = format("-fmacro-prefix-map=%s/=", b.sdir);
	b.harness = format("%s/runtime/harness.cpp", b.data);
	b.hostdev = format("%s/runtime/hostdev.cpp", b.data);
	if (!b.launcher || !b.exe0 || !b.inc || !b.sinc || !b.soc_def || !b.prefix_map || !b.harness ||
	    !b.hostdev || !b.arch_def || !b.npu_arch_def) {
		rc = -ENOMEM;
		goto out;
	}
	rc = write_launcher(b.launcher, t, !auto_sync_off(b.sdir), err, sizeof err);
	if (rc < 0) {
		res->message = format("cpusim: %s", err);
		goto out;
	}
	if (s->mode == NPUKB_MODE_HOST_DEVICE) {
		if (access(b.hostdev, R_OK) != 0) {
			res->skipped = 1;
			res->message = format("cpusim: no op-host driver (%s)", b.hostdev);
			goto out;
		}
		rc = build_host_device(&b, res);
	} else {
		rc = build_kernel_only(&b, res);
	}
out:
	build_ctx_free(&b);
	return rc;
}

/* ---- run ------------------------------------------------------------------ */

/* cycles= and time_us= are required; block_dim= (host+device: what the
 * tiling function chose) is read when present. */
static int read_stats(const char *path, const char *token, double *cycles, double *time_us,
		      int *block_dim)
{
	FILE *f = fopen(path, "r");
	char line[256];
	int have = 0, genuine = 0;

	if (!f)
		return -errno;
	while (fgets(line, sizeof line, f)) {
		char *end;
		if (strncmp(line, "token=", 6) == 0) {
			line[strcspn(line, "\n")] = '\0';
			genuine = strcmp(line + 6, token) == 0;
		} else if (strncmp(line, "cycles=", 7) == 0) {
			*cycles = strtod(line + 7, &end);
			if (end != line + 7)
				have |= 1;
		} else if (strncmp(line, "block_dim=", 10) == 0) {
			long b = strtol(line + 10, &end, 10);
			if (end != line + 10 && b > 0 && b <= 65535)
				*block_dim = (int)b;
		} else if (strncmp(line, "time_us=", 8) == 0) {
			*time_us = strtod(line + 8, &end);
			if (end != line + 8)
				have |= 2;
		}
	}
	fclose(f);
	if (!genuine)
		return -EPERM;
	return have == 3 ? 0 : -EINVAL;
}

/* A fresh token (32 hex digits from getrandom) in work/RUN_TOKEN_NAME,
 * readable by the sandbox's user, and no stats file left from before. */
static int write_run_token(const char *work, char *token, size_t len)
{
	unsigned char raw[16];
	char *path = format("%s/%s", work, RUN_TOKEN_NAME), *stats = format("%s/%s", work, STATS_NAME);
	int fd, rc = 0;

	if (!path || !stats || len < 2 * sizeof raw + 1) {
		rc = -ENOMEM;
		goto out;
	}
	if (getrandom(raw, sizeof raw, 0) != (ssize_t)sizeof raw) {
		rc = -errno;
		goto out;
	}
	for (size_t i = 0; i < sizeof raw; i++)
		snprintf(token + 2 * i, 3, "%02x", raw[i]);
	if (unlink(stats) != 0 && errno != ENOENT) {
		rc = -errno;
		goto out;
	}
	(void)unlink(path);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, token, strlen(token)) != (ssize_t)strlen(token))
		rc = -errno;
	if (fd >= 0 && close(fd) != 0 && rc == 0)
		rc = -errno;
out:
	free(path);
	free(stats);
	return rc;
}

/* "npukb-cpusim: ub-overflow: ..." -> "ub-overflow" (malloc'd). */
static char *report_category(const char *line)
{
	const char *p = line + strlen(REPORT_PREFIX);
	size_t n = strcspn(p, ": \t");
	return n ? strndup(p, n) : NULL;
}

/* The executable built for the case's dtype combination (malloc'd). */
static char *run_exe(const struct npukb_run_request *req)
{
	const struct npukb_task *t = req->task;
	struct variants v;
	size_t k = 0;
	char *exe;

	if (!req->kcase || req->kcase < t->cases || req->kcase >= t->cases + t->ncases)
		return xstrdup(req->artifact);
	if (variants_compute(t, &v) < 0)
		return NULL;
	k = v.of_case[req->kcase - t->cases];
	variants_free(&v);
	exe = variant_exe(req->artifact, k);
	return exe;
}

static int cpusim_run(const struct npukb_run_request *req, struct npukb_run_result *res)
{
	const struct npukb_case_data *d = req->data;
	const struct npukb_options *o = req->options;
	char err[512] = "", desc[256], blocks[32], token[40] = "";
	char **owned = NULL;
	const char **argv = NULL;
	char *work = NULL, *errpath = NULL, *stats = NULL, *text = NULL, *report, *exe = NULL;
	char *case_file = NULL, *data, *reads[3] = { NULL, NULL, NULL };
	size_t i, argc = 0;
	struct npukb_sandbox_spec spec;
	int rc = 0, block_dim;

	memset(res, 0, sizeof(*res));
	if (!req->artifact || req->artifact[0] != '/') {
		res->message = xstrdup("cpusim: run needs the absolute executable path from build");
		return -EINVAL;
	}
	work = absolute(req->workdir);
	if (!work) {
		rc = -errno;
		res->message = format("cpusim: cannot resolve work directory %s", req->workdir);
		return rc;
	}
	exe = run_exe(req);
	if (!exe) {
		rc = -ENOMEM;
		goto out;
	}
	block_dim = d->block_dim > 0 ? d->block_dim : (req->task->block_dim > 0 ? req->task->block_dim : 1);
	snprintf(blocks, sizeof blocks, "%d", block_dim);

	owned = calloc(d->nargs + 1, sizeof(*owned));
	argv = calloc(d->nargs + 10, sizeof(*argv));
	if (!owned || !argv) {
		rc = -ENOMEM;
		goto out;
	}
	argv[argc++] = exe;
	argv[argc++] = "--blocks";
	argv[argc++] = blocks;
	argv[argc++] = "--soc";
	argv[argc++] = o->soc && *o->soc ? o->soc : DEFAULT_SOC;
	argv[argc++] = "--stats";
	argv[argc++] = STATS_NAME;
	if (req->sample && req->sample->mode == NPUKB_MODE_HOST_DEVICE) {
		/* The sample's tiling function decides blocks, tiling data and
		 * workspace: the harness gets the case instead of arguments. */
		case_file = format("%s/%s", work, CASE_FILE);
		if (!case_file) {
			rc = -ENOMEM;
			goto out;
		}
		rc = cpusim_hostdev_write_case(case_file, req->task, req->kcase, d,
					       o->soc && *o->soc ? o->soc : DEFAULT_SOC, err, sizeof err);
		if (rc < 0) {
			res->message = format("cpusim: %s", err);
			goto out;
		}
		argv[argc++] = "--hostdev";
		argv[argc++] = CASE_FILE;
	}
	for (i = 0; case_file == NULL && i < d->nargs; i++) {
		const struct npukb_kernel_arg *a = &d->args[i];
		const char *role = NULL;
		char *abs = NULL;

		switch (a->role) {
		case NPUKB_PARAM_INPUT: role = "in"; break;
		case NPUKB_PARAM_OUTPUT: role = "out"; break;
		case NPUKB_PARAM_INOUT: role = "inout"; break;
		case NPUKB_PARAM_TILING: role = "tiling"; break;
		case NPUKB_PARAM_WORKSPACE: role = "ws"; break;
		}
		if (!role) {
			rc = -EINVAL;
			res->message = format("cpusim: kernel argument %zu has an unknown role", i);
			goto out;
		}
		if (a->role == NPUKB_PARAM_WORKSPACE) {
			owned[i] = format("ws=%zu", a->bytes);
		} else if (a->tensor && a->tensor->is_absent) {
			owned[i] = format("none=");
		} else {
			if (!a->path) {
				rc = -EINVAL;
				res->message = format("cpusim: kernel argument %zu has no file", i);
				goto out;
			}
			/* The harness runs in its own work directory. */
			abs = a->path[0] == '/' ? NULL : absolute(a->path);
			if (a->tensor && a->tensor->nmembers > 0)
				owned[i] = list_arg(a->tensor, abs ? abs : a->path);
			else
				owned[i] = format("%s=%s", role, abs ? abs : a->path);
			free(abs);
		}
		if (!owned[i]) {
			rc = -ENOMEM;
			goto out;
		}
		argv[argc++] = owned[i];
	}
	argv[argc] = NULL;

	/* The harness sees its build and the SoC tables (read-only) and its
	 * own work folder. */
	reads[0] = xstrdup(exe);
	data = data_dir(err, sizeof err);
	reads[1] = data ? format("%s/soc", data) : NULL;
	free(data);
	if (!reads[0] || !reads[1]) {
		rc = -ENOMEM;
		goto out;
	}
	*strrchr(reads[0], '/') = '\0';
	rc = write_run_token(work, token, sizeof token);
	if (rc < 0) {
		res->message = format("cpusim: cannot write the run token in %s: %s", work, strerror(-rc));
		goto out;
	}
	memset(&spec, 0, sizeof(spec));
	spec.argv = argv;
	spec.workdir = work;
	spec.stdout_path = RUN_OUT;
	spec.stderr_path = RUN_ERR;
	spec.limits = o->run_limits;
	spec.isolate_network = 1;
	spec.read_paths = (const char *const *)reads;
	/* The case's tensor files live in the work folder: the quota is
	 * theirs plus what the kernel may write of its own (the default). */
	spec.workdir_quota = (uint64_t)1 << 30;
	for (i = 0; i < d->nargs; i++)
		spec.workdir_quota += d->args[i].bytes;
	rc = npukb_sandbox_run(&spec, &res->proc, err, sizeof err);
	if (rc < 0) {
		res->message = format("cpusim: cannot run the kernel: %s", err);
		goto out;
	}

	errpath = format("%s/%s", work, RUN_ERR);
	stats = format("%s/%s", work, STATS_NAME);
	if (!errpath || !stats) {
		rc = -ENOMEM;
		goto out;
	}
	/* The report is the harness's last words: keep the tail. */
	text = read_text(errpath, DIAG_MAX, 1);
	res->diagnostics = text;
	npukb_sandbox_describe(&res->proc, desc, sizeof desc);

	if (res->proc.kind == NPUKB_EXIT_NORMAL && res->proc.exit_code == 0) {
		int st = read_stats(stats, token, &res->cycles, &res->time_us, &block_dim);
		if (st == 0) {
			res->ok = 1;
			res->has_cycles = 1;
			res->message = format("ran %d blocks: %.0f cycles, %.3f us", block_dim, res->cycles,
					      res->time_us);
		} else if (st == -EPERM) {
			res->cycles = res->time_us = 0;
			res->category = xstrdup("sandbox-violation");
			res->message = xstrdup("the timing file was not written by the harness (a kernel forging "
					       "its cycle count, then ending the process?)");
		} else {
			res->category = xstrdup("early-exit");
			res->message = xstrdup("the kernel process exited with status 0 before the launch finished "
					       "(exit() or _exit() inside the kernel?)");
		}
		goto out;
	}
	report = text ? line_with(text, REPORT_PREFIX, 1) : NULL;
	if (res->proc.kind == NPUKB_EXIT_NORMAL && res->proc.exit_code == CHECK_EXIT && report) {
		res->category = report_category(report);
		res->message = report;
		goto out;
	}
	free(report);
	/* The harness itself exits 0, 2 (its command line or SoC data) or 3
	 * (a check, with its report line); any other status, or 3 without
	 * a report, is the kernel ending the process itself. */
	if (res->proc.kind == NPUKB_EXIT_NORMAL &&
	    !(res->proc.exit_code == USAGE_EXIT && text && strstr(text, USAGE_PREFIX)) &&
	    !(res->proc.exit_code == TILING_EXIT && text && strstr(text, TILING_PREFIX))) {
		res->category = xstrdup("early-exit");
		res->message = format("the kernel process exited with status %d before the launch finished "
				      "(exit() inside the kernel?)", res->proc.exit_code);
		goto out;
	}
	if (res->proc.kind == NPUKB_EXIT_NORMAL && text && text[0]) {
		char *first = strndup(text, strcspn(text, "\n"));
		res->message = format("kernel %s: %s", desc, first ? first : "");
		free(first);
	} else {
		res->message = format("kernel %s", desc);
	}
out:
	if (owned)
		for (i = 0; i < d->nargs; i++)
			free(owned[i]);
	free(owned);
	free(argv);
	free(work);
	free(errpath);
	free(stats);
	free(exe);
	free(case_file);
	free(reads[0]);
	free(reads[1]);
	return rc;
}

static int cpusim_check_soc(const char *soc, char *known, size_t len)
{
	char err[256], *dir = data_dir(err, sizeof err), *socdir = dir ? format("%s/soc", dir) : NULL;
	int rc = socdir ? cpusim_soc_check(socdir, soc, known, len) : 0;
	free(socdir);
	free(dir);
	return rc;
}

static const struct npukb_backend_ops cpusim_ops = {
	.probe = cpusim_probe,
	.identity = cpusim_identity,
	.build = cpusim_build,
	.run = cpusim_run,
	.cleanup = NULL,
	.check_soc = cpusim_check_soc,
};

NPUKB_PLUGIN_EXPORT const struct npukb_plugin npukb_cpusim_plugin = {
	.abi = NPUKB_PLUGIN_ABI,
	.kind = NPUKB_PLUGIN_BACKEND,
	.name = "cpusim",
	.version = CPUSIM_VERSION,
	.description = "AscendC kernels compiled and run on the host CPU, with checks and a cycle model",
	.init = NULL,
	.fini = NULL,
	.backend = &cpusim_ops,
	.stage = NULL,
};
