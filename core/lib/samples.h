/* samples.h - candidate implementations found on disk (private).
 *
 * A sample is a folder: kernel-only when it holds the op_kernel source(s)
 * directly, host+device when it has op_host/ and op_kernel/ subfolders. */
#ifndef NPUKB_SAMPLES_H
#define NPUKB_SAMPLES_H

#include <stddef.h>
#include <npukb/plugin.h>

struct npukb_sample_entry {
	struct npukb_sample pub; /* points into the fields below */
	char *id;
	char *dir;
	char **files;
	size_t nfiles;
	int is_answer;
};

/* Describe the sample in dir. id NULL: the folder's base name. */
int npukb_sample_load(const char *dir, const char *id, struct npukb_sample_entry *out,
		      char *err, size_t errlen);
void npukb_sample_free(struct npukb_sample_entry *s);

#endif
