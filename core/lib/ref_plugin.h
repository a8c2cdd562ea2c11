/* ref_plugin.h - the reference function a task names: one of npukb's
 * built-in references, or a function of a reference plugin (private).
 *
 * Owns the reference plugins loaded for tasks: each file is opened and
 * vetted once per process (ABI, kind, table, as the plugin loader vets
 * every plugin) and stays loaded until exit; a rejected file keeps its
 * reason, so every task naming it gets the same message. */
#ifndef NPUKB_REF_PLUGIN_H
#define NPUKB_REF_PLUGIN_H

#include <stddef.h>
#include <npukb/reference.h>

/* Look for reference plugins in dir before $NPUKB_PLUGIN_PATH and the
 * installed plugin folder (--plugin-dir); NULL for none. Call before any
 * lookup; the string must outlive them. */
void npukb_ref_plugin_set_dir(const char *dir);

/* The file a task's reference plugin is: <task dir>/NAME.so, else NAME.so
 * in the plugin search path. 0 with *path (malloc'd), or -ENOENT with the
 * places searched in err. */
int npukb_ref_plugin_locate(const struct npukb_task *t, char **path, char *err,
			    size_t errlen);

/* The reference of t: 0 with *out, or a negative errno value with
 * "manifest:line: ..." in err naming the plugin file and why it cannot
 * serve (not found, cannot load, wrong ABI or kind, no such function).
 * Also checks the function's tensor counts against the task's. */
int npukb_task_reference(const struct npukb_task *t, const struct npukb_reference **out,
			 char *err, size_t errlen);

#endif
