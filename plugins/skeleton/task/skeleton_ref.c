/* skeleton_ref.c - the template for a reference plugin: the expected
 * outputs of a task of your own, computed by C you write, loaded by npukb
 * at run time (no npukb rebuild).
 *
 * `npukb task new NAME` copies this file, renamed after the task, into a
 * new task folder, next to a task.xml that names it (<reference
 * plugin="skeleton_ref" function="skeleton"/>) and a Makefile that builds
 * it against the installed npukb:
 *
 *   cc -std=c11 -shared -fPIC -fvisibility=hidden -o skeleton_ref.so \
 *      skeleton_ref.c $(pkg-config --cflags --libs npukb)
 *
 * ---- How npukb uses it ----------------------------------------------------
 *
 *   1. A task's <reference plugin="skeleton_ref" .../> makes npukb dlopen
 *      skeleton_ref.so from the task's folder (else --plugin-dir,
 *      $NPUKB_PLUGIN_PATH, the installed plugin folder) and look up the
 *      one symbol npukb_skeleton_ref_plugin. It checks .abi, .kind, .name
 *      (the file's name) and the table below; a file failing a check is
 *      refused with the file's path and the reason.
 *   2. For every (case, seed), npukb generates the inputs, calls the
 *      function the manifest names with them, and compares the sample's
 *      outputs with what it wrote (the task's tolerance rule).
 *   3. Functions are called from several threads at once: keep no
 *      mutable global state.
 *
 * The contract is in <npukb/reference.h>: inputs call->in[0..nin) and
 * outputs call->out[0..nout) in the manifest's order, each with its dtype,
 * shape and element count. Compute in double and round once to the output
 * dtype; write every output element; return 0, or a negative errno value
 * with a one-line reason in err. */
#include <npukb/plugin.h>

#include <errno.h>
#include <stdio.h>

/* y = 2 * x, in any dtype npukb knows. Replace the body with your
 * operator; read attributes with npukb_case_attr(call->kcase, "name"). */
static int skeleton(const struct npukb_ref_call *call, char *err, size_t errlen)
{
	const struct npukb_ref_tensor *x = &call->in[0];
	struct npukb_ref_tensor *y = &call->out[0];

	if (x->numel != y->numel) {
		snprintf(err, errlen, "x has %zu elements, y %zu", x->numel, y->numel);
		return -EINVAL;
	}
	for (size_t i = 0; i < x->numel; i++)
		npukb_store_from_double(y->dtype, y->data, i,
					2.0 * npukb_load_as_double(x->dtype, x->data, i));
	return 0;
}

/* The functions manifests may name: name, inputs, outputs, function;
 * ended by an entry whose name is NULL. */
static const struct npukb_reference references[] = {
	{ "skeleton", 1, 1, skeleton },
	{ NULL, 0, 0, NULL }
};

NPUKB_PLUGIN_EXPORT const struct npukb_plugin npukb_skeleton_ref_plugin = {
	.abi = NPUKB_PLUGIN_ABI,
	.kind = NPUKB_PLUGIN_REFERENCE,
	.name = "skeleton_ref",
	.version = "1.0",
	.description = "reference functions of the skeleton task",
	.references = references,
};
