/* compare.h - element-wise comparison of a kernel's output with the
 * reference, under the named tolerance rules of DESIGN.md.
 *
 * Pure functions: no I/O, no allocation, no global state. The correctness
 * stage turns the statistics into a verdict; the unit tests drive the rules
 * directly (tests/unit/test_compare.c).
 *
 * Rules (an element is "bad" when it fails the element test):
 *   default   |out-ref| > atol AND |out-ref|/(|ref|+1e-7) > rtol
 *             (atol = rtol = 1e-3 unless the task overrides them)
 *   rel-max1  |out-ref| > tol*max(1,|ref|); tol by dtype: float16 1/512,
 *             bfloat16 1/256+1/16384, float32 (and float64, complex64)
 *             1/2048+1/16384; an rtol override replaces tol
 *   rel-max1-ulp
 *             as rel-max1, but one unit in the last place of the output
 *             dtype at |ref| always passes: a kernel computing in float and
 *             rounding once lands one ulp away from the correctly rounded
 *             reference when the exact value sits near a rounding midpoint,
 *             and for bfloat16 one ulp (2^-8 to 2^-7 relative) exceeds
 *             rel-max1's tol when |ref| >= 1 (float16 and float32 ulps are
 *             below their tol: there it is rel-max1)
 *   gemm      as rel-max1 with tol by dtype and reduction length K:
 *             float16 1/256 (1/128 when K >= 2048), bfloat16 1/128 (1/64),
 *             float32/float64/complex64 1/2048 (1/512)
 *   ratio     the default element test (thresholds 1e-3 unless overridden),
 *             and the tensor fails only when more than 0.1% of its
 *             elements are bad
 *   quant-int8
 *             for quantised outputs: an int8 code may be one off the
 *             reference's on at most 0.1% of the tensor's elements (codes
 *             two or more off always fail); float outputs (the scales)
 *             as rel-max1-ulp. The reference rounds the exact value to
 *             the nearest code, ties to even (torch.round; AscendC's
 *             CAST_RINT); a kernel computing the value in float lands on
 *             the neighbouring code when the exact value lies within the
 *             float error of a midpoint (k + 1/2): the expert answers of
 *             GeluQuant and AddRmsNormQuant land one off on 1 to 2
 *             elements in a million (0.1% is a margin of some 500).
 *             Other integer dtypes stay exact.
 * Under every rule:
 *   - an actual NaN/Inf where the reference is finite is bad and counted
 *     in nan_inf_bad; such elements fail the tensor even under ratio;
 *   - a non-finite reference is matched only by the same class of value
 *     (NaN by any NaN, +Inf by +Inf, -Inf by -Inf); anything else is bad,
 *     counted in special_bad, and also fails the tensor under ratio;
 *   - bool and integer dtypes compare exactly, as integers of their width
 *     (bool bytes too: true must be stored as 1), with no ratio budget;
 *   - complex64 compares the real and the imaginary part, each under the
 *     rule; the element is bad when either part is. */
#ifndef NPUKB_COMPARE_H
#define NPUKB_COMPARE_H

#include <stddef.h>
#include <npukb/dtype.h>

#define NPUKB_COMPARE_MAX_SAMPLES 10
/* Bad elements are also counted by position: bin b holds the bad
 * elements with flat index i where b = i * BINS / checked. */
#define NPUKB_COMPARE_BINS 64

enum npukb_compare_rule {
	NPUKB_RULE_DEFAULT = 1,
	NPUKB_RULE_REL_MAX1,
	NPUKB_RULE_GEMM,
	NPUKB_RULE_RATIO,
	NPUKB_RULE_REL_MAX1_ULP,
	NPUKB_RULE_QUANT_INT8
};

/* One bad element, for messages. */
struct npukb_compare_bad {
	size_t index;                   /* flat, row-major element index */
	double expected, actual;        /* complex64: real parts */
	double expected_im, actual_im;  /* complex64 only, else 0 */
	double abs_err;                 /* |out-ref| (larger part for complex) */
	int nonfinite;                  /* actual NaN/Inf, reference finite */
};

struct npukb_compare_stats {
	enum npukb_compare_rule rule;
	const char *rule_name;   /* static: "default", "rel-max1", ... */
	enum npukb_dtype dtype;
	int exact;               /* 1: integers/bool, compared exactly */
	/* The thresholds actually applied (for messages):
	 * default/ratio use atol and rtol, rel-max1/gemm use tol. */
	double atol, rtol, tol;

	size_t checked;          /* elements compared */
	size_t bad;              /* elements failing the element test */
	size_t nan_inf_bad;      /* of those: actual NaN/Inf, reference finite */
	size_t special_bad;      /* of those: reference NaN/Inf not matched */
	size_t allowed_bad;      /* ratio: bad elements the rule tolerates;
				  * quant-int8: one-off int8 codes it tolerates */
	size_t off_by_one;       /* quant-int8: of bad, int8 codes one off */

	/* Over all elements where both values are finite. max_rel is the
	 * relative measure the rule uses: |d|/(|ref|+1e-7) for default and
	 * ratio, |d|/max(1,|ref|) for rel-max1 and gemm. */
	double max_abs;
	size_t max_abs_index;
	double max_rel;
	size_t max_rel_index;

	int has_bad;
	size_t first_bad;
	size_t first_nan_inf;    /* valid when nan_inf_bad > 0 */
	size_t nsamples;         /* min(bad, NPUKB_COMPARE_MAX_SAMPLES) */
	size_t bad_bins[NPUKB_COMPARE_BINS]; /* bad elements by position */
	struct npukb_compare_bad samples[NPUKB_COMPARE_MAX_SAMPLES];
};

/* "default" (also for NULL or ""), "rel-max1", "rel-max1-ulp", "gemm",
 * "ratio", "quant-int8".
 * Return 0, or -EINVAL for an unknown name. */
int npukb_compare_rule_from_name(const char *name, enum npukb_compare_rule *out);

/* Compare n elements of actual with expected, both of dtype dt.
 * atol_override/rtol_override: the task's values, or < 0 for the rule's
 * defaults. gemm_k_ge_2048: the gemm rule's reduction length is >= 2048.
 * Fills st (always reset first). Return 0 when the tensor is within
 * tolerance, 1 when it fails, or a negative errno value with a message in
 * err (unknown rule, unsupported dtype, NULL buffers). */
int npukb_compare_tensors(const char *rule, double atol_override, double rtol_override,
			  enum npukb_dtype dt, const void *actual, const void *expected,
			  size_t n, int gemm_k_ge_2048, struct npukb_compare_stats *st,
			  char *err, size_t errlen);

/* The thresholds in words, e.g. "atol=0.001 rtol=0.001",
 * "tol=0.001953125*max(1,|ref|)", "exact". Returns buf. */
const char *npukb_compare_describe_tolerance(const struct npukb_compare_stats *st,
					     char *buf, size_t len);

/* A value of dtype dt in the fewest significant digits that read back as
 * the same value of that dtype ("1.5", "2", "nan", "-inf", "0.1"), with
 * '.' as the decimal point whatever the locale. Returns buf. */
const char *npukb_compare_format_value(enum npukb_dtype dt, double v, char *buf, size_t len);

/* printf's %.<digits>g with '.' as the decimal point whatever the locale,
 * for error magnitudes ("0.5", "1.25e-05"). Returns buf. */
const char *npukb_compare_format_g(double v, int digits, char *buf, size_t len);

#endif
