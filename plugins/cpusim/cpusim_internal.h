/* cpusim_internal.h - what the files of the cpusim backend share (private):
 * the names of its work files, its exit statuses, and the helpers of
 * cpusim_util.c, cpusim_variants.c, cpusim_build.c, cpusim_hostdev_build.c
 * and cpusim_run.c. */
#ifndef NPUKB_CPUSIM_INTERNAL_H
#define NPUKB_CPUSIM_INTERNAL_H

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
/* A defect: the kernel went on (runtime.h, defect()). */
#define DEFECT_PREFIX "npukb-cpusim-defect: "
/* Status the harness exits with after a check failure. */
#define CHECK_EXIT 3
/* ... after a misuse of its command line or bad SoC data. */
#define USAGE_EXIT 2
#define USAGE_PREFIX "npukb-cpusim-harness: "
/* ... after the op_host tiling of a host+device sample failed. */
#define TILING_EXIT 4
#define TILING_PREFIX "npukb-cpusim-hostdev: "

extern char **environ;


/* cpusim_util.c */
void set_err(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
char *xstrdup(const char *s);
/* malloc'd printf; NULL when out of memory. */
char *format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The run's --backend-opt cxx and data-dir (NULL: not given); copied. */
void cpusim_set_config(const char *cxx, const char *dir);
const char *compiler(void);
int is_identifier(const char *s);
int is_plain_path(const char *s);
int has_suffix(const char *s, const char *suffix);
char *list_arg(const struct npukb_case_tensor *t, const char *path);
char *absolute(const char *path);
char *read_text(const char *path, size_t max, int keep_tail);
char *line_with(const char *text, const char *needle, int at_start);
int run_capture(const char *const *argv, char *line, size_t len);
char *data_dir(char *err, size_t len);

/* cpusim_variants.c: a task's builds, one per combination of tensor dtypes
 * among its cases, numbered in the order their first case appears. */
struct variants {
	size_t n;
	size_t *of_case;  /* variant of each case */
	size_t *example;  /* a case of each variant */
};
const char *kernel_ctype(enum npukb_dtype dt);
enum npukb_dtype tensor_dtype(const struct npukb_task *t, size_t i, const struct npukb_case *c);
int variants_compute(const struct npukb_task *t, struct variants *v);
void variants_free(struct variants *v);
const struct npukb_case *variant_case(const struct npukb_task *t, const struct variants *v, size_t k);
char *variant_exe(const char *first, size_t k);

/* cpusim_build.c, shared with cpusim_hostdev_build.c */
/* Everything a build needs, owned by the build; filled by build_setup(). */
struct build_ctx {
	const struct npukb_build_request *req;
	char *data, *work, *sdir;
	char *launcher, *exe0, *inc, *sinc, *soc_def, *prefix_map, *harness, *gm_buffers, *hostdev;
	char *arch_def, *npu_arch_def; /* __CCE_AICORE__, __NPU_ARCH__ of the SoC */
	struct variants v;
	/* Kernel-only: the sample defines the task's tiling struct itself
	 * (file and line), so the forced header leaves it out. */
	const char *own_tiling_file;
	int own_tiling_line;
};

/* Kernel sources only (CANN compiles op_host code with g++): CANN's kernel
 * compiler is clang, for which a narrowing conversion in braces is an
 * error; g++ only warns, and a kernel cpusim accepted would then not
 * build on the device. */
#define KERNEL_STRICTNESS "-Werror=narrowing"

int compile_one(const struct npukb_build_request *req, const char *work, const char **argv,
		const char *exe, const char *label, struct npukb_build_result *res);
/* The sample's sources under `under` (with headers_named: its headers whose
 * name holds that or that define tiling data; with only: the files CMake
 * names), as paths under sdir, NULL-terminated and malloc'd (free_list). */
char **sample_files(const struct npukb_sample *s, const char *sdir, const char *under,
		    const char *headers_named, const struct cmake_host_sources *only, size_t *count);
void free_list(char **l);
size_t common_args(const struct build_ctx *b, const char **argv);
int build_variants(struct build_ctx *b, const char **argv, size_t argc, const char *const *tail,
		   char *const *tiling_headers, struct npukb_build_result *res);
int rewrite_launches(const struct build_ctx *b, char **srcs, size_t n, char **quote_dirs,
		     struct npukb_build_result *res);
/* Whether the sample's CMake project turns CANN's --cce-auto-sync off. */
int auto_sync_off(const char *sdir);

/* cpusim_kernel_unit.c: a kernel-only sample's sources to compile. */
struct kernel_sources {
	char **srcs;       /* absolute paths (a .asc file's kernel part: a copy), NULL-terminated */
	size_t n;
	char **quote_dirs; /* -iquote options the copies need, NULL-terminated */
	size_t nquote;
	long home;         /* index of the file defining the task's kernel, -1: none seen */
	int unit;          /* the launcher goes into the home file's translation unit */
	char *type_file;   /* the sample file defining the tiling struct, or NULL */
	int type_line;
};
/* Fills k: the files that define a __global__ function (every C++ source
 * when none does), .asc files as their kernel part. 0 or a negative errno
 * with res->message. */
int kernel_sources_pick(const struct build_ctx *b, struct kernel_sources *k, struct npukb_build_result *res);
/* Writes the unit (the home file included, then the launcher) and puts
 * its path in *home; 1 with res->message when the sample's options
 * cannot make one (the build fails, not the backend). */
int kernel_unit_write(const struct build_ctx *b, char **home, int auto_sync, struct npukb_build_result *res);
void kernel_sources_free(struct kernel_sources *k);

/* cpusim_operators.c: the operator under test's folders in a host+device
 * project (one folder per operator under op_host/ and op_kernel/). */
struct op_folders {
	char *host, *kern;   /* "op_host/<op>/", "op_kernel/<op>/", or the whole "op_host/", "op_kernel/" */
	const char *op_type; /* the OpType the tiling registers: op-type=, else the task's name */
};
/* Fills f; a project whose operators none registers the OpType leaves
 * f->host NULL with the reason in res->message. 0 or -ENOMEM. */
int op_folders_pick(const struct build_ctx *b, struct op_folders *f, struct npukb_build_result *res);
void op_folders_free(struct op_folders *f);

/* cpusim_hostdev_build.c */
int build_host_device(struct build_ctx *b, struct npukb_build_result *res);

/* cpusim_build.c and cpusim_run.c: the backend's operations */
int cpusim_build(const struct npukb_build_request *req, struct npukb_build_result *res);
int cpusim_run(const struct npukb_run_request *req, struct npukb_run_result *res);

#endif
