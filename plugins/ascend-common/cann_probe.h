/* cann_probe.h - find a CANN toolkit and spell out the commands the two
 * Ascend backends run with it (shared by ascend-device and ascend-hostdev,
 * compiled into each; nothing here is exported from the plugins).
 *
 * Owns: the search order for CANN installs, the SoC table (SoC name ->
 * compiler arch flags and compute unit), and the command lines of the real
 * flows as argv arrays, so all of it is testable on a machine without CANN
 * or an NPU (tests/unit/test_ascend.c fakes an install in a temporary
 * directory). Facts come from ASCENDC.md §1 and §3; where the toolchain's
 * behaviour is not confirmed, the comment says so. */
#ifndef NPUKB_CANN_PROBE_H
#define NPUKB_CANN_PROBE_H

#include <limits.h>
#include <stdarg.h>
#include <stddef.h>

/* Where the probe looks things up. Tests fake a machine with it. */
struct npukb_cann_env {
	/* Value of an environment variable or NULL; NULL: getenv(). */
	const char *(*get)(void *ctx, const char *name);
	void *ctx;
	/* Prefixed to the fixed install locations and to /dev/davinci0;
	 * NULL or "": the real root. */
	const char *sysroot;
	/* The ascend-home option: when set, the only root looked at (a
	 * root the user named is not silently replaced by another). */
	const char *home;
};

enum npukb_cann_compiler {
	NPUKB_CANN_NO_COMPILER = 0,
	/* <root>/bin/bisheng: the CANN 8.5 / 9.x driver (--npu-arch=dav-NNNN). */
	NPUKB_CANN_BISHENG,
	/* <root>/compiler/ccec_compiler/bin/ccec: the CANN 8.0.x compiler
	 * (--cce-aicore-arch=dav-c220-vec ...). */
	NPUKB_CANN_CCEC
};

/* npukb_cann_probe's answer besides 0 (toolkit and device present). */
enum npukb_cann_status {
	NPUKB_CANN_OK = 0,
	NPUKB_CANN_NOT_FOUND = 1, /* no usable toolkit */
	NPUKB_CANN_NO_DEVICE = 2  /* toolkit found, /dev/davinci0 missing */
};

struct npukb_cann_info {
	int found;                    /* a toolkit root with compiler and runtime */
	char root[PATH_MAX];          /* that root, as given or found */
	const char *found_by;         /* "ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME" or
				       * "default location" (static string) */
	enum npukb_cann_compiler compiler_kind;
	char compiler[PATH_MAX];
	char runtime_lib[PATH_MAX];   /* .../libascendcl.so */
	char version[64];             /* "8.0.RC3"; "" when no version file says */
	int has_device;
	char device[PATH_MAX];        /* the device node looked for */
};

/* Looks for a toolkit in this order, first complete one wins (only at
 * env->home when that is set):
 *   1. $ASCEND_HOME_PATH          (set by set_env.sh of either generation)
 *   2. $ASCEND_TOOLKIT_HOME       (set by the 8.0.x set_env.sh)
 *   3. /usr/local/Ascend/cann     (8.5 / 9.x default install)
 *   4. /usr/local/Ascend/ascend-toolkit/latest  (8.0.x default install)
 * A root counts when it has a compiler (bin/bisheng, or
 * compiler/ccec_compiler/bin/ccec) and the runtime library
 * (lib64/libascendcl.so or runtime/lib64/libascendcl.so). The version
 * comes from the first of version.cfg, version.info, compiler/version.info,
 * runtime/version.info that names one. The device is /dev/davinci0.
 *
 * Returns NPUKB_CANN_OK, NPUKB_CANN_NOT_FOUND or NPUKB_CANN_NO_DEVICE with a
 * one-line reason in reason (always filled for the latter two), or a
 * negative errno value. out is filled as far as the probe got. env NULL:
 * the real process environment and root. */
int npukb_cann_probe_env(const struct npukb_cann_env *env, struct npukb_cann_info *out,
			 char *reason, size_t len);
/* The real environment, with the plugin's ascend-home option
 * (cann_options.h) when the run gave one. */
int npukb_cann_probe(struct npukb_cann_info *out, char *reason, size_t len);

/* One line for provenance: "CANN 8.0.RC3 (ccec) at /usr/local/...". */
void npukb_cann_identity(const struct npukb_cann_info *info, char *buf, size_t len);

/* ---- SoCs ------------------------------------------------------------------ */

struct npukb_cann_soc {
	char name[32];          /* canonical, lower case: "ascend910b2" */
	char soc_version[32];   /* SOC_VERSION spelling: "Ascend910B2" */
	const char *unit;       /* compute unit / AddConfig name: "ascend910b" */
	int npu_arch;           /* __NPU_ARCH__: 2201 (910B, A3), 2002 (310P) */
	const char *vec_arch;   /* --cce-aicore-arch for vector kernels */
	const char *cube_arch;  /* --cce-aicore-arch for cube kernels */
	const char *mix_arch;   /* --cce-aicore-arch for mixed cube+vector kernels */
};

/* Which cores a kernel runs on, hence its --cce-aicore-arch (8.0.x). */
enum npukb_cann_cores {
	NPUKB_CANN_CORES_VEC = 0,
	NPUKB_CANN_CORES_CUBE,
	NPUKB_CANN_CORES_MIX
};

const char *npukb_cann_cores_arch(const struct npukb_cann_soc *s, enum npukb_cann_cores cores);

/* Known: ascend910b1, b2, b2c, b3, b4, b4-1, ascend910_93NN (A3),
 * ascend310p1, p3, p5, p7; case-insensitive. Returns 0, or -EINVAL with
 * the list of known SoCs in err. */
int npukb_cann_soc_lookup(const char *soc, struct npukb_cann_soc *out,
			  char *err, size_t errlen);

/* ---- commands ------------------------------------------------------------- */

/* One command of a flow. Every pointer is malloc'd and owned by the struct;
 * release with npukb_cann_cmd_clear(). */
struct npukb_cann_cmd {
	char *what;      /* one line for logs: "compile kernel for ascend910b2 (dav-c220-vec)" */
	char **argv;     /* NULL-terminated */
	size_t argc;
	char *workdir;   /* where to run it; NULL: the caller's work directory */
	char **env;      /* extra NAME=value entries on top of the inherited
			  * environment, NULL-terminated; may be NULL */
};

struct npukb_cann_plan {
	size_t n;
	struct npukb_cann_cmd *steps;
};

void npukb_cann_cmd_clear(struct npukb_cann_cmd *c);
void npukb_cann_plan_clear(struct npukb_cann_plan *p);

/* Device flow, three commands (as the kernel-launch samples build:
 * kernel and launch in one heterogeneous object, plain host C++ apart, one
 * link):
 * 1. the wrapper (the kernel's translation unit with its <<<>>> launch):
 *    ccec (8.0.x): -c -O2 -std=c++17 -xcce --cce-aicore-arch=<vec|cube|mix arch>
 *      --cce-auto-sync -mllvm -cce-aicore-stack-size=0x8000
 *      -mllvm -cce-aicore-function-stack-size=0x8000 -I<tikcfw dirs> -I<root>/include
 *    bisheng (8.5+): -c -O2 -std=c++17 -xasc --npu-arch=dav-<npu_arch> -I<root>/include
 * 2. the launch program: <cxx> -c -O2 -std=c++17 -I<root>/include host.cpp
 * 3. the link: <compiler> [--cce-fatobj-link (ccec)] host.o kernel.o
 *      -L<libdir> -Wl,-rpath,<libdir> -lascendcl -lruntime -lstdc++ -o <exe>
 *    [unconfirmed for bisheng: its documentation links objects with the
 *    driver but the runtime libraries it names vary by release.]
 * Paths are used as given. Return 0, or a negative errno with a message in
 * err (an unknown SoC, no toolkit in info). */
int npukb_cann_device_compile_cmd(const struct npukb_cann_info *info, const char *soc,
				  enum npukb_cann_cores cores, const char *src, const char *obj,
				  struct npukb_cann_cmd *out, char *err, size_t errlen);
/* cxx NULL or "": g++. */
int npukb_cann_device_host_cmd(const struct npukb_cann_info *info, const char *cxx,
			       const char *host_src, const char *host_obj,
			       struct npukb_cann_cmd *out, char *err, size_t errlen);
int npukb_cann_device_link_cmd(const struct npukb_cann_info *info, const char *host_obj,
			       const char *kernel_obj, const char *exe,
			       struct npukb_cann_cmd *out, char *err, size_t errlen);

/* Host+device flow, build part (ASCENDC.md section 3), in the order of the
 * build.sh msopgen generates for CANN 8.0 and later (the one NPUKernelBench
 * ships in libs/common_include/msopgen/build.sh, and the same in the
 * generated projects of 9.0 seen in public repositories): configure, the
 * binary target (the kernel binaries), then the package target (the .run
 * that carries them). The install of that .run into the stage is
 * npukb_cann_hostdev_stage_cmd, run by the caller after the last step.
 *   0 msopgen gen -i <op_json> -c ai_core-<SocVersion> -lan cpp -out <project>
 *   1 cmake -S . -B build_out --preset=default -DASCEND_CANN_PACKAGE_PATH=<root>
 *         -DASCEND_COMPUTE_UNIT=<unit>                      (in <project>)
 *   2 cmake --build build_out --target binary -j <jobs>    (in <project>)
 *   3 cmake --build build_out --target package -j <jobs>   (in <project>)
 * The older build.sh (CANN 7.x, configured through ASCEND_AICPU_PATH and
 * jq) built package, ran the .run into the toolkit, built binary and
 * package again; its global install is what npukb must never do, and 8.0+
 * no longer needs it. The preset values are passed with -D rather than by
 * editing CMakePresets.json; -D wins over a preset's cacheVariables.
 * build.sh's cross-compile branch (a host-native tiling library first) is
 * not taken: npukb builds on the machine that runs the operator. */
#define NPUKB_CANN_HOSTDEV_STEPS 4
int npukb_cann_hostdev_build_plan(const struct npukb_cann_info *info, const char *soc,
				  const char *op_json, const char *project, int jobs,
				  struct npukb_cann_plan *out, char *err, size_t errlen);

/* Host+device flow, staging: install the built custom_opp_<os>_<arch>.run
 * into <stage> (absolute, private to the run) instead of the toolkit's opp
 * folder (a global install would serialise all evaluations and outlive
 * the run):
 *   bash <run_package> --quiet --install-path=<stage>
 * which leaves the operator under <stage>/vendors/customize. Returns
 * -EINVAL when stage is not absolute. */
int npukb_cann_hostdev_stage_cmd(const char *run_package, const char *stage,
				 struct npukb_cann_cmd *out, char *err, size_t errlen);

/* Host+device flow, the program that calls the staged operator through
 * its aclnn API (plain host C++; aclCreateTensor and friends live in
 * libnnopbase, the operator's aclnn functions in the staged
 * libcust_opapi.so):
 *   <cxx> -O2 -std=c++17 -I<root>/include -I<stage>/vendors/customize/op_api/include
 *     <src> -L<stage>/vendors/customize/op_api/lib -L<libdir> -Wl,-rpath,... 
 *     -lcust_opapi -lnnopbase -lascendcl -o <exe> */
int npukb_cann_hostdev_program_cmd(const struct npukb_cann_info *info, const char *cxx,
				   const char *src, const char *stage, const char *exe,
				   struct npukb_cann_cmd *out, char *err, size_t errlen);

/* Environment for running against the toolkit (and, when stage is not
 * NULL, a staged custom operator): ASCEND_HOME_PATH, ASCEND_OPP_PATH,
 * LD_LIBRARY_PATH and ASCEND_CUSTOM_OPP_PATH=<stage>/vendors/customize.
 * Returns a malloc'd NULL-terminated array of malloc'd strings, or NULL
 * when out of memory; free with npukb_cann_strv_free(). */
char **npukb_cann_runtime_env(const struct npukb_cann_info *info, const char *stage);

/* base (NULL: the process environment) with the NAME=value entries of
 * extra replacing or adding to it: a full envp for npukb_sandbox_run.
 * Same ownership as above. */
char **npukb_cann_merge_env(char *const *base, char *const *extra);

void npukb_cann_strv_free(char **v);

/* printf into a malloc'd string; NULL when out of memory. */
char *npukb_cann_strf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* printf into *msg (its old text freed); 0, or -ENOMEM. */
int npukb_cann_set(char **msg, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int npukb_cann_vset(char **msg, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

#endif
