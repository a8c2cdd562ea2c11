/* ref_plugin.c - find the reference function a task names, built in or in
 * a reference plugin, and keep the plugins opened for tasks. */
#include "ref_plugin.h"

#include "fsutil.h"
#include "plugin_loader.h"
#include "reference.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct opened {
	char *path;
	const struct npukb_plugin *desc; /* NULL: rejected, see why */
	char *why;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct opened *opened;
static size_t nopened;
static const char *cli_dir;

void npukb_ref_plugin_set_dir(const char *dir)
{
	cli_dir = dir;
}

static int try_dir(const char *dir, const char *name, char **path)
{
	if (asprintf(path, "%s/%s.so", dir, name) < 0) {
		*path = NULL;
		return -ENOMEM;
	}
	if (npukb_is_file(*path))
		return 0;
	free(*path);
	*path = NULL;
	return -ENOENT;
}

int npukb_ref_plugin_locate(const struct npukb_task *t, char **path, char *err,
			    size_t errlen)
{
	char **dirs = NULL;
	size_t off;
	int rc = try_dir(t->dir, t->reference_plugin, path);

	if (rc != -ENOENT)
		return rc;
	if (npukb_plugin_dirs(cli_dir, &dirs, err, errlen) != 0)
		return -ENOMEM;
	for (size_t i = 0; dirs[i] && rc == -ENOENT; i++)
		rc = try_dir(dirs[i], t->reference_plugin, path);
	if (rc == -ENOENT) {
		off = (size_t)snprintf(err, errlen, "%s:%d: reference plugin %s.so not found in %s",
				       t->manifest_path, t->reference_line, t->reference_plugin, t->dir);
		for (size_t i = 0; dirs[i] && off < errlen; i++)
			off += (size_t)snprintf(err + off, errlen - off, ", %s", dirs[i]);
		if (off < errlen)
			snprintf(err + off, errlen - off, " (build it first: make -C %s)", t->dir);
	}
	npukb_plugin_dirs_free(dirs);
	return rc;
}

/* The file's descriptor, opening it on first use; NULL with *why set when
 * it was rejected. Called with lock held. */
static const struct opened *open_once(const char *path, const char *name)
{
	struct opened *grown, *o;
	char reason[1024] = "";
	void *handle = NULL;

	for (size_t i = 0; i < nopened; i++)
		if (strcmp(opened[i].path, path) == 0)
			return &opened[i];
	grown = realloc(opened, (nopened + 1) * sizeof(*opened));
	if (!grown)
		return NULL;
	opened = grown;
	o = &opened[nopened];
	memset(o, 0, sizeof(*o));
	o->path = strdup(path);
	if (!o->path)
		return NULL;
	/* Kept loaded until exit: references run from any thread. */
	if (npukb_plugin_open(path, name, &handle, &o->desc, reason, sizeof(reason)) != 0) {
		o->desc = NULL;
		o->why = strdup(reason);
	} else if (o->desc->kind != NPUKB_PLUGIN_REFERENCE) {
		snprintf(reason, sizeof(reason), "it is a %s plugin, not a reference plugin",
			 o->desc->kind == NPUKB_PLUGIN_BACKEND ? "backend" : "stage");
		o->desc = NULL;
		o->why = strdup(reason);
	}
	if (!o->desc && !o->why) {
		free(o->path);
		return NULL;
	}
	nopened++;
	return o;
}

static int from_plugin(const struct npukb_task *t, const struct npukb_reference **out,
		       char *err, size_t errlen)
{
	const struct opened *o;
	char *path = NULL;
	int rc = npukb_ref_plugin_locate(t, &path, err, errlen);

	if (rc)
		return rc;
	/* Held while o is read: another thread may grow the array. */
	pthread_mutex_lock(&lock);
	o = open_once(path, t->reference_plugin);
	rc = -EINVAL;
	if (!o) {
		snprintf(err, errlen, "out of memory opening %s", path);
		rc = -ENOMEM;
	} else if (!o->desc) {
		snprintf(err, errlen, "%s:%d: reference plugin %s rejected: %s", t->manifest_path,
			 t->reference_line, path, o->why);
	} else {
		const struct npukb_reference *r = o->desc->references;
		size_t i, off;
		for (i = 0; r[i].name && strcmp(r[i].name, t->reference) != 0; i++)
			;
		if (r[i].name) {
			*out = &r[i];
			rc = 0;
		} else {
			off = (size_t)snprintf(err, errlen,
					       "%s:%d: reference plugin %s has no function '%s'; it exports",
					       t->manifest_path, t->reference_line, path, t->reference);
			for (i = 0; r[i].name && off < errlen; i++)
				off += (size_t)snprintf(err + off, errlen - off, " %s", r[i].name);
		}
	}
	pthread_mutex_unlock(&lock);
	free(path);
	return rc;
}

int npukb_task_reference(const struct npukb_task *t, const struct npukb_reference **out,
			 char *err, size_t errlen)
{
	const struct npukb_reference *r = NULL;
	size_t nin = 0, nout = 0;
	int rc;

	if (!t->reference) {
		snprintf(err, errlen, "%s: the task names no <reference> and this case has no golden outputs",
			 t->manifest_path);
		return -EINVAL;
	}
	if (t->reference_plugin) {
		rc = from_plugin(t, &r, err, errlen);
		if (rc)
			return rc;
	} else if (!(r = npukb_reference_find(t->reference))) {
		snprintf(err, errlen,
			 "%s:%d: reference function '%s' does not exist (reference/registry.c lists them)",
			 t->manifest_path, t->reference_line, t->reference);
		return -ENOENT;
	}
	for (size_t i = 0; i < t->ntensors; i++) {
		nout += t->tensors[i].is_output != 0;
		nin += !t->tensors[i].is_output || t->tensors[i].is_inout;
	}
	if (nin != r->nin || nout != r->nout) {
		snprintf(err, errlen,
			 "%s:%d: reference '%s' takes %zu inputs and %zu outputs, the task has %zu and %zu",
			 t->manifest_path, t->reference_line, r->name, r->nin, r->nout, nin, nout);
		return -EINVAL;
	}
	*out = r;
	return 0;
}
