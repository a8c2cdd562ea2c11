/* cpusim_variants.c - the dtype variants of a task: one build per
 * combination of tensor dtypes its cases use, and the executable of each. */
#include "cpusim_internal.h"

/* The C++ type a kernel sees for a tensor dtype, or NULL. */
const char *kernel_ctype(enum npukb_dtype dt)
{
	switch (dt) {
	case NPUKB_DT_FLOAT16: return "half";
	case NPUKB_DT_BFLOAT16: return "bfloat16_t";
	case NPUKB_DT_FLOAT32: return "float";
	case NPUKB_DT_INT8: return "int8_t";
	case NPUKB_DT_UINT8: return "uint8_t";
	case NPUKB_DT_INT16: return "int16_t";
	case NPUKB_DT_INT32: return "int32_t";
	case NPUKB_DT_INT64: return "int64_t";
	case NPUKB_DT_BOOL: return "bool";
	default: return NULL;
	}
}

/* The dtype of tensor i in case c (c NULL: the task has no cases), or
 * NPUKB_DT_INVALID when it cannot be resolved. */
enum npukb_dtype tensor_dtype(const struct npukb_task *t, size_t i, const struct npukb_case *c)
{
	const struct npukb_tensor_decl *d = &t->tensors[i];
	enum npukb_dtype dt;
	char err[256];

	if (!d->dtype)
		return NPUKB_DT_INVALID;
	if (d->dtype[0] != '$')
		return npukb_dtype_from_name(d->dtype);
	if (!c || npukb_case_tensor_dtype(t, c, d->name, &dt, err, sizeof err) != 0)
		return NPUKB_DT_INVALID;
	return dt;
}

/* A build variant is one combination of tensor dtypes among the task's
 * cases: CANN compiles an operator's kernel once per dtype combination of
 * its OpDef, with DTYPE_<TENSOR> naming the element types, and kernel-only
 * samples are built the same way so that one source serves every case.
 * Variants are numbered in the order their first case appears. */

static int same_dtypes(const struct npukb_task *t, const struct npukb_case *a, const struct npukb_case *b)
{
	size_t i;

	for (i = 0; i < t->ntensors; i++)
		if (tensor_dtype(t, i, a) != tensor_dtype(t, i, b))
			return 0;
	return 1;
}

int variants_compute(const struct npukb_task *t, struct variants *v)
{
	size_t k, j;

	memset(v, 0, sizeof(*v));
	v->of_case = calloc(t->ncases + 1, sizeof(*v->of_case));
	v->example = calloc(t->ncases + 1, sizeof(*v->example));
	if (!v->of_case || !v->example) {
		free(v->of_case);
		free(v->example);
		return -ENOMEM;
	}
	for (k = 0; k < t->ncases; k++) {
		for (j = 0; j < v->n; j++)
			if (same_dtypes(t, &t->cases[v->example[j]], &t->cases[k]))
				break;
		if (j == v->n)
			v->example[v->n++] = k;
		v->of_case[k] = j;
	}
	if (v->n == 0)
		v->n = 1; /* no cases: one build with the fixed dtypes */
	return 0;
}

void variants_free(struct variants *v)
{
	free(v->of_case);
	free(v->example);
}

/* The case a variant is built for; NULL when the task has no cases. */
const struct npukb_case *variant_case(const struct npukb_task *t, const struct variants *v, size_t k)
{
	return t->ncases ? &t->cases[v->example[k]] : NULL;
}

/* kernel.exe for variant 0, kernel.v<k>.exe for the others: the artifact
 * build() returns is variant 0's, and run() derives the others from it. */
char *variant_exe(const char *first, size_t k)
{
	const char *slash = strrchr(first, '/');
	int dir = slash ? (int)(slash - first) : 0;

	if (k == 0)
		return xstrdup(first);
	return format("%.*s%skernel.v%zu.exe", dir, first, slash ? "/" : "", k);
}
