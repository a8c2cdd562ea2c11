/* correctness.c - the correctness stage: run a built sample on one case
 * over several seeds and hold its outputs against the reference.
 *
 * Per seed: lay out the case data (inputs, poisoned outputs, expected
 * results) in a private folder, run the kernel through the backend, then
 * check in order of what is most telling: the run's fate, the output files'
 * sizes (shape), the inputs (input-mutated), unwritten elements
 * (unwritten-output), and finally the values under the task's tolerance rule
 * (nan-inf, mismatch). The first failing seed decides the verdict. The
 * arithmetic lives in compare.c. */
#include <npukb/parallel.h>
#include <npukb/plugin.h>
#include <npukb/npy.h>
#include <npukb/util.h>

#include "compare.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Bad elements listed in a verdict's details. */
#define DETAIL_ELEMENTS NPUKB_COMPARE_MAX_SAMPLES

/* ---- small helpers ---------------------------------------------------------- */

/* Append id to buf as a tame path part: ids become folder names, and a
 * task id keeps its slashes as subfolders, but nothing may climb out. */
static void append_tame(char *buf, size_t len, const char *id, int keep_slash)
{
	size_t off = strlen(buf);
	const char *start = id;
	for (; *id && off + 1 < len; id++) {
		char c = *id;
		int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			 c == '-' || c == '_' || (c == '.' && id != start && id[-1] != '/') ||
			 (c == '/' && keep_slash);
		buf[off++] = ok ? c : '_';
	}
	buf[off] = '\0';
}

/* h folded with a hash of buf: npukb_content_hash reads 32 bytes a step
 * in four lanes (a byte-wise loop here cost half a second per seed on a
 * 67M-element output); the hashes are only compared within one run. */
static uint64_t hash_bytes(uint64_t h, const void *buf, size_t len)
{
	h ^= npukb_content_hash(buf, len);
	h *= 0x100000001b3ull;
	return h ^ (h >> 29);
}

/* Replace a verdict string with a printf-formatted one. */
static void set_text(char **slot, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_text(char **slot, const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	free(*slot);
	*slot = s;
}

/* A growing text buffer for details; on allocation failure it keeps what it
 * has (details are a courtesy, the verdict stands without them). */
struct text {
	char *buf;
	size_t len, cap;
};

static void text_add(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void text_add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (t->len + (size_t)n + 1 > t->cap) {
		size_t cap = (t->cap ? t->cap * 2 : 256) + (size_t)n;
		char *nb = realloc(t->buf, cap);
		if (!nb)
			return;
		t->buf = nb;
		t->cap = cap;
	}
	va_start(ap, fmt);
	vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
	va_end(ap);
	t->len += (size_t)n;
}

static const char *fmt_g(double v, char *buf, size_t len)
{
	return npukb_compare_format_g(v, 4, buf, len);
}

/* "(0, 3, 17)" for a flat index into a row-major shape. */
static void format_coords(const struct npukb_shape *s, size_t index, char *buf, size_t len)
{
	size_t coords[NPUKB_MAX_DIMS];
	size_t off = 0;
	int d;
	if (s->rank <= 1 || s->rank > NPUKB_MAX_DIMS) {
		buf[0] = '\0';
		return;
	}
	for (d = s->rank - 1; d >= 0; d--) {
		size_t dim = s->dims[d] > 0 ? (size_t)s->dims[d] : 1;
		coords[d] = index % dim;
		index /= dim;
	}
	off += (size_t)snprintf(buf + off, len - off, " (");
	for (d = 0; d < s->rank && off < len; d++)
		off += (size_t)snprintf(buf + off, len - off, "%s%zu", d ? ", " : "", coords[d]);
	if (off < len)
		snprintf(buf + off, len - off, ")");
}

static void format_shape(const struct npukb_shape *s, char *buf, size_t len)
{
	size_t off = 0;
	int d;
	off += (size_t)snprintf(buf, len, "[");
	for (d = 0; d < s->rank && off < len; d++)
		off += (size_t)snprintf(buf + off, len - off, "%s%lld", d ? ", " : "",
					(long long)s->dims[d]);
	if (off < len)
		snprintf(buf + off, len - off, "]");
}

/* An element's value as text; complex64 as "(re, im)". */
static void format_element(enum npukb_dtype dt, double re, double im, char *buf, size_t len)
{
	char a[40], b[40];
	if (dt == NPUKB_DT_COMPLEX64)
		snprintf(buf, len, "(%s, %s)", npukb_compare_format_value(dt, re, a, sizeof(a)),
			 npukb_compare_format_value(dt, im, b, sizeof(b)));
	else
		npukb_compare_format_value(dt, re, buf, len);
}

static void internal_error(struct npukb_verdict *out, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void internal_error(struct npukb_verdict *out, const char *fmt, ...)
{
	va_list ap;
	char msg[1024];
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	npukb_verdict_fail(out, "internal-error", "%s", msg);
}

/* ---- the run's fate ------------------------------------------------------------ */

static void fail_run(struct npukb_verdict *out, const struct npukb_run_result *r, unsigned s)
{
	const char *cat = npukb_run_category(r);
	char what[256];
	int clean_exit = r->proc.kind == NPUKB_EXIT_NORMAL && r->proc.exit_code == 0;
	if (r->proc.kind == NPUKB_EXIT_NORMAL)
		snprintf(what, sizeof(what), "exited with status %d", r->proc.exit_code);
	else
		npukb_sandbox_describe(&r->proc, what, sizeof(what));
	/* A check failure reported by a process that exited cleanly needs no
	 * "exited with status 0" beside it. */
	/* Nor does a message that already says what the sandbox said. */
	if (r->message && *r->message && (clean_exit || strstr(r->message, what)))
		npukb_verdict_fail(out, cat, "seed %u: %s", s, r->message);
	else if (r->message && *r->message)
		npukb_verdict_fail(out, cat, "seed %u: %s (%s)", s, r->message, what);
	else
		npukb_verdict_fail(out, cat, "seed %u: %s", s, what);
	npukb_verdict_set_excerpt(out, r->diagnostics, NPUKB_EXCERPT_MAX);
}

/* ---- output checks -------------------------------------------------------------- */

/* A backend that replaced an output file with one of another size produced
 * a tensor of another shape; reading such a mapping would also fault. */
static int check_output_sizes(const struct npukb_case_data *d, struct npukb_verdict *out,
			      unsigned s)
{
	size_t i;
	for (i = 0; i < d->ntensors; i++) {
		const struct npukb_case_tensor *t = &d->tensors[i];
		struct stat sb;
		if (!t->is_output)
			continue;
		if (stat(t->path, &sb) != 0) {
			npukb_verdict_fail(out, "shape", "seed %u: output %s is gone after the run",
					   s, t->name);
			return 1;
		}
		if ((size_t)sb.st_size != t->bytes) {
			npukb_verdict_fail(out, "shape",
					   "seed %u: output %s has %lld bytes after the run, expected %zu (%zu elements of %s)",
					   s, t->name, (long long)sb.st_size, t->bytes, t->numel,
					   npukb_dtype_name(t->dtype));
			return 1;
		}
	}
	return 0;
}

/* " (member m, element j)" for flat index i of a tensor list, else "". */
static void list_position(const struct npukb_case_tensor *t, size_t i, char *buf, size_t len)
{
	buf[0] = '\0';
	for (size_t m = t->nmembers; m-- > 0;)
		if (t->member_offsets[m] <= i) {
			if (i - t->member_offsets[m] < npukb_shape_numel(&t->members[m]))
				snprintf(buf, len, " (member %zu, element %zu)", m, i - t->member_offsets[m]);
			else
				snprintf(buf, len, " (in the gap after member %zu)", m);
			return;
		}
}

/* Elements of the tensor (of its members, for a list). */
static size_t element_count(const struct npukb_case_tensor *t)
{
	size_t n = 0;

	if (!t->nmembers)
		return t->numel;
	for (size_t m = 0; m < t->nmembers; m++)
		n += npukb_shape_numel(&t->members[m]);
	return n;
}

/* Elements still holding the poison pattern were never written. Where the
 * reference itself has the poison's bits (possible for int8/uint8) the
 * element cannot tell, and counts as written. */
struct unwritten_part {
	size_t count, nlisted;
	size_t listed[DETAIL_ELEMENTS];
};

struct unwritten_scan {
	const struct npukb_case_tensor *t;
	struct unwritten_part part[NPUKB_PARALLEL_MAX_PARTS];
};

static void scan_unwritten(void *ctx, unsigned p, size_t begin, size_t end)
{
	struct unwritten_scan *sc = ctx;
	struct unwritten_part *up = &sc->part[p];
	const struct npukb_case_tensor *t = sc->t;
	size_t i;
	up->count = up->nlisted = 0;
	/* from one poisoned element of the output to the next */
	for (i = begin; (i = npukb_poison_find(t->dtype, t->data, i, end)) < end; i++) {
		if (npukb_is_poison(t->dtype, t->expected, i))
			continue;
		if (up->nlisted < DETAIL_ELEMENTS)
			up->listed[up->nlisted++] = i;
		up->count++;
	}
}

static int check_unwritten(const struct npukb_case_tensor *t, struct npukb_verdict *out,
			   unsigned s)
{
	size_t count = 0, first = 0, listed = 0, k;
	struct text det = { 0 };
	char pos[64];
	unsigned parts = npukb_parallel_parts(t->numel, NPUKB_PARALLEL_GRAIN), p;
	struct unwritten_scan sc; /* a few KiB: one block of indices per part */

	sc.t = t;
	npukb_parallel_run(t->numel, parts, scan_unwritten, &sc);
	/* the parts in index order: the first indices of all of them */
	for (p = 0; p < parts; p++) {
		const struct unwritten_part *up = &sc.part[p];
		for (k = 0; k < up->nlisted && listed < DETAIL_ELEMENTS; k++) {
			if (listed == 0) {
				first = up->listed[0];
				text_add(&det, "output %s, seed %u: first unwritten element indices:",
					 t->name, s);
			}
			text_add(&det, "%s %zu", listed ? "," : "", up->listed[k]);
			listed++;
		}
		count += up->count;
	}
	if (count == 0)
		return 0;
	if (count > listed)
		text_add(&det, ", ...");
	text_add(&det, "\n");
	list_position(t, first, pos, sizeof(pos));
	npukb_verdict_fail(out, "unwritten-output",
			   "unwritten output %s (seed %u): %zu of %zu elements never written; first at index %zu%s",
			   t->name, s, count, element_count(t), first, pos);
	out->has_error_stats = 0;
	out->bad_count = (long long)count;
	out->first_bad_index = (long long)first;
	npukb_verdict_set_details(out, det.buf);
	free(det.buf);
	return 1;
}

/* The gemm rule loosens with the reduction length K. Manifests do not name
 * K, so take an attribute "K" when the case has one, else the contracted
 * dimension of the first input: its last dimension, or the one before when
 * an attribute says it is transposed. */
static int gemm_k_ge_2048(const struct npukb_case *c, const struct npukb_case_data *d)
{
	static const char *const k_names[] = { "K", "k" };
	static const char *const trans_names[] = { "transpose_x1", "transpose_a", "trans_a",
						   "adj_x1", "transposeA" };
	const struct npukb_case_tensor *first = NULL;
	size_t i;
	int transposed = 0;
	for (i = 0; i < sizeof(k_names) / sizeof(k_names[0]); i++) {
		const char *v = npukb_case_attr(c, k_names[i]);
		if (v)
			return strtoll(v, NULL, 10) >= 2048;
	}
	for (i = 0; i < sizeof(trans_names) / sizeof(trans_names[0]); i++) {
		const char *v = npukb_case_attr(c, trans_names[i]);
		if (v && (strcmp(v, "1") == 0 || strcasecmp(v, "true") == 0))
			transposed = 1;
	}
	for (i = 0; i < d->ntensors && !first; i++)
		if (!d->tensors[i].is_output)
			first = &d->tensors[i];
	if (!first || first->shape.rank < 1)
		return 0;
	if (transposed && first->shape.rank >= 2)
		return first->shape.dims[first->shape.rank - 2] >= 2048;
	return first->shape.dims[first->shape.rank - 1] >= 2048;
}

static void load_element(enum npukb_dtype dt, const void *buf, size_t i, double *re, double *im)
{
	if (dt == NPUKB_DT_COMPLEX64) {
		*re = npukb_load_as_double(NPUKB_DT_FLOAT32, buf, 2 * i);
		*im = npukb_load_as_double(NPUKB_DT_FLOAT32, buf, 2 * i + 1);
	} else {
		*re = npukb_load_as_double(dt, buf, i);
		*im = 0;
	}
}

/* Fill a failing verdict from the statistics of one output. */
static void fail_values(const struct npukb_case_tensor *t, const struct npukb_compare_stats *st,
			unsigned s, uint64_t seed, unsigned nseeds, struct npukb_verdict *out)
{
	char tol[96], shape[160], g1[32], g2[32], ev[96], av[96], coords[160], pos[64];
	struct text det = { 0 };
	int nan_inf = st->nan_inf_bad > 0;
	size_t first = nan_inf ? st->first_nan_inf : st->first_bad;
	double e_re, e_im, a_re, a_im;
	size_t i;

	npukb_compare_describe_tolerance(st, tol, sizeof(tol));
	format_shape(&t->shape, shape, sizeof(shape));
	load_element(t->dtype, t->expected, first, &e_re, &e_im);
	load_element(t->dtype, t->data, first, &a_re, &a_im);
	format_element(t->dtype, e_re, e_im, ev, sizeof(ev));
	format_element(t->dtype, a_re, a_im, av, sizeof(av));
	list_position(t, first, pos, sizeof(pos));

	if (nan_inf) {
		npukb_verdict_fail(out, "nan-inf",
				   "nan-inf in %s (seed %u): %zu of %zu elements are NaN/Inf where the reference is finite (%zu bad in all under %s); first at index %zu%s: expected %s, got %s",
				   t->name, s, st->nan_inf_bad, st->checked, st->bad, tol, first, pos, ev, av);
	} else {
		char allowed[96] = "";
		if (st->rule == NPUKB_RULE_RATIO && !st->exact)
			snprintf(allowed, sizeof(allowed), " (the ratio rule allows %zu)",
				 st->allowed_bad);
		else if (st->rule == NPUKB_RULE_QUANT_INT8 && st->exact)
			snprintf(allowed, sizeof(allowed), " (%zu of them one off)", st->off_by_one);
		npukb_verdict_fail(out, "mismatch",
				   "mismatch in %s (seed %u): %zu of %zu elements outside %s%s; max abs err %s at %zu, max rel err %s at %zu; first bad index %zu%s: expected %s, got %s",
				   t->name, s, st->bad, st->checked, tol, allowed,
				   fmt_g(st->max_abs, g1, sizeof(g1)), st->max_abs_index,
				   fmt_g(st->max_rel, g2, sizeof(g2)), st->max_rel_index, first, pos, ev, av);
	}
	out->has_error_stats = 1;
	out->max_abs_err = st->max_abs;
	out->max_rel_err = st->max_rel;
	out->bad_count = (long long)st->bad;
	out->first_bad_index = (long long)first;
	out->expected_at_first = e_re;
	out->actual_at_first = a_re;

	text_add(&det, "output %s: %s %s, rule %s (%s)\n", t->name, npukb_dtype_name(t->dtype),
		 shape, st->rule_name, tol);
	text_add(&det, "seed %u of %u (seed value 0x%016llx)\n", s, nseeds,
		 (unsigned long long)seed);
	text_add(&det, "%zu of %zu elements bad", st->bad, st->checked);
	if (st->nan_inf_bad)
		text_add(&det, ", %zu NaN/Inf where the reference is finite", st->nan_inf_bad);
	if (st->special_bad)
		text_add(&det, ", %zu where the reference is NaN/Inf and the output is not the same",
			 st->special_bad);
	text_add(&det, "\nmax abs err %s at %zu, max rel err %s at %zu\n",
		 fmt_g(st->max_abs, g1, sizeof(g1)), st->max_abs_index,
		 fmt_g(st->max_rel, g2, sizeof(g2)), st->max_rel_index);
	text_add(&det, "first %zu bad elements:\n", st->nsamples);
	for (i = 0; i < st->nsamples; i++) {
		const struct npukb_compare_bad *b = &st->samples[i];
		format_coords(&t->shape, b->index, coords, sizeof(coords));
		format_element(t->dtype, b->expected, b->expected_im, ev, sizeof(ev));
		format_element(t->dtype, b->actual, b->actual_im, av, sizeof(av));
		if (b->nonfinite || !(b->abs_err > 0))
			text_add(&det, "  [%zu]%s expected %s, got %s\n", b->index, coords, ev, av);
		else
			text_add(&det, "  [%zu]%s expected %s, got %s (abs err %s)\n", b->index,
				 coords, ev, av, fmt_g(b->abs_err, g1, sizeof(g1)));
	}
	/* where the bad elements lie, for the report's plot: one count per
	 * equal slice of the flat index range */
	text_add(&det, "bad by position (%d bins over %zu elements):", NPUKB_COMPARE_BINS,
		 st->checked);
	for (i = 0; i < NPUKB_COMPARE_BINS; i++)
		text_add(&det, " %zu", st->bad_bins[i]);
	text_add(&det, "\n");
	if (nan_inf && first != st->first_bad) {
		format_coords(&t->shape, first, coords, sizeof(coords));
		format_element(t->dtype, e_re, e_im, ev, sizeof(ev));
		format_element(t->dtype, a_re, a_im, av, sizeof(av));
		text_add(&det, "first NaN/Inf: [%zu]%s expected %s, got %s\n", first, coords, ev, av);
	}
	npukb_verdict_set_details(out, det.buf);
	free(det.buf);
}

/* ---- one seed ------------------------------------------------------------------- */

struct totals {
	double max_abs, max_rel;
	long long tolerated_bad; /* ratio: bad elements within the budget */
	size_t outputs;
	unsigned first_seed;     /* outputs are counted on this seed only */
	/* the first seed's launch, when the backend's cycles are a model's */
	int has_cost;
	double cycles, time_us;
};

/* Remove the files case_data created, so five seeds of a large case do not
 * hold five copies on disk; what the backend left stays for the core. */
/* What one seed's run produced, for the constant-output check: a hash of
 * all inputs, of all reference outputs and of all actual outputs. */
struct seed_hashes {
	int valid;
	uint64_t inputs, expected, outputs;
};

static void take_hashes(const struct npukb_case_data *d, struct seed_hashes *h)
{
	size_t i;
	h->inputs = h->expected = h->outputs = 0xcbf29ce484222325ull;
	for (i = 0; i < d->ntensors; i++) {
		const struct npukb_case_tensor *t = &d->tensors[i];
		if (!t->is_output) {
			h->inputs = hash_bytes(h->inputs, &t->hash, sizeof(t->hash));
		} else if (t->data && t->expected) {
			h->expected = hash_bytes(h->expected, t->expected, t->bytes);
			h->outputs = hash_bytes(h->outputs, t->data, t->bytes);
		} else {
			return;
		}
	}
	h->valid = 1;
}

/* Write the tensors of a failing seed as .npy files: each input as
 * <name>.npy (as it is after the run), each output as <name>.npy (what the
 * kernel wrote) and <name>.expected.npy (the reference). Returns the
 * folder (malloc'd) or NULL; a dump that fails leaves a note instead. */
static char *dump_tensors(const struct npukb_stage_ctx *ctx, struct npukb_case_data *d,
			  unsigned s, int outputs_loaded, char *note, size_t notelen)
{
	char dir[4096], path[4352], err[1024], tail[64];
	size_t i;
	int rc;

	note[0] = '\0';
	if (!outputs_loaded && npukb_case_data_load_outputs(d, err, sizeof(err)) != 0) {
		snprintf(note, notelen, "tensors not dumped: %s", err);
		return NULL;
	}
	snprintf(dir, sizeof(dir), "%s/", ctx->options->dump_dir);
	append_tame(dir, sizeof(dir), ctx->task->id, 1);
	snprintf(dir + strlen(dir), sizeof(dir) - strlen(dir), "/");
	append_tame(dir, sizeof(dir), ctx->sample->id ? ctx->sample->id : "sample", 0);
	snprintf(dir + strlen(dir), sizeof(dir) - strlen(dir), "/case-");
	append_tame(dir, sizeof(dir), ctx->kcase->id, 0);
	snprintf(tail, sizeof(tail), "-seed-%u", s);
	if (strlen(dir) + strlen(tail) + 1 >= sizeof(dir)) {
		snprintf(note, notelen, "tensors not dumped: path too long");
		return NULL;
	}
	strcat(dir, tail);
	rc = npukb_mkdir_p(dir, 0755); /* the dump folders are for people to read */
	for (i = 0; rc == 0 && i < d->ntensors; i++) {
		const struct npukb_case_tensor *t = &d->tensors[i];
		snprintf(path, sizeof(path), "%s/", dir);
		append_tame(path, sizeof(path), t->name, 0);
		strcat(path, ".npy");
		if (t->data)
			rc = npukb_npy_write(path, t->dtype, &t->shape, t->data, t->numel, err,
					     sizeof(err));
		if (rc == 0 && t->is_output && t->expected) {
			snprintf(path, sizeof(path), "%s/", dir);
			append_tame(path, sizeof(path), t->name, 0);
			strcat(path, ".expected.npy");
			rc = npukb_npy_write(path, t->dtype, &t->shape, t->expected, t->numel, err,
					     sizeof(err));
		}
		if (rc)
			snprintf(note, notelen, "tensors not dumped: %s", err);
	}
	if (rc == 0 && npukb_mkdir_p(dir, 0755) != 0)
		rc = -EIO;
	if (rc) {
		if (!note[0])
			snprintf(note, notelen, "tensors not dumped: cannot create %s", dir);
		return NULL;
	}
	return strdup(dir);
}

/* Add "tensors dumped to DIR" (or why not) to a failing verdict. */
static void note_dump(struct npukb_verdict *out, const char *dir, const char *note)
{
	struct text t = { 0 };
	if (out->details)
		text_add(&t, "%s%s", out->details,
			 out->details[0] && out->details[strlen(out->details) - 1] != '\n' ? "\n" : "");
	if (dir)
		text_add(&t, "tensors dumped to %s\n", dir);
	else
		text_add(&t, "%s\n", note);
	if (t.buf)
		npukb_verdict_set_details(out, t.buf);
	free(t.buf);
}

/* 0: this seed passed; 1: out holds the verdict; < 0: npukb itself failed
 * (out holds an "internal-error" verdict saying why). */
static int judge_seed(struct npukb_stage_ctx *ctx, unsigned s, unsigned nseeds,
		      struct totals *tot, struct seed_hashes *hashes, struct npukb_verdict *out)
{
	const struct npukb_task *t = ctx->task;
	uint64_t seed = npukb_case_seed(t, ctx->kcase, ctx->options ? ctx->options->base_seed : 0, s);
	struct npukb_case_data data;
	struct npukb_run_request req;
	struct npukb_run_result res;
	char dir[4096], err[1024];
	const char *mutated;
	int rc, verdict = 0, kge = -1, loaded = 0, ran = 0;
	size_t i;

	if (hashes)
		hashes->valid = 0;

	if ((size_t)snprintf(dir, sizeof(dir), "%s/seed-%u", ctx->workdir, s) >= sizeof(dir)) {
		internal_error(out, "work directory path too long: %s", ctx->workdir);
		return -ENAMETOOLONG;
	}
	rc = npukb_mkdir_p(dir, 0700);
	if (rc) {
		internal_error(out, "cannot create %s: %s", dir, strerror(-rc));
		return rc;
	}
	rc = npukb_case_data_prepare(t, ctx->kcase, seed, dir, &data, err, sizeof(err));
	if (rc) {
		internal_error(out, "seed %u: cannot prepare case %s: %s", s, ctx->kcase->id, err);
		return rc < 0 ? rc : -EIO;
	}

	memset(&req, 0, sizeof(req));
	memset(&res, 0, sizeof(res));
	req.task = t;
	req.kcase = ctx->kcase;
	req.sample = ctx->sample;
	req.options = ctx->options;
	req.artifact = ctx->artifact;
	req.workdir = dir;
	req.data = &data;
	req.want_timing = 0;
	rc = npukb_backend_run(ctx->backend, &req, &res);
	if (rc < 0) {
		internal_error(out, "seed %u: backend %s could not run the sample: %s", s,
			       npukb_backend_name(ctx->backend),
			       res.message ? res.message : strerror(-rc));
		goto done;
	}
	rc = 0;
	ran = 1;
	/* listed beside the outcome whatever it is (pass or fail) */
	npukb_verdict_add_defects(out, res.defects);
	if (res.skipped) {
		npukb_verdict_skip(out, "%s", res.message ? res.message : "backend cannot run here");
		verdict = 1;
		goto done;
	}
	if (!res.ok) {
		fail_run(out, &res, s);
		verdict = 1;
		goto done;
	}

	if (check_output_sizes(&data, out, s)) {
		verdict = 1;
		goto done;
	}
	rc = npukb_case_data_load_outputs(&data, err, sizeof(err));
	if (rc) {
		internal_error(out, "seed %u: %s", s, err);
		rc = rc < 0 ? rc : -EIO;
		goto done;
	}
	loaded = 1;
	if (hashes)
		take_hashes(&data, hashes);
	mutated = npukb_case_data_mutated_input(&data);
	if (mutated) {
		npukb_verdict_fail(out, "input-mutated",
				   "input %s was modified by the kernel (seed %u)", mutated, s);
		verdict = 1;
		goto done;
	}

	for (i = 0; i < data.ntensors && !verdict; i++) {
		struct npukb_case_tensor *ct = &data.tensors[i];
		struct npukb_compare_stats st;
		int cmp;
		if (!ct->is_output || ct->numel == 0)
			continue;
		if (!ct->data || !ct->expected) {
			internal_error(out, "seed %u: output %s is not mapped", s, ct->name);
			rc = -EIO;
			goto done;
		}
		if (check_unwritten(ct, out, s)) {
			verdict = 1;
			break;
		}
		if (kge < 0)
			kge = t->tolerance.rule && strcmp(t->tolerance.rule, "gemm") == 0
				      ? gemm_k_ge_2048(ctx->kcase, &data)
				      : 0;
		cmp = npukb_compare_tensors(t->tolerance.rule, t->tolerance.atol, t->tolerance.rtol,
					    ct->dtype, ct->data, ct->expected, ct->numel, kge, &st,
					    err, sizeof(err));
		if (cmp < 0) {
			internal_error(out, "%s: %s", t->manifest_path ? t->manifest_path : t->id, err);
			rc = cmp;
			goto done;
		}
		if (cmp == 1) {
			fail_values(ct, &st, s, seed, nseeds, out);
			verdict = 1;
			break;
		}
		if (st.max_abs > tot->max_abs)
			tot->max_abs = st.max_abs;
		if (st.max_rel > tot->max_rel)
			tot->max_rel = st.max_rel;
		tot->tolerated_bad += (long long)st.bad;
		if (s == tot->first_seed)
			tot->outputs++;
	}
	if (!verdict && s == tot->first_seed && res.has_cycles && res.cycles_modelled) {
		tot->has_cost = 1;
		tot->cycles = res.cycles;
		tot->time_us = res.time_us;
	}

done:
	if (ran && verdict && out->outcome == NPUKB_FAIL && ctx->options &&
	    ctx->options->dump_tensors && ctx->options->dump_dir && ctx->sample) {
		char note[1200], *where = dump_tensors(ctx, &data, s, loaded, note, sizeof(note));
		note_dump(out, where, note);
		free(where);
	}
	if (!(ctx->options && ctx->options->keep_workdirs)) {
		npukb_case_data_discard(&data);
		rmdir(dir); /* only when nothing else is left in it */
	} else {
		npukb_case_data_free(&data);
	}
	npukb_run_result_clear(&res);
	if (rc < 0)
		return rc;
	return verdict;
}

/* An output that is the same bytes for every seed while the inputs and
 * the reference differ between seeds: a kernel that writes a constant (or
 * the answer to one seed) and passes only because the tolerance or the
 * data let it. */
static int constant_output(const struct seed_hashes *h, size_t n)
{
	size_t i, valid = 0;
	int same_out = 1, same_in = 1, same_exp = 1;
	const struct seed_hashes *first = NULL;
	for (i = 0; i < n; i++) {
		if (!h[i].valid)
			continue;
		valid++;
		if (!first) {
			first = &h[i];
			continue;
		}
		same_out &= h[i].outputs == first->outputs;
		same_in &= h[i].inputs == first->inputs;
		same_exp &= h[i].expected == first->expected;
	}
	return valid >= 2 && same_out && !same_in && !same_exp;
}

static int correctness_judge(struct npukb_stage_ctx *ctx, struct npukb_verdict *out)
{
	struct totals tot = { 0, 0, 0, 0, 0, 0, 0, 0 };
	struct seed_hashes *hashes;
	unsigned nseeds, s, first, last, judged = 0;
	double t0 = npukb_monotonic_seconds();
	char g1[32], g2[32];
	int rc = 0;

	npukb_verdict_init(out, NPUKB_STAGE_CORRECTNESS);
	if (!ctx->task || !ctx->kcase || !ctx->workdir || !ctx->backend) {
		internal_error(out, "correctness stage called without a task, case, backend or work directory");
		return 0;
	}
	if (!ctx->artifact) {
		npukb_verdict_skip(out, "no build artifact: the sample did not compile");
		return 0;
	}
	nseeds = ctx->options && ctx->options->nseeds ? ctx->options->nseeds : NPUKB_DEFAULT_SEEDS;
	/* A re-check runs the one seed it names; seed indices are part of the
	 * seed value, so index nseeds and up were never used by the regular
	 * pass. */
	first = ctx->seed_offset ? ctx->seed_offset : 0;
	last = ctx->seed_offset ? ctx->seed_offset + 1 : nseeds;
	tot.first_seed = first;
	hashes = calloc(last - first + 1, sizeof(*hashes));
	if (!hashes) {
		internal_error(out, "out of memory");
		return 0;
	}
	for (s = first; s < last && rc == 0; s++, judged++)
		rc = judge_seed(ctx, s, nseeds, &tot, &hashes[judged], out);
	/* A kernel that failed on its first seed is looked at on one more, so
	 * that a constant output is named even when it does not pass. */
	if (rc == 1 && out->outcome == NPUKB_FAIL && judged == 1 && last - first > 1 &&
	    hashes[0].valid) {
		struct npukb_verdict probe;
		struct totals ptot = { 0, 0, 0, 0, first + 1, 0, 0, 0 };
		npukb_verdict_init(&probe, NPUKB_STAGE_CORRECTNESS);
		if (judge_seed(ctx, first + 1, nseeds, &ptot, &hashes[1], &probe) >= 0)
			judged++;
		npukb_verdict_clear(&probe);
	}
	if (rc >= 0 && constant_output(hashes, judged))
		npukb_verdict_add_flag(out, "suspect-constant-output");
	free(hashes);
	out->wall_seconds = npukb_monotonic_seconds() - t0;
	/* rc < 0: out already says "internal-error" and why; returning the
	 * errno would make the core replace that reason with strerror(). */
	if (rc != 0)
		return 0;

	npukb_verdict_pass(out);
	/* --strict: the numbers are right but a contract was broken */
	if (ctx->options && ctx->options->strict && npukb_verdict_strict(out))
		return 0;
	out->has_error_stats = 1;
	out->max_abs_err = tot.max_abs;
	out->max_rel_err = tot.max_rel;
	out->bad_count = tot.tolerated_bad;
	out->first_bad_index = -1;
	out->has_checked_cost = tot.has_cost;
	out->checked_cycles = tot.cycles;
	out->checked_time_us = tot.time_us;
	if (ctx->seed_offset)
		set_text(&out->message, "re-check on fresh seed %u: %zu output%s within tolerance; max abs err %s, max rel err %s",
			 ctx->seed_offset, tot.outputs, tot.outputs == 1 ? "" : "s",
			 fmt_g(tot.max_abs, g1, sizeof(g1)), fmt_g(tot.max_rel, g2, sizeof(g2)));
	else
		set_text(&out->message, "%u seed%s, %zu output%s within tolerance; max abs err %s, max rel err %s",
			 nseeds, nseeds == 1 ? "" : "s", tot.outputs, tot.outputs == 1 ? "" : "s",
			 fmt_g(tot.max_abs, g1, sizeof(g1)), fmt_g(tot.max_rel, g2, sizeof(g2)));
	return 0;
}

static const struct npukb_stage_ops correctness_ops = {
	.stage = NPUKB_STAGE_CORRECTNESS,
	.judge = correctness_judge,
};

NPUKB_PLUGIN_EXPORT const struct npukb_plugin npukb_correctness_plugin = {
	.abi = NPUKB_PLUGIN_ABI,
	.kind = NPUKB_PLUGIN_STAGE,
	.name = "correctness",
	.version = "1.0",
	.description = "runs each case over several seeds and checks outputs against the reference",
	.init = NULL,
	.fini = NULL,
	.backend = NULL,
	.stage = &correctness_ops,
};
