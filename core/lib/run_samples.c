/* run_samples.c - the samples a run judges for a task (run_samples.h). */
#include "config.h"
#include "run_samples.h"
#include "fsutil.h"

#include <npukb/util.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int push_sample(struct npukb_sample_list *l, const char *dir, const char *id, int answer,
		       char *err, size_t errlen)
{
	int rc;
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 8;
		struct npukb_sample_entry *g = realloc(l->items, cap * sizeof(*g));
		if (!g) {
			snprintf(err, errlen, "out of memory");
			return -ENOMEM;
		}
		l->items = g;
		l->cap = cap;
	}
	rc = npukb_sample_load(dir, id, &l->items[l->n], err, errlen);
	if (rc == 0 && l->items[l->n].note)
		fprintf(stderr, "npukb: note: %s\n", l->items[l->n].note);
	if (rc == 0)
		l->items[l->n++].is_answer = answer;
	return rc;
}

void npukb_sample_list_free(struct npukb_sample_list *l)
{
	while (l->n)
		npukb_sample_free(&l->items[--l->n]);
	free(l->items);
	memset(l, 0, sizeof(*l));
}

/* The last n path components of dir (n >= 1), or NULL when dir has fewer. */
static const char *path_suffix(const char *dir, unsigned n)
{
	const char *p = dir + strlen(dir);
	while (p > dir) {
		p--;
		if (*p == '/' && --n == 0)
			return p + 1;
	}
	return NULL;
}

static unsigned components(const char *id)
{
	unsigned n = 1;
	for (; *id; id++)
		n += *id == '/';
	return n;
}

/* Two folders with the same base name (a/k, b/k), or a sample folder named
 * like the expert answer, must not merge into one sample: each such id
 * grows by its folder's parent components until the ids differ. The same
 * folder given twice is refused. */
static int unique_ids(struct npukb_sample_list *l, char *err, size_t errlen)
{
	size_t i, j;
	int again = 1;
	while (again) {
		again = 0;
		for (i = 0; i < l->n && !again; i++)
			for (j = i + 1; j < l->n && !again; j++) {
				struct npukb_sample_entry *a = &l->items[i], *b = &l->items[j];
				size_t k;
				if (strcmp(a->id, b->id) != 0)
					continue;
				if (strcmp(a->dir, b->dir) == 0) {
					snprintf(err, errlen, "%s: the same sample folder is given twice",
						 a->dir);
					return NPUKB_RUN_EBADINPUT;
				}
				for (k = 0; k < 2; k++) {
					struct npukb_sample_entry *e = k ? b : a;
					const char *longer;
					char *id;
					if (e->is_answer)
						continue;
					longer = path_suffix(e->dir, components(e->id) + 1);
					if (!longer || !(id = strdup(longer)))
						continue;
					free(e->id);
					e->id = id;
					e->pub.id = id;
					again = 1;
				}
				if (!again) {
					snprintf(err, errlen, "%s and %s: cannot tell the samples apart",
						 a->dir, b->dir);
					return NPUKB_RUN_EBADINPUT;
				}
			}
	}
	return 0;
}

/* The samples to judge for task t, in order: the expert answer, the
 * explicit sample folders, then each folder of <samples_root>/<task id>/. */
int npukb_run_collect_samples(const struct npukb_run_config *cfg, const struct npukb_task *t,
			   struct npukb_sample_list *l, char *err, size_t errlen)
{
	char *path = NULL;
	size_t i;
	int rc = 0;

	memset(l, 0, sizeof(*l));
	if (cfg->include_answer) {
		if (asprintf(&path, "%s/answer", t->dir) < 0)
			return -ENOMEM;
		if (npukb_is_dir(path))
			rc = push_sample(l, path, "answer", 1, err, errlen);
		free(path);
	}
	for (i = 0; rc == 0 && cfg->sample_dirs && cfg->sample_dirs[i]; i++)
		rc = push_sample(l, cfg->sample_dirs[i], NULL, 0, err, errlen);
	if (rc == 0 && cfg->samples_root) {
		char **subs = NULL;
		size_t ns = 0;
		if (asprintf(&path, "%s/%s", cfg->samples_root, t->id) < 0)
			path = NULL, rc = -ENOMEM;
		else if (npukb_is_dir(path))
			rc = npukb_list_subdirs(path, &subs, &ns);
		for (i = 0; rc == 0 && i < ns; i++) {
			char *sp;
			if (asprintf(&sp, "%s/%s", path, subs[i]) < 0) {
				rc = -ENOMEM;
				break;
			}
			rc = push_sample(l, sp, subs[i], 0, err, errlen);
			free(sp);
		}
		npukb_free_names(subs, ns);
		free(path);
	}
	if (rc == 0)
		rc = unique_ids(l, err, errlen);
	if (rc)
		npukb_sample_list_free(l);
	return rc;
}

