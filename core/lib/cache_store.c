/* cache_store.c - checked, read-only, evictable cache entries
 * (cache_store.h). */
#include "config.h"
#include "cache_store.h"

#include "fsutil.h"

#include <npukb/case_data.h>
#include <npukb/util.h>

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAGIC "npukb-cache 1\n"
#define HEADER_MAX 8192u

static int entry_dir(const char *cache_dir, const char *kind, const char *key, char *out,
		     size_t len)
{
	if (strlen(key) < 2 || strspn(key, "0123456789abcdef") != strlen(key) ||
	    strspn(kind, "abcdefghijklmnopqrstuvwxyz-") != strlen(kind))
		return -EINVAL;
	if ((size_t)snprintf(out, len, "%s/%s/%.2s", cache_dir, kind, key) >= len)
		return -ENAMETOOLONG;
	return 0;
}

static int entry_path(const char *cache_dir, const char *kind, const char *key, char *out,
		      size_t len)
{
	char dir[PATH_MAX];
	int rc = entry_dir(cache_dir, kind, key, dir, sizeof dir);
	if (rc == 0 && (size_t)snprintf(out, len, "%s/%s", dir, key) >= len)
		rc = -ENAMETOOLONG;
	return rc;
}

/* The header: format, version, kind, key, then "<len> <checksum>" per
 * part, ended by an empty line. */
static int render_header(const char *kind, const char *key, const struct npukb_cache_part *parts,
			 size_t nparts, char *out, size_t len)
{
	size_t off;
	int n = snprintf(out, len, MAGIC "version %s\nkind %s\nkey %s\nparts %zu\n", PACKAGE_VERSION,
			 kind, key, nparts);
	if (n < 0 || (size_t)n >= len)
		return -E2BIG;
	off = (size_t)n;
	for (size_t i = 0; i < nparts; i++) {
		n = snprintf(out + off, len - off, "%zu %016llx\n", parts[i].len,
			     (unsigned long long)npukb_content_hash(parts[i].data, parts[i].len));
		if (n < 0 || (size_t)n >= len - off)
			return -E2BIG;
		off += (size_t)n;
	}
	if (off + 2 > len)
		return -E2BIG;
	out[off++] = '\n';
	out[off] = '\0';
	return 0;
}

int npukb_cache_put(const char *cache_dir, const char *kind, const char *key,
		    const struct npukb_cache_part *parts, size_t nparts)
{
	char dir[PATH_MAX], path[PATH_MAX], tmp[PATH_MAX + 32], head[HEADER_MAX];
	int fd, rc;

	if (!cache_dir || nparts > NPUKB_CACHE_MAX_PARTS)
		return -EINVAL;
	if ((rc = entry_dir(cache_dir, kind, key, dir, sizeof dir)) != 0 ||
	    (rc = entry_path(cache_dir, kind, key, path, sizeof path)) != 0 ||
	    (rc = render_header(kind, key, parts, nparts, head, sizeof head)) != 0)
		return rc;
	/* 0700: what a run judged is for this user's runs only */
	if ((rc = npukb_mkdir_p(dir, 0700)) != 0)
		return rc;
	snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return -errno;
	rc = npukb_write_full(fd, head, strlen(head));
	for (size_t i = 0; rc == 0 && i < nparts; i++)
		rc = npukb_write_full(fd, parts[i].data, parts[i].len);
	/* read-only before it is visible under its name */
	if (rc == 0 && fchmod(fd, 0444) != 0)
		rc = -errno;
	if (close(fd) != 0 && rc == 0)
		rc = -errno;
	if (rc == 0 && rename(tmp, path) != 0)
		rc = -errno;
	if (rc)
		unlink(tmp);
	return rc;
}

void npukb_cache_blob_free(struct npukb_cache_blob *b)
{
	if (b->map)
		munmap(b->map, b->maplen);
	memset(b, 0, sizeof(*b));
}

/* A line "<word> <value>" of the header at *p: the value, cut at its
 * newline (written into the header copy). */
static char *header_value(char **p, const char *word)
{
	size_t n = strlen(word);
	char *nl, *v;
	if (strncmp(*p, word, n) != 0 || (*p)[n] != ' ')
		return NULL;
	v = *p + n + 1;
	nl = strchr(v, '\n');
	if (!nl)
		return NULL;
	*nl = '\0';
	*p = nl + 1;
	return v;
}

/* Checks the mapped entry against what the reader asked for. */
static int check_entry(struct npukb_cache_blob *b, const char *kind, const char *key)
{
	char head[HEADER_MAX + 1], *p = head, *v, *end;
	const unsigned char *data = b->map;
	size_t hlen, off, n;
	const char *stop = memchr(b->map, '\0', b->maplen < HEADER_MAX ? b->maplen : HEADER_MAX);
	const unsigned char *blank = NULL;

	/* the header ends at the first empty line */
	for (off = 1; off < b->maplen && off < HEADER_MAX; off++)
		if (data[off] == '\n' && data[off - 1] == '\n') {
			blank = data + off;
			break;
		}
	if (!blank || (stop && (const unsigned char *)stop < blank))
		return -EBADMSG;
	hlen = (size_t)(blank - data) + 1;
	memcpy(head, data, hlen);
	head[hlen] = '\0';
	if (strncmp(p, MAGIC, strlen(MAGIC)) != 0)
		return -EBADMSG;
	p += strlen(MAGIC);
	if (!(v = header_value(&p, "version")) || strcmp(v, PACKAGE_VERSION) != 0 ||
	    !(v = header_value(&p, "kind")) || strcmp(v, kind) != 0 ||
	    !(v = header_value(&p, "key")) || strcmp(v, key) != 0 ||
	    !(v = header_value(&p, "parts")))
		return -EBADMSG;
	n = strtoul(v, &end, 10);
	if (*end || n > NPUKB_CACHE_MAX_PARTS)
		return -EBADMSG;
	off = hlen;
	for (size_t i = 0; i < n; i++) {
		unsigned long long len, sum;
		if (*p < '0' || *p > '9')
			return -EBADMSG;
		len = strtoull(p, &end, 10);
		if (*end != ' ' || len > b->maplen - off)
			return -EBADMSG;
		p = end + 1;
		sum = strtoull(p, &end, 16);
		if (end != p + 16 || *end != '\n')
			return -EBADMSG;
		p = end + 1;
		b->part[i] = data + off;
		b->len[i] = (size_t)len;
		if (npukb_content_hash(b->part[i], b->len[i]) != sum)
			return -EBADMSG;
		off += (size_t)len;
	}
	if (strcmp(p, "\n") != 0 || off != b->maplen)
		return -EBADMSG;
	b->nparts = n;
	return 0;
}

int npukb_cache_get(const char *cache_dir, const char *kind, const char *key,
		    struct npukb_cache_blob *b)
{
	char path[PATH_MAX];
	struct stat st;
	int fd, rc;

	memset(b, 0, sizeof(*b));
	if (!cache_dir)
		return -ENOENT;
	if ((rc = entry_path(cache_dir, kind, key, path, sizeof path)) != 0)
		return rc;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return errno == ENOENT ? -ENOENT : (unlink(path), -EBADMSG);
	/* only what npukb wrote and nobody can have changed since */
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & 0222) || st.st_size <= 0) {
		rc = -EBADMSG;
		goto out;
	}
	b->maplen = (size_t)st.st_size;
	b->map = mmap(NULL, b->maplen, PROT_READ, MAP_PRIVATE, fd, 0);
	if (b->map == MAP_FAILED) {
		b->map = NULL;
		rc = -EBADMSG;
		goto out;
	}
	rc = check_entry(b, kind, key);
	if (rc == 0)
		futimens(fd, NULL); /* used now: the last to be evicted */
out:
	close(fd);
	if (rc) {
		npukb_cache_blob_free(b);
		unlink(path);
	}
	return rc;
}

uint64_t npukb_cache_max_bytes(void)
{
	const char *v = getenv("NPUKB_CACHE_MAX");
	unsigned long long n;
	char *end;

	if (!v || !*v)
		return 4ull << 30;
	errno = 0;
	n = strtoull(v, &end, 10);
	if (errno || end == v)
		return 4ull << 30;
	switch (*end) {
	case 'k': case 'K': n <<= 10; end++; break;
	case 'm': case 'M': n <<= 20; end++; break;
	case 'g': case 'G': n <<= 30; end++; break;
	default: break;
	}
	return *end ? 4ull << 30 : n;
}

/* ---- eviction: nftw has no user pointer, so one walk at a time --------- */

struct seen {
	char *path;
	uint64_t bytes;
	struct timespec used;
	int bulky; /* case data: cheap to compute again per byte, so it goes first */
};

static struct seen *walk_files;
static size_t walk_n, walk_cap;
static uint64_t walk_total;
static size_t walk_root;

static int collect(const char *path, const struct stat *st, int type, struct FTW *f)
{
	(void)f;
	if (type != FTW_F || !S_ISREG(st->st_mode))
		return 0;
	if (walk_n == walk_cap) {
		size_t cap = walk_cap ? walk_cap * 2 : 256;
		struct seen *g = realloc(walk_files, cap * sizeof(*g));
		if (!g)
			return 1;
		walk_files = g;
		walk_cap = cap;
	}
	if (!(walk_files[walk_n].path = strdup(path)))
		return 1;
	walk_files[walk_n].bytes = (uint64_t)st->st_size;
	walk_files[walk_n].bulky = strncmp(path + walk_root, "/data/", 6) == 0;
	walk_files[walk_n].used = st->st_mtim;
	walk_total += (uint64_t)st->st_size;
	walk_n++;
	return 0;
}

static int older_first(const void *x, const void *y)
{
	const struct seen *a = x, *b = y;
	if (a->bulky != b->bulky)
		return a->bulky ? -1 : 1;
	if (a->used.tv_sec != b->used.tv_sec)
		return a->used.tv_sec < b->used.tv_sec ? -1 : 1;
	if (a->used.tv_nsec != b->used.tv_nsec)
		return a->used.tv_nsec < b->used.tv_nsec ? -1 : 1;
	return strcmp(a->path, b->path);
}

long npukb_cache_evict(const char *cache_dir, uint64_t max)
{
	long removed = 0;
	int rc;

	walk_files = NULL;
	walk_n = walk_cap = 0;
	walk_total = 0;
	walk_root = strlen(cache_dir);
	rc = nftw(cache_dir, collect, 16, FTW_PHYS);
	if (rc != 0 && errno != ENOENT)
		removed = rc > 0 ? -ENOMEM : -errno;
	if (removed == 0 && walk_total > max) {
		uint64_t goal = max / 10 * 9;
		qsort(walk_files, walk_n, sizeof(*walk_files), older_first);
		for (size_t i = 0; i < walk_n && walk_total > goal; i++)
			if (unlink(walk_files[i].path) == 0) {
				walk_total -= walk_files[i].bytes;
				removed++;
			}
	}
	for (size_t i = 0; i < walk_n; i++)
		free(walk_files[i].path);
	free(walk_files);
	walk_files = NULL;
	return removed;
}

/* ---- where a cache may be ---------------------------------------------- */

static int inside(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	if (strcmp(dir, "/") == 0)
		return 1;
	return strncmp(path, dir, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

/* The resolved path of p, or of its longest existing parent with the
 * rest appended (the cache folder may not exist yet). */
static char *resolve(const char *p)
{
	char *copy = strdup(p), *cut, *real, *out = NULL;
	if (!copy)
		return NULL;
	real = realpath(copy, NULL);
	while (!real && (cut = strrchr(copy, '/')) != NULL && cut != copy) {
		*cut = '\0';
		real = realpath(copy, NULL);
	}
	if (real && asprintf(&out, "%s%s", real, p + strlen(copy)) < 0)
		out = NULL;
	free(real);
	free(copy);
	return out;
}

int npukb_cache_guard(const char *cache_dir, const char *output_dir, char *why, size_t len)
{
	/* bound read-only into every sandbox (sandbox_root.c), or the
	 * output folder, which holds the writable work folders */
	static const char *const shown[] = { "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64",
					     "/libx32", "/etc", "/dev", "/proc" };
	char *c = resolve(cache_dir), *o = output_dir ? resolve(output_dir) : NULL;
	const char *extra = getenv("NPUKB_SANDBOX_READ");
	int bad = 0;

	if (!c) {
		snprintf(why, len, "%s: cannot resolve the cache folder", cache_dir);
		free(o);
		return 1;
	}
	for (size_t i = 0; !bad && i < sizeof shown / sizeof *shown; i++)
		if (inside(c, shown[i])) {
			snprintf(why, len, "%s is inside %s, which every sandbox sees", c, shown[i]);
			bad = 1;
		}
	if (!bad && o && (inside(c, o) || inside(o, c))) {
		snprintf(why, len, "%s and the output folder %s overlap: the work folders the samples "
			 "write are there", c, o);
		bad = 1;
	}
	while (!bad && extra && *extra) {
		size_t k = strcspn(extra, ":");
		char *d = k ? strndup(extra, k) : NULL, *rd = d ? resolve(d) : NULL;
		if (rd && inside(c, rd)) {
			snprintf(why, len, "%s is inside %s (NPUKB_SANDBOX_READ), which every sandbox sees",
				 c, rd);
			bad = 1;
		}
		free(rd);
		free(d);
		extra += k + (extra[k] == ':');
	}
	free(c);
	free(o);
	return bad;
}
