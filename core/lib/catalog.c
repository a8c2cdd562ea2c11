/* catalog.c - walk levels/<level>/<Category>/<Task>/task.xml. */
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

int npukb_catalog_load(struct npukb_catalog *cat, const char *levels_dir,
		       const char *schema_path, int level, const char *const *ids,
		       char *err, size_t errlen)
{
	char **levels, **cats, **names;
	size_t nl, nc, nn, i, j, k;
	int rc;

	memset(cat, 0, sizeof(*cat));
	rc = npukb_list_subdirs(levels_dir, &levels, &nl);
	if (rc) {
		snprintf(err, errlen, "%s: cannot read the levels folder: %s", levels_dir,
			 strerror(-rc));
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
				char *id, *path, msg[4096] = "";
				struct npukb_task *t = NULL;
				if (asprintf(&id, "%s/%s/%s", levels[i], cats[j], names[k]) < 0)
					break;
				if (!wanted(id, ids) ||
				    asprintf(&path, "%s/%s/task.xml", cdir, names[k]) < 0) {
					free(id);
					continue;
				}
				if (!npukb_is_file(path))
					rc = add_error(cat, path, "task folder without task.xml");
				else if (npukb_manifest_load(path, schema_path, &t, msg, sizeof(msg)) != 0)
					rc = add_error(cat, path, msg);
				else if ((rc = add_task(cat, t)) != 0)
					npukb_task_free(t);
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
