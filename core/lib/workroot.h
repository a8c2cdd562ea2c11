/* workroot.h - where a run keeps its per-sample work folders.
 *
 * The work folders hold every case's tensor files, mapped shared by the
 * harness and the kernel: gigabytes for the largest cases. On a disk file
 * system each page the kernel writes is dirtied, journalled and written
 * back for nothing (the files die with the case); on a memory file system
 * it is a page of RAM. So a run works under a memory file system when one
 * with room is at hand, unless told where (--work-dir, NPUKB_WORK_DIR) or
 * asked to keep the folders (--keep-work: under the output folder, where
 * the user looks for them). */
#ifndef NPUKB_WORKROOT_H
#define NPUKB_WORKROOT_H

#include <stddef.h>

/* The memory file system tried when nothing else is said, and the free
 * space it needs (two workers on Level 2's largest cases stay below). */
#define NPUKB_WORKROOT_SHM "/dev/shm"
#define NPUKB_WORKROOT_SHM_MIN_FREE (8ull << 30)

/* The work root of a run writing into output_dir, in *out (malloc'd):
 * - keep set: <output_dir>/work;
 * - parent set: a new folder npukb-work-<pidns>-<pid>-XXXXXX in parent
 *   (created when missing; pidns: the inode of /proc/self/ns/pid);
 * - else the same in NPUKB_WORKROOT_SHM when it is a tmpfs that allows
 *   programs to run and has NPUKB_WORKROOT_SHM_MIN_FREE free, or
 *   <output_dir>/work.
 * Before making a folder in a parent, removes that parent's work folders
 * of runs that died (their pid gone) without cleaning up.
 * Returns 0, or a negative errno with err filled. */
int npukb_workroot_make(const char *output_dir, const char *parent, int keep, char **out,
			char *err, size_t errlen);

/* Removes parent's npukb-work-<pidns>-<pid>-* folders of this user whose
 * process no longer exists, in our PID namespace only (elsewhere a pid
 * says nothing here). Returns how many it removed. */
int npukb_workroot_sweep(const char *parent);

#endif
