/* outlock.h - one run at a time per output folder (private).
 *
 * Two runs into one folder share work paths and the reports, and corrupt
 * each other's verdicts. A run holds an exclusive flock(2) on
 * <folder>/.npukb.lock, which names its pid, until it ends; the kernel
 * drops the lock when the process dies, so a killed run leaves no stale
 * lock behind. */
#ifndef NPUKB_OUTLOCK_H
#define NPUKB_OUTLOCK_H

#include <stddef.h>

/* Takes the lock of dir; *fd is the descriptor to give back to
 * npukb_outlock_release. Returns 0; -EBUSY when another process holds it
 * (err names its pid); another negative errno (err says why). */
int npukb_outlock_take(const char *dir, int *fd, char *err, size_t errlen);
void npukb_outlock_release(int fd);

#endif
