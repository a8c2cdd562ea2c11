/* cpusim_operators.c - the operator under test in a host+device project
 * that holds several: op_host/<op>/ and op_kernel/<op>/, one folder per
 * operator. Only that operator's folders are built (the others' tiling
 * headers, forced into the kernel, and their registrations would clash).
 *
 * The operator is found by what its code registers, not by folder names:
 * its op_host folder is the one whose sources say OP_ADD(<OpType>), where
 * the OpType is the task's name, or --backend-opt op-type=NAME when the
 * project names it otherwise (AddcmulCustom for a task Addcmul); its
 * op_kernel folder is the one that defines the task's kernel (a
 * __global__ definition, kernel_source.h), else the folder of the same
 * name. A project whose op_host/ holds a source directly is one
 * operator, built whole as before. */
#include "cpusim_internal.h"
#include "kernel_source.h"

#define OP_SOURCE_MAX (4u << 20)

void op_folders_free(struct op_folders *f)
{
	free(f->host);
	free(f->kern);
	memset(f, 0, sizeof(*f));
}

/* The folders one level under `top` ("op_host/") that hold files, in the
 * sample's (sorted) file order, without repeats; NULL-terminated. */
static char **subfolders(const struct npukb_sample *s, const char *top, size_t *n)
{
	char **out = calloc(s->nfiles + 1, sizeof(*out));
	size_t tl = strlen(top);

	*n = 0;
	for (size_t i = 0; out && i < s->nfiles; i++) {
		const char *f = s->files[i], *slash;

		if (strncmp(f, top, tl) != 0 || !(slash = strchr(f + tl, '/')))
			continue;
		if (*n && strlen(out[*n - 1]) == (size_t)(slash - f - tl) &&
		    strncmp(out[*n - 1], f + tl, (size_t)(slash - f - tl)) == 0)
			continue;
		out[*n] = format("%.*s", (int)(slash - f - tl), f + tl);
		if (!out[*n]) {
			free_list(out);
			return NULL;
		}
		(*n)++;
	}
	return out;
}

/* Whether text registers the operator `type`: OP_ADD(type), blanks
 * allowed inside the parentheses. */
static int registers(const char *text, const char *type)
{
	size_t tl = strlen(type);

	for (const char *p = strstr(text, "OP_ADD"); p; p = strstr(p + 6, "OP_ADD")) {
		const char *q = p + 6;

		if (p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
			continue;
		q += strspn(q, " \t");
		if (*q++ != '(')
			continue;
		q += strspn(q, " \t");
		if (strncmp(q, type, tl) == 0 && strspn(q + tl, " \t)") > 0 && q[tl + strspn(q + tl, " \t")] == ')')
			return 1;
	}
	return 0;
}

/* Whether a file under `dir` (a folder of the sample, "op_host/x/")
 * registers `type` (want_kernel 0) or defines the kernel `type` (1). */
static int folder_has(const struct build_ctx *b, const char *dir, const char *type, int want_kernel)
{
	const struct npukb_sample *s = b->req->sample;
	size_t dl = strlen(dir);
	int found = 0;

	for (size_t i = 0; i < s->nfiles && !found; i++) {
		const char *f = s->files[i];
		char *path, *text;

		if (strncmp(f, dir, dl) != 0 ||
		    !(has_suffix(f, ".cpp") || has_suffix(f, ".cc") || has_suffix(f, ".h")))
			continue;
		path = format("%s/%s", b->sdir, f);
		text = path ? read_text(path, OP_SOURCE_MAX, 0) : NULL;
		if (text && want_kernel) {
			struct kernel_source_info info;

			kernel_source_scan(text, type, NULL, &info);
			found = info.defines_kernel;
		} else if (text) {
			found = registers(text, type);
		}
		free(text);
		free(path);
	}
	return found;
}

/* Whether op_host/ holds a C++ source directly (a one-operator project,
 * whatever folders of helpers it has beside). */
static int has_flat_source(const struct npukb_sample *s)
{
	for (size_t i = 0; i < s->nfiles; i++) {
		const char *f = s->files[i];

		if (strncmp(f, "op_host/", 8) == 0 && !strchr(f + 8, '/') &&
		    (has_suffix(f, ".cpp") || has_suffix(f, ".cc")))
			return 1;
	}
	return 0;
}

int op_folders_pick(const struct build_ctx *b, struct op_folders *f, struct npukb_build_result *res)
{
	const struct npukb_task *t = b->req->task;
	const char *opt = npukb_backend_opt(b->req->options, "op-type");
	size_t nhost = 0, nkern = 0, i;
	char **hosts = subfolders(b->req->sample, "op_host/", &nhost);
	char **kerns = subfolders(b->req->sample, "op_kernel/", &nkern);
	char *dir = NULL;
	int rc = 0;

	memset(f, 0, sizeof(*f));
	f->op_type = opt && *opt ? opt : t->name;
	if (!hosts || !kerns) {
		rc = -ENOMEM;
		goto out;
	}
	if (nhost == 0 || has_flat_source(b->req->sample)) {
		f->host = xstrdup("op_host/");
		f->kern = xstrdup("op_kernel/");
		goto out;
	}
	for (i = 0; i < nhost && !f->host; i++) {
		dir = format("op_host/%s/", hosts[i]);
		if (dir && folder_has(b, dir, f->op_type, 0)) {
			f->host = dir;
			dir = NULL;
		}
		free(dir);
	}
	if (!f->host) {
		res->message = format("cpusim: op_host/ holds %zu operator folders and none registers "
				      "OP_ADD(%s); name the project's OpType with --backend-opt op-type=NAME",
				      nhost, f->op_type);
		goto out;
	}
	for (i = 0; i < nkern && !f->kern; i++) {
		dir = format("op_kernel/%s/", kerns[i]);
		if (dir && folder_has(b, dir, t->kernel_name, 1)) {
			f->kern = dir;
			dir = NULL;
		}
		free(dir);
	}
	if (!f->kern)
		f->kern = nkern ? format("op_kernel/%s", f->host + strlen("op_host/")) : xstrdup("op_kernel/");
out:
	free_list(hosts);
	free_list(kerns);
	if (rc == 0 && (!f->host || !f->kern) && !res->message)
		rc = -ENOMEM;
	return rc;
}
