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
	/* From the folder's response.json (`npukb import` writes it); NULL
	 * when absent or unusable, and then note says why (NULL: no file). */
	char *model;
	char *response_sha256;
	char *note;
};

/* Reads dir/response.json into s->model and s->response_sha256. The file
 * is untrusted: at most 64 KiB, a regular file (not a symlink), one flat
 * JSON object; a model name of 1-256 bytes without control characters and
 * a sha256 of 64 hex digits are kept, each on its own. Anything else is
 * ignored with s->note ("FILE: why"). Only -ENOMEM is an error. */
int npukb_sample_read_provenance(struct npukb_sample_entry *s, const char *dir);

/* Describe the sample in dir. id NULL: the folder's base name. */
int npukb_sample_load(const char *dir, const char *id, struct npukb_sample_entry *out,
		      char *err, size_t errlen);
void npukb_sample_free(struct npukb_sample_entry *s);

#endif
