/* ref_call.h - building a reference call by hand, for the tests of the
 * references (reference/): tensors over the test's own buffers, and a call
 * with a task, a case and its attributes. */
#ifndef NPUKB_TESTS_REF_CALL_H
#define NPUKB_TESTS_REF_CALL_H

#include "reference.h"

#include <stddef.h>
#include <stdint.h>

#define ERRLEN 1024
#define REF_CALL_MAX_ATTRS 8

/* A tensor of dtype dt and the given shape over data (borrowed). */
struct npukb_ref_tensor ref_tensor(const char *name, enum npukb_dtype dt, void *data, int rank,
				   const int64_t *dims);
/* A one-dimensional tensor of n elements over data. */
struct npukb_ref_tensor ref_tensor1(const char *name, enum npukb_dtype dt, size_t n, void *data);

/* Runs reference `name` (it must be registered with nin inputs and nout
 * outputs) with the attributes kv: name, value pairs, NULL-terminated, at
 * most REF_CALL_MAX_ATTRS; kv may be NULL. The task's reference is `name`
 * (the Foreach table finds its row by it). err holds ERRLEN bytes. */
int ref_run(const char *name, const struct npukb_ref_tensor *in, size_t nin,
	    struct npukb_ref_tensor *out, size_t nout, const char *const *kv, char *err);

#endif
