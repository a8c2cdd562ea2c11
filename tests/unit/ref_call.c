/* ref_call.c - see ref_call.h. */
#include "ref_call.h"

#include <criterion/criterion.h>

#include <string.h>

struct npukb_ref_tensor ref_tensor(const char *name, enum npukb_dtype dt, void *data, int rank,
				   const int64_t *dims)
{
	struct npukb_ref_tensor t;
	memset(&t, 0, sizeof(t));
	t.name = name;
	t.dtype = dt;
	t.shape.rank = rank;
	t.numel = 1;
	for (int i = 0; i < rank; i++) {
		t.shape.dims[i] = dims[i];
		t.numel *= (size_t)dims[i];
	}
	t.data = data;
	return t;
}

struct npukb_ref_tensor ref_tensor1(const char *name, enum npukb_dtype dt, size_t n, void *data)
{
	const int64_t dims[1] = { (int64_t)n };
	return ref_tensor(name, dt, data, 1, dims);
}

int ref_run(const char *name, const struct npukb_ref_tensor *in, size_t nin,
	    struct npukb_ref_tensor *out, size_t nout, const char *const *kv, char *err)
{
	const struct npukb_reference *r = npukb_reference_find(name);
	struct npukb_attr_value attrs[REF_CALL_MAX_ATTRS];
	struct npukb_case c;
	struct npukb_task t;
	struct npukb_ref_call call;
	char cid[] = "t";

	cr_assert_not_null(r, "reference %s is not registered", name);
	cr_assert_eq(r->nin, nin, "reference %s takes %zu inputs", name, r->nin);
	cr_assert_eq(r->nout, nout, "reference %s makes %zu outputs", name, r->nout);
	memset(&c, 0, sizeof(c));
	memset(&t, 0, sizeof(t));
	t.reference = (char *)name;
	c.id = cid;
	c.attrs = attrs;
	for (size_t i = 0; kv && kv[2 * i]; i++) {
		cr_assert_lt(i, REF_CALL_MAX_ATTRS, "more than %d attributes", REF_CALL_MAX_ATTRS);
		attrs[i].name = (char *)kv[2 * i];
		attrs[i].value = (char *)kv[2 * i + 1];
		c.nattrs = i + 1;
	}
	call.task = &t;
	call.kcase = &c;
	call.in = in;
	call.nin = nin;
	call.out = out;
	call.nout = nout;
	err[0] = '\0';
	return r->fn(&call, err, ERRLEN);
}
