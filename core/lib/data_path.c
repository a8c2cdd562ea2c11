/* data_path.c - where npukb finds npukb's data (data_path.h). */
#include "config.h"
#include "data_path.h"

#include <stdio.h>
#include <stdlib.h>

char *npukb_data_path(const char *rel)
{
	const char *root = getenv("NPUKB_DATADIR");
	char *p;
	if (asprintf(&p, "%s/%s", root && *root ? root : NPUKB_PKGDATADIR, rel) < 0)
		return NULL;
	return p;
}
