/* tensor_pool.h - the memory of one (case, seed)'s tensors, kept for the
 * next seed of the same case.
 *
 * A case is judged on several seeds in a row, each with the same tensor
 * sizes. Making each seed's tensor files and expected buffers afresh costs
 * the operating system more than npukb's own work on them: every page is
 * allocated, zeroed, faulted into the mapping and freed again (a quarter of
 * a Foreach case's time). The pool keeps a discarded seed's files (moved
 * into a folder of its own under the run's work root, out of every
 * sandbox's view) and buffers, mapped, and hands them to the next request
 * of the same size (the file moved into the new seed's folder: one name,
 * as the sandbox requires). Whatever it hands out is fully rewritten by
 * its new owner (inputs generated, outputs poisoned, expected values
 * computed), so no seed sees another's data; a file whose kernel changed
 * it in any way but its bytes is not kept.
 *
 * One pool per process (each worker is a process). It is off until
 * npukb_tensor_pool_open(): unit tests and --keep-workdirs (whose files
 * must stay as the seed left them) make every file afresh. */
#ifndef NPUKB_TENSOR_POOL_H
#define NPUKB_TENSOR_POOL_H

#include <stddef.h>

/* Keep pooled files in a new folder under root (the run's work root: the
 * same file system as the seeds' folders, out of every sandbox's view). */
int npukb_tensor_pool_open(const char *root);
/* Drop everything pooled and the folder. */
void npukb_tensor_pool_close(void);

/* A file of bytes (> 0) at path, mapped read-write into *map; *reused is
 * 1 when the pages held an earlier seed's data. 0, or -ENOSYS when the
 * pool is off or cannot serve (the caller makes the file itself), or
 * another negative errno. */
int npukb_tensor_pool_file(const char *path, size_t bytes, void **map, int *reused);
/* A private buffer of bytes (> 0), or NULL when the pool is off or cannot
 * serve (the caller allocates it itself). */
void *npukb_tensor_pool_buffer(size_t bytes);
/* Done with the file mapped at map, which may go: the pool takes it back
 * (1) when it is the pool's and still as the pool made it, or forgets it
 * (1, leaving whatever is at its name); 0 when map is not the pool's (the
 * caller unmaps it and removes the file). */
int npukb_tensor_pool_keep(void *map);
/* Done with a mapping or buffer whose file (if any) stays where it is: 1
 * when it was the pool's (a buffer is kept, a file's mapping dropped), 0
 * when not (the caller releases it). */
int npukb_tensor_pool_return(void *p);
/* After a run, is the pool's mapping map still the file at path? 1: yes,
 * whole; 2: the path is another file now (a backend replaced it; the
 * mapping went back to the pool, map path afresh); -EMSGSIZE: the file's
 * size changed (reading the mapping could fault); 0: map is not the
 * pool's; other negative errno: path cannot be examined. */
int npukb_tensor_pool_check(void *map, const char *path);
/* Release what is kept and unused: after a case's seeds, or when a
 * request was served without it. */
void npukb_tensor_pool_trim(void);

#endif
