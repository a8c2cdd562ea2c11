/* cpusim_kernel_unit.c - which sources a kernel-only build compiles, and
 * how the harness calls a kernel that is not `extern "C"` with one
 * GM_ADDR per parameter.
 *
 * Shapes of code people write (cpusim_internal.h, struct kernel_sources):
 * - a kernel-launch project: the kernel's .cpp, a host main.cpp calling
 *   it with `<<<>>>` (or declaring it for CANN's CPU debug mode), and the
 *   CMake build's own probe files (CMakeFiles/.../CMakeCXXCompilerId.cpp):
 *   only the files that define a `__global__` function are compiled;
 * - a single-source `.asc` file (kernel and host main in one, the form of
 *   CANN 8.5's examples): its kernel part (kernel_source.h), host
 *   functions blanked;
 * - a kernel that defines the task's tiling struct itself: the forced
 *   header leaves it out;
 * - a kernel with C++ linkage or a parameter passed by value (the .asc
 *   examples pass their tiling struct so): the launcher is compiled in
 *   the kernel's own translation unit (the "unit", which #includes the
 *   kernel's file), takes the parameter types from the kernel's own
 *   declaration, and hands a by-value parameter the bytes of its argument
 *   (bounds-checked like GET_TILING_DATA). */
#include "cpusim_internal.h"
#include "kernel_source.h"

#define UNIT_NAME "npukb_unit.cpp"
#define SOURCE_MAX (16u << 20)

static int is_cxx_source(const char *f)
{
	return has_suffix(f, ".cpp") || has_suffix(f, ".cc") || has_suffix(f, ".cxx");
}

static int is_header(const char *f)
{
	return has_suffix(f, ".h") || has_suffix(f, ".hpp") || has_suffix(f, ".hh");
}

static int has_scalar(const struct npukb_task *t)
{
	for (size_t i = 0; i < t->nparams; i++)
		if (t->params[i].role == NPUKB_PARAM_SCALAR)
			return 1;
	return 0;
}

void kernel_sources_free(struct kernel_sources *k)
{
	free_list(k->srcs);
	free_list(k->quote_dirs);
	free(k->type_file);
	memset(k, 0, sizeof(*k));
}

/* Writes the kernel part of the .asc file src into the work directory as
 * a C++ source starting with a #line naming src; its path replaces *src
 * and its folder is added to quote (-iquote, for its quoted includes). */
static int write_kernel_part(const struct build_ctx *b, size_t i, char **src, const char *text,
			     struct kernel_sources *k, struct npukb_build_result *res)
{
	const char *base = strrchr(*src, '/');
	char *part = NULL, *copy = format("%s/npukb_part%zu_%s.cpp", b->work, i, base ? base + 1 : *src);
	FILE *f = NULL;
	int rc = copy ? kernel_source_kernel_part(text, &part) : -ENOMEM;

	if (rc == 0)
		k->quote_dirs[k->nquote] = format("-iquote%.*s", (int)(base - *src), *src);
	if (rc == 0 && !k->quote_dirs[k->nquote])
		rc = -ENOMEM;
	if (rc == 0) {
		k->nquote++;
		f = fopen(copy, "w");
		if (!f || fprintf(f, "#line 1 \"%s\"\n%s", *src, part) < 0)
			rc = -errno;
		if (f && fclose(f) != 0 && rc == 0)
			rc = -EIO;
		if (rc < 0)
			res->message = format("cpusim: cannot write %s: %s", copy, strerror(-rc));
	}
	free(part);
	if (rc == 0) {
		free(*src);
		*src = copy;
		return 0;
	}
	free(copy);
	return rc;
}

int kernel_sources_pick(const struct build_ctx *b, struct kernel_sources *k, struct npukb_build_result *res)
{
	const struct npukb_task *t = b->req->task;
	const struct npukb_sample *s = b->req->sample;
	struct kernel_source_info *info = calloc(s->nfiles + 1, sizeof(*info));
	char **texts = calloc(s->nfiles + 1, sizeof(*texts));
	size_t i, nkernel = 0;
	int rc = 0;

	memset(k, 0, sizeof(*k));
	k->home = -1;
	k->srcs = calloc(s->nfiles + 2, sizeof(*k->srcs));
	k->quote_dirs = calloc(s->nfiles + 1, sizeof(*k->quote_dirs));
	if (!info || !texts || !k->srcs || !k->quote_dirs) {
		rc = -ENOMEM;
		goto out;
	}
	/* Read every source and header: kernels in the sources, the tiling
	 * struct wherever the sample defines it. */
	for (i = 0; i < s->nfiles; i++) {
		const char *f = s->files[i];
		char *path;

		if (!is_cxx_source(f) && !has_suffix(f, ".asc") && !is_header(f))
			continue;
		path = format("%s/%s", b->sdir, f);
		texts[i] = path ? read_text(path, SOURCE_MAX, 0) : NULL;
		free(path);
		if (!texts[i])
			continue;
		kernel_source_scan(texts[i], is_header(f) ? NULL : t->kernel_name, t->tiling_struct, &info[i]);
		if (!is_header(f))
			nkernel += info[i].kernels > 0;
		if (info[i].defines_type && !k->type_file) {
			k->type_file = xstrdup(f);
			k->type_line = info[i].type_line;
		}
	}
	/* The files that define a kernel, or when none visibly does (a
	 * kernel behind a macro), every C++ source as before. */
	for (i = 0; i < s->nfiles; i++) {
		const char *f = s->files[i];

		if (is_header(f) || !(is_cxx_source(f) || has_suffix(f, ".asc")))
			continue;
		if (nkernel ? info[i].kernels == 0 : !is_cxx_source(f))
			continue;
		k->srcs[k->n] = format("%s/%s", b->sdir, f);
		if (!k->srcs[k->n] || !is_plain_path(k->srcs[k->n])) {
			rc = k->srcs[k->n] ? -EINVAL : -ENOMEM;
			res->message = format("cpusim: %s/%s: quotes or backslashes in the path", b->sdir, f);
			goto out;
		}
		if (info[i].defines_kernel && k->home < 0) {
			k->home = (long)k->n;
			k->unit = !info[i].kernel_c_linkage || has_suffix(f, ".asc") || has_scalar(t);
		}
		if (has_suffix(f, ".asc") && texts[i]) {
			rc = write_kernel_part(b, k->n, &k->srcs[k->n], texts[i], k, res);
			if (rc < 0)
				goto out;
		}
		k->n++;
	}
	if (k->home < 0 && has_scalar(t)) {
		/* The generic launcher passes a pointer for every parameter. */
		res->message = format("cpusim: kernel %s takes scalar parameters, but no source of the sample "
				      "visibly defines it (`__global__ ... %s(...) {`)",
				      t->kernel_name, t->kernel_name);
		k->n = 0;
	}
out:
	for (i = 0; texts && i < s->nfiles; i++)
		free(texts[i]);
	free(texts);
	free(info);
	return rc;
}

/* The unit: the kernel's file (*home, maybe a rewritten copy) included,
 * then the launcher. Its path replaces *home. */
/* --backend-opt kernel-template-args=ARGS: a kernel template is
 * instantiated by the sample's host launch (`add_kernel<float><<<...>>>`),
 * which cpusim does not run; the option gives those arguments. Only what
 * template arguments are made of (names, numbers, DTYPE_<TENSOR>, nested
 * <>): nothing that could end the launcher's statement. */
static int template_args_ok(const char *a)
{
	int depth = 0;

	if (!*a)
		return 0;
	for (; *a; a++) {
		if (*a == '<' || *a == '(')
			depth++;
		else if (*a == '>' || *a == ')')
			depth--;
		else if (!isalnum((unsigned char)*a) && !strchr("_:, +-*", *a))
			return 0;
		if (depth < 0)
			return 0;
	}
	return depth == 0;
}

int kernel_unit_write(const struct build_ctx *b, char **home, int auto_sync, struct npukb_build_result *res)
{
	const struct npukb_task *t = b->req->task;
	const char *targs = npukb_backend_opt(b->req->options, "kernel-template-args");
	char *path, *inst;
	FILE *f;
	int rc = 0;

	if (targs && !template_args_ok(targs)) {
		res->message = format("cpusim: kernel-template-args '%s' is not a list of template arguments", targs);
		return 1;
	}
	inst = targs ? format("%s<%s>", t->kernel_name, targs) : xstrdup(t->kernel_name);
	path = inst ? format("%s/%s", b->work, UNIT_NAME) : NULL;
	f = path ? fopen(path, "w") : NULL;
	if (!f) {
		free(inst);
		rc = path ? -errno : -ENOMEM;
		res->message = format("cpusim: cannot write %s: %s", path ? path : UNIT_NAME, strerror(-rc));
		free(path);
		return rc;
	}
	fprintf(f, "/* generated by npukb cpusim: the kernel's file and a launcher that calls the\n"
		   " * kernel with the parameter types of its own declaration */\n"
		   "#include \"%s\"\n#include \"kernel_operator.h\"\n#include <type_traits>\n#include <utility>\n"
		   "namespace npukb_unit {\n"
		   "template <class T> inline T arg(uint8_t *p)\n{\n"
		   "\tif constexpr (std::is_pointer<T>::value) {\n"
		   "\t\treturn reinterpret_cast<T>(p);\n"
		   "\t} else {\n"
		   "\t\tstatic_assert(std::is_trivially_copyable<T>::value,\n"
		   "\t\t\t      \"cpusim: a kernel parameter passed by value must be trivially copyable\");\n"
		   "\t\tT v;\n"
		   "\t\t::npukb_cpusim::load_tiling(&v, sizeof v, p, \"a by-value kernel parameter\", NPUKB_LOC);\n"
		   "\t\treturn v;\n"
		   "\t}\n}\n"
		   "template <class... P, size_t... I>\n"
		   "inline void call(void (*k)(P...), uint8_t **a, std::index_sequence<I...>)\n{\n"
		   "\tk(arg<P>(a[I])...);\n}\n"
		   "template <class... P> inline void launch(void (*k)(P...), uint8_t **a)\n{\n"
		   "\tstatic_assert(sizeof...(P) == %zu,\n"
		   "\t\t      \"cpusim: the kernel takes another number of parameters than the task declares (%zu)\");\n"
		   "\tcall(k, a, std::index_sequence_for<P...>{});\n}\n"
		   "} // namespace npukb_unit\n"
		   "extern \"C\" const int npukb_cpusim_nargs = %zu;\n"
		   "extern \"C\" const int npukb_cpusim_auto_sync = %d;\n"
		   "extern \"C\" void npukb_cpusim_launch(uint8_t **args)\n{\n"
		   "\tnpukb_unit::launch(&%s, args);\n}\n",
		*home, t->nparams, t->nparams, t->nparams, auto_sync, inst);
	free(inst);
	if (fclose(f) != 0) {
		rc = -EIO;
		res->message = format("cpusim: cannot write %s", path);
		free(path);
		return rc;
	}
	free(*home);
	*home = path;
	return 0;
}
