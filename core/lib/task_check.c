/* task_check.c - a manifest's reference (built in or from its plugin) and
 * tensor sizes. */
#include "task_check.h"

#include "ref_plugin.h"

#include <stdlib.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

static size_t add(char *err, size_t errlen, size_t off, const char *path, const char *what)
{
	if (off < errlen)
		off += (size_t)snprintf(err + off, errlen - off, "%s%s: %s", off ? "\n" : "", path,
					what);
	return off;
}

int npukb_task_check(const struct npukb_task *t, uint64_t max_elements, char *err,
		     size_t errlen, char *note, size_t notelen)
{
	char msg[512];
	size_t off = 0, c, k;
	int bad = 0;

	if (errlen)
		err[0] = '\0';
	if (notelen)
		note[0] = '\0';
	if (t->reference_plugin) {
		char *path = NULL;
		if (npukb_ref_plugin_locate(t, &path, msg, sizeof msg) == -ENOENT)
			snprintf(note, notelen, "%s:%d: note: reference plugin %s.so is not built "
				 "yet (make -C %s); its function is checked once it is",
				 t->manifest_path, t->reference_line, t->reference_plugin, t->dir);
		free(path);
	}
	if (t->reference && !(notelen && note[0])) {
		const struct npukb_reference *r;
		if (npukb_task_reference(t, &r, msg, sizeof msg) != 0) {
			if (off < errlen)
				off += (size_t)snprintf(err + off, errlen - off, "%s%s", off ? "\n" : "",
							msg);
			bad = 1;
		}
	}
	for (c = 0; c < t->ncases; c++) {
		const struct npukb_case *kc = &t->cases[c];
		for (k = 0; k < t->ntensors; k++) {
			const char *name = t->tensors[k].name;
			struct npukb_shape shape;
			char why[256];
			size_t numel;
			if (npukb_case_tensor_absent(kc, name))
				continue;
			if (npukb_case_tensor_shape(t, kc, name, &shape, why, sizeof why) != 0) {
				snprintf(msg, sizeof msg, "case %s: tensor %s: %s", kc->id, name, why);
				off = add(err, errlen, off, t->manifest_path, msg);
				bad = 1;
				continue;
			}
			numel = npukb_shape_numel(&shape);
			if ((uint64_t)numel > max_elements) {
				snprintf(msg, sizeof msg,
					 "case %s: tensor %s has %zu elements, above the ceiling of "
					 "%llu (--max-elements)",
					 kc->id, name, numel, (unsigned long long)max_elements);
				off = add(err, errlen, off, t->manifest_path, msg);
				bad = 1;
			}
		}
	}
	return bad ? -EINVAL : 0;
}
