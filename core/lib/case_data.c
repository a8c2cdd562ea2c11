/* case_data.c - lay out one (case, seed) as kernel-argument files.
 *
 * Tensors are files mapped MAP_SHARED: the backend maps the same files, so
 * a 1 GiB tensor exists once in memory, the kernel's writes are what we
 * read back, and input mutation shows as a change of the file's hash. */
#include <npukb/util.h>
#include <npukb/case_data.h>

#include "fsutil.h"
#include "data_cache.h"
#include "derive.h"
#include "inputs.h"
#include "ref_plugin.h"
#include "reference.h"
#include "tensor_pool.h"

#include <npukb/npy.h>

#include <errno.h>
#include <stdbool.h>
#include <math.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Room for user workspace in kernel-only mode until manifests declare it;
 * backends map it lazily, so unused space costs nothing. */
#define DEFAULT_WORKSPACE_BYTES (16u << 20)

/* *reused: the pages held an earlier seed's data (a pooled file). */
static int map_file(const char *path, size_t bytes, int create, void **out, int *reused)
{
	int fd, rc;
	void *m;
	*out = NULL;
	*reused = 0;
	if (create) {
		rc = npukb_tensor_pool_file(path, bytes, out, reused);
		if (rc != -ENOSYS)
			return rc;
	}
	fd = open(path, O_RDWR | O_CLOEXEC | (create ? O_CREAT | O_TRUNC : 0), 0644);
	if (fd < 0)
		return -errno;
	/* The blocks are reserved, not just the size set: a full disk is an
	 * error here, not a SIGBUS when the mapping is written. */
	if (create && bytes > 0) {
		int e = posix_fallocate(fd, 0, (off_t)bytes);
		if (e == EOPNOTSUPP || e == EINVAL) /* a file system without it */
			e = ftruncate(fd, (off_t)bytes) != 0 ? errno : 0;
		if (e) {
			close(fd);
			return -e;
		}
	}
	if (!create) {
		/* a backend may have truncated the file: mapping past its end
		 * would turn our reads into SIGBUS */
		struct stat st;
		if (fstat(fd, &st) != 0 || (size_t)st.st_size != bytes) {
			close(fd);
			return -EMSGSIZE;
		}
	}
	if (bytes == 0) {
		close(fd);
		return 0;
	}
	m = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return -errno;
	*out = m;
	return 0;
}

static void unmap(struct npukb_case_tensor *t)
{
	if (t->data && t->bytes && !npukb_tensor_pool_return(t->data))
		munmap(t->data, t->bytes);
	t->data = NULL;
}

static void *alloc_expected(size_t bytes)
{
	void *p = npukb_tensor_pool_buffer(bytes);
	return p ? p : malloc(bytes ? bytes : 1);
}

static void free_expected(void *p)
{
	if (!npukb_tensor_pool_return(p))
		free(p);
}

/* Pack fields as a C compiler lays out a struct of them: each field at its
 * natural alignment, the size rounded to the largest alignment; written
 * to *path (malloc'd: workdir/name), its size in *bytes. A struct of no
 * field is 8 zero bytes: kernels still get a valid pointer. */
static int pack_fields(const struct npukb_task *t, const struct npukb_case *c,
		       const struct npukb_tiling_field *fields, size_t n, const char *workdir,
		       const char *name, char **path, size_t *bytes, char *err, size_t errlen)
{
	unsigned char buf[4096];
	size_t off = 0, maxalign = 1, i;
	int rc;
	memset(buf, 0, sizeof(buf));
	for (i = 0; i < n; i++) {
		const struct npukb_tiling_field *f = &fields[i];
		size_t size = npukb_dtype_size(f->type);
		int64_t v = 0;
		double fval = 0;
		if (size == 0) {
			snprintf(err, errlen, "tiling field %s has no storable type", f->name);
			return -EINVAL;
		}
		if (f->type == NPUKB_DT_FLOAT32)
			rc = npukb_tiling_eval_float(t, c, f->expr, &fval, err, errlen);
		else
			rc = npukb_tiling_eval(t, c, f->expr, &v, err, errlen);
		if (rc)
			return rc;
		off = (off + size - 1) / size * size;
		if (size > maxalign)
			maxalign = size;
		if (off + size > sizeof(buf)) {
			snprintf(err, errlen, "tiling struct larger than %zu bytes", sizeof(buf));
			return -E2BIG;
		}
		if (f->type == NPUKB_DT_FLOAT32) {
			float fv = (float)fval;
			memcpy(buf + off, &fv, 4);
		} else if (size == 8) {
			memcpy(buf + off, &v, 8);
		} else if (size == 4) {
			uint32_t u = (uint32_t)v;
			if (f->is_unsigned ? (v < 0 || v > UINT32_MAX) : (v < INT32_MIN || v > INT32_MAX)) {
				snprintf(err, errlen, "tiling field %s = %lld does not fit its type",
					 f->name, (long long)v);
				return -ERANGE;
			}
			memcpy(buf + off, &u, 4);
		} else {
			snprintf(err, errlen, "tiling field %s: unsupported size %zu", f->name, size);
			return -EINVAL;
		}
		off += size;
	}
	off = (off + maxalign - 1) / maxalign * maxalign;
	if (off == 0)
		off = 8;
	if (asprintf(path, "%s/%s", workdir, name) < 0) {
		*path = NULL;
		return -ENOMEM;
	}
	*bytes = off;
	rc = npukb_write_file(*path, buf, off);
	if (rc)
		snprintf(err, errlen, "%s: %s", *path, strerror(-rc));
	return rc;
}

/* The kernel-only tiling struct, and each scalar parameter's value as a
 * struct of one field (scalar_<name>.bin). */
static int pack_tiling(const struct npukb_task *t, const struct npukb_case *c,
		       const char *workdir, struct npukb_case_data *d,
		       char *err, size_t errlen)
{
	int rc = pack_fields(t, c, t->tiling, t->ntiling, workdir, "tiling.bin", &d->tiling_path,
			     &d->tiling_bytes, err, errlen);

	for (size_t i = 0; rc == 0 && i < t->nparams; i++) {
		const struct npukb_param *p = &t->params[i];
		char *file;
		size_t bytes;

		if (p->role != NPUKB_PARAM_SCALAR || !p->scalar)
			continue;
		if (!d->scalar_paths) {
			d->scalar_paths = calloc(t->nparams, sizeof(char *));
			if (!d->scalar_paths)
				return -ENOMEM;
			d->nscalar_paths = t->nparams;
		}
		if (asprintf(&file, "scalar_%s.bin", p->name) < 0)
			return -ENOMEM;
		rc = pack_fields(t, c, p->scalar, 1, workdir, file, &d->scalar_paths[i], &bytes, err,
				 errlen);
		free(file);
	}
	return rc;
}

/* The gaps that align a list's members are no element of any member: the
 * kernel does not write them, so they stay poisoned in the expected result
 * too (and are skipped by the comparison), whatever a reference that works
 * on the flat buffer wrote there. */
static void poison_list_gaps(struct npukb_case_tensor *ct)
{
	size_t esize = npukb_dtype_size(ct->dtype), at = 0;

	for (size_t m = 0; m <= ct->nmembers; m++) {
		size_t start = m < ct->nmembers ? ct->member_offsets[m] : ct->numel;
		if (start > at)
			npukb_poison_fill(ct->dtype, (unsigned char *)ct->expected + at * esize,
					  start - at);
		if (m < ct->nmembers)
			at = start + npukb_shape_numel(&ct->members[m]);
	}
}

static int compute_reference(const struct npukb_task *t, const struct npukb_case *c,
			     struct npukb_case_data *d, char *err, size_t errlen)
{
	const struct npukb_reference *ref = NULL;
	struct npukb_ref_tensor *in, *out;
	struct npukb_ref_call call;
	size_t i, nin = 0, nout = 0;
	int rc = npukb_task_reference(t, &ref, err, errlen);

	if (rc)
		return rc;
	in = calloc(d->ntensors + 1, sizeof(*in));
	out = calloc(d->ntensors + 1, sizeof(*out));
	if (!in || !out) {
		free(in);
		free(out);
		return -ENOMEM;
	}
	/* An in-place tensor is both: its generated values as an input, and
	 * the copy the reference updates as an output. */
	for (i = 0; i < d->ntensors; i++) {
		struct npukb_case_tensor *ct = &d->tensors[i];
		for (int as_out = 0; as_out < 2; as_out++) {
			struct npukb_ref_tensor *rt;
			if (as_out ? !ct->is_output : (ct->is_output && !ct->is_inout))
				continue;
			rt = as_out ? &out[nout++] : &in[nin++];
			rt->name = ct->name;
			rt->dtype = ct->dtype;
			rt->shape = ct->shape;
			rt->numel = ct->numel;
			rt->data = as_out ? ct->expected : ct->data;
			rt->nmembers = ct->nmembers;
			rt->members = ct->members;
			rt->member_offsets = ct->member_offsets;
		}
	}
	call.task = t;
	call.kcase = c;
	call.in = in;
	call.nin = nin;
	call.out = out;
	call.nout = nout;
	rc = ref->fn(&call, err, errlen);
	for (i = 0; rc == 0 && i < d->ntensors; i++)
		if (d->tensors[i].is_output && !d->tensors[i].is_inout && d->tensors[i].nmembers)
			poison_list_gaps(&d->tensors[i]);
	free(in);
	free(out);
	return rc;
}

static int resolve_attr_dist(const struct npukb_case *c, const struct npukb_tensor_decl *td,
			     struct npukb_dist *dist, char *err, size_t errlen);

/* Only ranges can be empty: a bool's a is a probability, a normal's a mean. */
static bool dist_is_empty(const struct npukb_dist *dist)
{
	switch (dist->kind) {
	case NPUKB_DIST_UNIFORM:
	case NPUKB_DIST_INTEGER:
		return dist->a > dist->b;
	case NPUKB_DIST_SLICES:
		return dist->b < 1;
	default:
		return false;
	}
}

/* Bounds written as expressions take their value in the case. */
static int resolve_bounds(const struct npukb_task *t, const struct npukb_case *c,
			  const struct npukb_tensor_decl *td, struct npukb_dist *dist,
			  char *err, size_t errlen)
{
	int64_t v;
	int rc;

	if (td->dist.a_expr) {
		rc = npukb_tiling_eval(t, c, td->dist.a_expr, &v, err, errlen);
		if (rc < 0)
			return rc;
		dist->a = (double)v;
	}
	if (td->dist.b_expr) {
		rc = npukb_tiling_eval(t, c, td->dist.b_expr, &v, err, errlen);
		if (rc < 0)
			return rc;
		dist->b = (double)v;
	}
	if (dist_is_empty(dist)) {
		snprintf(err, errlen, "case %s: input %s has the empty range [%g, %g]", c->id,
			 td->name, dist->a, dist->b);
		return -EINVAL;
	}
	return 0;
}

/* An input holding a list attribute: element i is the i-th value. */
static int fill_from_list(const struct npukb_case *c, const struct npukb_tensor_decl *td,
			  struct npukb_case_tensor *ct, const char *text, char *err,
			  size_t errlen)
{
	long n = npukb_attr_list_parse(text, NULL, 0);
	double *vals;

	if (n < 0 || (size_t)n != ct->numel) {
		snprintf(err, errlen, "case %s: attribute %s = '%s' does not give the %zu values of input %s",
			 c->id, td->dist.attr, text, ct->numel, td->name);
		return -EINVAL;
	}
	vals = calloc((size_t)n + 1, sizeof(*vals));
	if (!vals)
		return -ENOMEM;
	npukb_attr_list_parse(text, vals, (size_t)n);
	for (long i = 0; i < n; i++)
		npukb_store_from_double(ct->dtype, ct->data, (size_t)i, vals[i]);
	free(vals);
	return 0;
}

/* plant-nonfinite: when the case's bool attribute is set, one to three
 * elements of one member (chosen by the seed) become +inf, -inf or NaN, so
 * a kernel must look at every member and every position to find them. */
static int plant_nonfinite(const struct npukb_task *t, const struct npukb_case *c,
			   const struct npukb_tensor_decl *td, struct npukb_case_tensor *ct,
			   struct npukb_rng *r, char *err, size_t errlen)
{
	static const double values[3] = { INFINITY, -INFINITY, NAN };
	const char *v = npukb_case_attr(c, td->dist.plant_nonfinite);
	size_t nmem = 1, first = 0, count = ct->numel, *offsets = NULL, m, k, n;
	const struct npukb_shape *members;
	int rc;

	if (!v || !(strcmp(v, "true") == 0 || strcmp(v, "1") == 0))
		return 0;
	if (td->is_list) {
		rc = npukb_case_tensor_members(t, c, td->name, &nmem, &members, &offsets, err,
					       errlen);
		if (rc < 0)
			return rc;
	}
	m = (size_t)(npukb_rng_next(r) % nmem);
	if (offsets) {
		first = offsets[m];
		count = npukb_shape_numel(&members[m]);
	}
	free(offsets);
	if (count == 0)
		return 0;
	n = 1 + (size_t)(npukb_rng_next(r) % 3);
	for (k = 0; k < n; k++)
		npukb_store_from_double(ct->dtype, ct->data,
					first + (size_t)(npukb_rng_next(r) % count),
					values[npukb_rng_next(r) % 3]);
	return 0;
}

/* kind="derived": the named function fills ct from the input it reads
 * (filled already: the loader has it declared earlier) or from its draw. */
static int fill_derived(const struct npukb_task *t, const struct npukb_case *c,
			const struct npukb_tensor_decl *td, const struct npukb_case_data *d,
			struct npukb_case_tensor *ct, struct npukb_rng *r, char *err, size_t errlen)
{
	const struct npukb_derive_fn *fn = npukb_derive_find(td->dist.derive_fn);
	struct npukb_derive_args g = { NULL, ct, r, -1, td->dist.a, td->dist.b };
	int rc;

	if (!fn) {
		snprintf(err, errlen, "input %s: no derive function %s", td->name,
			 td->dist.derive_fn ? td->dist.derive_fn : "?");
		return -EINVAL;
	}
	if (td->dist.from) {
		int k = npukb_task_tensor_index(t, td->dist.from);
		if (k < 0 || d->tensors[k].is_absent || !d->tensors[k].data) {
			snprintf(err, errlen, "case %s: input %s derives from %s, which it lacks", c->id,
				 td->name, td->dist.from);
			return -EINVAL;
		}
		g.from = &d->tensors[k];
	}
	if (td->dist.count_expr) {
		rc = npukb_tiling_eval(t, c, td->dist.count_expr, &g.count, err, errlen);
		if (rc < 0)
			return rc;
	}
	rc = fn->fill(&g, err, errlen);
	if (rc < 0 && err[0])
		snprintf(err + strlen(err), errlen - strlen(err), " (case %s, input %s)", c->id,
			 td->name);
	return rc;
}

static int fill_input(const struct npukb_task *t, const struct npukb_case *c,
		      const struct npukb_tensor_decl *td, const struct npukb_case_data *d,
		      struct npukb_case_tensor *ct, uint64_t seed, char *err, size_t errlen)
{
	struct npukb_rng r;
	struct npukb_dist dist = td->dist;
	const char *v;
	int rc;

	npukb_rng_seed(&r, seed, c->id, td->name);
	if (td->dist.kind == NPUKB_DIST_DERIVED)
		return fill_derived(t, c, td, d, ct, &r, err, errlen);
	if (td->dist.kind == NPUKB_DIST_ATTR) {
		v = npukb_case_attr(c, td->dist.attr);
		long nvals = v ? npukb_attr_list_parse(v, NULL, 0) : -1;
		/* One value is a scalar operand: resolve_attr_dist below. */
		if (nvals >= 0 && nvals != 1)
			return fill_from_list(c, td, ct, v, err, errlen);
	}
	rc = resolve_attr_dist(c, td, &dist, err, errlen);
	if (rc == 0)
		rc = resolve_bounds(t, c, td, &dist, err, errlen);
	if (rc == 0)
		rc = npukb_inputs_fill(ct->dtype, ct->data, ct->numel, &dist, &r, err, errlen);
	if (rc == 0 && td->dist.plant_nonfinite)
		rc = plant_nonfinite(t, c, td, ct, &r, err, errlen);
	return rc;
}

/* An input holding a case attribute becomes a constant "uniform" draw. */
static int resolve_attr_dist(const struct npukb_case *c, const struct npukb_tensor_decl *td,
			     struct npukb_dist *dist, char *err, size_t errlen)
{
	const char *v;
	char *end;
	double x;
	if (td->dist.kind != NPUKB_DIST_ATTR)
		return 0;
	v = npukb_case_attr(c, td->dist.attr);
	if (!v) {
		snprintf(err, errlen, "case %s gives no value for attribute %s (input %s)",
			 c->id, td->dist.attr ? td->dist.attr : "?", td->name);
		return -EINVAL;
	}
	if (strcmp(v, "true") == 0 || strcmp(v, "false") == 0) {
		x = v[0] == 't';
		end = (char *)v + strlen(v);
	} else {
		x = npukb_strtod(v, &end);
	}
	if (end == v || *end != '\0') {
		snprintf(err, errlen, "case %s: attribute %s = '%s' is not a number (input %s)",
			 c->id, td->dist.attr, v, td->name);
		return -EINVAL;
	}
	dist->kind = NPUKB_DIST_UNIFORM;
	dist->a = dist->b = x;
	dist->special = 0;
	return 0;
}

static int build_args(const struct npukb_task *t, struct npukb_case_data *d,
		      char *err, size_t errlen)
{
	size_t i;
	d->args = calloc(t->nparams ? t->nparams : 1, sizeof(*d->args));
	if (!d->args)
		return -ENOMEM;
	d->nargs = t->nparams;
	for (i = 0; i < t->nparams; i++) {
		const struct npukb_param *p = &t->params[i];
		struct npukb_kernel_arg *a = &d->args[i];
		a->role = p->role;
		if (p->role == NPUKB_PARAM_TILING) {
			a->path = d->tiling_path;
			a->bytes = d->tiling_bytes;
		} else if (p->role == NPUKB_PARAM_SCALAR) {
			struct stat st;

			a->path = d->scalar_paths ? d->scalar_paths[i] : NULL;
			if (!a->path || stat(a->path, &st) != 0) {
				snprintf(err, errlen, "scalar parameter %s has no value", p->name);
				return -EINVAL;
			}
			a->bytes = (size_t)st.st_size;
		} else if (p->role == NPUKB_PARAM_WORKSPACE) {
			a->bytes = d->workspace_bytes;
		} else {
			int k = npukb_task_tensor_index(t, npukb_param_tensor(p));
			if (k < 0) {
				snprintf(err, errlen, "kernel parameter %s names no tensor", p->name);
				return -EINVAL;
			}
			a->path = d->tensors[k].path;
			a->bytes = d->tensors[k].bytes;
			a->tensor = &d->tensors[k];
		}
	}
	return 0;
}

static uint64_t fnv1a(uint64_t h, const char *s)
{
	for (; s && *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ull;
	}
	return h;
}

static uint64_t splitmix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

uint64_t npukb_case_seed(const struct npukb_task *t, const struct npukb_case *c,
			 uint64_t base, unsigned s)
{
	uint64_t h = 0xcbf29ce484222325ull;
	h = fnv1a(h, t->id);
	h = fnv1a(h, "/");
	h = fnv1a(h, c->id);
	return splitmix64((base + s) ^ h);
}

/* A golden file names one of c's tensors (outputs_only: an output's). */
static bool case_has_golden(const struct npukb_task *t, const struct npukb_case *c,
			    int outputs_only)
{
	for (size_t i = 0; i < t->ntensors; i++)
		if ((!outputs_only || t->tensors[i].is_output) &&
		    npukb_case_golden(c, t->tensors[i].name))
			return true;
	return false;
}

/* with_reference 0: the kernel's arguments only (inputs, poisoned
 * outputs, tiling), no expected buffers, no reference, no input hashes. */
/* The (case, seed)'s inputs and expected outputs from a shared entry
 * (data_cache.h), into d's own files and buffers. */
static void copy_shared(struct npukb_case_data *d, const struct npukb_cache_blob *b,
			int with_reference)
{
	const struct npukb_case_tensor *ct;
	int expected;

	for (size_t i = 0; (ct = npukb_data_cache_part(d, i, &expected)) != NULL; i++) {
		struct npukb_case_tensor *w = &d->tensors[ct - d->tensors];
		if (!expected && w->bytes) {
			memcpy(w->data, b->part[i], w->bytes);
			if (with_reference)
				w->hash = npukb_content_hash(w->data, w->bytes);
		} else if (expected && with_reference && w->bytes) {
			memcpy(w->expected, b->part[i], w->bytes);
		}
	}
}

static int prepare(const struct npukb_task *t, const struct npukb_case *c, uint64_t seed,
		   const char *workdir, int with_reference, struct npukb_case_data *d, char *err,
		   size_t errlen)
{
	struct npukb_cache_blob shared;
	size_t i;
	int rc = 0, have = 0;
	bool golden_any;
	int reused;

	memset(d, 0, sizeof(*d));
	if (errlen)
		err[0] = '\0';
	d->seed = seed;
	d->block_dim = t->block_dim > 0 ? t->block_dim : 1;
	d->workspace_bytes = DEFAULT_WORKSPACE_BYTES;
	d->tensors = calloc(t->ntensors ? t->ntensors : 1, sizeof(*d->tensors));
	if (!d->tensors)
		return -ENOMEM;
	d->ntensors = t->ntensors;

	for (i = 0; i < t->ntensors && rc == 0; i++) {
		const struct npukb_tensor_decl *td = &t->tensors[i];
		struct npukb_case_tensor *ct = &d->tensors[i];
		const struct npukb_golden *golden;
		ct->name = strdup(td->name);
		ct->is_output = td->is_output;
		ct->is_inout = td->is_inout;
		if (!ct->name || asprintf(&ct->path, "%s/%s.bin", workdir, td->name) < 0) {
			ct->path = NULL;
			rc = -ENOMEM;
			break;
		}
		rc = npukb_case_tensor_dtype(t, c, td->name, &ct->dtype, err, errlen);
		if (rc == 0 && npukb_case_tensor_absent(c, td->name)) {
			ct->is_absent = 1;
			free(ct->path);
			ct->path = NULL;
			continue;
		}
		if (rc == 0)
			rc = npukb_case_tensor_shape(t, c, td->name, &ct->shape, err, errlen);
		if (rc)
			break;
		ct->numel = npukb_shape_numel(&ct->shape);
		ct->bytes = ct->numel * npukb_dtype_size(ct->dtype);
		rc = map_file(ct->path, ct->bytes, 1, &ct->data, &reused);
		/* a derived input may leave elements alone: they read as
		 * zeros, as in a new file */
		if (rc == 0 && reused && (!td->is_output || td->is_inout) &&
		    td->dist.kind == NPUKB_DIST_DERIVED)
			memset(ct->data, 0, ct->bytes);
		if (rc) {
			snprintf(err, errlen, "%s: cannot create %zu-byte tensor file: %s",
				 ct->path, ct->bytes, strerror(-rc));
			break;
		}
		if (td->is_list) {
			const struct npukb_shape *members;
			rc = npukb_case_tensor_members(t, c, td->name, &ct->nmembers, &members,
						       &ct->member_offsets, err, errlen);
			if (rc)
				break;
			ct->members = members;
		}
		if (td->is_output && with_reference) {
			ct->expected = alloc_expected(ct->bytes);
			if (!ct->expected) {
				snprintf(err, errlen, "out of memory for the expected %s (%zu bytes)",
					 td->name, ct->bytes);
				rc = -ENOMEM;
				break;
			}
		}
		golden = npukb_case_golden(c, td->name);
		if (td->is_output && !td->is_inout) {
			if (with_reference && golden)
				rc = npukb_npy_read(golden->path, ct->dtype, &ct->shape, ct->expected,
						    err, errlen);
			else if (with_reference)
				npukb_poison_fill(ct->dtype, ct->expected, ct->numel);
			npukb_poison_fill(ct->dtype, ct->data, ct->numel);
		}
	}
	/* computed for an earlier sample or run: a copy of its own. Golden
	 * files are read every time: the cache's key does not hold them. */
	golden_any = case_has_golden(t, c, 0);
	if (rc == 0 && !golden_any && npukb_data_cache_find(t, c, seed, d, &shared) == 0) {
		copy_shared(d, &shared, with_reference);
		npukb_cache_blob_free(&shared);
		have = 1;
	}
	/* the inputs in declaration order: a derived one reads those before */
	for (i = 0; rc == 0 && !have && i < t->ntensors; i++) {
		const struct npukb_tensor_decl *td = &t->tensors[i];
		struct npukb_case_tensor *ct = &d->tensors[i];
		const struct npukb_golden *golden;
		if (ct->is_absent || (td->is_output && !td->is_inout))
			continue;
		golden = npukb_case_golden(c, td->name);
		if (golden)
			rc = npukb_npy_read(golden->path, ct->dtype, &ct->shape, ct->data, err,
					    errlen);
		else
			rc = fill_input(t, c, td, d, ct, seed, err, errlen);
		if (with_reference) {
			ct->hash = npukb_content_hash(ct->data, ct->bytes);
			/* The reference updates its copy of an in-place
			 * tensor. */
			if (rc == 0 && td->is_inout)
				memcpy(ct->expected, ct->data, ct->bytes);
		}
	}
	/* A case with golden outputs has them all (the loader checks). */
	if (rc == 0 && with_reference && !have && !case_has_golden(t, c, 1)) {
		rc = compute_reference(t, c, d, err, errlen);
		/* before any kernel has seen these files */
		if (rc == 0 && !golden_any)
			npukb_data_cache_keep(t, c, seed, d);
	}
	if (rc == 0)
		rc = pack_tiling(t, c, workdir, d, err, errlen);
	if (rc == 0)
		rc = build_args(t, d, err, errlen);
	if (rc == -ENOMEM && err[0] == '\0')
		snprintf(err, errlen, "out of memory preparing case %s", c->id);
	if (rc)
		npukb_case_data_free(d);
	/* what the previous seed left and this one did not take */
	npukb_tensor_pool_trim();
	return rc;
}

int npukb_case_data_prepare(const struct npukb_task *t, const struct npukb_case *c,
			    uint64_t seed, const char *workdir,
			    struct npukb_case_data *d, char *err, size_t errlen)
{
	return prepare(t, c, seed, workdir, 1, d, err, errlen);
}

int npukb_case_data_prepare_args(const struct npukb_task *t, const struct npukb_case *c,
				 uint64_t seed, const char *workdir,
				 struct npukb_case_data *d, char *err, size_t errlen)
{
	return prepare(t, c, seed, workdir, 0, d, err, errlen);
}

int npukb_case_data_load_outputs(struct npukb_case_data *d, char *err, size_t errlen)
{
	size_t i;
	for (i = 0; i < d->ntensors; i++) {
		struct npukb_case_tensor *ct = &d->tensors[i];
		int rc, reused;
		if (!ct->is_output)
			continue;
		rc = npukb_tensor_pool_check(ct->data, ct->path);
		if (rc == 1)
			continue; /* the kept file, whole: its mapping shows the kernel's writes */
		if (rc == 2)
			ct->data = NULL; /* replaced: the pool has dropped its mapping */
		unmap(ct);
		if (rc >= 0)
			rc = map_file(ct->path, ct->bytes, 0, &ct->data, &reused);
		if (rc) {
			snprintf(err, errlen, "%s: cannot read the output back: %s", ct->path,
				 rc == -EMSGSIZE ? "its size changed during the run" : strerror(-rc));
			return rc;
		}
	}
	return 0;
}

const char *npukb_case_data_mutated_input(const struct npukb_case_data *d)
{
	size_t i;
	for (i = 0; i < d->ntensors; i++) {
		const struct npukb_case_tensor *ct = &d->tensors[i];
		if (!ct->is_output && ct->data && npukb_content_hash(ct->data, ct->bytes) != ct->hash)
			return ct->name;
	}
	return NULL;
}

void npukb_case_data_free(struct npukb_case_data *d)
{
	size_t i;
	for (i = 0; i < d->ntensors; i++) {
		struct npukb_case_tensor *ct = &d->tensors[i];
		unmap(ct);
		free(ct->name);
		free(ct->path);
		free_expected(ct->expected);
		free(ct->member_offsets);
	}
	free(d->tensors);
	free(d->tiling_path);
	for (i = 0; i < d->nscalar_paths; i++)
		free(d->scalar_paths[i]);
	free(d->scalar_paths);
	free(d->args);
	memset(d, 0, sizeof(*d));
}

void npukb_case_data_discard(struct npukb_case_data *d)
{
	size_t i;
	for (i = 0; i < d->ntensors; i++) {
		struct npukb_case_tensor *ct = &d->tensors[i];
		if (ct->data && npukb_tensor_pool_keep(ct->data))
			ct->data = NULL;
		else if (ct->path)
			unlink(ct->path);
	}
	if (d->tiling_path)
		unlink(d->tiling_path);
	for (i = 0; i < d->nscalar_paths; i++)
		if (d->scalar_paths[i])
			unlink(d->scalar_paths[i]);
	npukb_case_data_free(d);
}
