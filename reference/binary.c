/* binary.c - element-wise operators of several tensors and scalar operands
 * (a scalar operand is a one-element input tensor; its element 0 is used).
 * Computed in double, rounded once to the output dtype. */
#include "ref_util.h"

#include <math.h>

static double ld(const struct npukb_ref_tensor *t, size_t i)
{
	return npukb_load_as_double(t->dtype, t->data, i);
}

/* x rounded to float: the precision of one float32 operation. */
static double f32(double x)
{
	return (double)(float)x;
}

/* bfloat16 outputs of addcmul/addcdiv are computed the way the framework
 * the task mirrors computes them (PyTorch's float32 "opmath" for reduced
 * precision, then one rounding to bfloat16), because in [2^k, 1.5*2^k) the
 * rel-max1 tolerance for bfloat16 is less than one bfloat16 ulp: a kernel
 * that computes in float32 as the hardware does would otherwise fail where
 * a float result lies between a double result and a bfloat16 midpoint. */
static int bf16_opmath(const struct npukb_ref_tensor *y)
{
	return y->dtype == NPUKB_DT_BFLOAT16;
}

static int scalar_operand(const struct npukb_ref_tensor *t, char *err, size_t errlen)
{
	if (t->numel < 1) {
		snprintf(err, errlen, "scalar operand %s is empty", t->name);
		return -EINVAL;
	}
	return 0;
}

/* y = input + value * x1 / x2 (x2 = 0 gives inf or NaN, as IEEE says). */
int npukb_ref_addcdiv(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	struct npukb_ref_tensor *y = &c->out[0];
	size_t i;
	double v;
	int rc = ref_same_numel(c, 3, err, errlen);
	if (rc == 0)
		rc = scalar_operand(&c->in[3], err, errlen);
	if (rc)
		return rc;
	v = ld(&c->in[3], 0);
	for (i = 0; i < y->numel; i++) {
		double a = ld(&c->in[0], i), q = ld(&c->in[1], i) / ld(&c->in[2], i);
		if (bf16_opmath(y))
			npukb_store_from_double(y->dtype, y->data, i, f32(a + f32(v * f32(q))));
		else
			npukb_store_from_double(y->dtype, y->data, i, a + v * q);
	}
	return 0;
}

/* y = input + value * x1 * x2. */
int npukb_ref_addcmul(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	struct npukb_ref_tensor *y = &c->out[0];
	size_t i;
	double v;
	int rc = ref_same_numel(c, 3, err, errlen);
	if (rc == 0)
		rc = scalar_operand(&c->in[3], err, errlen);
	if (rc)
		return rc;
	v = ld(&c->in[3], 0);
	for (i = 0; i < y->numel; i++) {
		double a = ld(&c->in[0], i), p = ld(&c->in[1], i) * ld(&c->in[2], i);
		if (bf16_opmath(y))
			npukb_store_from_double(y->dtype, y->data, i, f32(a + f32(v * f32(p))));
		else
			npukb_store_from_double(y->dtype, y->data, i, a + v * p);
	}
	return 0;
}

/* y = start + weight * (end - start), all three element-wise. */
int npukb_ref_lerp(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	struct npukb_ref_tensor *y = &c->out[0];
	size_t i;
	int rc = ref_same_numel(c, 3, err, errlen);
	if (rc)
		return rc;
	for (i = 0; i < y->numel; i++) {
		double s = ld(&c->in[0], i), e = ld(&c->in[1], i), w = ld(&c->in[2], i);
		npukb_store_from_double(y->dtype, y->data, i, s + w * (e - s));
	}
	return 0;
}

/* y = min(max(x, lo), hi) with scalar lo, hi; NaN stays NaN; when lo > hi
 * every element is hi (PyTorch's clamp). */
int npukb_ref_clip_by_value(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	struct npukb_ref_tensor *y = &c->out[0];
	size_t i;
	double lo, hi;
	int rc = ref_same_numel(c, 1, err, errlen);
	if (rc == 0)
		rc = scalar_operand(&c->in[1], err, errlen);
	if (rc == 0)
		rc = scalar_operand(&c->in[2], err, errlen);
	if (rc)
		return rc;
	lo = ld(&c->in[1], 0);
	hi = ld(&c->in[2], 0);
	for (i = 0; i < y->numel; i++) {
		double v = ld(&c->in[0], i);
		if (v == v) {
			if (v < lo || lo != lo)
				v = lo;
			if (v > hi || hi != hi)
				v = hi;
		}
		npukb_store_from_double(y->dtype, y->data, i, v);
	}
	return 0;
}

/* y = x * value with a real scalar value; complex x scales both parts,
 * integer x truncates the product toward zero. */
int npukb_ref_muls(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	const struct npukb_ref_tensor *x = &c->in[0];
	struct npukb_ref_tensor *y = &c->out[0];
	size_t i;
	double v;
	int rc = ref_same_numel(c, 1, err, errlen);
	if (rc == 0)
		rc = scalar_operand(&c->in[1], err, errlen);
	if (rc)
		return rc;
	v = ld(&c->in[1], 0);
	for (i = 0; i < y->numel; i++) {
		if (x->dtype == NPUKB_DT_COMPLEX64) {
			double re, im;
			ref_c64_load(x, i, &re, &im);
			ref_c64_store(y, i, re * v, im * v);
		} else {
			npukb_store_from_double(y->dtype, y->data, i, ld(x, i) * v);
		}
	}
	return 0;
}

/* Element-wise complex product (a+bi)(c+di) = (ac-bd) + (ad+bc)i. */
int npukb_ref_complex_mul(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	struct npukb_ref_tensor *z = &c->out[0];
	size_t i;
	int rc = ref_same_numel(c, 2, err, errlen);
	if (rc)
		return rc;
	for (i = 0; i < z->numel; i++) {
		double a, b, cc, d;
		ref_c64_load(&c->in[0], i, &a, &b);
		ref_c64_load(&c->in[1], i, &cc, &d);
		ref_c64_store(z, i, a * cc - b * d, a * d + b * cc);
	}
	return 0;
}
