/* plugin_loader.c - discover, dlopen and validate npukb plugins.
 *
 * Order of checks follows hwloc's component loader and fio's
 * check_engine_ops(): open, find the one exported descriptor, check the ABI,
 * then the kind, name and function table; anything wrong closes the handle
 * and records why, and loading goes on with the next file. */
#include "plugin_loader.h"

#include <ctype.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef NPUKB_PKGLIBDIR
#define NPUKB_PKGLIBDIR "/usr/local/lib/npukb"
#endif

static int dirs_push(char ***dirs, size_t *n, const char *d)
{
	char **grown;
	char *copy;
	if (!d || !*d)
		return 0;
	copy = strdup(d);
	if (!copy)
		return -ENOMEM;
	grown = realloc(*dirs, (*n + 2) * sizeof(**dirs));
	if (!grown) {
		free(copy);
		return -ENOMEM;
	}
	*dirs = grown;
	(*dirs)[(*n)++] = copy;
	(*dirs)[*n] = NULL;
	return 0;
}

int npukb_plugin_dirs(const char *cli_dir, char ***dirs, char *err, size_t errlen)
{
	char **list = NULL;
	size_t n = 0;
	const char *env = getenv("NPUKB_PLUGIN_PATH");
	int rc = dirs_push(&list, &n, cli_dir);

	if (rc == 0 && env) {
		char *copy = strdup(env), *save = NULL, *tok;
		if (!copy)
			rc = -ENOMEM;
		for (tok = copy ? strtok_r(copy, ":", &save) : NULL; tok && rc == 0;
		     tok = strtok_r(NULL, ":", &save))
			rc = dirs_push(&list, &n, tok);
		free(copy);
	}
	if (rc == 0)
		rc = dirs_push(&list, &n, NPUKB_PKGLIBDIR);
	if (rc != 0) {
		npukb_plugin_dirs_free(list);
		snprintf(err, errlen, "out of memory building the plugin search path");
		return rc;
	}
	*dirs = list;
	return 0;
}

void npukb_plugin_dirs_free(char **dirs)
{
	size_t i;
	if (!dirs)
		return;
	for (i = 0; dirs[i]; i++)
		free(dirs[i]);
	free(dirs);
}

const char *npukb_plugin_status_name(enum npukb_plugin_status s)
{
	switch (s) {
	case NPUKB_PLUGIN_LOADED: return "loaded";
	case NPUKB_PLUGIN_REJECTED: return "rejected";
	case NPUKB_PLUGIN_SHADOWED: return "shadowed";
	}
	return "unknown";
}

/* "ascend-device.so" -> "ascend-device"; NULL when the file name is not a
 * plugin name (exact match on the suffix, no substring games). */
static char *name_from_path(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t len, i;
	char *name;
	base = base ? base + 1 : path;
	len = strlen(base);
	if (len <= 3 || strcmp(base + len - 3, ".so") != 0)
		return NULL;
	name = strndup(base, len - 3);
	if (!name)
		return NULL;
	for (i = 0; name[i]; i++) {
		unsigned char c = (unsigned char)name[i];
		if (!(islower(c) || isdigit(c) || c == '-' || c == '_')) {
			free(name);
			return NULL;
		}
	}
	return name;
}

static void symbol_for(const char *name, char *buf, size_t len)
{
	size_t i, off;
	off = (size_t)snprintf(buf, len, "npukb_");
	for (i = 0; name[i] && off + 1 < len; i++)
		buf[off++] = name[i] == '-' ? '_' : name[i];
	buf[off] = '\0';
	strncat(buf, "_plugin", len - strlen(buf) - 1);
}

/* Options are named on the command line: a name must be typeable and
 * unique, and say what it does. The table must end within reach. */
#define MAX_BACKEND_OPTIONS 64

static int check_backend_options(const struct npukb_backend_option *o, char *reason, size_t len)
{
	size_t i, j;
	const char *c;

	for (i = 0; o && o[i].name; i++) {
		if (i >= MAX_BACKEND_OPTIONS) {
			snprintf(reason, len, "backend option table has more than %d entries "
				 "(or lacks its NULL-named end)", MAX_BACKEND_OPTIONS);
			return -EINVAL;
		}
		for (c = o[i].name; *c; c++)
			if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '-'))
				break;
		if (!o[i].name[0] || *c || strlen(o[i].name) > 32) {
			snprintf(reason, len, "backend option '%.40s': a name is 1 to 32 of a-z, 0-9 and '-'",
				 o[i].name);
			return -EINVAL;
		}
		if (!o[i].help || !o[i].help[0]) {
			snprintf(reason, len, "backend option '%s' has no help text", o[i].name);
			return -EINVAL;
		}
		for (j = 0; j < i; j++)
			if (strcmp(o[j].name, o[i].name) == 0) {
				snprintf(reason, len, "backend option '%s' is listed twice", o[i].name);
				return -EINVAL;
			}
	}
	return 0;
}

/* A reference table must end within reach; every entry has a C name, a
 * function, an output, and no name twice. */
#define MAX_REFERENCES 4096

static int check_reference_table(const struct npukb_reference *r, char *reason, size_t len)
{
	size_t i, j;
	const char *c;

	if (!r) {
		snprintf(reason, len, "reference plugin without a reference table (.references)");
		return -EINVAL;
	}
	for (i = 0; r[i].name; i++) {
		if (i >= MAX_REFERENCES) {
			snprintf(reason, len, "reference table has more than %d entries "
				 "(or lacks its NULL-named end)", MAX_REFERENCES);
			return -EINVAL;
		}
		for (c = r[i].name; *c; c++)
			if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
			      (*c >= '0' && *c <= '9') || *c == '_'))
				break;
		if (!r[i].name[0] || *c || (r[i].name[0] >= '0' && r[i].name[0] <= '9')) {
			snprintf(reason, len, "reference '%.40s': a name is a C identifier", r[i].name);
			return -EINVAL;
		}
		if (!r[i].fn || r[i].nout == 0) {
			snprintf(reason, len, "reference '%s' has %s", r[i].name,
				 !r[i].fn ? "no function" : "no output (nout is 0)");
			return -EINVAL;
		}
		for (j = 0; j < i; j++)
			if (strcmp(r[j].name, r[i].name) == 0) {
				snprintf(reason, len, "reference '%s' is listed twice", r[i].name);
				return -EINVAL;
			}
	}
	if (i == 0) {
		snprintf(reason, len, "reference table is empty");
		return -EINVAL;
	}
	return 0;
}

const char *npukb_backend_opt(const struct npukb_options *o, const char *name)
{
	const char *v = NULL;
	size_t n = name ? strlen(name) : 0;

	for (size_t i = 0; o && o->backend_opts && o->backend_opts[i] && n; i++)
		if (strncmp(o->backend_opts[i], name, n) == 0 && o->backend_opts[i][n] == '=')
			v = o->backend_opts[i] + n + 1;
	return v;
}

int npukb_backend_opts_check(const struct npukb_plugin *desc, const struct npukb_options *o,
			     char *err, size_t errlen)
{
	const struct npukb_backend_option *t = desc->backend->options;

	for (size_t i = 0; o->backend_opts && o->backend_opts[i]; i++) {
		const char *kv = o->backend_opts[i], *eq = strchr(kv, '=');
		size_t n = eq ? (size_t)(eq - kv) : strlen(kv), k, off = 0;
		int known = 0;

		for (k = 0; eq && t && t[k].name; k++)
			if (strlen(t[k].name) == n && strncmp(t[k].name, kv, n) == 0)
				known = 1;
		if (known)
			continue;
		if (!eq) {
			snprintf(err, errlen, "--backend-opt %s: expected NAME=VALUE", kv);
			return -EINVAL;
		}
		off = (size_t)snprintf(err, errlen, "--backend-opt %.*s: the %s backend has no such option",
				       (int)(n > 64 ? 64 : n), kv, desc->name);
		for (k = 0; t && t[k].name && off < errlen; k++)
			off += (size_t)snprintf(err + off, errlen - off, "%s%s", k ? ", " : "; it takes ",
						t[k].name);
		if (off < errlen && !(t && t[0].name))
			snprintf(err + off, errlen - off, "; it takes none");
		return -EINVAL;
	}
	return 0;
}

int npukb_plugin_check(const struct npukb_plugin *p, const char *expected_name,
		       char *reason, size_t len)
{
	if (p->abi != NPUKB_PLUGIN_ABI) {
		snprintf(reason, len,
			 "plugin ABI %u, npukb expects %u: rebuild the plugin against this npukb's headers",
			 p->abi, (unsigned)NPUKB_PLUGIN_ABI);
		return -EINVAL;
	}
	if (!p->name || strcmp(p->name, expected_name) != 0) {
		snprintf(reason, len, "descriptor calls itself '%s' but the file is %s.so",
			 p->name ? p->name : "(null)", expected_name);
		return -EINVAL;
	}
	switch (p->kind) {
	case NPUKB_PLUGIN_BACKEND:
		if (!p->backend) {
			snprintf(reason, len, "backend plugin without a backend function table");
			return -EINVAL;
		}
		if (!p->backend->probe || !p->backend->build || !p->backend->run) {
			snprintf(reason, len, "backend function table lacks required %s()",
				 !p->backend->probe ? "probe" : !p->backend->build ? "build" : "run");
			return -EINVAL;
		}
		return check_backend_options(p->backend->options, reason, len);
	case NPUKB_PLUGIN_STAGE:
		if (!p->stage) {
			snprintf(reason, len, "stage plugin without a stage function table");
			return -EINVAL;
		}
		if (!p->stage->judge) {
			snprintf(reason, len, "stage function table lacks required judge()");
			return -EINVAL;
		}
		if (p->stage->stage < NPUKB_STAGE_COMPILE || p->stage->stage > NPUKB_STAGE_CLASSIFY) {
			snprintf(reason, len, "stage plugin names unknown stage %d", (int)p->stage->stage);
			return -EINVAL;
		}
		return 0;
	case NPUKB_PLUGIN_REFERENCE:
		return check_reference_table(p->references, reason, len);
	}
	snprintf(reason, len, "unknown plugin kind %d (expected stage, backend or reference)",
		 (int)p->kind);
	return -EINVAL;
}

static struct npukb_loaded_plugin *set_add(struct npukb_plugin_set *set)
{
	if (set->n == set->cap) {
		size_t cap = set->cap ? set->cap * 2 : 16;
		struct npukb_loaded_plugin *grown = realloc(set->items, cap * sizeof(*grown));
		if (!grown)
			return NULL;
		set->items = grown;
		set->cap = cap;
	}
	memset(&set->items[set->n], 0, sizeof(set->items[0]));
	return &set->items[set->n++];
}

static const struct npukb_loaded_plugin *find_by_name(const struct npukb_plugin_set *set,
						      const char *name)
{
	size_t i;
	for (i = 0; i < set->n; i++)
		if (set->items[i].status == NPUKB_PLUGIN_LOADED &&
		    strcmp(set->items[i].name, name) == 0)
			return &set->items[i];
	return NULL;
}

static int reject(struct npukb_loaded_plugin *lp, enum npukb_plugin_status st,
		  const char *reason)
{
	lp->status = st;
	lp->reason = strdup(reason);
	if (lp->handle)
		dlclose(lp->handle);
	lp->handle = NULL;
	lp->desc = NULL;
	return lp->reason ? -EINVAL : -ENOMEM;
}

int npukb_plugin_open(const char *path, const char *name, void **handle,
		      const struct npukb_plugin **out, char *reason, size_t len)
{
	char symbol[256];
	const struct npukb_plugin *desc;
	void *h;

	dlerror();
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		const char *why = dlerror();
		snprintf(reason, len, "cannot load: %s (a missing dependency? try: ldd %s)",
			 why ? why : "unknown dlopen error", path);
		return -EINVAL;
	}
	symbol_for(name, symbol, sizeof(symbol));
	desc = (const struct npukb_plugin *)dlsym(h, symbol);
	if (!desc) {
		snprintf(reason, len,
			 "does not export the descriptor symbol %s (not an npukb plugin, or built under another name)",
			 symbol);
		goto out_with_handle;
	}
	if (npukb_plugin_check(desc, name, reason, len) != 0)
		goto out_with_handle;
	if (desc->init) {
		char why[512] = "";
		if (desc->init(why, sizeof(why)) != 0) {
			snprintf(reason, len, "init failed: %s", why[0] ? why : "no reason given");
			goto out_with_handle;
		}
	}
	*handle = h;
	*out = desc;
	return 0;
out_with_handle:
	dlclose(h);
	return -EINVAL;
}

int npukb_plugins_load_file(struct npukb_plugin_set *set, const char *path,
			    char *err, size_t errlen)
{
	struct npukb_loaded_plugin *lp;
	const struct npukb_loaded_plugin *earlier;
	char reason[1024];
	const struct npukb_plugin *desc;
	char *name = name_from_path(path);

	if (!name) {
		snprintf(err, errlen, "%s: not a plugin file name (<name>.so, lowercase)", path);
		return -EINVAL;
	}
	lp = set_add(set);
	if (!lp || !(lp->path = strdup(path))) {
		free(name);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	lp->name = name;

	earlier = find_by_name(set, name);
	if (earlier) {
		snprintf(reason, sizeof(reason), "shadowed by %s, found earlier in the search path",
			 earlier->path);
		return reject(lp, NPUKB_PLUGIN_SHADOWED, reason);
	}

	if (npukb_plugin_open(path, name, &lp->handle, &desc, reason, sizeof(reason)) != 0)
		return reject(lp, NPUKB_PLUGIN_REJECTED, reason);
	lp->initialized = desc->init != NULL;
	lp->desc = desc;
	lp->status = NPUKB_PLUGIN_LOADED;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Regular files ending in .so, sorted so the load order (and thus which of
 * two same-stage plugins wins) does not depend on readdir's order. */
static int list_dir(const char *dir, char ***out, size_t *nout)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0;
	int rc = 0;

	*out = NULL;
	*nout = 0;
	if (!d)
		return 0; /* a missing directory in the search path is normal */
	while ((de = readdir(d)) != NULL) {
		struct stat st;
		char *full;
		size_t len = strlen(de->d_name);
		if (len <= 3 || strcmp(de->d_name + len - 3, ".so") != 0)
			continue;
		if (asprintf(&full, "%s/%s", dir, de->d_name) < 0) {
			rc = -ENOMEM;
			break;
		}
		if (lstat(full, &st) != 0 || !S_ISREG(st.st_mode)) {
			free(full);
			continue;
		}
		{
			char **grown = realloc(names, (n + 1) * sizeof(*names));
			if (!grown) {
				free(full);
				rc = -ENOMEM;
				break;
			}
			names = grown;
			names[n++] = full;
		}
	}
	closedir(d);
	if (rc != 0) {
		while (n)
			free(names[--n]);
		free(names);
		return rc;
	}
	if (n)
		qsort(names, n, sizeof(*names), cmp_str);
	*out = names;
	*nout = n;
	return 0;
}

int npukb_plugins_load(struct npukb_plugin_set *set, char *const *dirs,
		       char *err, size_t errlen)
{
	size_t i, j;
	for (i = 0; dirs && dirs[i]; i++) {
		char **files;
		size_t n;
		int rc = list_dir(dirs[i], &files, &n);
		if (rc != 0) {
			snprintf(err, errlen, "out of memory listing %s", dirs[i]);
			return rc;
		}
		for (j = 0; j < n; j++) {
			char ignored[256];
			if (rc == 0 &&
			    npukb_plugins_load_file(set, files[j], ignored, sizeof(ignored)) == -ENOMEM) {
				snprintf(err, errlen, "out of memory loading %s", files[j]);
				rc = -ENOMEM;
			}
			free(files[j]);
		}
		free(files);
		if (rc != 0)
			return rc;
	}
	return 0;
}

void npukb_plugins_unload(struct npukb_plugin_set *set)
{
	size_t i;
	for (i = set->n; i-- > 0;) {
		struct npukb_loaded_plugin *lp = &set->items[i];
		if (lp->initialized && lp->desc && lp->desc->fini)
			lp->desc->fini();
		if (lp->handle)
			dlclose(lp->handle);
		free(lp->path);
		free(lp->name);
		free(lp->reason);
	}
	free(set->items);
	memset(set, 0, sizeof(*set));
}

const struct npukb_loaded_plugin *npukb_plugins_find(const struct npukb_plugin_set *set,
						     enum npukb_plugin_kind kind,
						     const char *name)
{
	size_t i;
	for (i = 0; i < set->n; i++) {
		const struct npukb_loaded_plugin *lp = &set->items[i];
		if (lp->status == NPUKB_PLUGIN_LOADED && lp->desc->kind == kind &&
		    strcmp(lp->name, name) == 0)
			return lp;
	}
	return NULL;
}

const struct npukb_loaded_plugin *npukb_plugins_find_stage(const struct npukb_plugin_set *set,
							   enum npukb_stage_id stage)
{
	size_t i;
	for (i = 0; i < set->n; i++) {
		const struct npukb_loaded_plugin *lp = &set->items[i];
		if (lp->status == NPUKB_PLUGIN_LOADED && lp->desc->kind == NPUKB_PLUGIN_STAGE &&
		    lp->desc->stage->stage == stage)
			return lp;
	}
	return NULL;
}

void npukb_backend_open(struct npukb_backend *b, const struct npukb_plugin *desc)
{
	memset(b, 0, sizeof(*b));
	b->desc = desc;
	b->usable = desc->backend->probe(b->reason, sizeof(b->reason)) == 0;
	if (!b->usable && !b->reason[0])
		snprintf(b->reason, sizeof(b->reason), "backend %s is not usable here (no reason given)",
			 desc->name);
}

const char *npukb_backend_name(const struct npukb_backend *b)
{
	return b->desc->name;
}

int npukb_backend_build(const struct npukb_backend *b,
			const struct npukb_build_request *req,
			struct npukb_build_result *result)
{
	memset(result, 0, sizeof(*result));
	if (!b->usable) {
		result->skipped = 1;
		result->message = strdup(b->reason);
		return 0;
	}
	return b->desc->backend->build(req, result);
}

int npukb_backend_run(const struct npukb_backend *b,
		      const struct npukb_run_request *req,
		      struct npukb_run_result *result)
{
	memset(result, 0, sizeof(*result));
	if (!b->usable) {
		result->skipped = 1;
		result->message = strdup(b->reason);
		return 0;
	}
	return b->desc->backend->run(req, result);
}

void npukb_build_result_clear(struct npukb_build_result *r)
{
	free(r->message);
	free(r->diagnostics);
	free(r->artifact);
	memset(r, 0, sizeof(*r));
}

void npukb_run_result_clear(struct npukb_run_result *r)
{
	free(r->category);
	free(r->message);
	free(r->diagnostics);
	free(r->defects);
	memset(r, 0, sizeof(*r));
}
