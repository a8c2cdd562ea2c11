/* foreach.c - the ForeachXxx family (Level 2): one scalar function applied
 * member by member over tensor lists. Every op is a row of one table: how
 * many input lists it reads, whether it takes a scalar (one value for all
 * members, or one per member), and the function of one element. The lists
 * come first in the manifest's inputs, the scalar tensor after them.
 * Results are computed in double and rounded once to the output dtype;
 * integer results wrap. ForeachNorm (one value per member) and
 * ForeachNonFiniteCheckAndUnscale (a flag over all members) have their own
 * functions below the table. */
#include "ref_util.h"

#include <npukb/parallel.h>

#include <math.h>

/* sin and cos of a float list to float: the bits f_sin/f_cos and the
 * store give, a few times faster (shared with cpusim's Sin/Cos) */
#include "../plugins/cpusim/include/npukb_cpusim/float_trig.h"

enum fe_scalar {
	FE_NONE,       /* no scalar tensor */
	FE_ONE,        /* a one-element tensor for every member */
	FE_PER_MEMBER, /* element m for member m */
};

/* x[0 .. nlists-1]: the members' elements at one position; s the scalar. */
typedef double (*fe_fn)(const double *x, double s);

struct fe_op {
	struct npukb_reference ref;
	int nlists;
	enum fe_scalar scalar;
	fe_fn f;
};

static double f_abs(const double *x, double s) { (void)s; return fabs(x[0]); }
static double f_acos(const double *x, double s) { (void)s; return acos(x[0]); }
static double f_asin(const double *x, double s) { (void)s; return asin(x[0]); }
static double f_atan(const double *x, double s) { (void)s; return atan(x[0]); }
static double f_copy(const double *x, double s) { (void)s; return x[0]; }
static double f_cos(const double *x, double s) { (void)s; return cos(x[0]); }
static double f_cosh(const double *x, double s) { (void)s; return cosh(x[0]); }
static double f_erf(const double *x, double s) { (void)s; return erf(x[0]); }
static double f_erfc(const double *x, double s) { (void)s; return erfc(x[0]); }
static double f_exp(const double *x, double s) { (void)s; return exp(x[0]); }
static double f_expm1(const double *x, double s) { (void)s; return expm1(x[0]); }
static double f_log(const double *x, double s) { (void)s; return log(x[0]); }
static double f_log10(const double *x, double s) { (void)s; return log10(x[0]); }
static double f_log1p(const double *x, double s) { (void)s; return log1p(x[0]); }
static double f_log2(const double *x, double s) { (void)s; return log2(x[0]); }
static double f_neg(const double *x, double s) { (void)s; return -x[0]; }
static double f_reciprocal(const double *x, double s) { (void)s; return 1.0 / x[0]; }
static double f_sigmoid(const double *x, double s) { (void)s; return 1.0 / (1.0 + exp(-x[0])); }
static double f_sin(const double *x, double s) { (void)s; return sin(x[0]); }
static double f_sinh(const double *x, double s) { (void)s; return sinh(x[0]); }
static double f_sqrt(const double *x, double s) { (void)s; return sqrt(x[0]); }
static double f_tan(const double *x, double s) { (void)s; return tan(x[0]); }
static double f_tanh(const double *x, double s) { (void)s; return tanh(x[0]); }
static double f_zero(const double *x, double s) { (void)x; (void)s; return 0.0; }

/* torch.sign: -1, 0 or 1; NaN stays NaN. */
static double f_sign(const double *x, double s)
{
	(void)s;
	return x[0] > 0 ? 1.0 : x[0] < 0 ? -1.0 : x[0];
}

static double f_add_scaled(const double *x, double s) { return x[0] + s * x[1]; }
static double f_sub_scaled(const double *x, double s) { return x[0] - s * x[1]; }
static double f_mul2(const double *x, double s) { (void)s; return x[0] * x[1]; }
static double f_div2(const double *x, double s) { (void)s; return x[0] / x[1]; }
/* torch.maximum / minimum propagate NaN from either side. */
static double f_max2(const double *x, double s)
{
	(void)s;
	return isnan(x[0]) || isnan(x[1]) ? NAN : fmax(x[0], x[1]);
}
static double f_min2(const double *x, double s)
{
	(void)s;
	return isnan(x[0]) || isnan(x[1]) ? NAN : fmin(x[0], x[1]);
}

static double f_add_s(const double *x, double s) { return x[0] + s; }
static double f_sub_s(const double *x, double s) { return x[0] - s; }
static double f_mul_s(const double *x, double s) { return x[0] * s; }
static double f_div_s(const double *x, double s) { return x[0] / s; }
static double f_max_s(const double *x, double s)
{
	double p[2] = { x[0], s };
	return f_max2(p, 0);
}
static double f_min_s(const double *x, double s)
{
	double p[2] = { x[0], s };
	return f_min2(p, 0);
}
static double f_pow_s(const double *x, double s) { return pow(x[0], s); }
static double f_s_pow(const double *x, double s) { return pow(s, x[0]); }

static double f_addcdiv(const double *x, double s) { return x[0] + s * (x[1] / x[2]); }
static double f_addcmul(const double *x, double s) { return x[0] + s * x[1] * x[2]; }
static double f_lerp(const double *x, double s) { return x[0] + s * (x[1] - x[0]); }

/* ForeachRoundOffNumber: s is the rounding mode. 1 nearest (ties to even),
 * 2 floor, 3 ceil, 4 nearest (ties away from zero), 5 toward zero, 6
 * nearest with ties to odd, 7 the fraction (x - trunc(x)); any other mode
 * leaves x unchanged. */
static double f_round_off(const double *x, double s)
{
	double v = x[0], t;
	switch ((int)s) {
	case 1: return nearbyint(v);
	case 2: return floor(v);
	case 3: return ceil(v);
	case 4: return round(v);
	case 5: return trunc(v);
	case 6:
		t = trunc(v);
		if (fabs(v - t) == 0.5)
			return fmod(t, 2.0) == 0.0 ? t + (v > 0 ? 1.0 : -1.0) : t;
		return nearbyint(v);
	case 7: return v - trunc(v);
	default: return v;
	}
}

static int ref_foreach(const struct npukb_ref_call *c, char *err, size_t errlen);

#define FE(name, nin, nl, sc, fn) { { name, nin, 1, ref_foreach }, nl, sc, fn }

static const struct fe_op ops[] = {
	FE("foreach_abs", 1, 1, FE_NONE, f_abs),
	FE("foreach_acos", 1, 1, FE_NONE, f_acos),
	FE("foreach_asin", 1, 1, FE_NONE, f_asin),
	FE("foreach_atan", 1, 1, FE_NONE, f_atan),
	FE("foreach_copy", 1, 1, FE_NONE, f_copy),
	FE("foreach_cos", 1, 1, FE_NONE, f_cos),
	FE("foreach_cosh", 1, 1, FE_NONE, f_cosh),
	FE("foreach_erf", 1, 1, FE_NONE, f_erf),
	FE("foreach_erfc", 1, 1, FE_NONE, f_erfc),
	FE("foreach_exp", 1, 1, FE_NONE, f_exp),
	FE("foreach_expm1", 1, 1, FE_NONE, f_expm1),
	FE("foreach_log", 1, 1, FE_NONE, f_log),
	FE("foreach_log10", 1, 1, FE_NONE, f_log10),
	FE("foreach_log1p", 1, 1, FE_NONE, f_log1p),
	FE("foreach_log2", 1, 1, FE_NONE, f_log2),
	FE("foreach_neg", 1, 1, FE_NONE, f_neg),
	FE("foreach_reciprocal", 1, 1, FE_NONE, f_reciprocal),
	FE("foreach_sigmoid", 1, 1, FE_NONE, f_sigmoid),
	FE("foreach_sign", 1, 1, FE_NONE, f_sign),
	FE("foreach_sin", 1, 1, FE_NONE, f_sin),
	FE("foreach_sinh", 1, 1, FE_NONE, f_sinh),
	FE("foreach_sqrt", 1, 1, FE_NONE, f_sqrt),
	FE("foreach_tan", 1, 1, FE_NONE, f_tan),
	FE("foreach_tanh", 1, 1, FE_NONE, f_tanh),
	/* the list is updated in place: its input values, then zeros */
	FE("foreach_zero_inplace", 1, 1, FE_NONE, f_zero),
	FE("foreach_add_list", 3, 2, FE_ONE, f_add_scaled),
	FE("foreach_sub_list", 3, 2, FE_ONE, f_sub_scaled),
	FE("foreach_mul_list", 2, 2, FE_NONE, f_mul2),
	FE("foreach_div_list", 2, 2, FE_NONE, f_div2),
	FE("foreach_maximum_list", 2, 2, FE_NONE, f_max2),
	FE("foreach_minimum_list", 2, 2, FE_NONE, f_min2),
	FE("foreach_add_scalar", 2, 1, FE_ONE, f_add_s),
	FE("foreach_sub_scalar", 2, 1, FE_ONE, f_sub_s),
	FE("foreach_mul_scalar", 2, 1, FE_ONE, f_mul_s),
	FE("foreach_div_scalar", 2, 1, FE_ONE, f_div_s),
	FE("foreach_maximum_scalar", 2, 1, FE_ONE, f_max_s),
	FE("foreach_minimum_scalar", 2, 1, FE_ONE, f_min_s),
	FE("foreach_pow_scalar", 2, 1, FE_ONE, f_pow_s),
	FE("foreach_pow_scalar_and_tensor", 2, 1, FE_ONE, f_s_pow),
	FE("foreach_round_off_number", 2, 1, FE_ONE, f_round_off),
	FE("foreach_add_scalar_list", 2, 1, FE_PER_MEMBER, f_add_s),
	FE("foreach_sub_scalar_list", 2, 1, FE_PER_MEMBER, f_sub_s),
	FE("foreach_mul_scalar_list", 2, 1, FE_PER_MEMBER, f_mul_s),
	FE("foreach_div_scalar_list", 2, 1, FE_PER_MEMBER, f_div_s),
	FE("foreach_addcdiv_scalar", 4, 3, FE_ONE, f_addcdiv),
	FE("foreach_addcmul_scalar", 4, 3, FE_ONE, f_addcmul),
	FE("foreach_addcdiv_list", 4, 3, FE_PER_MEMBER, f_addcdiv),
	FE("foreach_addcmul_list", 4, 3, FE_PER_MEMBER, f_addcmul),
	FE("foreach_addcdiv_scalar_list", 4, 3, FE_PER_MEMBER, f_addcdiv),
	FE("foreach_addcmul_scalar_list", 4, 3, FE_PER_MEMBER, f_addcmul),
	FE("foreach_lerp_scalar", 3, 2, FE_ONE, f_lerp),
};

static const struct fe_op *find_op(const char *name)
{
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (strcmp(ops[i].ref.name, name) == 0)
			return &ops[i];
	return NULL;
}

/* Every list has the output's members, member for member. */
static int same_members(const struct npukb_ref_tensor *a, const struct npukb_ref_tensor *y,
			char *err, size_t errlen)
{
	if (a->nmembers != y->nmembers) {
		snprintf(err, errlen, "%s has %zu members, %s has %zu", a->name, a->nmembers,
			 y->name, y->nmembers);
		return -EINVAL;
	}
	for (size_t m = 0; m < y->nmembers; m++)
		if (npukb_shape_numel(&a->members[m]) != npukb_shape_numel(&y->members[m])) {
			snprintf(err, errlen, "member %zu of %s and of %s differ in size", m, a->name,
				 y->name);
			return -EINVAL;
		}
	return 0;
}

/* One member's elements [begin, end): each is computed on its own, so the
 * parts may run on any threads in any order. */
struct fe_member_job {
	const struct npukb_ref_call *c;
	const struct fe_op *op;
	size_t m;
	double s;
	const double *table; /* f(x, s) for every 16-bit x, or NULL */
	int f32_cos;	     /* float list to float: -1 per element, else float_trig's shift */
};

/* A float32 list to float32 by sin or cos: float_trig.h gives the float
 * that rounding f_sin's or f_cos's double gives, and the double sin per
 * element was most of a float ForeachSin/ForeachCos case. -1 when op on
 * these dtypes has no such routine. */
static int fe_f32_trig(const struct fe_op *op, const struct npukb_ref_tensor *x,
		       const struct npukb_ref_tensor *y)
{
	if (op->nlists != 1 || x->dtype != NPUKB_DT_FLOAT32 || y->dtype != NPUKB_DT_FLOAT32)
		return -1;
	return op->f == f_sin ? 0 : op->f == f_cos ? 1 : -1;
}

static void fe_member_range_f32_trig(void *ctx, unsigned part, size_t begin, size_t end)
{
	const struct fe_member_job *j = ctx;
	const struct npukb_ref_call *c = j->c;
	const float *src = (const float *)c->in[0].data + c->in[0].member_offsets[j->m];
	float *dst = (float *)c->out[0].data + c->out[0].member_offsets[j->m];
	(void)part;
	npukb_ft_apply(dst + begin, src + begin, end - begin, j->f32_cos);
}

/* A one-list op on float16 or bfloat16 has only 65,536 inputs: for a list
 * with many more elements, f is computed once on each (its result the
 * same double a per-element call gives) and the elements look it up; the
 * double sin of 67M elements a seed was most of ForeachSin's reference. */
#define FE_TABLE_MIN ((size_t)1 << 18)

static int fe_tabulable(const struct fe_op *op, const struct npukb_ref_tensor *x)
{
	return op->nlists == 1 && (x->dtype == NPUKB_DT_FLOAT16 || x->dtype == NPUKB_DT_BFLOAT16) &&
	       x->numel >= FE_TABLE_MIN;
}

static void fe_fill_table(const struct fe_op *op, enum npukb_dtype dt, double s, double *table)
{
	for (uint32_t u = 0; u < 65536; u++) {
		const uint16_t bits = (uint16_t)u;
		const double x = npukb_load_as_double(dt, &bits, 0);
		table[u] = op->f(&x, s);
	}
}

static void fe_member_range_table(void *ctx, unsigned part, size_t begin, size_t end)
{
	const struct fe_member_job *j = ctx;
	const struct npukb_ref_call *c = j->c;
	struct npukb_ref_tensor *y = &c->out[0];
	const uint16_t *src = (const uint16_t *)c->in[0].data + c->in[0].member_offsets[j->m];
	double res[REF_BLOCK];
	(void)part;
	for (size_t i = begin; i < end; i += REF_BLOCK) {
		const size_t n = end - i < REF_BLOCK ? end - i : REF_BLOCK;
		for (size_t k = 0; k < n; k++)
			res[k] = j->table[src[i + k]];
		npukb_store_from_double_n(y->dtype, y->data, y->member_offsets[j->m] + i, res, n);
	}
}

/* The arithmetic rows' block in a loop of its own instead of a call
 * through op->f per element (most of a ForeachAddList case's reference):
 * each the expression of its f, on the same doubles, in the same order.
 * 0 when f is none of them. */
static int fe_arith_block(fe_fn f, const double (*x)[REF_BLOCK], size_t n, double s, double *res)
{
	size_t k;
	if (f == f_add_scaled)
		for (k = 0; k < n; k++)
			res[k] = x[0][k] + s * x[1][k];
	else if (f == f_sub_scaled)
		for (k = 0; k < n; k++)
			res[k] = x[0][k] - s * x[1][k];
	else if (f == f_mul2)
		for (k = 0; k < n; k++)
			res[k] = x[0][k] * x[1][k];
	else if (f == f_div2)
		for (k = 0; k < n; k++)
			res[k] = x[0][k] / x[1][k];
	else if (f == f_add_s)
		for (k = 0; k < n; k++)
			res[k] = x[0][k] + s;
	else if (f == f_sub_s)
		for (k = 0; k < n; k++)
			res[k] = x[0][k] - s;
	else if (f == f_mul_s)
		for (k = 0; k < n; k++)
			res[k] = x[0][k] * s;
	else if (f == f_div_s)
		for (k = 0; k < n; k++)
			res[k] = x[0][k] / s;
	else if (f == f_addcdiv)
		for (k = 0; k < n; k++)
			res[k] = x[0][k] + s * (x[1][k] / x[2][k]);
	else if (f == f_addcmul)
		for (k = 0; k < n; k++)
			res[k] = x[0][k] + s * x[1][k] * x[2][k];
	else if (f == f_lerp)
		for (k = 0; k < n; k++)
			res[k] = x[0][k] + s * (x[1][k] - x[0][k]);
	else
		return 0;
	return 1;
}

static void fe_member_range(void *ctx, unsigned part, size_t begin, size_t end)
{
	const struct fe_member_job *j = ctx;
	const struct npukb_ref_call *c = j->c;
	struct npukb_ref_tensor *y = &c->out[0];
	double blk[3][REF_BLOCK], x[3], res[REF_BLOCK];
	(void)part;
	for (size_t i = begin; i < end; i += REF_BLOCK) {
		const size_t n = end - i < REF_BLOCK ? end - i : REF_BLOCK;
		for (int l = 0; l < j->op->nlists; l++)
			ref_load_block(&c->in[l], c->in[l].member_offsets[j->m] + i, n, blk[l]);
		if (!fe_arith_block(j->op->f, (const double(*)[REF_BLOCK])blk, n, j->s, res))
			for (size_t k = 0; k < n; k++) {
				for (int l = 0; l < j->op->nlists; l++)
					x[l] = blk[l][k];
				res[k] = j->op->f(x, j->s);
			}
		/* A block of results rounded and stored in one call. */
		npukb_store_from_double_n(y->dtype, y->data, y->member_offsets[j->m] + i, res, n);
	}
}

static int ref_foreach(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	const struct fe_op *op = find_op(c->task->reference);
	struct npukb_ref_tensor *y = &c->out[0];
	const struct npukb_ref_tensor *sc = NULL;
	int rc;

	if (!op) {
		snprintf(err, errlen, "'%s' is no Foreach reference", c->task->reference);
		return -EINVAL;
	}
	if (y->nmembers == 0) {
		snprintf(err, errlen, "%s must be a tensor list", y->name);
		return -EINVAL;
	}
	for (int l = 0; l < op->nlists; l++)
		if ((rc = same_members(&c->in[l], y, err, errlen)) != 0)
			return rc;
	if (op->scalar != FE_NONE) {
		size_t need = op->scalar == FE_ONE ? 1 : y->nmembers;
		sc = &c->in[op->nlists];
		if (sc->numel != need) {
			snprintf(err, errlen, "%s must hold %zu value(s), not %zu", sc->name, need,
				 sc->numel);
			return -EINVAL;
		}
	}
	double *table = NULL, table_s = 0.0;
	int table_made = 0;
	if (fe_tabulable(op, &c->in[0]) && !(table = malloc(65536 * sizeof *table))) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (size_t m = 0; m < y->nmembers; m++) {
		size_t n = npukb_shape_numel(&y->members[m]);
		struct fe_member_job j = { c, op, m, 0.0, NULL, fe_f32_trig(op, &c->in[0], y) };
		if (sc)
			j.s = npukb_load_as_double(sc->dtype, sc->data, op->scalar == FE_ONE ? 0 : m);
		if (table && n >= 65536) {
			/* made for the first large member, again when the scalar
			 * changes (bit for bit: a -0.0 or NaN scalar is another) */
			if (!table_made || memcmp(&table_s, &j.s, sizeof j.s) != 0) {
				fe_fill_table(op, c->in[0].dtype, j.s, table);
				table_s = j.s;
				table_made = 1;
			}
			j.table = table;
		}
		npukb_parallel_run(n, npukb_parallel_parts(n, NPUKB_PARALLEL_GRAIN),
				   j.table		? fe_member_range_table
				   : j.f32_cos >= 0 ? fe_member_range_f32_trig
						    : fe_member_range,
				   &j);
	}
	free(table);
	return 0;
}

static int fe_norm_tabulable(enum npukb_dtype dt)
{
	return dt == NPUKB_DT_FLOAT16 || dt == NPUKB_DT_BFLOAT16;
}

/* |x|^p for every 16-bit pattern x of dt, the term the per-element sum
 * adds for it; NULL when out of memory. */
static double *fe_norm_table(enum npukb_dtype dt, double p)
{
	double *t = malloc(65536 * sizeof *t);
	if (!t)
		return NULL;
	for (uint32_t u = 0; u < 65536; u++) {
		const uint16_t bits = (uint16_t)u;
		t[u] = pow(fabs(npukb_load_as_double(dt, &bits, 0)), p);
	}
	return t;
}

/* ForeachNorm: y[m] (one element) = the p-norm of member m, p the scalar:
 * (sum |x|^p)^(1/p); p = inf the largest |x|, p = 0 the count of nonzero
 * elements. Summed in double in the order of the elements. */
static int ref_foreach_norm(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	const struct npukb_ref_tensor *x = &c->in[0], *ps = &c->in[1];
	struct npukb_ref_tensor *y = &c->out[0];
	double p;

	if (x->nmembers == 0 || y->nmembers != x->nmembers || ps->numel != 1) {
		snprintf(err, errlen, "%s and %s must be lists of as many members, %s one value",
			 x->name, y->name, ps->name);
		return -EINVAL;
	}
	p = npukb_load_as_double(ps->dtype, ps->data, 0);
	const int pow_sum = !isinf(p) && p != 0.0;
	double *table = NULL;
	for (size_t m = 0; m < x->nmembers; m++) {
		const size_t n = npukb_shape_numel(&x->members[m]), at = x->member_offsets[m];
		double acc = 0.0, blk[REF_BLOCK];
		if (npukb_shape_numel(&y->members[m]) != 1) {
			free(table);
			snprintf(err, errlen, "member %zu of %s must hold one element", m, y->name);
			return -EINVAL;
		}
		if (pow_sum && n >= FE_TABLE_MIN && fe_norm_tabulable(x->dtype)) {
			/* a 16-bit member's terms looked up: pow of each of the
			 * 65,536 inputs once, instead of per element (most of a
			 * half or bfloat16 case); the same doubles summed in the
			 * same order */
			if (!table && !(table = fe_norm_table(x->dtype, p))) {
				snprintf(err, errlen, "out of memory");
				return -ENOMEM;
			}
			const uint16_t *src = (const uint16_t *)x->data + at;
			for (size_t i = 0; i < n; i++)
				acc += table[src[i]];
		} else {
			for (size_t i = 0; i < n; i += REF_BLOCK) {
				const size_t k = n - i < REF_BLOCK ? n - i : REF_BLOCK;
				ref_load_block(x, at + i, k, blk);
				for (size_t j = 0; j < k; j++) {
					const double a = fabs(blk[j]);
					if (isinf(p))
						acc = a > acc || isnan(a) ? a : acc;
					else if (p == 0.0)
						acc += a != 0.0;
					else
						acc += pow(a, p);
				}
			}
		}
		if (pow_sum)
			acc = pow(acc, 1.0 / p);
		npukb_store_from_double(y->dtype, y->data, y->member_offsets[m], acc);
	}
	free(table);
	return 0;
}

/* ForeachNonFiniteCheckAndUnscale: every member of scaled_grads (in place)
 * is multiplied by inv_scale (set to zero when inv_scale is 0); found_inf
 * (in place) becomes 1.0 when any element of any member was +-inf or NaN,
 * 0.0 otherwise. Inputs in manifest order: inv_scale, then scaled_grads
 * and found_inf as they were before the kernel; outputs: scaled_grads,
 * found_inf. */
static int ref_foreach_unscale(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	const struct npukb_ref_tensor *inv = &c->in[0], *g = &c->in[1];
	struct npukb_ref_tensor *gy = &c->out[0], *found = &c->out[1];
	double scale, flag = 0.0;

	if (g->nmembers == 0 || inv->numel != 1 || found->numel != 1) {
		snprintf(err, errlen, "%s must be a tensor list, %s and %s one value each", g->name,
			 inv->name, found->name);
		return -EINVAL;
	}
	scale = npukb_load_as_double(inv->dtype, inv->data, 0);
	for (size_t m = 0; m < g->nmembers; m++) {
		size_t n = npukb_shape_numel(&g->members[m]), at = g->member_offsets[m];
		for (size_t i = 0; i < n; i++) {
			double v = npukb_load_as_double(g->dtype, g->data, at + i);
			if (!isfinite(v))
				flag = 1.0;
			npukb_store_from_double(gy->dtype, gy->data, at + i, scale == 0.0 ? 0.0 : v * scale);
		}
	}
	npukb_store_from_double(found->dtype, found->data, 0, flag);
	return 0;
}

static const struct npukb_reference specials[] = {
	{ "foreach_norm", 2, 1, ref_foreach_norm },
	{ "foreach_non_finite_check_and_unscale", 3, 2, ref_foreach_unscale },
};

const struct npukb_reference *npukb_ref_foreach_find(const char *name)
{
	const struct fe_op *op = find_op(name);
	if (op)
		return &op->ref;
	for (size_t i = 0; i < sizeof(specials) / sizeof(specials[0]); i++)
		if (strcmp(specials[i].name, name) == 0)
			return &specials[i];
	return NULL;
}
