/* tensor_pool.c - tensor files and expected buffers kept from one seed of
 * a case to the next (see tensor_pool.h for why). */
#include "tensor_pool.h"
#include <npukb/util.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* A case has a handful of tensors: more entries than that means requests
 * of many sizes, which the pool does not help. */
#define POOL_ENTRIES 32
/* Below this a buffer is malloc's business. */
#define POOL_MIN_BUFFER (64u << 10)
#define HUGE_PAGE (2u << 20)

struct pool_entry {
	void *map;
	size_t bytes;
	int busy;
	/* A file: its name in the pool's folder while kept, its name in a
	 * seed's folder (at) while handed out. NULL: a buffer. */
	char *file;
	char *at;
	dev_t dev;
	ino_t ino;
};

static struct {
	pid_t pid; /* the process the pool belongs to: a forked worker starts its own */
	char *dir;
	unsigned serial;
	struct pool_entry e[POOL_ENTRIES];
} pool;

/* Forget e: its mapping goes; its file goes only from the pool's folder
 * (a file handed out stays where its owner has it). */
static void destroy(struct pool_entry *e)
{
	if (e->map)
		munmap(e->map, e->bytes);
	if (e->file && !e->busy)
		unlink(e->file);
	free(e->file);
	free(e->at);
	memset(e, 0, sizeof(*e));
}

static int pool_on(void)
{
	return pool.dir && pool.pid == getpid();
}

int npukb_tensor_pool_open(const char *root)
{
	char *dir;
	int rc;

	if (pool_on())
		return 0;
	/* a pool inherited through fork() is the parent's: forget it, its
	 * files and mappings are the parent's to release */
	free(pool.dir);
	memset(&pool, 0, sizeof(pool));
	if (asprintf(&dir, "%s/.tensor-pool-%ld", root, (long)getpid()) < 0)
		return -ENOMEM;
	rc = npukb_mkdir_p(dir, 0700);
	if (rc) {
		free(dir);
		return rc;
	}
	pool.dir = dir;
	pool.pid = getpid();
	return 0;
}

void npukb_tensor_pool_close(void)
{
	size_t i;
	if (!pool_on())
		return;
	for (i = 0; i < POOL_ENTRIES; i++)
		destroy(&pool.e[i]);
	rmdir(pool.dir);
	free(pool.dir);
	memset(&pool, 0, sizeof(pool));
}

void npukb_tensor_pool_trim(void)
{
	size_t i;
	if (!pool_on())
		return;
	for (i = 0; i < POOL_ENTRIES; i++)
		if (pool.e[i].map && !pool.e[i].busy)
			destroy(&pool.e[i]);
}

static struct pool_entry *free_slot(void)
{
	size_t i;
	for (i = 0; i < POOL_ENTRIES; i++)
		if (!pool.e[i].map)
			return &pool.e[i];
	return NULL;
}

static struct pool_entry *busy_entry(const void *map)
{
	size_t i;
	for (i = 0; map && i < POOL_ENTRIES; i++)
		if (pool.e[i].map == map && pool.e[i].busy)
			return &pool.e[i];
	return NULL;
}

/* Is the name still e's file, whole? The kernel that had it owned it: it
 * may have truncated it, or put another file or a link in its place. */
static int still_ours(const struct pool_entry *e, const char *name)
{
	struct stat st;
	return lstat(name, &st) == 0 && S_ISREG(st.st_mode) && st.st_dev == e->dev &&
	       st.st_ino == e->ino && st.st_nlink == 1 && (size_t)st.st_size == e->bytes;
}

static int make_file(struct pool_entry *e, const char *path, size_t bytes)
{
	struct stat st;
	void *m;
	int fd, rc;

	if (asprintf(&e->file, "%s/%u.bin", pool.dir, pool.serial++) < 0) {
		e->file = NULL;
		return -ENOMEM;
	}
	e->at = strdup(path);
	if (!e->at) {
		rc = -ENOMEM;
		goto fail;
	}
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		rc = -errno;
		goto fail;
	}
	/* The blocks are reserved, not just the size set: a full disk is an
	 * error here, not a SIGBUS when the mapping is written. */
	rc = posix_fallocate(fd, 0, (off_t)bytes);
	if (rc == EOPNOTSUPP || rc == EINVAL)
		rc = ftruncate(fd, (off_t)bytes) != 0 ? errno : 0;
	if (rc == 0 && fstat(fd, &st) != 0)
		rc = errno;
	if (rc) {
		close(fd);
		unlink(path);
		rc = -rc;
		goto fail;
	}
	/* populated now: the pages exist already, and one call maps them
	 * all instead of a fault per page as they are first written */
	m = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED) {
		rc = -errno;
		unlink(path);
		goto fail;
	}
	e->map = m;
	e->bytes = bytes;
	e->dev = st.st_dev;
	e->ino = st.st_ino;
	e->busy = 1;
	return 0;
fail:
	free(e->file);
	free(e->at);
	e->file = e->at = NULL;
	return rc;
}

int npukb_tensor_pool_file(const char *path, size_t bytes, void **map, int *reused)
{
	struct pool_entry *e;
	size_t i;
	int rc;

	*map = NULL;
	*reused = 0;
	if (!pool_on() || bytes == 0)
		return -ENOSYS;
	for (i = 0; i < POOL_ENTRIES; i++) {
		char *at;
		e = &pool.e[i];
		if (!e->map || e->busy || !e->file || e->bytes != bytes)
			continue;
		at = strdup(path);
		/* moved, not linked: the sandbox hands a kernel only files
		 * with one name */
		if (!at || !still_ours(e, e->file) || rename(e->file, path) != 0) {
			free(at);
			destroy(e);
			continue;
		}
		free(e->at);
		e->at = at;
		e->busy = 1;
		*map = e->map;
		*reused = 1;
		return 0;
	}
	/* a new case: what the last one left goes before this one's memory
	 * comes, so the two never add up */
	npukb_tensor_pool_trim();
	e = free_slot();
	if (!e)
		return -ENOSYS;
	rc = make_file(e, path, bytes);
	if (rc == 0)
		*map = e->map;
	return rc;
}

int npukb_tensor_pool_keep(void *map)
{
	struct pool_entry *e;
	if (!pool_on() || !(e = busy_entry(map)) || !e->file)
		return 0;
	if (!still_ours(e, e->at) || rename(e->at, e->file) != 0) {
		/* whatever is at its name now stays for its folder's owner */
		destroy(e);
		return 1;
	}
	e->busy = 0;
	return 1;
}

void *npukb_tensor_pool_buffer(size_t bytes)
{
	struct pool_entry *e;
	size_t i;
	void *m;

	if (!pool_on() || bytes < POOL_MIN_BUFFER)
		return NULL;
	for (i = 0; i < POOL_ENTRIES; i++) {
		e = &pool.e[i];
		if (e->map && !e->busy && !e->file && e->bytes == bytes) {
			e->busy = 1;
			return e->map;
		}
	}
	npukb_tensor_pool_trim(); /* as for files */
	e = free_slot();
	if (!e)
		return NULL;
	m = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return NULL;
	/* large pages where the kernel gives them on request: a fault and a
	 * zeroing per 2 MiB instead of per 4 KiB */
	if (bytes >= HUGE_PAGE)
		(void)madvise(m, bytes, MADV_HUGEPAGE);
	e->map = m;
	e->bytes = bytes;
	e->busy = 1;
	return m;
}

int npukb_tensor_pool_return(void *p)
{
	struct pool_entry *e;
	if (!pool_on() || !(e = busy_entry(p)))
		return 0;
	if (e->file)
		destroy(e); /* its file stays where its owner has it */
	else
		e->busy = 0;
	return 1;
}

int npukb_tensor_pool_check(void *map, const char *path)
{
	struct pool_entry *e;
	struct stat st;

	if (!pool_on() || !(e = busy_entry(map)) || !e->file)
		return 0;
	if (lstat(path, &st) != 0)
		return -errno;
	if (st.st_dev != e->dev || st.st_ino != e->ino) {
		destroy(e); /* replaced: the pool's file is wherever the kernel put it */
		return 2;
	}
	return (size_t)st.st_size == e->bytes ? 1 : -EMSGSIZE;
}
