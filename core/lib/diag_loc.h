/* diag_loc.h - where in the sample a failure is: the first "PATH:LINE" of
 * a diagnostic or runtime message that lies inside the sample's folder,
 * not in npukb's emulation headers (private). */
#ifndef NPUKB_DIAG_LOC_H
#define NPUKB_DIAG_LOC_H

#include <stddef.h>

/* Scans text (compiler output, a runtime message) for locations
 * "PATH:LINE" (LINE 1 to 9 digits, then ':', a space, ',', ')' or the end)
 * and takes the first whose file is inside sample_dir: an absolute PATH
 * under sample_dir/ (as given, or as realpath() resolves it), or a
 * relative PATH without ".." naming a regular file under sample_dir.
 * "In file included from" lines and their "from" continuations are
 * skipped: they name the include, not the fault. file receives the path
 * relative to sample_dir (cut to flen), *line the line. 0 when found;
 * -ENOENT when none (or text or sample_dir is NULL). */
int npukb_diag_sample_location(const char *text, const char *sample_dir, char *file,
			       size_t flen, long *line);

struct npukb_verdict;

/* The same over a failed verdict: its message first, then its details.
 * -ENOENT also when v did not fail. */
int npukb_verdict_sample_location(const struct npukb_verdict *v, const char *sample_dir,
				  char *file, size_t flen, long *line);

#endif
