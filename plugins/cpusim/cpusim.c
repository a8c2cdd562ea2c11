/* cpusim.c - the cpusim backend: AscendC kernels compiled for and run on the
 * host CPU.
 *
 * build() compiles the sample's sources together with cpusim's AscendC
 * emulation headers (include/), a generated launcher that calls the kernel
 * with its arguments, and the harness (runtime/harness.cpp with gm_buffers.cpp) into one
 * executable. run() executes it on the case's tensor files; the harness
 * reports check failures as `npukb-cpusim: <category>: ...` with exit
 * status 3, and the cost model's cycles in a stats file. Both steps go
 * through npukb_sandbox_run(): the sample is hostile until proven otherwise.
 *
 * The data directory (include/, runtime/, soc/) is --backend-opt
 * data-dir=DIR, else $NPUKB_CPUSIM_DIR, else NPUKB_CPUSIM_DATADIR fixed at
 * build time. The C++ compiler is --backend-opt cxx=PROGRAM, else
 * $NPUKB_CXX (one program name), else g++. */

#include "cpusim_internal.h"

/* ---- probe / identity ------------------------------------------------------ */

static int cpusim_probe(char *reason, size_t len)
{
	const char *cxx = compiler();
	const char *version[] = { cxx, "--version", NULL };
	const char *cxx17[] = { cxx, "-std=c++17", "-fsyntax-only", "-x", "c++", "/dev/null", NULL };
	char line[256], *dir;

	if (run_capture(version, line, sizeof line) != 0) {
		set_err(reason, len, "C++ compiler '%s' does not run: install g++, or set --backend-opt cxx "
			"or NPUKB_CXX", cxx);
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

/* The line names cpusim's version, a digest of its emulation headers,
 * runtime and SoC tables (what a kernel is compiled, run and timed
 * against), the cost model's parameters and the compiler: the results of
 * a sample are a function of these, the task and the options (the cycles
 * are the model's, not a clock's), so they are reproducible. */
static int cpusim_identity(char *buf, size_t len)
{
	const char *argv[] = { compiler(), "--version", NULL };
	char cc[256], err[256], emu[40] = "unknown", *dir = data_dir(err, sizeof err);
	char *inc = dir ? format("%s/include", dir) : NULL, *rt = dir ? format("%s/runtime", dir) : NULL;
	char *soc = dir ? format("%s/soc", dir) : NULL;
	const char *trees[] = { inc, rt, soc, NULL };
	unsigned long long h;
	int known;

	known = inc && rt && soc && cpusim_tree_digest(trees, emu, sizeof emu) == 0;
	free(inc);
	free(rt);
	free(soc);
	free(dir);
	if (run_capture(argv, cc, sizeof(cc)) != 0 || !cc[0]) {
		set_err(buf, len, "%s (version unknown)", compiler());
		return -ENOENT;
	}
	h = soc_params_hash();
	snprintf(buf, len, "cpusim %s, emulation %s, cost-model parameters %08llx; %s", CPUSIM_VERSION,
		 known ? emu : "unknown", h & 0xffffffffull, cc);
	/* without the emulation's digest the line does not name all the
	 * results depend on: nothing may be reused */
	return known ? NPUKB_IDENTITY_REPRODUCIBLE : 0;
}

static int cpusim_check_soc(const char *soc, char *known, size_t len)
{
	char err[256], *dir = data_dir(err, sizeof err), *socdir = dir ? format("%s/soc", dir) : NULL;
	int rc = socdir ? cpusim_soc_check(socdir, soc, known, len) : 0;
	free(socdir);
	free(dir);
	return rc;
}

static const struct npukb_backend_option cpusim_options[] = {
	{ "cxx", "the C++ compiler kernels are built with (default: $NPUKB_CXX, else g++)" },
	{ "data-dir", "cpusim's emulation headers, harness and SoC files (default: $NPUKB_CPUSIM_DIR, "
		      "else the installed ones)" },
	{ "op-type", "host+device: the OpType the sample registers for the task (OP_ADD), when it is not the "
		     "task's name (AddcmulCustom for Addcmul); picks that operator in a project of several" },
	{ "kernel-template-args", "kernel-only: the template arguments the sample's host launch gives its kernel "
				  "template (float for add_kernel<float><<<...>>>); DTYPE_<TENSOR> follows each case's "
				  "dtypes" },
	{ NULL, NULL }
};

/* The run's choices, read by compiler() and data_dir() (cpusim_util.c). */
static int cpusim_configure(const struct npukb_options *o, char *err, size_t len)
{
	const char *cxx = npukb_backend_opt(o, "cxx"), *dir = npukb_backend_opt(o, "data-dir");

	if (cxx && !*cxx) {
		set_err(err, len, "cxx is empty");
		return 1;
	}
	if (dir && !*dir) {
		set_err(err, len, "data-dir is empty");
		return 1;
	}
	cpusim_set_config(cxx, dir);
	return 0;
}

static void cpusim_fini(void)
{
	cpusim_set_config(NULL, NULL);
}

static const struct npukb_backend_ops cpusim_ops = {
	.probe = cpusim_probe,
	.identity = cpusim_identity,
	.build = cpusim_build,
	.run = cpusim_run,
	.cleanup = NULL,
	.check_soc = cpusim_check_soc,
	.options = cpusim_options,
	.configure = cpusim_configure,
};

NPUKB_PLUGIN_EXPORT const struct npukb_plugin npukb_cpusim_plugin = {
	.abi = NPUKB_PLUGIN_ABI,
	.kind = NPUKB_PLUGIN_BACKEND,
	.name = "cpusim",
	.version = CPUSIM_VERSION,
	.description = "AscendC kernels compiled and run on the host CPU, with checks and a cycle model",
	.init = NULL,
	.fini = cpusim_fini,
	.backend = &cpusim_ops,
	.stage = NULL,
};
