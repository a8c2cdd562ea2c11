/* catalog.h - the tasks under a levels/ folder (private).
 *
 * Owns the loaded tasks. Manifests that fail to load are kept as errors
 * (path and message) so `npukb validate` and `npukb run` can report all of
 * them, not only the first. */
#ifndef NPUKB_CATALOG_H
#define NPUKB_CATALOG_H

#include <stddef.h>
#include <npukb/task.h>

struct npukb_catalog_error {
	char *path;
	char *message;
};

struct npukb_catalog {
	size_t ntasks;
	struct npukb_task **tasks;   /* sorted by id */
	size_t nerrors;
	struct npukb_catalog_error *errors;
};

/* Find level<N>/<Category>/<Task>/task.xml under levels_dir and load
 * the ones selected: level 0 means all levels; ids (NULL-terminated, may be
 * NULL) restrict to those task ids. An id that is a path (a folder holding
 * task.xml, or a task.xml) loads that manifest, whatever its level: a
 * task of your own outside the levels folder. Returns 0 even when some manifests are
 * invalid (see cat->errors); negative errno when the folder is unreadable. */
int npukb_catalog_load(struct npukb_catalog *cat, const char *levels_dir,
		       const char *schema_path, int level, const char *const *ids,
		       char *err, size_t errlen);
void npukb_catalog_free(struct npukb_catalog *cat);

/* "Nothing selected" checks, before any work: 0, or -EINVAL with err
 * saying what was looked for and what there is. Every --case id must name
 * a case of some task of cat; */
int npukb_catalog_check_cases(const struct npukb_catalog *cat, const char *const *case_ids,
			      char *err, size_t errlen);
/* and a --samples root must be a folder holding <task id>/<sample>/ for
 * some task of cat (err lists what it holds instead). When it does, cat
 * keeps only the tasks with a sample folder under root: `--samples`
 * judges those tasks (and their answers), not the whole level. */
int npukb_catalog_check_samples_root(struct npukb_catalog *cat, const char *root,
				     char *err, size_t errlen);

#endif
