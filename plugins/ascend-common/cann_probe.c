/* cann_probe.c - find a CANN toolkit; build the Ascend flows' command lines
 * (see cann_probe.h). */
#include "cann_probe.h"
#include "cann_options.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sys/stat.h>

extern char **environ;

/* ---- small helpers ----------------------------------------------------------- */

static void set_msg(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void set_msg(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!buf || len == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

/* Append to a message, keeping what fits. */
static void add_msg(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void add_msg(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strnlen(buf, len);
	va_list ap;

	if (used + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}

int npukb_cann_vset(char **msg, const char *fmt, va_list ap)
{
	char *s = NULL;

	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	free(*msg);
	*msg = s;
	return s ? 0 : -ENOMEM;
}

int npukb_cann_set(char **msg, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = npukb_cann_vset(msg, fmt, ap);
	va_end(ap);
	return rc;
}

char *npukb_cann_strf(const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;

	va_start(ap, fmt);
	npukb_cann_vset(&s, fmt, ap);
	va_end(ap);
	return s;
}

static const char *env_get(const struct npukb_cann_env *env, const char *name)
{
	const char *v = env && env->get ? env->get(env->ctx, name) : getenv(name);

	return v && *v ? v : NULL;
}

/* path under the fake root (or the real one). 0, or -1 when too long. */
static int under_root(const struct npukb_cann_env *env, const char *path, char *out,
		      size_t len)
{
	const char *root = env && env->sysroot ? env->sysroot : "";

	return (size_t)snprintf(out, len, "%s%s", root, path) < len ? 0 : -1;
}

static int join(char *out, size_t len, const char *a, const char *b)
{
	size_t n = strlen(a);

	while (n > 1 && a[n - 1] == '/')
		n--;
	return (size_t)snprintf(out, len, "%.*s/%s", (int)n, a, b) < len ? 0 : -1;
}

static int is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Device nodes are character devices; a test's fake one is a plain file. */
static int exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

/* ---- version files ------------------------------------------------------------- */

/* "Version=8.0.RC3", "version = 8.0.RC3", or an install record such as
 * "runtime_running_version=[7.0.0.5.242:8.0.RC3]" (package:CANN version;
 * the part after the last colon is the CANN version). */
static int version_from_line(char *line, char *out, size_t len)
{
	char *eq = strchr(line, '=');
	char *key = line, *val, *end;
	size_t klen;

	if (!eq)
		return 0;
	*eq = '\0';
	while (isspace((unsigned char)*key))
		key++;
	klen = strlen(key);
	while (klen > 0 && isspace((unsigned char)key[klen - 1]))
		key[--klen] = '\0';
	if (strcasecmp(key, "version") != 0 &&
	    !(klen > 8 && strcasecmp(key + klen - 8, "_version") == 0))
		return 0;
	val = eq + 1;
	val += strspn(val, " \t\"'[");
	end = val + strcspn(val, "]\"'\r\n");
	*end = '\0';
	if (strrchr(val, ':'))
		val = strrchr(val, ':') + 1;
	while (end > val && isspace((unsigned char)end[-1]))
		*--end = '\0';
	if (!*val)
		return 0;
	for (char *p = val; *p; p++)
		if (!isprint((unsigned char)*p))
			return 0;
	snprintf(out, len, "%s", val);
	return 1;
}

static void detect_version(const char *root, char *out, size_t len)
{
	static const char *const files[] = {
		"version.cfg", "version.info", "compiler/version.info", "runtime/version.info",
	};

	out[0] = '\0';
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		char path[PATH_MAX], line[512];
		FILE *f;

		if (join(path, sizeof path, root, files[i]) < 0)
			continue;
		f = fopen(path, "re");
		if (!f)
			continue;
		while (fgets(line, sizeof line, f))
			if (version_from_line(line, out, len))
				break;
		fclose(f);
		if (out[0])
			return;
	}
}

/* ---- probe ------------------------------------------------------------------------ */

/* Fills info when root is a complete toolkit; otherwise returns 0 and says
 * what is missing in `why`. */
static int check_root(const char *root, struct npukb_cann_info *info, char *why, size_t len)
{
	static const struct {
		const char *rel;
		enum npukb_cann_compiler kind;
	} compilers[] = {
		{ "bin/bisheng", NPUKB_CANN_BISHENG },
		{ "compiler/ccec_compiler/bin/ccec", NPUKB_CANN_CCEC },
	};
	static const char *const runtimes[] = {
		"lib64/libascendcl.so", "runtime/lib64/libascendcl.so",
	};
	char path[PATH_MAX];
	size_t i;

	if (!is_dir(root)) {
		set_msg(why, len, "missing");
		return 0;
	}
	info->compiler_kind = NPUKB_CANN_NO_COMPILER;
	for (i = 0; i < sizeof compilers / sizeof compilers[0]; i++) {
		if (join(path, sizeof path, root, compilers[i].rel) == 0 && is_file(path)) {
			info->compiler_kind = compilers[i].kind;
			snprintf(info->compiler, sizeof info->compiler, "%s", path);
			break;
		}
	}
	if (info->compiler_kind == NPUKB_CANN_NO_COMPILER) {
		set_msg(why, len, "no bin/bisheng or compiler/ccec_compiler/bin/ccec");
		return 0;
	}
	for (i = 0; i < sizeof runtimes / sizeof runtimes[0]; i++)
		if (join(path, sizeof path, root, runtimes[i]) == 0 && is_file(path))
			break;
	if (i == sizeof runtimes / sizeof runtimes[0]) {
		set_msg(why, len, "no lib64/libascendcl.so or runtime/lib64/libascendcl.so");
		return 0;
	}
	snprintf(info->runtime_lib, sizeof info->runtime_lib, "%s", path);
	snprintf(info->root, sizeof info->root, "%s", root);
	detect_version(root, info->version, sizeof info->version);
	info->found = 1;
	return 1;
}

int npukb_cann_probe_env(const struct npukb_cann_env *env, struct npukb_cann_info *out,
			 char *reason, size_t len)
{
	static const char *const vars[] = { "ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME" };
	static const char *const defaults[] = {
		"/usr/local/Ascend/cann", "/usr/local/Ascend/ascend-toolkit/latest",
	};
	char looked[1024] = "";
	char why[128];
	char path[PATH_MAX];

	if (!out)
		return -EINVAL;
	memset(out, 0, sizeof *out);
	if (reason && len)
		reason[0] = '\0';

	if (env && env->home) {
		if (!check_root(env->home, out, why, sizeof why)) {
			set_msg(reason, len, "CANN toolkit not found at ascend-home=%s (%s)", env->home,
				why);
			return NPUKB_CANN_NOT_FOUND;
		}
		out->found_by = "the ascend-home option";
	}
	for (size_t i = 0; i < 2 && !out->found; i++) {
		const char *v = env_get(env, vars[i]);

		if (!v) {
			add_msg(looked, sizeof looked, "%s$%s (unset)", looked[0] ? ", " : "",
				vars[i]);
			continue;
		}
		if (check_root(v, out, why, sizeof why))
			out->found_by = vars[i];
		else
			add_msg(looked, sizeof looked, "%s$%s=%s (%s)", looked[0] ? ", " : "",
				vars[i], v, why);
	}
	for (size_t i = 0; i < 2 && !out->found; i++) {
		if (under_root(env, defaults[i], path, sizeof path) < 0)
			continue;
		if (check_root(path, out, why, sizeof why))
			out->found_by = "default location";
		else
			add_msg(looked, sizeof looked, "%s%s (%s)", looked[0] ? ", " : "", path, why);
	}
	if (!out->found) {
		set_msg(reason, len, "CANN toolkit not found: set ASCEND_HOME_PATH (looked in %s)",
			looked);
		return NPUKB_CANN_NOT_FOUND;
	}

	if (under_root(env, "/dev/davinci0", out->device, sizeof out->device) < 0)
		return -ENAMETOOLONG;
	out->has_device = exists(out->device);
	if (!out->has_device) {
		set_msg(reason, len, "CANN%s%s found at %s but no NPU device (%s missing)",
			out->version[0] ? " " : "", out->version, out->root, out->device);
		return NPUKB_CANN_NO_DEVICE;
	}
	return NPUKB_CANN_OK;
}

int npukb_cann_probe(struct npukb_cann_info *out, char *reason, size_t len)
{
	struct npukb_cann_env env = { NULL, NULL, NULL, npukb_cann_home_option() };
	return npukb_cann_probe_env(env.home ? &env : NULL, out, reason, len);
}

void npukb_cann_identity(const struct npukb_cann_info *info, char *buf, size_t len)
{
	if (!buf || len == 0)
		return;
	if (!info || !info->found) {
		set_msg(buf, len, "CANN not found");
		return;
	}
	set_msg(buf, len, "CANN %s (%s) at %s", info->version[0] ? info->version : "version unknown",
		info->compiler_kind == NPUKB_CANN_BISHENG ? "bisheng" : "ccec", info->root);
}

/* ---- SoCs -------------------------------------------------------------------------- */

static int all_digits(const char *s, size_t n)
{
	if (strlen(s) != n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return 0;
	return 1;
}

int npukb_cann_soc_lookup(const char *soc, struct npukb_cann_soc *out, char *err, size_t errlen)
{
	static const char *const b910[] = { "b1", "b2", "b2c", "b3", "b4", "b4-1" };
	static const char *const p310[] = { "p1", "p3", "p5", "p7" };
	char low[32];
	size_t n;
	int ok = 0;

	if (!soc || !out || (n = strlen(soc)) == 0 || n >= sizeof low) {
		set_msg(err, errlen, "no SoC given");
		return -EINVAL;
	}
	for (size_t i = 0; i <= n; i++)
		low[i] = (char)tolower((unsigned char)soc[i]);
	memset(out, 0, sizeof *out);

	if (strncmp(low, "ascend910", 9) == 0) {
		for (size_t i = 0; i < sizeof b910 / sizeof b910[0]; i++)
			ok |= strcmp(low + 9, b910[i]) == 0;
		if (ok) {
			out->unit = "ascend910b";
		} else if (strncmp(low + 9, "_93", 3) == 0 && all_digits(low + 12, 2)) {
			/* Atlas A3 (ascend910_9391, _9392, ...): same vector and
			 * cube cores as 910B. */
			out->unit = "ascend910_93";
			ok = 1;
		}
		out->npu_arch = 2201;
		out->vec_arch = "dav-c220-vec";
		out->cube_arch = "dav-c220-cube";
		out->mix_arch = "dav-c220";
	} else if (strncmp(low, "ascend310", 9) == 0) {
		for (size_t i = 0; i < sizeof p310 / sizeof p310[0]; i++)
			ok |= strcmp(low + 9, p310[i]) == 0;
		/* 310P has no separate vector and cube cores: one mode, m200. */
		out->unit = "ascend310p";
		out->npu_arch = 2002;
		out->vec_arch = "dav-m200";
		out->cube_arch = "dav-m200";
		out->mix_arch = "dav-m200";
	}
	if (!ok) {
		set_msg(err, errlen,
			"unknown SoC '%s' (known: ascend910b1, ascend910b2, ascend910b2c, "
			"ascend910b3, ascend910b4, ascend910b4-1, ascend910_93NN, ascend310p1, "
			"ascend310p3, ascend310p5, ascend310p7)", soc);
		memset(out, 0, sizeof *out);
		return -EINVAL;
	}
	snprintf(out->name, sizeof out->name, "%s", low);
	/* SOC_VERSION spelling: "Ascend" and the rest in upper case. */
	snprintf(out->soc_version, sizeof out->soc_version, "Ascend%s", low + 6);
	for (char *p = out->soc_version + 6; *p; p++)
		*p = (char)toupper((unsigned char)*p);
	return 0;
}

/* ---- command building ------------------------------------------------------------ */

void npukb_cann_strv_free(char **v)
{
	if (!v)
		return;
	for (char **p = v; *p; p++)
		free(*p);
	free(v);
}

void npukb_cann_cmd_clear(struct npukb_cann_cmd *c)
{
	if (!c)
		return;
	free(c->what);
	npukb_cann_strv_free(c->argv);
	free(c->workdir);
	npukb_cann_strv_free(c->env);
	memset(c, 0, sizeof *c);
}

void npukb_cann_plan_clear(struct npukb_cann_plan *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n; i++)
		npukb_cann_cmd_clear(&p->steps[i]);
	free(p->steps);
	p->steps = NULL;
	p->n = 0;
}

/* Builds argv one string at a time; the first failed allocation sticks, so
 * callers check once at the end. */
struct argv_builder {
	char **v;
	size_t n, cap;
	int failed;
};

static void push_owned(struct argv_builder *b, char *s)
{
	if (b->failed || !s) {
		b->failed = 1;
		free(s);
		return;
	}
	if (b->n + 2 > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 16;
		char **v = realloc(b->v, cap * sizeof *v);

		if (!v) {
			b->failed = 1;
			free(s);
			return;
		}
		b->v = v;
		b->cap = cap;
	}
	b->v[b->n++] = s;
	b->v[b->n] = NULL;
}

static void push(struct argv_builder *b, const char *s)
{
	push_owned(b, s ? strdup(s) : NULL);
}

static void pushf(struct argv_builder *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void pushf(struct argv_builder *b, const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	push_owned(b, s);
}

/* Moves the builder's array into cmd; -ENOMEM when anything failed. */
static int finish(struct argv_builder *b, struct npukb_cann_cmd *cmd, char *what,
		  char *err, size_t errlen)
{
	if (b->failed || !b->v || !what) {
		for (size_t i = 0; i < b->n; i++)
			free(b->v[i]);
		free(b->v);
		free(what);
		memset(b, 0, sizeof *b);
		set_msg(err, errlen, "out of memory");
		return -ENOMEM;
	}
	cmd->argv = b->v;
	cmd->argc = b->n;
	cmd->what = what;
	memset(b, 0, sizeof *b);
	return 0;
}

static int need_toolkit(const struct npukb_cann_info *info, char *err, size_t errlen)
{
	if (!info || !info->found) {
		set_msg(err, errlen, "no CANN toolkit to build with");
		return -ENOENT;
	}
	return 0;
}

const char *npukb_cann_cores_arch(const struct npukb_cann_soc *s, enum npukb_cann_cores cores)
{
	switch (cores) {
	case NPUKB_CANN_CORES_CUBE: return s->cube_arch;
	case NPUKB_CANN_CORES_MIX: return s->mix_arch;
	case NPUKB_CANN_CORES_VEC: break;
	}
	return s->vec_arch;
}

/* The directory holding the libascendcl.so the probe found. */
static void runtime_libdir(const struct npukb_cann_info *info, char *out, size_t len)
{
	snprintf(out, len, "%s", info->runtime_lib);
	if (strrchr(out, '/'))
		*strrchr(out, '/') = '\0';
}

int npukb_cann_device_compile_cmd(const struct npukb_cann_info *info, const char *soc,
				  enum npukb_cann_cores cores, const char *src, const char *obj,
				  struct npukb_cann_cmd *out, char *err, size_t errlen)
{
	struct npukb_cann_soc s;
	struct argv_builder b = { NULL, 0, 0, 0 };
	const char *arch;
	int rc;

	if (!out || !src || !obj) {
		set_msg(err, errlen, "missing source, object or result");
		return -EINVAL;
	}
	memset(out, 0, sizeof *out);
	if ((rc = need_toolkit(info, err, errlen)) < 0 ||
	    (rc = npukb_cann_soc_lookup(soc, &s, err, errlen)) < 0)
		return rc;
	arch = npukb_cann_cores_arch(&s, cores);

	push(&b, info->compiler);
	push(&b, "-c");
	push(&b, "-O2");
	push(&b, "-std=c++17");
	if (info->compiler_kind == NPUKB_CANN_BISHENG) {
		/* 8.5+: -xasc is the AscendC language; the driver derives the
		 * core types from the arch and the kernel's task type. */
		push(&b, "-xasc");
		pushf(&b, "--npu-arch=dav-%d", s.npu_arch);
	} else {
		/* 8.0.x: a heterogeneous compile (no --cce-aicore-only), so the
		 * object carries the host side of the <<<>>> launch too. */
		push(&b, "-xcce");
		pushf(&b, "--cce-aicore-arch=%s", arch);
		push(&b, "--cce-auto-sync");
		push(&b, "-mllvm");
		push(&b, "-cce-aicore-stack-size=0x8000");
		push(&b, "-mllvm");
		push(&b, "-cce-aicore-function-stack-size=0x8000");
		pushf(&b, "-I%s/compiler/tikcpp/tikcfw", info->root);
		pushf(&b, "-I%s/compiler/tikcpp/tikcfw/impl", info->root);
		pushf(&b, "-I%s/compiler/tikcpp/tikcfw/interface", info->root);
	}
	pushf(&b, "-I%s/include", info->root);
	push(&b, src);
	push(&b, "-o");
	push(&b, obj);
	return finish(&b, out,
		      info->compiler_kind == NPUKB_CANN_BISHENG
			      ? npukb_cann_strf("compile kernel and launch for %s (dav-%d)", s.name, s.npu_arch)
			      : npukb_cann_strf("compile kernel and launch for %s (%s)", s.name, arch),
		      err, errlen);
}

int npukb_cann_device_host_cmd(const struct npukb_cann_info *info, const char *cxx,
			       const char *host_src, const char *host_obj,
			       struct npukb_cann_cmd *out, char *err, size_t errlen)
{
	struct argv_builder b = { NULL, 0, 0, 0 };
	int rc;

	if (!out || !host_src || !host_obj) {
		set_msg(err, errlen, "missing host source, object or result");
		return -EINVAL;
	}
	memset(out, 0, sizeof *out);
	if ((rc = need_toolkit(info, err, errlen)) < 0)
		return rc;
	push(&b, cxx && *cxx ? cxx : "g++");
	push(&b, "-c");
	push(&b, "-O2");
	push(&b, "-std=c++17");
	pushf(&b, "-I%s/include", info->root);
	push(&b, host_src);
	push(&b, "-o");
	push(&b, host_obj);
	return finish(&b, out, strdup("compile the launch program (host C++)"), err, errlen);
}

int npukb_cann_device_link_cmd(const struct npukb_cann_info *info, const char *host_obj,
			       const char *kernel_obj, const char *exe,
			       struct npukb_cann_cmd *out, char *err, size_t errlen)
{
	struct argv_builder b = { NULL, 0, 0, 0 };
	char libdir[PATH_MAX];
	int rc;

	if (!out || !host_obj || !kernel_obj || !exe) {
		set_msg(err, errlen, "missing object, program or result");
		return -EINVAL;
	}
	memset(out, 0, sizeof *out);
	if ((rc = need_toolkit(info, err, errlen)) < 0)
		return rc;
	runtime_libdir(info, libdir, sizeof libdir);
	push(&b, info->compiler);
	/* 8.0.x: the fat object's device code is merged at this link. */
	if (info->compiler_kind == NPUKB_CANN_CCEC)
		push(&b, "--cce-fatobj-link");
	push(&b, host_obj);
	push(&b, kernel_obj);
	pushf(&b, "-L%s", libdir);
	pushf(&b, "-Wl,-rpath,%s", libdir);
	push(&b, "-lascendcl");
	push(&b, "-lruntime");
	push(&b, "-lstdc++");
	push(&b, "-o");
	push(&b, exe);
	return finish(&b, out, strdup("link the launch program"), err, errlen);
}

static int set_workdir(struct npukb_cann_cmd *c, const char *dir)
{
	c->workdir = strdup(dir);
	return c->workdir ? 0 : -ENOMEM;
}

/* One "cmake --build build_out --target <target> -j <jobs>" step. */
static int build_target(struct npukb_cann_cmd *c, const char *target, int jobs,
			const char *project, char *err, size_t errlen)
{
	struct argv_builder b = { NULL, 0, 0, 0 };
	int rc;

	push(&b, "cmake");
	push(&b, "--build");
	push(&b, "build_out");
	push(&b, "--target");
	push(&b, target);
	push(&b, "-j");
	pushf(&b, "%d", jobs);
	rc = finish(&b, c, npukb_cann_strf("build target %s", target), err, errlen);
	return rc < 0 ? rc : set_workdir(c, project);
}

int npukb_cann_hostdev_build_plan(const struct npukb_cann_info *info, const char *soc,
				  const char *op_json, const char *project, int jobs,
				  struct npukb_cann_plan *out, char *err, size_t errlen)
{
	struct npukb_cann_soc s;
	struct argv_builder b = { NULL, 0, 0, 0 };
	int rc;

	if (!out || !op_json || !project) {
		set_msg(err, errlen, "missing operator description, project or result");
		return -EINVAL;
	}
	memset(out, 0, sizeof *out);
	if ((rc = need_toolkit(info, err, errlen)) < 0 ||
	    (rc = npukb_cann_soc_lookup(soc, &s, err, errlen)) < 0)
		return rc;
	if (jobs < 1)
		jobs = 1;
	out->steps = calloc(NPUKB_CANN_HOSTDEV_STEPS, sizeof *out->steps);
	if (!out->steps) {
		set_msg(err, errlen, "out of memory");
		return -ENOMEM;
	}

	/* msopgen ships with the toolkit's Python tools. */
	pushf(&b, "%s/python/site-packages/bin/msopgen", info->root);
	push(&b, "gen");
	push(&b, "-i");
	push(&b, op_json);
	push(&b, "-c");
	pushf(&b, "ai_core-%s", s.soc_version);
	push(&b, "-lan");
	push(&b, "cpp");
	push(&b, "-out");
	push(&b, project);
	rc = finish(&b, &out->steps[out->n],
		    npukb_cann_strf("generate the operator project for %s", s.soc_version), err, errlen);
	if (rc < 0)
		goto fail;
	out->n++;

	push(&b, "cmake");
	push(&b, "-S");
	push(&b, ".");
	push(&b, "-B");
	push(&b, "build_out");
	push(&b, "--preset=default");
	pushf(&b, "-DASCEND_CANN_PACKAGE_PATH=%s", info->root);
	pushf(&b, "-DASCEND_COMPUTE_UNIT=%s", s.unit);
	rc = finish(&b, &out->steps[out->n], npukb_cann_strf("configure for %s", s.unit), err, errlen);
	if (rc < 0 || (rc = set_workdir(&out->steps[out->n], project)) < 0)
		goto fail;
	out->n++;

	/* msopgen's build.sh order (8.0+): binary, then package. */
	if ((rc = build_target(&out->steps[out->n], "binary", jobs, project, err, errlen)) < 0)
		goto fail;
	out->n++;
	if ((rc = build_target(&out->steps[out->n], "package", jobs, project, err, errlen)) < 0)
		goto fail;
	out->n++;
	return 0;
fail:
	/* Unused steps are zeroed (calloc), so clearing all of them is safe. */
	out->n = NPUKB_CANN_HOSTDEV_STEPS;
	npukb_cann_plan_clear(out);
	set_msg(err, errlen, "out of memory");
	return -ENOMEM;
}

int npukb_cann_hostdev_stage_cmd(const char *run_package, const char *stage,
				 struct npukb_cann_cmd *out, char *err, size_t errlen)
{
	struct argv_builder b = { NULL, 0, 0, 0 };

	if (!out || !run_package || !stage) {
		set_msg(err, errlen, "missing package, stage directory or result");
		return -EINVAL;
	}
	if (stage[0] != '/') {
		set_msg(err, errlen, "the staging folder must be absolute: %s", stage);
		return -EINVAL;
	}
	memset(out, 0, sizeof *out);
	push(&b, "bash");
	push(&b, run_package);
	push(&b, "--quiet");
	pushf(&b, "--install-path=%s", stage);
	return finish(&b, out, npukb_cann_strf("stage the operator package under %s", stage), err,
		      errlen);
}

int npukb_cann_hostdev_program_cmd(const struct npukb_cann_info *info, const char *cxx,
				   const char *src, const char *stage, const char *exe,
				   struct npukb_cann_cmd *out, char *err, size_t errlen)
{
	struct argv_builder b = { NULL, 0, 0, 0 };
	char libdir[PATH_MAX];
	int rc;

	if (!out || !src || !stage || !exe) {
		set_msg(err, errlen, "missing source, stage, program or result");
		return -EINVAL;
	}
	memset(out, 0, sizeof *out);
	if ((rc = need_toolkit(info, err, errlen)) < 0)
		return rc;
	runtime_libdir(info, libdir, sizeof libdir);
	push(&b, cxx && *cxx ? cxx : "g++");
	push(&b, "-O2");
	push(&b, "-std=c++17");
	pushf(&b, "-I%s/include", info->root);
	pushf(&b, "-I%s/vendors/customize/op_api/include", stage);
	push(&b, src);
	pushf(&b, "-L%s/vendors/customize/op_api/lib", stage);
	pushf(&b, "-L%s", libdir);
	pushf(&b, "-Wl,-rpath,%s/vendors/customize/op_api/lib", stage);
	pushf(&b, "-Wl,-rpath,%s", libdir);
	push(&b, "-lcust_opapi");
	push(&b, "-lnnopbase");
	push(&b, "-lascendcl");
	push(&b, "-o");
	push(&b, exe);
	return finish(&b, out, strdup("compile the aclnn program"), err, errlen);
}

char **npukb_cann_runtime_env(const struct npukb_cann_info *info, const char *stage)
{
	struct argv_builder b = { NULL, 0, 0, 0 };
	char libdir[PATH_MAX];
	const char *old;

	if (!info || !info->found)
		return NULL;
	runtime_libdir(info, libdir, sizeof libdir);
	old = getenv("LD_LIBRARY_PATH");

	pushf(&b, "ASCEND_HOME_PATH=%s", info->root);
	pushf(&b, "ASCEND_OPP_PATH=%s/opp", info->root);
	if (stage) {
		pushf(&b, "ASCEND_CUSTOM_OPP_PATH=%s/vendors/customize", stage);
		pushf(&b, "LD_LIBRARY_PATH=%s/vendors/customize/op_api/lib:%s%s%s", stage, libdir,
		      old && *old ? ":" : "", old && *old ? old : "");
	} else {
		pushf(&b, "LD_LIBRARY_PATH=%s%s%s", libdir, old && *old ? ":" : "",
		      old && *old ? old : "");
	}
	if (b.failed) {
		for (size_t i = 0; i < b.n; i++)
			free(b.v[i]);
		free(b.v);
		return NULL;
	}
	return b.v;
}

static size_t name_len(const char *entry)
{
	const char *eq = strchr(entry, '=');

	return eq ? (size_t)(eq - entry) : strlen(entry);
}

char **npukb_cann_merge_env(char *const *base, char *const *extra)
{
	struct argv_builder b = { NULL, 0, 0, 0 };

	if (!base)
		base = environ;
	for (char *const *e = base; e && *e; e++) {
		int replaced = 0;

		for (char *const *x = extra; x && *x && !replaced; x++)
			replaced = name_len(*x) == name_len(*e) &&
				   strncmp(*x, *e, name_len(*e)) == 0;
		if (!replaced)
			push(&b, *e);
	}
	for (char *const *x = extra; x && *x; x++)
		push(&b, *x);
	if (b.failed || !b.v) {
		for (size_t i = 0; i < b.n; i++)
			free(b.v[i]);
		free(b.v);
		/* An empty environment is still a valid answer. */
		return b.failed ? NULL : calloc(1, sizeof(char *));
	}
	return b.v;
}
