/* npukb/case_data.h - the tensors of one (case, seed), laid out as files.
 *
 * The core generates seeded inputs, computes the expected outputs with the
 * reference, poisons the output buffers (so unwritten elements are caught)
 * and packs the kernel-only tiling struct. Every kernel argument is a file in
 * the run's work directory that a backend maps or copies; the backend never
 * sees the reference. Owned by the caller of npukb_case_data_prepare(),
 * released by npukb_case_data_free(). */
#ifndef NPUKB_CASE_DATA_H
#define NPUKB_CASE_DATA_H

#include <stddef.h>
#include <stdint.h>
#include <npukb/dtype.h>
#include <npukb/task.h>

#ifdef __cplusplus
extern "C" {
#endif

struct npukb_case_tensor {
	char *name;
	int is_output;
	enum npukb_dtype dtype;
	struct npukb_shape shape;
	size_t numel;
	size_t bytes;
	char *path;       /* absolute path of the file holding the GM buffer */
	void *data;       /* mapping of that file (size bytes), or NULL when unmapped */
	uint64_t hash;    /* inputs: content hash taken after generation */
	void *expected;   /* outputs: reference result (malloc'd) */
	/* In place (<inout>): generated like an input, never poisoned, compared
	 * like an output (is_output is set too). */
	int is_inout;
	/* Tensor lists: the buffer holds nmembers tensors, member i starting at
	 * element member_offsets[i] (malloc'd) with shape members[i] (borrowed
	 * from the task). 0/NULL for plain tensors. */
	size_t nmembers;
	const struct npukb_shape *members;
	size_t *member_offsets;
	/* An optional input the case leaves out: no file (path and data NULL,
	 * no elements); the kernel argument is a null GM_ADDR. */
	int is_absent;
};

/* One kernel argument, in the kernel's parameter order. */
struct npukb_kernel_arg {
	enum npukb_param_role role;
	const char *path;  /* inputs, outputs, tiling, scalars: the file (NULL: absent input) */
	size_t bytes;      /* size of the file, or of the workspace */
	/* Tensor parameters: the tensor (its dtype and list members); NULL for
	 * the workspace, the tiling and scalars. */
	const struct npukb_case_tensor *tensor;
};

struct npukb_case_data {
	size_t ntensors;
	struct npukb_case_tensor *tensors;
	char *tiling_path;
	size_t tiling_bytes;
	size_t workspace_bytes;
	int block_dim;
	size_t nargs;
	struct npukb_kernel_arg *args;
	/* The files of scalar arguments (the value's bytes, padded as a
	 * one-field struct), one per parameter, NULL for other roles. */
	char **scalar_paths;
	size_t nscalar_paths;
	uint64_t seed;
};

/* The seed of run index s (0, 1, ...) of case c: base + s mixed with the task
 * and case ids, so cases never share inputs by accident, and distinct
 * indices of one case stay distinct (the mix is a bijection). Every stage
 * derives its seeds here, so an index is the same seed in each of them. */
uint64_t npukb_case_seed(const struct npukb_task *t, const struct npukb_case *c,
			 uint64_t base, unsigned s);

int npukb_case_data_prepare(const struct npukb_task *t, const struct npukb_case *c,
			    uint64_t seed, const char *workdir,
			    struct npukb_case_data *out, char *err, size_t errlen);
/* The kernel's arguments only, for a stage that runs the kernel but never
 * compares (performance): the same input files, poisoned outputs and
 * tiling as npukb_case_data_prepare, without the reference's work: no
 * expected buffers (NULL), no reference call, no input hashes (so
 * npukb_case_data_mutated_input tells nothing). */
int npukb_case_data_prepare_args(const struct npukb_task *t, const struct npukb_case *c,
				 uint64_t seed, const char *workdir,
				 struct npukb_case_data *out, char *err, size_t errlen);
/* Map the output files again after a run (backends may replace files). */
int npukb_case_data_load_outputs(struct npukb_case_data *d, char *err, size_t errlen);
/* Name of the first input whose content changed, or NULL. */
const char *npukb_case_data_mutated_input(const struct npukb_case_data *d);
void npukb_case_data_free(struct npukb_case_data *d);
/* npukb_case_data_free, and the files are no longer wanted: they are
 * removed, or kept by npukb for the next seed of the case (whose files
 * then cost no new memory). The work folder itself is the caller's. */
void npukb_case_data_discard(struct npukb_case_data *d);

/* Bit pattern written into output buffers before a run: a quiet NaN with a
 * recognisable payload for floats, a marker for integers. */
void npukb_poison_fill(enum npukb_dtype dt, void *buf, size_t numel);
int npukb_is_poison(enum npukb_dtype dt, const void *buf, size_t i);
/* The first i in [begin, end) with npukb_is_poison(dt, buf, i), or end:
 * a block at a time, for scans of whole outputs. */
size_t npukb_poison_find(enum npukb_dtype dt, const void *buf, size_t begin, size_t end);

/* A content hash (8 bytes a step) whose values are recorded (the golden
 * hashes of the input tests): it never changes. */
uint64_t npukb_hash_bytes(const void *buf, size_t len);
/* A faster content hash for change detection within one run (the inputs
 * before and after a kernel, the outputs of two seeds), not security. Its
 * values are never stored: they may change between npukb versions. */
uint64_t npukb_content_hash(const void *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
