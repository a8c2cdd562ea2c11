/* data_path.h - where npukb finds its data (levels, report templates,
 * task skeletons). */
#ifndef NPUKB_DATA_PATH_H
#define NPUKB_DATA_PATH_H

/* "<root>/<rel>" (malloc'd; NULL when out of memory), root being
 * $NPUKB_DATADIR when set and not empty (a build tree), else the
 * installed data folder. */
char *npukb_data_path(const char *rel);

#endif
