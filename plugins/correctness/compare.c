/* compare.c - the tolerance rules of DESIGN.md, element by element.
 * See compare.h for the rules; this file owns nothing but arithmetic. */
#include "compare.h"

#include <npukb/parallel.h>
#include <npukb/util.h>

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The relative measure's guard against division by zero, as DESIGN.md
 * states the default rule. */
#define REL_EPS 1e-7
#define DEFAULT_ATOL 1e-3
#define DEFAULT_RTOL 1e-3

static const struct {
	const char *name;
	enum npukb_compare_rule rule;
} rule_table[] = {
	{ "default", NPUKB_RULE_DEFAULT },
	{ "rel-max1", NPUKB_RULE_REL_MAX1 },
	{ "gemm", NPUKB_RULE_GEMM },
	{ "ratio", NPUKB_RULE_RATIO },
	{ "rel-max1-ulp", NPUKB_RULE_REL_MAX1_ULP },
	{ "quant-int8", NPUKB_RULE_QUANT_INT8 },
};

static const char *rule_name(enum npukb_compare_rule r)
{
	size_t i;
	for (i = 0; i < sizeof(rule_table) / sizeof(rule_table[0]); i++)
		if (rule_table[i].rule == r)
			return rule_table[i].name;
	return "unknown";
}

int npukb_compare_rule_from_name(const char *name, enum npukb_compare_rule *out)
{
	size_t i;
	if (!name || !*name) {
		*out = NPUKB_RULE_DEFAULT;
		return 0;
	}
	for (i = 0; i < sizeof(rule_table) / sizeof(rule_table[0]); i++) {
		if (strcmp(name, rule_table[i].name) == 0) {
			*out = rule_table[i].rule;
			return 0;
		}
	}
	return -EINVAL;
}

static int is_exact_dtype(enum npukb_dtype dt)
{
	switch (dt) {
	case NPUKB_DT_INT8: case NPUKB_DT_UINT8: case NPUKB_DT_INT16:
	case NPUKB_DT_INT32: case NPUKB_DT_INT64: case NPUKB_DT_BOOL:
		return 1;
	default:
		return 0;
	}
}

static int is_float_dtype(enum npukb_dtype dt)
{
	switch (dt) {
	case NPUKB_DT_FLOAT16: case NPUKB_DT_BFLOAT16: case NPUKB_DT_FLOAT32:
	case NPUKB_DT_FLOAT64: case NPUKB_DT_COMPLEX64:
		return 1;
	default:
		return 0;
	}
}

/* Integers are read at their own width: a double cannot hold every int64,
 * and "exact" must mean exact. Bool is read as its byte. */
static int64_t load_int(enum npukb_dtype dt, const void *buf, size_t i)
{
	const unsigned char *p = buf;
	switch (dt) {
	case NPUKB_DT_INT8: { int8_t v; memcpy(&v, p + i, 1); return v; }
	case NPUKB_DT_UINT8:
	case NPUKB_DT_BOOL: { uint8_t v; memcpy(&v, p + i, 1); return v; }
	case NPUKB_DT_INT16: { int16_t v; memcpy(&v, p + 2 * i, 2); return v; }
	case NPUKB_DT_INT32: { int32_t v; memcpy(&v, p + 4 * i, 4); return v; }
	case NPUKB_DT_INT64: { int64_t v; memcpy(&v, p + 8 * i, 8); return v; }
	default: return 0;
	}
}

static double tol_rel_max1(enum npukb_dtype dt)
{
	switch (dt) {
	case NPUKB_DT_FLOAT16: return 1.0 / 512;
	case NPUKB_DT_BFLOAT16: return 1.0 / 256 + 1.0 / 16384;
	default: return 1.0 / 2048 + 1.0 / 16384; /* float32, float64, complex64 */
	}
}

static double tol_gemm(enum npukb_dtype dt, int k_ge_2048)
{
	switch (dt) {
	case NPUKB_DT_FLOAT16: return k_ge_2048 ? 1.0 / 128 : 1.0 / 256;
	case NPUKB_DT_BFLOAT16: return k_ge_2048 ? 1.0 / 64 : 1.0 / 128;
	default: return k_ge_2048 ? 1.0 / 512 : 1.0 / 2048;
	}
}

/* The spacing of dtype dt's values at magnitude ae (one ulp; subnormal
 * spacing below the smallest normal). */
static double ulp_at(enum npukb_dtype dt, double ae)
{
	int mant, emin, ex;
	switch (dt) {
	case NPUKB_DT_FLOAT16: mant = 10; emin = -14; break;
	case NPUKB_DT_BFLOAT16: mant = 7; emin = -126; break;
	case NPUKB_DT_FLOAT32: case NPUKB_DT_COMPLEX64: mant = 23; emin = -126; break;
	default: mant = 52; emin = -1022; break;
	}
	(void)frexp(ae, &ex); /* ae in [2^(ex-1), 2^ex) */
	ex = ex - 1 < emin ? emin : ex - 1;
	return ldexp(1.0, ex - mant);
}

/* Outcome of comparing one real value pair. */
enum part_fate {
	PART_OK = 0,
	PART_BAD,        /* finite pair outside the tolerance */
	PART_NONFINITE,  /* actual NaN/Inf, reference finite */
	PART_SPECIAL     /* reference NaN/Inf, actual not the same class */
};

struct part_eval {
	enum part_fate fate;
	double abs_err; /* finite pairs only */
	double rel_err;
};

static void eval_part(const struct npukb_compare_stats *st, double e, double a,
		      struct part_eval *pe)
{
	double d, ae;
	pe->abs_err = 0;
	pe->rel_err = 0;
	if (!isfinite(e)) {
		/* NaN matches any NaN (payloads carry no meaning for the
		 * reference); an infinity only matches itself, sign included. */
		if (isnan(e))
			pe->fate = isnan(a) ? PART_OK : PART_SPECIAL;
		else
			pe->fate = (a == e) ? PART_OK : PART_SPECIAL;
		return;
	}
	if (!isfinite(a)) {
		pe->fate = PART_NONFINITE;
		return;
	}
	d = fabs(a - e);
	ae = fabs(e);
	pe->abs_err = d;
	switch (st->rule) {
	case NPUKB_RULE_REL_MAX1:
	case NPUKB_RULE_GEMM: {
		double scale = ae > 1.0 ? ae : 1.0;
		pe->rel_err = d / scale;
		/* Compare the product, not the quotient: tol is a short dyadic
		 * fraction, so tol*scale is exact and the edge is exact too. */
		pe->fate = d > st->tol * scale ? PART_BAD : PART_OK;
		break;
	}
	case NPUKB_RULE_REL_MAX1_ULP:
	case NPUKB_RULE_QUANT_INT8: {
		double scale = ae > 1.0 ? ae : 1.0;
		pe->rel_err = d / scale;
		pe->fate = d > st->tol * scale && d > ulp_at(st->dtype, ae) ? PART_BAD : PART_OK;
		break;
	}
	default:
		pe->rel_err = d / (ae + REL_EPS);
		pe->fate = (d > st->atol && pe->rel_err > st->rtol) ? PART_BAD : PART_OK;
		break;
	}
}

static void note_errors(struct npukb_compare_stats *st, const struct part_eval *pe,
			size_t i)
{
	if (pe->fate == PART_NONFINITE || pe->fate == PART_SPECIAL)
		return;
	if (pe->abs_err > st->max_abs) {
		st->max_abs = pe->abs_err;
		st->max_abs_index = i;
	}
	if (pe->rel_err > st->max_rel) {
		st->max_rel = pe->rel_err;
		st->max_rel_index = i;
	}
}

/* The bin of index i of n elements (i < n): i * BINS / n, exactly. */
static size_t position_bin(size_t i, size_t n)
{
	size_t b;
	if (n <= SIZE_MAX / NPUKB_COMPARE_BINS)
		b = i * NPUKB_COMPARE_BINS / n;
	else
		b = i / (n / NPUKB_COMPARE_BINS + 1);
	return b < NPUKB_COMPARE_BINS ? b : NPUKB_COMPARE_BINS - 1;
}

static void note_bad(struct npukb_compare_stats *st, size_t i, double e, double a,
		     double e_im, double a_im, double abs_err, int nonfinite, int special)
{
	st->bad++;
	st->bad_bins[position_bin(i, st->checked)]++;
	if (nonfinite) {
		if (st->nan_inf_bad++ == 0)
			st->first_nan_inf = i;
	} else if (special)
		st->special_bad++;
	if (!st->has_bad) {
		st->has_bad = 1;
		st->first_bad = i;
	}
	if (st->nsamples < NPUKB_COMPARE_MAX_SAMPLES) {
		struct npukb_compare_bad *b = &st->samples[st->nsamples++];
		b->index = i;
		b->expected = e;
		b->actual = a;
		b->expected_im = e_im;
		b->actual_im = a_im;
		b->abs_err = abs_err;
		b->nonfinite = nonfinite;
	}
}

/* Every differing integer is bad; under quant-int8 an int8 code one off
 * is also counted in off_by_one (npukb_compare_tensors budgets those). */
static void compare_exact(struct npukb_compare_stats *st, enum npukb_dtype dt,
			  const void *actual, const void *expected, size_t begin, size_t end)
{
	size_t i;
	int one_off_ok = st->rule == NPUKB_RULE_QUANT_INT8 && dt == NPUKB_DT_INT8;
	for (i = begin; i < end; i++) {
		int64_t a = load_int(dt, actual, i), e = load_int(dt, expected, i);
		double d = fabs((double)a - (double)e);
		struct part_eval pe = { PART_OK, d, d / (fabs((double)e) + REL_EPS) };
		note_errors(st, &pe, i);
		if (a == e)
			continue;
		if (one_off_ok && d == 1.0)
			st->off_by_one++;
		note_bad(st, i, (double)e, (double)a, 0, 0, d, 0, 0);
	}
}

/* Elements widened a block at a time (float16, bfloat16, float32): one
 * call per block instead of two per element; the same doubles. */
#define COMPARE_BLOCK 2048

static int compare_real_blocks(struct npukb_compare_stats *st, enum npukb_dtype dt,
			       const void *actual, const void *expected, size_t begin, size_t end)
{
	float eb[COMPARE_BLOCK], ab[COMPARE_BLOCK];
	size_t i, k, n;
	for (i = begin; i < end; i += n) {
		n = end - i < COMPARE_BLOCK ? end - i : COMPARE_BLOCK;
		if (npukb_load_as_float_n(dt, expected, i, n, eb) != 0 ||
		    npukb_load_as_float_n(dt, actual, i, n, ab) != 0)
			return -1;
		for (k = 0; k < n; k++) {
			struct part_eval pe;
			double e = eb[k], a = ab[k];
			/* equal values (most of them, where both round to the
			 * same narrow value) pass every rule with no error */
			if (ab[k] == eb[k])
				continue;
			eval_part(st, e, a, &pe);
			note_errors(st, &pe, i + k);
			if (pe.fate != PART_OK)
				note_bad(st, i + k, e, a, 0, 0, pe.abs_err, pe.fate == PART_NONFINITE,
					 pe.fate == PART_SPECIAL);
		}
	}
	return 0;
}

static void compare_real(struct npukb_compare_stats *st, enum npukb_dtype dt,
			 const void *actual, const void *expected, size_t begin, size_t end)
{
	size_t i;
	if (dt != NPUKB_DT_FLOAT64 && compare_real_blocks(st, dt, actual, expected, begin, end) == 0)
		return;
	for (i = begin; i < end; i++) {
		double e = npukb_load_as_double(dt, expected, i);
		double a = npukb_load_as_double(dt, actual, i);
		struct part_eval pe;
		eval_part(st, e, a, &pe);
		note_errors(st, &pe, i);
		if (pe.fate != PART_OK)
			note_bad(st, i, e, a, 0, 0, pe.abs_err, pe.fate == PART_NONFINITE,
				 pe.fate == PART_SPECIAL);
	}
}

/* complex64 is two float32 per element: real at 2i, imaginary at 2i+1. */
static void compare_complex(struct npukb_compare_stats *st, const void *actual,
			    const void *expected, size_t begin, size_t end)
{
	size_t i;
	for (i = begin; i < end; i++) {
		double er = npukb_load_as_double(NPUKB_DT_FLOAT32, expected, 2 * i);
		double ei = npukb_load_as_double(NPUKB_DT_FLOAT32, expected, 2 * i + 1);
		double ar = npukb_load_as_double(NPUKB_DT_FLOAT32, actual, 2 * i);
		double ai = npukb_load_as_double(NPUKB_DT_FLOAT32, actual, 2 * i + 1);
		struct part_eval re, im;
		eval_part(st, er, ar, &re);
		eval_part(st, ei, ai, &im);
		note_errors(st, &re, i);
		note_errors(st, &im, i);
		if (re.fate != PART_OK || im.fate != PART_OK) {
			int nonfinite = re.fate == PART_NONFINITE || im.fate == PART_NONFINITE;
			int special = re.fate == PART_SPECIAL || im.fate == PART_SPECIAL;
			double d = re.abs_err > im.abs_err ? re.abs_err : im.abs_err;
			note_bad(st, i, er, ar, ei, ai, d, nonfinite, special);
		}
	}
}

struct compare_job {
	const struct npukb_compare_stats *proto; /* thresholds set, counts zero */
	const void *actual, *expected;
	struct npukb_compare_stats part[NPUKB_PARALLEL_MAX_PARTS];
};

static void compare_range(struct npukb_compare_stats *st, const void *actual,
			  const void *expected, size_t begin, size_t end)
{
	if (st->exact)
		compare_exact(st, st->dtype, actual, expected, begin, end);
	else if (st->dtype == NPUKB_DT_COMPLEX64)
		compare_complex(st, actual, expected, begin, end);
	else
		compare_real(st, st->dtype, actual, expected, begin, end);
}

static void compare_part(void *ctx, unsigned p, size_t begin, size_t end)
{
	struct compare_job *j = ctx;
	j->part[p] = *j->proto;
	compare_range(&j->part[p], j->actual, j->expected, begin, end);
}

/* Fold the part after st into st, as one pass over both would have left
 * them: counts add, the earlier index wins ties and firsts, samples keep
 * index order. */
static void merge_part(struct npukb_compare_stats *st, const struct npukb_compare_stats *p)
{
	size_t k;
	st->bad += p->bad;
	for (k = 0; k < NPUKB_COMPARE_BINS; k++)
		st->bad_bins[k] += p->bad_bins[k];
	st->off_by_one += p->off_by_one;
	if (st->nan_inf_bad == 0 && p->nan_inf_bad > 0)
		st->first_nan_inf = p->first_nan_inf;
	st->nan_inf_bad += p->nan_inf_bad;
	st->special_bad += p->special_bad;
	if (p->max_abs > st->max_abs) {
		st->max_abs = p->max_abs;
		st->max_abs_index = p->max_abs_index;
	}
	if (p->max_rel > st->max_rel) {
		st->max_rel = p->max_rel;
		st->max_rel_index = p->max_rel_index;
	}
	if (!st->has_bad && p->has_bad) {
		st->has_bad = 1;
		st->first_bad = p->first_bad;
	}
	for (k = 0; k < p->nsamples && st->nsamples < NPUKB_COMPARE_MAX_SAMPLES; k++)
		st->samples[st->nsamples++] = p->samples[k];
}

/* The element loop over [0, n), across the data path's threads when the
 * tensor is large; the result is the one-thread result bit for bit. */
static void compare_elements(struct npukb_compare_stats *st, const void *actual,
			     const void *expected, size_t n)
{
	unsigned parts = npukb_parallel_parts(n, NPUKB_PARALLEL_GRAIN), p;
	struct compare_job *j = parts > 1 ? malloc(sizeof(*j)) : NULL;
	if (!j) {
		compare_range(st, actual, expected, 0, n);
		return;
	}
	j->proto = st;
	j->actual = actual;
	j->expected = expected;
	npukb_parallel_run(n, parts, compare_part, j);
	for (p = 0; p < parts; p++)
		merge_part(st, &j->part[p]);
	free(j);
}

int npukb_compare_tensors(const char *rule, double atol_override, double rtol_override,
			  enum npukb_dtype dt, const void *actual, const void *expected,
			  size_t n, int gemm_k_ge_2048, struct npukb_compare_stats *st,
			  char *err, size_t errlen)
{
	enum npukb_compare_rule r;

	memset(st, 0, sizeof(*st));
	if (errlen)
		err[0] = '\0';
	if (npukb_compare_rule_from_name(rule, &r) != 0) {
		snprintf(err, errlen,
			 "unknown tolerance rule '%s' (known: default, rel-max1, rel-max1-ulp, gemm, ratio, quant-int8)",
			 rule);
		return -EINVAL;
	}
	if (!is_exact_dtype(dt) && !is_float_dtype(dt)) {
		snprintf(err, errlen, "cannot compare tensors of dtype %d", (int)dt);
		return -EINVAL;
	}
	if (n > 0 && (!actual || !expected)) {
		snprintf(err, errlen, "no %s buffer to compare", actual ? "expected" : "actual");
		return -EINVAL;
	}

	st->rule = r;
	st->rule_name = rule_name(r);
	st->dtype = dt;
	st->exact = is_exact_dtype(dt);
	st->checked = n;
	if (!st->exact) {
		/* NaN overrides fail ">= 0" and so fall back to the defaults. */
		switch (r) {
		case NPUKB_RULE_REL_MAX1:
		case NPUKB_RULE_REL_MAX1_ULP:
		case NPUKB_RULE_QUANT_INT8:
			st->tol = rtol_override >= 0 ? rtol_override : tol_rel_max1(dt);
			break;
		case NPUKB_RULE_GEMM:
			st->tol = rtol_override >= 0 ? rtol_override
						     : tol_gemm(dt, gemm_k_ge_2048);
			break;
		case NPUKB_RULE_DEFAULT:
		case NPUKB_RULE_RATIO:
			st->atol = atol_override >= 0 ? atol_override : DEFAULT_ATOL;
			st->rtol = rtol_override >= 0 ? rtol_override : DEFAULT_RTOL;
			break;
		}
	}

	compare_elements(st, actual, expected, n);

	if (r == NPUKB_RULE_QUANT_INT8 && st->exact) {
		/* No code two off; one-off codes on at most 0.1% of the
		 * elements, counted as ratio counts. */
		st->allowed_bad = dt == NPUKB_DT_INT8 ? n / 1000 : 0;
		return st->bad > st->off_by_one || st->bad > st->allowed_bad;
	}
	if (st->exact || r != NPUKB_RULE_RATIO)
		return st->bad > 0;
	/* "More than 0.1%" in integers: bad*1000 > n, i.e. bad > floor(n/1000). */
	st->allowed_bad = n / 1000;
	if (st->nan_inf_bad + st->special_bad > 0)
		return 1;
	return st->bad > st->allowed_bad;
}

static int same_in_dtype(enum npukb_dtype dt, double x, double y)
{
	switch (dt) {
	case NPUKB_DT_FLOAT16: return npukb_f64_to_f16(x) == npukb_f64_to_f16(y);
	case NPUKB_DT_BFLOAT16: return npukb_f64_to_bf16(x) == npukb_f64_to_bf16(y);
	case NPUKB_DT_FLOAT32:
	case NPUKB_DT_COMPLEX64: return (float)x == (float)y;
	default: return x == y;
	}
}

const char *npukb_compare_format_value(enum npukb_dtype dt, double v, char *buf, size_t len)
{
	int p, maxp;
	if (!len)
		return buf;
	if (isnan(v)) {
		snprintf(buf, len, "nan");
		return buf;
	}
	if (isinf(v)) {
		snprintf(buf, len, v > 0 ? "inf" : "-inf");
		return buf;
	}
	if (is_exact_dtype(dt)) {
		snprintf(buf, len, "%.0f", v);
		return buf;
	}
	switch (dt) {
	case NPUKB_DT_FLOAT16: maxp = 5; break;
	case NPUKB_DT_BFLOAT16: maxp = 4; break;
	case NPUKB_DT_FLOAT32: case NPUKB_DT_COMPLEX64: maxp = 9; break;
	default: maxp = 17; break;
	}
	/* The shortest digits that round-trip: "0.1" rather than
	 * "0.100000001490116" for a float32 0.1. Reports must not follow
	 * LC_NUMERIC: written and read back the C way. */
	for (p = 1; p <= maxp; p++) {
		npukb_fmt_double(buf, len, v, p);
		if (same_in_dtype(dt, npukb_strtod(buf, NULL), v))
			break;
	}
	if (p > maxp) {
		npukb_fmt_double(buf, len, v, 17);
	} else if (fabs(v) >= 1.0 && fabs(v) < 1e17) {
		/* Print the integer digits in full: "10", not "1e+01". */
		int intdigits = (int)floor(log10(fabs(v))) + 1;
		if (p < intdigits)
			npukb_fmt_double(buf, len, v, intdigits);
	}
	return buf;
}

const char *npukb_compare_format_g(double v, int digits, char *buf, size_t len)
{
	if (!len)
		return buf;
	return npukb_fmt_double(buf, len, v, digits);
}

const char *npukb_compare_describe_tolerance(const struct npukb_compare_stats *st,
					     char *buf, size_t len)
{
	char a[40], b[40];
	if (!len)
		return buf;
	if (st->exact) {
		if (st->rule == NPUKB_RULE_QUANT_INT8 && st->dtype == NPUKB_DT_INT8)
			snprintf(buf, len, "int8 codes one off on at most %zu elements", st->allowed_bad);
		else
			snprintf(buf, len, "exact");
		return buf;
	}
	switch (st->rule) {
	case NPUKB_RULE_REL_MAX1:
	case NPUKB_RULE_GEMM:
		snprintf(buf, len, "tol=%s*max(1,|ref|)",
			 npukb_compare_format_value(NPUKB_DT_FLOAT64, st->tol, a, sizeof(a)));
		break;
	case NPUKB_RULE_REL_MAX1_ULP:
	case NPUKB_RULE_QUANT_INT8:
		snprintf(buf, len, "tol=%s*max(1,|ref|) or one ulp",
			 npukb_compare_format_value(NPUKB_DT_FLOAT64, st->tol, a, sizeof(a)));
		break;
	default:
		snprintf(buf, len, "atol=%s rtol=%s",
			 npukb_compare_format_value(NPUKB_DT_FLOAT64, st->atol, a, sizeof(a)),
			 npukb_compare_format_value(NPUKB_DT_FLOAT64, st->rtol, b, sizeof(b)));
		break;
	}
	return buf;
}
