/* derive.h - inputs made by a named function (a manifest's
 * <distribution kind="derived" fn="..."/>) rather than drawn element by
 * element: from another input's data (the sorted distinct coordinates a
 * sparse operator's host side computes from its indices, and each entry's
 * position among them), or by a draw that constrains the tensor as a
 * whole (rows with an exact number of distinct values). The case's shapes
 * stay static: what depends on the data is the values, never a shape. */
#ifndef NPUKB_DERIVE_H
#define NPUKB_DERIVE_H

#include "npukb/case_data.h"
#include "inputs.h"

#include <stddef.h>
#include <stdint.h>

struct npukb_derive_args {
	const struct npukb_case_tensor *from; /* the input read; NULL when none */
	struct npukb_case_tensor *dst;
	struct npukb_rng *rng;
	int64_t count; /* the count expression's value; -1 when none */
	double a, b;   /* the literal bounds */
};

struct npukb_derive_fn {
	const char *name;
	int needs_from, needs_count, needs_bounds;
	/* 0, or a negative errno with a message in err. */
	int (*fill)(const struct npukb_derive_args *args, char *err, size_t errlen);
};

/* The function called name; NULL when there is none. */
const struct npukb_derive_fn *npukb_derive_find(const char *name);

#endif
