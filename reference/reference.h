/* reference.h - the golden implementations npukb checks samples against.
 *
 * Each reference computes from the operator's mathematics in double and
 * rounds once to the output dtype (npukb_store_from_double). References
 * work element by element or in chunks: never a whole-tensor double copy,
 * so a 1 GiB case costs little more than its tensors. */
#ifndef NPUKB_REFERENCE_H
#define NPUKB_REFERENCE_H

#include <stddef.h>
#include <npukb/task.h>

struct npukb_ref_tensor {
	const char *name;
	enum npukb_dtype dtype;
	struct npukb_shape shape;
	size_t numel;
	void *data;
};

struct npukb_ref_call {
	const struct npukb_task *task;
	const struct npukb_case *kcase;
	const struct npukb_ref_tensor *in; /* in manifest order */
	size_t nin;
	struct npukb_ref_tensor *out;      /* in manifest order */
	size_t nout;
};

typedef int (*npukb_reference_fn)(const struct npukb_ref_call *call,
				  char *err, size_t errlen);

struct npukb_reference {
	const char *name;
	size_t nin, nout; /* expected tensor counts */
	npukb_reference_fn fn;
};

const struct npukb_reference *npukb_reference_find(const char *name);

/* One file per operator family declares its functions here. */
int npukb_ref_add(const struct npukb_ref_call *call, char *err, size_t errlen);

#endif
