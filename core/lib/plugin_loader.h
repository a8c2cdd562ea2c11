/* plugin_loader.h - find, load and vet plugins (private to the core).
 *
 * Owns: the dlopen handles and the record of every candidate file, with the
 * reason it was rejected or shadowed, for `npukb plugins`. */
#ifndef NPUKB_PLUGIN_LOADER_H
#define NPUKB_PLUGIN_LOADER_H

#include <stddef.h>
#include <npukb/plugin.h>

enum npukb_plugin_status {
	NPUKB_PLUGIN_LOADED = 1,
	NPUKB_PLUGIN_REJECTED,
	NPUKB_PLUGIN_SHADOWED  /* same name found earlier in the search path */
};

struct npukb_loaded_plugin {
	char *path;
	char *name;
	enum npukb_plugin_status status;
	char *reason;                    /* rejected/shadowed: why */
	void *handle;                    /* dlopen handle while loaded */
	const struct npukb_plugin *desc; /* valid while loaded */
	int initialized;
};

/* A backend as stages see it: the descriptor plus what probe() said. */
struct npukb_backend {
	const struct npukb_plugin *desc;
	int usable;
	char reason[512];
};

struct npukb_plugin_set {
	size_t n, cap;
	struct npukb_loaded_plugin *items;
};

/* The directories to search, in order: cli_dir (may be NULL), then the
 * colon-separated NPUKB_PLUGIN_PATH, then the compiled-in pkglibdir.
 * *dirs is a NULL-terminated array the caller frees with
 * npukb_plugin_dirs_free(). */
int npukb_plugin_dirs(const char *cli_dir, char ***dirs, char *err, size_t errlen);
void npukb_plugin_dirs_free(char **dirs);

/* Check a descriptor against the file it came from. Return 0, or -EINVAL
 * with the reason in `reason`. Exposed for tests. */
int npukb_plugin_check(const struct npukb_plugin *p, const char *expected_name,
		       char *reason, size_t len);

/* dlopen path, find the descriptor npukb_<name>_plugin, vet it
 * (npukb_plugin_check) and run its init. 0 with *handle and *desc, or
 * -EINVAL with the reason (the handle closed). */
int npukb_plugin_open(const char *path, const char *name, void **handle,
		      const struct npukb_plugin **desc, char *reason, size_t len);

/* Load every plugin in dirs (NULL-terminated). Bad plugins are recorded and
 * skipped; only allocation failures make this return non-zero. */
int npukb_plugins_load(struct npukb_plugin_set *set, char *const *dirs,
		       char *err, size_t errlen);
/* Load one file (also used by tests). Returns 0 when loaded; -EINVAL when
 * rejected (recorded in set with the reason); -ENOMEM. */
int npukb_plugins_load_file(struct npukb_plugin_set *set, const char *path,
			    char *err, size_t errlen);
void npukb_plugins_unload(struct npukb_plugin_set *set);

const struct npukb_loaded_plugin *npukb_plugins_find(const struct npukb_plugin_set *set,
						     enum npukb_plugin_kind kind,
						     const char *name);
const struct npukb_loaded_plugin *npukb_plugins_find_stage(const struct npukb_plugin_set *set,
							   enum npukb_stage_id stage);

/* 0 when every --backend-opt of o is NAME=VALUE with a NAME the backend
 * lists; else -EINVAL with the reason (and the names it takes) in err. */
int npukb_backend_opts_check(const struct npukb_plugin *desc, const struct npukb_options *o,
			     char *err, size_t errlen);

/* Fill b from a loaded backend plugin and run its probe. */
void npukb_backend_open(struct npukb_backend *b, const struct npukb_plugin *desc);

const char *npukb_plugin_status_name(enum npukb_plugin_status s);

#endif
