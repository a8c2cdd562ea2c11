/* cpusim_hostdev_build.c - build() of a host+device sample: the op_host
 * sources into one shared library per CANN target, then each dtype variant
 * of the op_kernel linked against them (cpusim_build.c does the set-up and
 * the kernel-only build; cpusim_internal.h holds what they share). */
#include "cpusim_internal.h"

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
int build_host_device(struct build_ctx *b, struct npukb_build_result *res)
{
	const struct npukb_sample *s = b->req->sample;
	char **host = NULL, **kern = NULL, **tiling = NULL, **objs = NULL, **libs = NULL, **quote_dirs = NULL;
	char *host_inc = NULL, *kern_inc = NULL, *tiling_def = NULL;
	const char **argv = NULL, **tail = NULL;
	size_t i, nhost = 0, nkern = 0, ntiling = 0, argc, nobj = 0;
	struct cmake_host_sources cmake;
	struct op_folders ops;
	int rc = 0;

	memset(&cmake, 0, sizeof cmake);
	rc = op_folders_pick(b, &ops, res);
	if (rc < 0 || !ops.host)
		goto out;
	rc = cmake_host_sources_read(b->sdir, b->req->task->kernel_name, &cmake);
	if (rc < 0) {
		res->message = format("cpusim: cannot read %s/CMakeLists.txt: %s", b->sdir, strerror(-rc));
		goto out;
	}
	host = sample_files(s, b->sdir, ops.host, NULL, &cmake, &nhost);
	kern = sample_files(s, b->sdir, ops.kern, NULL, NULL, &nkern);
	tiling = sample_files(s, b->sdir, ops.host, "tiling", NULL, &ntiling);
	objs = calloc(s->nfiles + 5, sizeof(*objs));
	libs = calloc(cmake.ntargets + 2, sizeof(*libs));
	quote_dirs = calloc(s->nfiles + 1, sizeof(*quote_dirs));
	argv = calloc(2 * s->nfiles + 34, sizeof(*argv));
	tail = calloc(s->nfiles + cmake.ntargets + 16, sizeof(*tail));
	/* the operator's own folder (nested projects), else op_host/ */
	host_inc = format("-I%s/%s", b->sdir, ops.host);
	kern_inc = format("-I%s/%s", b->sdir, ops.kern);
	if (!host || !kern || !tiling || !objs || !libs || !quote_dirs || !argv || !tail || !host_inc ||
	    !kern_inc) {
		rc = -ENOMEM;
		goto out;
	}
	if (nhost == 0 || nkern == 0) {
		res->message = format("host+device sample without %s sources (.cpp)", nhost == 0 ? ops.host : ops.kern);
		goto out;
	}
	if (!ops.op_type || !is_identifier(ops.op_type)) {
		res->message = ops.op_type
			? format("cpusim: op-type '%s' is not a C identifier", ops.op_type)
			: format("cpusim: the task has no name to take the operator type from "
				 "(--backend-opt op-type=NAME)");
		goto out;
	}
	tiling_def = format("-DNPUKB_TILING_STRUCT=npukb_tiling_reg_%s", ops.op_type);
	if (!tiling_def) {
		rc = -ENOMEM;
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
	argv[argc++] = b->gm_buffers;
	argv[argc++] = b->hostdev;
	argv[argc] = NULL;
	/* our four objects, the last four sources */
	for (i = nhost; i < nhost + 4; i++) {
		objs[nobj] = object_name(argv[argc - nhost - 4 + i]);
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
	op_folders_free(&ops);
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
