/* npukb/reference.h - reference functions: what a task's expected outputs
 * are computed by.
 *
 * npukb carries its own references (built in, named by a manifest's
 * <reference function="add"/>). A task of your own names a function from a
 * reference plugin instead:
 *
 *   <reference plugin="myops" function="my_scale"/>
 *
 * The plugin is myops.so, looked up in the task's folder first, then in the
 * plugin search path (--plugin-dir, $NPUKB_PLUGIN_PATH, the installed plugin
 * folder). It is an npukb plugin (npukb/plugin.h) of kind
 * NPUKB_PLUGIN_REFERENCE whose descriptor points at a table of named
 * functions, ended by an entry whose name is NULL:
 *
 *   static const struct npukb_reference fns[] = {
 *           { "my_scale", 1, 1, my_scale },  // name, inputs, outputs, function
 *           { NULL, 0, 0, NULL }
 *   };
 *   NPUKB_PLUGIN_EXPORT const struct npukb_plugin npukb_myops_plugin = {
 *           .abi = NPUKB_PLUGIN_ABI, .kind = NPUKB_PLUGIN_REFERENCE,
 *           .name = "myops", .version = "1", .description = "...",
 *           .references = fns,
 *   };
 *
 * Build it against the installed headers:
 *   cc -std=c11 -shared -fPIC -fvisibility=hidden -o myops.so myops.c \
 *      $(pkg-config --cflags --libs npukb)
 * `npukb task new NAME` writes such a plugin and its Makefile for you.
 *
 * A reference is called once per (case, seed) from any worker thread: keep
 * no mutable global state. It reads the inputs (in manifest order, their
 * dtypes as the case resolves them), writes every element of every output,
 * and returns 0; or returns a negative errno value with a one-line reason in
 * err. Compute in double and round once to the output dtype with
 * npukb_store_from_double() (npukb/dtype.h); npukb_load_as_double() reads an
 * element of any dtype. A task may instead give expected outputs as .npy
 * files per case (<golden tensor="y" file="..."/>): no function is called
 * for such a case. */
#ifndef NPUKB_REFERENCE_API_H
#define NPUKB_REFERENCE_API_H

#include <stddef.h>
#include <npukb/dtype.h>
#include <npukb/task.h>

#ifdef __cplusplus
extern "C" {
#endif

struct npukb_ref_tensor {
	const char *name;
	enum npukb_dtype dtype;
	struct npukb_shape shape;
	size_t numel;
	void *data;
	/* Tensor lists: member i has shape members[i] and starts at element
	 * member_offsets[i] of data; 0/NULL for plain tensors. */
	size_t nmembers;
	const struct npukb_shape *members;
	const size_t *member_offsets;
};

/* An optional input the case leaves out is passed with data NULL and no
 * elements; a reference that takes none fails on its element count. */
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

/* One named function. nin and nout are the tensor counts it takes (an
 * in-place tensor counts as one input and one output); the core refuses a
 * task whose tensors do not add up to them. */
struct npukb_reference {
	const char *name;
	size_t nin, nout;
	npukb_reference_fn fn;
};

#ifdef __cplusplus
}
#endif
#endif
