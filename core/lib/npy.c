/* npy.c - write tensors as NumPy .npy files (format 1.0) and read them
 * back: their headers, and golden tensors a case names. */
#include <npukb/npy.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define NPY_MAGIC "\x93NUMPY"
#define NPY_MAGIC_LEN 6
/* NumPy pads the header so the data starts on a 64-byte boundary. */
#define NPY_ALIGN 64

/* The GM buffers hold elements in the host's byte order. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define NPY_ORDER ">"
#else
#define NPY_ORDER "<"
#endif

const char *npukb_npy_descr(enum npukb_dtype dt)
{
	switch (dt) {
	case NPUKB_DT_FLOAT16: return NPY_ORDER "f2";
	case NPUKB_DT_BFLOAT16: return NPY_ORDER "f4"; /* widened on write */
	case NPUKB_DT_FLOAT32: return NPY_ORDER "f4";
	case NPUKB_DT_FLOAT64: return NPY_ORDER "f8";
	case NPUKB_DT_INT8: return "|i1";
	case NPUKB_DT_UINT8: return "|u1";
	case NPUKB_DT_INT16: return NPY_ORDER "i2";
	case NPUKB_DT_INT32: return NPY_ORDER "i4";
	case NPUKB_DT_INT64: return NPY_ORDER "i8";
	case NPUKB_DT_BOOL: return "|b1";
	case NPUKB_DT_COMPLEX64: return NPY_ORDER "c8";
	default: return NULL;
	}
}

/* The header text, padded with spaces and ended by '\n' so that the magic,
 * version, length and text add up to a multiple of NPY_ALIGN. */
static int format_header(enum npukb_dtype dt, const struct npukb_shape *shape, char *buf,
			 size_t len, size_t *out_len)
{
	size_t off = 0, total;
	int d;
	off += (size_t)snprintf(buf + off, len - off, "{'descr': '%s', 'fortran_order': False, 'shape': (",
				npukb_npy_descr(dt));
	for (d = 0; d < shape->rank && off < len; d++)
		off += (size_t)snprintf(buf + off, len - off, "%lld,%s", (long long)shape->dims[d],
					d + 1 < shape->rank ? " " : "");
	/* a 1-tuple keeps its comma: "(5,)"; longer tuples drop the last one */
	if (shape->rank > 1 && off < len)
		off--;
	if (off < len)
		off += (size_t)snprintf(buf + off, len - off, "), }");
	if (off + NPY_ALIGN >= len)
		return -EOVERFLOW;
	total = NPY_MAGIC_LEN + 2 + 2 + off + 1;
	while (total % NPY_ALIGN) {
		buf[off++] = ' ';
		total++;
	}
	buf[off++] = '\n';
	buf[off] = '\0';
	*out_len = off;
	return 0;
}

int npukb_npy_write(const char *path, enum npukb_dtype dt, const struct npukb_shape *shape,
		    const void *data, size_t numel, char *err, size_t errlen)
{
	char header[512];
	unsigned char pre[NPY_MAGIC_LEN + 4];
	size_t hlen, esize;
	FILE *f;
	int rc;

	if (!npukb_npy_descr(dt)) {
		snprintf(err, errlen, "%s: dtype %s has no .npy equivalent", path, npukb_dtype_name(dt));
		return -EINVAL;
	}
	if (shape->rank < 0 || shape->rank > NPUKB_MAX_DIMS || npukb_shape_numel(shape) != numel ||
	    (numel && !data)) {
		snprintf(err, errlen, "%s: shape does not match the %zu elements given", path, numel);
		return -EINVAL;
	}
	rc = format_header(dt, shape, header, sizeof(header), &hlen);
	if (rc) {
		snprintf(err, errlen, "%s: shape too long for a .npy header", path);
		return rc;
	}
	memcpy(pre, NPY_MAGIC, NPY_MAGIC_LEN);
	pre[6] = 1; /* version 1.0: header length fits 16 bits */
	pre[7] = 0;
	pre[8] = (unsigned char)(hlen & 0xff);
	pre[9] = (unsigned char)(hlen >> 8);

	f = fopen(path, "wbe");
	if (!f) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return rc;
	}
	rc = fwrite(pre, 1, sizeof(pre), f) == sizeof(pre) && fwrite(header, 1, hlen, f) == hlen ? 0
												 : -EIO;
	if (rc == 0 && dt == NPUKB_DT_BFLOAT16) {
		size_t i;
		for (i = 0; i < numel && rc == 0; i++) {
			float v = (float)npukb_load_as_double(dt, data, i);
			if (fwrite(&v, sizeof(v), 1, f) != 1)
				rc = -EIO;
		}
	} else if (rc == 0 && numel) {
		esize = npukb_dtype_size(dt);
		if (fwrite(data, esize, numel, f) != numel)
			rc = -EIO;
	}
	if (fclose(f) != 0 && rc == 0)
		rc = -EIO;
	if (rc) {
		snprintf(err, errlen, "%s: write failed", path);
		unlink(path);
	}
	return rc;
}

/* ---- reading headers ---------------------------------------------------------- */

static const char *after_key(const char *h, const char *key)
{
	const char *p = strstr(h, key);
	if (!p)
		return NULL;
	p += strlen(key);
	while (*p == ' ')
		p++;
	if (*p != ':')
		return NULL;
	p++;
	while (*p == ' ')
		p++;
	return p;
}

static int parse_header(const char *h, struct npukb_npy_header *out)
{
	const char *p, *q;
	size_t n;

	if (!(p = after_key(h, "'descr'")) || (*p != '\'' && *p != '"'))
		return -EINVAL;
	q = strchr(p + 1, *p);
	if (!q || (n = (size_t)(q - p - 1)) >= sizeof(out->descr))
		return -EINVAL;
	memcpy(out->descr, p + 1, n);
	out->descr[n] = '\0';

	if (!(p = after_key(h, "'fortran_order'")))
		return -EINVAL;
	if (strncmp(p, "True", 4) == 0)
		out->fortran_order = 1;
	else if (strncmp(p, "False", 5) == 0)
		out->fortran_order = 0;
	else
		return -EINVAL;

	if (!(p = after_key(h, "'shape'")) || *p != '(')
		return -EINVAL;
	p++;
	out->rank = 0;
	for (;;) {
		char *end;
		long long v;
		while (*p == ' ')
			p++;
		if (*p == ')')
			break;
		v = strtoll(p, &end, 10);
		if (end == p || v < 0 || out->rank == NPUKB_MAX_DIMS)
			return -EINVAL;
		out->dims[out->rank++] = v;
		p = end;
		while (*p == ' ')
			p++;
		if (*p == ',')
			p++;
		else if (*p != ')')
			return -EINVAL;
	}
	return 0;
}

int npukb_npy_read_header(const char *path, struct npukb_npy_header *out, char *err,
			  size_t errlen)
{
	unsigned char pre[12];
	size_t hlen, lenbytes;
	char *h = NULL;
	FILE *f;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	f = fopen(path, "rbe");
	if (!f) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return rc;
	}
	if (fread(pre, 1, 8, f) != 8 || memcmp(pre, NPY_MAGIC, NPY_MAGIC_LEN) != 0) {
		snprintf(err, errlen, "%s: not a .npy file (bad magic)", path);
		rc = -EINVAL;
		goto out;
	}
	out->major = pre[6];
	out->minor = pre[7];
	lenbytes = out->major == 1 ? 2 : 4;
	if ((out->major != 1 && out->major != 2) || fread(pre + 8, 1, lenbytes, f) != lenbytes) {
		snprintf(err, errlen, "%s: unsupported .npy version %u.%u", path, out->major,
			 out->minor);
		rc = -EINVAL;
		goto out;
	}
	hlen = (size_t)pre[8] | (size_t)pre[9] << 8;
	if (lenbytes == 4)
		hlen |= (size_t)pre[10] << 16 | (size_t)pre[11] << 24;
	if (hlen > (1u << 20) || !(h = malloc(hlen + 1)) || fread(h, 1, hlen, f) != hlen) {
		snprintf(err, errlen, "%s: truncated .npy header", path);
		rc = h || hlen > (1u << 20) ? -EINVAL : -ENOMEM;
		goto out;
	}
	h[hlen] = '\0';
	out->data_offset = 8 + lenbytes + hlen;
	if (parse_header(h, out) != 0) {
		snprintf(err, errlen, "%s: malformed .npy header: %s", path, h);
		rc = -EINVAL;
	}
out:
	free(h);
	fclose(f);
	return rc;
}

/* ---- reading data --------------------------------------------------------------- */

static void shape_text(const int64_t *dims, int rank, char *buf, size_t len)
{
	size_t off = (size_t)snprintf(buf, len, "(");
	for (int d = 0; d < rank && off < len; d++)
		off += (size_t)snprintf(buf + off, len - off, "%s%lld", d ? ", " : "",
					(long long)dims[d]);
	if (off < len)
		snprintf(buf + off, len - off, ")");
}

/* The bytes a file of this header must hold after its header. */
static int check_against(const char *path, const struct npukb_npy_header *h,
			 enum npukb_dtype dt, const struct npukb_shape *shape, size_t *fsize,
			 char *err, size_t errlen)
{
	const char *want = npukb_npy_descr(dt);
	char got_s[160], want_s[160];
	int same = h->rank == shape->rank;

	if (!want) {
		snprintf(err, errlen, "%s: dtype %s has no .npy equivalent", path, npukb_dtype_name(dt));
		return -EINVAL;
	}
	if (strcmp(h->descr, want) != 0) {
		snprintf(err, errlen, "%s: dtype '%s', the case needs %s ('%s')", path, h->descr,
			 npukb_dtype_name(dt), want);
		return -EINVAL;
	}
	if (h->fortran_order) {
		snprintf(err, errlen, "%s: Fortran order; write it in C order (numpy.ascontiguousarray)",
			 path);
		return -EINVAL;
	}
	for (int d = 0; same && d < shape->rank; d++)
		same = h->dims[d] == shape->dims[d];
	if (!same) {
		shape_text(h->dims, h->rank, got_s, sizeof(got_s));
		shape_text(shape->dims, shape->rank, want_s, sizeof(want_s));
		snprintf(err, errlen, "%s: shape %s, the case needs %s", path, got_s, want_s);
		return -EINVAL;
	}
	*fsize = dt == NPUKB_DT_BFLOAT16 ? 4 : npukb_dtype_size(dt);
	return 0;
}

int npukb_npy_read(const char *path, enum npukb_dtype dt, const struct npukb_shape *shape,
		   void *data, char *err, size_t errlen)
{
	struct npukb_npy_header h;
	size_t numel = npukb_shape_numel(shape), fsize = 0, want;
	struct stat st;
	FILE *f;
	int rc = npukb_npy_read_header(path, &h, err, errlen);

	if (rc == 0)
		rc = check_against(path, &h, dt, shape, &fsize, err, errlen);
	if (rc)
		return rc;
	want = numel * fsize;
	f = fopen(path, "rbe");
	if (!f) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return rc;
	}
	if (fstat(fileno(f), &st) != 0 || st.st_size < 0 ||
	    (size_t)st.st_size != h.data_offset + want) {
		snprintf(err, errlen, "%s: %s: %lld bytes of data, %zu elements need %zu", path,
			 (size_t)st.st_size < h.data_offset + want ? "truncated" : "trailing bytes",
			 (long long)st.st_size - (long long)h.data_offset, numel, want);
		rc = -EINVAL;
	} else if (data && fseek(f, (long)h.data_offset, SEEK_SET) != 0) {
		rc = -EIO;
	} else if (data && dt == NPUKB_DT_BFLOAT16) {
		for (size_t i = 0; i < numel && rc == 0; i++) {
			float v;
			if (fread(&v, sizeof(v), 1, f) != 1)
				rc = -EIO;
			else
				npukb_store_from_double(dt, data, i, v);
		}
	} else if (data && numel && fread(data, fsize, numel, f) != numel) {
		rc = -EIO;
	}
	if (rc == -EIO)
		snprintf(err, errlen, "%s: read error", path);
	fclose(f);
	return rc;
}
