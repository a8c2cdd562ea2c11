/* skeleton.c - the template for a new npukb backend.
 *
 * Copy this folder to start a new target (another NPU, a GPU, a simulator):
 *
 *   cp -r plugins/skeleton plugins/mytarget
 *   mv plugins/mytarget/skeleton.c plugins/mytarget/mytarget.c
 *
 * then rename everything that says "skeleton" (the descriptor symbol, the
 * .name field, the static functions if you like) and fill in the four
 * functions below. As it stands this file is a complete, loadable plugin
 * that is never usable: probe() says why, and build() and run() report
 * "skipped" with the same reason. That is also the pattern to keep for any
 * situation where your target cannot work on this machine - a missing
 * toolchain, no device, an unsupported SoC: say so in one line and skip.
 * Never report a pass you did not check, and never crash the caller.
 *
 * ---- How the core uses a backend ------------------------------------------
 *
 *   1. The loader dlopen()s <name>.so from --plugin-dir, $NPUKB_PLUGIN_PATH
 *      or the installed plugin directory, and looks up exactly one symbol,
 *      npukb_<name>_plugin (dashes in <name> become underscores:
 *      "ascend-device" -> npukb_ascend_device_plugin). It checks .abi, .kind,
 *      .name (must equal the file name) and that probe, build and run are
 *      set; a plugin failing any check is listed by `npukb plugins` with
 *      the reason and not used.
 *   2. init() (optional) runs once after loading; returning non-zero with a
 *      message rejects the plugin. fini() (optional) runs before unloading.
 *   3. probe() runs once per process. When it returns non-zero, the core
 *      never calls build() or run() and records every verdict as
 *      "skipped(<your reason>)" itself. build() and run() must still cope
 *      with being called on a machine where they cannot work (tests and
 *      other front ends call them directly): report skipped, as below.
 *   4. For each sample: build() once in a fresh private work directory;
 *      then run() once per (case, seed) and, for the performance stage,
 *      a few more times with want_timing set. cleanup(artifact) at the end.
 *
 * Several samples are built and run at the same time from worker threads:
 * keep no mutable global state, or protect it.
 *
 * ---- Ownership of results -----------------------------------------------------
 *
 * Everything you put in a result's char * fields (message, diagnostics,
 * artifact, category) must come from malloc (strdup, asprintf ...): the core
 * frees it with npukb_build_result_clear() / npukb_run_result_clear().
 * Never point them at static strings or at your own buffers. The request
 * structs and everything they point to belong to the core and are only
 * valid during the call.
 *
 * ---- Running the compiler and the kernel: npukb_sandbox_run ----------------
 *
 * Samples are hostile until proven otherwise (generated code can hang, fork
 * or write everywhere), and so is whatever they make your compiler do. Run
 * every external command through the sandbox, never with system() or a
 * bare fork/exec:
 *
 *	struct npukb_sandbox_spec spec;
 *	char err[256];
 *	const char *argv[] = { "mycc", "-O2", "-c", "kernel.cpp", "-o", "kernel.o", NULL };
 *	const char *reads[] = { req->sample->dir, "/opt/mytoolkit", NULL };
 *
 *	memset(&spec, 0, sizeof spec);
 *	spec.argv = argv;                       // argv[0] is looked up in PATH
 *	spec.envp = NULL;                       // NULL: npukb's, through the allowlist
 *	spec.workdir = req->workdir;            // private, empty, made by the core;
 *	                                        // the only writable place
 *	spec.read_paths = reads;                // all the command sees besides /usr
 *	spec.stdout_path = "build.log";         // relative to workdir
 *	spec.stderr_path = "build.log";         // same name: one interleaved log
 *	spec.limits = req->options->build_limits;   // run_limits in run()
 *	spec.isolate_network = 1;
 *	rc = npukb_sandbox_run(&spec, &result->proc, err, sizeof err);
 *
 * rc < 0 means the sandbox itself could not start (missing work directory,
 * out of memory): return rc from build()/run() with err copied into
 * message. rc == 0 means the command ran; result->proc says how it ended
 * (NPUKB_EXIT_NORMAL with exit_code, SIGNAL, TIMEOUT, CPU_LIMIT,
 * EXEC_FAILED, VIOLATION; limits_hit) and npukb_sandbox_describe() turns
 * that into a line such as "exited with status 1" for your message;
 * npukb_sandbox_category() gives the run category ("timeout",
 * "resource-limit", "sandbox-violation", "crash") so that every backend
 * maps fates alike. A failed compile is NOT an
 * error of the backend: return 0 with ok = 0, the compiler output in
 * diagnostics (the classify stage reads it) and proc filled. Same for
 * run(): a crashing or hanging kernel returns 0 with ok = 0 and proc set;
 * set category only when your backend knows better than the exit status
 * (a simulator check such as "ub-overflow"; names in DESIGN.md).
 *
 * ---- Adding the plugin to the build ----------------------------------------------
 *
 * configure.ac, next to the other backends (the NPUKB_PLUGIN macro, in
 * m4/npukb_plugin.m4, expands to AC_ARG_ENABLE([backend-mytarget]) plus
 * the automake conditional BUILD_PLUGIN_BACKEND_MYTARGET; check your
 * dependencies after it and fail only when the user forced
 * --enable-backend-mytarget):
 *
 *	NPUKB_PLUGIN([backend-mytarget], [yes], [mytarget backend (what it runs on)])
 *
 * Makefile.am, next to the skeleton's block:
 *
 *	if BUILD_PLUGIN_BACKEND_MYTARGET
 *	pkglib_LTLIBRARIES += plugins/mytarget.la
 *	plugins_mytarget_la_SOURCES = plugins/mytarget/mytarget.c
 *	plugins_mytarget_la_CFLAGS = $(PLUGIN_CFLAGS)
 *	plugins_mytarget_la_LDFLAGS = $(PLUGIN_LDFLAGS)
 *	plugins_mytarget_la_LIBADD = core/libnpukb.la
 *	endif
 *
 * PLUGIN_CFLAGS adds -fvisibility=hidden and PLUGIN_LDFLAGS makes a
 * -module -avoid-version shared object exporting only npukb_*_plugin, so
 * keep every other function static (or hidden). Out of the tree:
 *
 *	cc -shared -fPIC -fvisibility=hidden $(pkg-config --cflags --libs npukb) \
 *	   -o mytarget.so mytarget.c
 *
 * and point NPUKB_PLUGIN_PATH (or --plugin-dir) at the folder holding it.
 * `npukb plugins` shows whether it loaded and what probe() said. */
/* strdup() and other POSIX calls; in-tree builds define it on the command
 * line, out-of-tree ones get it here. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <npukb/plugin.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One line: this is what users see in `npukb plugins` and in every skipped
 * verdict, so say what is missing and how to fix it. */
#define SKELETON_REASON "skeleton backend: copy plugins/skeleton/ to start a new target"

/* probe: is the target usable on this machine? Return 0 when it is.
 * Otherwise return non-zero and write one line into reason (len bytes,
 * always terminate), e.g. "CANN toolkit not found: set ASCEND_HOME_PATH".
 * Look for the toolchain (environment variables first, then the usual
 * install places), its version, and the device. Keep it quick and without
 * side effects: it runs at every start-up. */
static int skeleton_probe(char *reason, size_t len)
{
	size_t n = strlen(SKELETON_REASON);

	/* Cut to fit and always terminate: the core's buffer is finite. */
	if (len == 0)
		return 1;
	if (n >= len)
		n = len - 1;
	memcpy(reason, SKELETON_REASON, n);
	reason[n] = '\0';
	return 1;
}

/* identity: one line naming the toolchain and its version ("gcc 12.2.0",
 * "CANN 8.0.RC3 (ccec) at /usr/local/..."). It goes into the run's
 * provenance and into build-cache keys, so it must change whenever the
 * toolchain does. Return 0. Optional, but leave it out only if your backend
 * has no toolchain at all. */
static int skeleton_identity(char *buf, size_t len)
{
	snprintf(buf, len, "skeleton (no toolchain)");
	return 0;
}

/* build: turn req->sample (files under req->sample->dir, listed in
 * req->sample->files; kernel-only or host+device, see req->sample->mode)
 * into something run() can execute, inside req->workdir.
 *   - Copy what you need into req->workdir first; do not build in the
 *     sample's folder.
 *   - Run the compiler with npukb_sandbox_run() and req->options->build_limits.
 *   - Success: ok = 1, artifact = malloc'd path (or any string run() will
 *     understand), message = one line, diagnostics = compiler warnings.
 *   - Compile failure: ok = 0, diagnostics = compiler output, proc filled,
 *     return 0.
 *   - Cannot build here: skipped = 1, message = the reason, return 0.
 *   - Return a negative errno only when the backend itself broke. */
static int skeleton_build(const struct npukb_build_request *req,
			  struct npukb_build_result *result)
{
	(void)req;
	memset(result, 0, sizeof *result);
	result->skipped = 1;
	result->message = strdup(SKELETON_REASON);
	return result->message ? 0 : -ENOMEM;
}

/* run: execute the artifact for one case. req->data lists every kernel
 * argument as a file in req->workdir, in the kernel's parameter order
 * (inputs, outputs pre-filled with a poison pattern, workspace size, tiling
 * blob): read the inputs from those files, write the outputs back into the
 * output files (same size), and leave the inputs alone - the correctness
 * stage compares the output files with the reference and checks the inputs
 * were not touched. Launch with req->kcase's block_dim (req->data->block_dim)
 * under req->options->run_limits in the sandbox.
 *   - ok = 1 when the kernel ran to completion (correct or not: judging the
 *     numbers is the correctness stage's job).
 *   - want_timing: also fill time_us (device time of one launch) and, if
 *     you have them, cycles with has_cycles = 1.
 *   - Crash, hang, limit: ok = 0, proc filled, optionally category.
 *   - Cannot run here: skipped = 1 with the reason. */
static int skeleton_run(const struct npukb_run_request *req, struct npukb_run_result *result)
{
	(void)req;
	memset(result, 0, sizeof *result);
	result->skipped = 1;
	result->message = strdup(SKELETON_REASON);
	return result->message ? 0 : -ENOMEM;
}

/* cleanup: release what build() made outside req->workdir (the core removes
 * work directories itself unless --keep-workdirs). Optional: NULL when
 * everything lives in the work directory, as here. */

/* options: what users may set with --backend-opt NAME=VALUE (a toolchain
 * path, a device number...), instead of environment variables. Names are
 * a-z, 0-9 and '-'; the help line says the default. The core refuses a run
 * that names an option missing from this table, so list every one. Read
 * the values with npukb_backend_opt(options, "name") in configure(), or
 * from req->options in build() and run(). Optional: NULL takes none. */
static const struct npukb_backend_option skeleton_options[] = {
	{ "toolkit", "where the target's toolchain lives (default: $SKELETON_HOME)" },
	{ NULL, NULL }
};

/* configure: called once per run before probe(), so that probe(),
 * identity() and check_soc() can see the options too. Refuse a value that
 * cannot work with a one-line reason (the run stops before any work).
 * Optional. */
static int skeleton_configure(const struct npukb_options *options, char *err, size_t len)
{
	const char *toolkit = npukb_backend_opt(options, "toolkit");

	if (toolkit && toolkit[0] != '/') {
		snprintf(err, len, "toolkit=%s is not an absolute path", toolkit);
		return 1;
	}
	return 0;
}

static const struct npukb_backend_ops skeleton_ops = {
	.probe = skeleton_probe,       /* required */
	.identity = skeleton_identity,
	.build = skeleton_build,       /* required */
	.run = skeleton_run,           /* required */
	.cleanup = NULL,
	.check_soc = NULL,             /* NULL: any --soc */
	.options = skeleton_options,
	.configure = skeleton_configure,
};

/* The one exported symbol. Its name is npukb_<file name>_plugin, and .name
 * must match the file name (skeleton.so -> "skeleton"). Bumping .version is
 * yours; .abi must be NPUKB_PLUGIN_ABI of the header you compiled against. */
NPUKB_PLUGIN_EXPORT const struct npukb_plugin npukb_skeleton_plugin = {
	.abi = NPUKB_PLUGIN_ABI,
	.kind = NPUKB_PLUGIN_BACKEND,
	.name = "skeleton",
	.version = "1.0",
	.description = "template for new backends: never usable, copy it to add a target",
	.init = NULL,  /* int (*)(char *err, size_t errlen): one-time set-up */
	.fini = NULL,  /* void (*)(void): undo init */
	.backend = &skeleton_ops,
	.stage = NULL,
};
