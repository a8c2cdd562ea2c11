/* registry.c - reference names used in manifests (<reference function=...>). */
#include "reference.h"

#include <string.h>

static const struct npukb_reference references[] = {
	{ "add", 2, 1, npukb_ref_add },
};

const struct npukb_reference *npukb_reference_find(const char *name)
{
	size_t i;
	for (i = 0; i < sizeof(references) / sizeof(references[0]); i++)
		if (strcmp(references[i].name, name) == 0)
			return &references[i];
	return NULL;
}
