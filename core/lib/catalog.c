/* catalog.c - walk levels/<level>/<Category>/<Task>/task.xml, and load the
 * tasks named by path. */
#include "catalog.h"

#include "fsutil.h"
#include "manifest.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int wanted(const char *id, const char *const *ids)
{
	size_t i;
	if (!ids || !ids[0])
		return 1;
	for (i = 0; ids[i]; i++)
		if (strcmp(ids[i], id) == 0)
			return 1;
	return 0;
}

static int add_error(struct npukb_catalog *cat, const char *path, const char *msg)
{
	struct npukb_catalog_error *grown =
		realloc(cat->errors, (cat->nerrors + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	cat->errors = grown;
	grown[cat->nerrors].path = strdup(path);
	grown[cat->nerrors].message = strdup(msg);
	cat->nerrors++;
	return 0;
}

static int add_task(struct npukb_catalog *cat, struct npukb_task *t)
{
	struct npukb_task **grown = realloc(cat->tasks, (cat->ntasks + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	cat->tasks = grown;
	grown[cat->ntasks++] = t;
	return 0;
}

/* The manifest an id names when it is a path: a folder holding task.xml,
 * or a task.xml file (a task of your own, outside the levels folder);
 * NULL when it is a task id. */
static char *manifest_of_path(const char *id)
{
	char *path;
	size_t len = strlen(id);

	if (len > 4 && strcmp(id + len - 4, ".xml") == 0 && npukb_is_file(id))
		return strdup(id);
	if (asprintf(&path, "%s/task.xml", id) < 0)
		return NULL;
	if (npukb_is_file(path))
		return path;
	free(path);
	return NULL;
}

static int load_one(struct npukb_catalog *cat, const char *path, const char *schema_path)
{
	struct npukb_task *t = NULL;
	char msg[4096] = "";
	int rc;

	if (npukb_manifest_load(path, schema_path, &t, msg, sizeof(msg)) != 0)
		return add_error(cat, path, msg);
	rc = add_task(cat, t);
	if (rc)
		npukb_task_free(t);
	return rc;
}

/* Ids that are paths load their manifest here, whatever its level; *rest
 * gets the others (NULL-terminated, malloc'd; NULL when ids is). */
static int load_paths(struct npukb_catalog *cat, const char *schema_path,
		      const char *const *ids, const char ***rest)
{
	size_t n = 0, k = 0;
	int rc = 0;

	*rest = NULL;
	if (!ids)
		return 0;
	while (ids[n])
		n++;
	*rest = calloc(n + 1, sizeof(**rest));
	if (!*rest)
		return -ENOMEM;
	for (size_t i = 0; i < n && rc == 0; i++) {
		char *path = manifest_of_path(ids[i]);
		if (path)
			rc = load_one(cat, path, schema_path);
		else
			(*rest)[k++] = ids[i];
		free(path);
	}
	return rc;
}

int npukb_catalog_load(struct npukb_catalog *cat, const char *levels_dir,
		       const char *schema_path, int level, const char *const *ids,
		       char *err, size_t errlen)
{
	char **levels = NULL, **cats, **names;
	const char **rest = NULL;
	size_t nl = 0, nc, nn, i, j, k;
	int rc;

	memset(cat, 0, sizeof(*cat));
	rc = load_paths(cat, schema_path, ids, &rest);
	if (rc == 0 && rest && !rest[0]) {
		free(rest);
		return 0; /* only paths: no levels folder needed */
	}
	ids = rest;
	if (rc == 0)
		rc = npukb_list_subdirs(levels_dir, &levels, &nl);
	if (rc == -ENOMEM) {
		free(rest);
		snprintf(err, errlen, "out of memory loading tasks");
		npukb_catalog_free(cat);
		return rc;
	}
	if (rc) {
		snprintf(err, errlen, "%s: cannot read the levels folder: %s", levels_dir,
			 strerror(-rc));
		free(rest);
		npukb_catalog_free(cat);
		return rc;
	}
	for (i = 0; i < nl && rc == 0; i++) {
		char *ldir;
		int lv;
		if (sscanf(levels[i], "level%d", &lv) != 1 || (level && lv != level))
			continue;
		if (asprintf(&ldir, "%s/%s", levels_dir, levels[i]) < 0)
			break;
		npukb_list_subdirs(ldir, &cats, &nc);
		for (j = 0; j < nc && rc == 0; j++) {
			char *cdir;
			if (asprintf(&cdir, "%s/%s", ldir, cats[j]) < 0)
				break;
			npukb_list_subdirs(cdir, &names, &nn);
			for (k = 0; k < nn && rc == 0; k++) {
				char *id, *path;
				if (asprintf(&id, "%s/%s/%s", levels[i], cats[j], names[k]) < 0)
					break;
				if (!wanted(id, ids) ||
				    asprintf(&path, "%s/%s/task.xml", cdir, names[k]) < 0) {
					free(id);
					continue;
				}
				if (!npukb_is_file(path))
					rc = add_error(cat, path, "task folder without task.xml");
				else
					rc = load_one(cat, path, schema_path);
				free(path);
				free(id);
			}
			npukb_free_names(names, nn);
			free(cdir);
		}
		npukb_free_names(cats, nc);
		free(ldir);
	}
	npukb_free_names(levels, nl);
	free(rest);
	if (rc) {
		snprintf(err, errlen, "out of memory loading tasks");
		npukb_catalog_free(cat);
	}
	return rc;
}

void npukb_catalog_free(struct npukb_catalog *cat)
{
	size_t i;
	for (i = 0; i < cat->ntasks; i++)
		npukb_task_free(cat->tasks[i]);
	free(cat->tasks);
	for (i = 0; i < cat->nerrors; i++) {
		free(cat->errors[i].path);
		free(cat->errors[i].message);
	}
	free(cat->errors);
	memset(cat, 0, sizeof(*cat));
}

int npukb_catalog_check_cases(const struct npukb_catalog *cat, const char *const *case_ids,
			      char *err, size_t errlen)
{
	size_t k, i, c, off;
	for (k = 0; case_ids && case_ids[k]; k++) {
		int found = 0;
		for (i = 0; i < cat->ntasks && !found; i++)
			for (c = 0; c < cat->tasks[i]->ncases && !found; c++)
				found = strcmp(cat->tasks[i]->cases[c].id, case_ids[k]) == 0;
		if (found)
			continue;
		off = (size_t)snprintf(err, errlen,
				       "nothing selected: no case '%s' in the %zu selected task%s",
				       case_ids[k], cat->ntasks, cat->ntasks == 1 ? "" : "s");
		if (cat->ntasks && off < errlen) {
			const struct npukb_task *t = cat->tasks[0];
			off += (size_t)snprintf(err + off, errlen - off, " (%s has case%s", t->id,
						t->ncases == 1 ? "" : "s");
			for (c = 0; c < t->ncases && c < 12 && off < errlen; c++)
				off += (size_t)snprintf(err + off, errlen - off, "%s %s",
							c ? "," : "", t->cases[c].id);
			if (off < errlen)
				snprintf(err + off, errlen - off, "%s)", t->ncases > 12 ? ", ..." : "");
		}
		return -EINVAL;
	}
	return 0;
}

/* Up to max <level>/<family>/<task> folders under root, as "a/b/c, ..."
 * into out; returns how many. */
static size_t task_like_folders(const char *root, char *out, size_t len, size_t max)
{
	char **l1 = NULL, **l2 = NULL, **l3 = NULL, *p1 = NULL, *p2 = NULL;
	size_t n1 = 0, n2 = 0, n3 = 0, a, b, c, found = 0, off = 0;

	out[0] = '\0';
	if (npukb_list_subdirs(root, &l1, &n1) != 0)
		return 0;
	for (a = 0; a < n1 && found < max; a++) {
		if (asprintf(&p1, "%s/%s", root, l1[a]) < 0 || npukb_list_subdirs(p1, &l2, &n2) != 0)
			n2 = 0;
		for (b = 0; b < n2 && found < max; b++) {
			if (asprintf(&p2, "%s/%s", p1, l2[b]) < 0 ||
			    npukb_list_subdirs(p2, &l3, &n3) != 0)
				n3 = 0;
			for (c = 0; c < n3 && found < max; c++, found++)
				if (off < len)
					off += (size_t)snprintf(out + off, len - off, "%s%s/%s/%s",
								found ? ", " : "", l1[a], l2[b], l3[c]);
			npukb_free_names(l3, n3);
			l3 = NULL;
			free(p2);
			p2 = NULL;
		}
		npukb_free_names(l2, n2);
		l2 = NULL;
		free(p1);
		p1 = NULL;
	}
	npukb_free_names(l1, n1);
	return found;
}

/* 1 when root/<id>/ holds a sample folder. */
static int has_sample(const char *root, const char *id)
{
	char *p, **subs = NULL;
	size_t n = 0;
	if (asprintf(&p, "%s/%s", root, id) < 0)
		return -ENOMEM;
	if (npukb_list_subdirs(p, &subs, &n) != 0)
		n = 0;
	npukb_free_names(subs, n);
	free(p);
	return n > 0;
}

int npukb_catalog_check_samples_root(struct npukb_catalog *cat, const char *root,
				     char *err, size_t errlen)
{
	char holds[512];
	unsigned char *keep;
	size_t i, kept = 0;
	int rc;
	if (!root)
		return 0;
	if ((rc = npukb_check_dir(root, "samples root", err, errlen)) != 0)
		return -EINVAL;
	if (!(keep = calloc(cat->ntasks + 1, 1)))
		return -ENOMEM;
	for (i = 0; i < cat->ntasks; i++) {
		int has = has_sample(root, cat->tasks[i]->id);
		if (has < 0) {
			free(keep);
			return -ENOMEM;
		}
		keep[i] = (unsigned char)has;
		kept += (size_t)has;
	}
	if (kept == 0) {
		free(keep);
		snprintf(err, errlen,
			 "nothing selected: %s holds no folder <task id>/<sample>/ for any of "
			 "the %zu selected task%s (e.g. %s/%s/<sample>/); it holds %s",
			 root, cat->ntasks, cat->ntasks == 1 ? "" : "s", root,
			 cat->ntasks ? cat->tasks[0]->id : "level1/Math/AddCustom",
			 task_like_folders(root, holds, sizeof holds, 5) ? holds
									: "no level/family/task folder");
		return -EINVAL;
	}
	/* Only the tasks with samples are judged (their answers as the
	 * baseline): judging every task of the level spent most of a run on
	 * expert answers nobody asked about. */
	kept = 0;
	for (i = 0; i < cat->ntasks; i++) {
		if (keep[i])
			cat->tasks[kept++] = cat->tasks[i];
		else
			npukb_task_free(cat->tasks[i]);
	}
	cat->ntasks = kept;
	free(keep);
	return 0;
}
