/* float_trig.h - sin and cos of floats, rounded to float: the same bits as
 * (float)sin((double)x) and (float)cos((double)x) for every float x, in
 * a fraction of libm's double time.
 *
 * Both cpusim's Sin/Cos on float and the Foreach reference spent most of a
 * float ForeachSin/ForeachCos case in libm's double sin (about 23 ns an
 * element, 67M elements a seed). A float result needs far less than
 * double's accuracy, except near a rounding boundary of float. Here x is
 * reduced by multiples of pi/2 in three exact-product parts to |r| <= pi/2
 * and sin(r) comes from its Taylor polynomial to r^19 (the omitted terms
 * are below 2^-51 there), about 2^-48 from the true value by estimate (the
 * pass over every float below is what shows it is close enough). When
 * the whole interval [p - 2^-42 |p|, p + 2^-42 |p|] rounds to one float,
 * that float is libm's too: libm's double is within one double ulp (2^-52
 * relative) of the true value, which is inside the interval. Otherwise
 * (4,760 of the 4.6e9 sines and cosines of floats below 1024), for
 * |x| >= 1024, NaN and infinities, the value is libm's own, rounded; so is
 * it for zeros (r + r z p is +0 for r = -0, and sin(-0) is -0).
 *
 * The arithmetic has no branch and no integer conversion, so that the
 * compiler turns a block of elements into vector code (gcc -O2 does);
 * the boundary test and the rare libm call come in a second pass. Every
 * float was compared with libm this way, bit for bit (noted in
 * plugins/cpusim/API.md); cpusim_api::float_sin_cos_give_libm_bits and
 * ref_foreach::float_sin_cos_lists_match_each_element run a dense sample.
 *
 * C and C++: the reference (C) and the emulation headers (C++) share it. */
#ifndef NPUKB_CPUSIM_FLOAT_TRIG_H
#define NPUKB_CPUSIM_FLOAT_TRIG_H

#include <math.h>
#include <stddef.h>

/* pi/2 in three parts, P1 and P2 of 33 bits: for an integer m < 2^20,
 * m * P1 and m * P2 are exact doubles. */
#define NPUKB_FT_P1 0x1.921fb544p+0
#define NPUKB_FT_P2 0x1.0b4611a6p-34
#define NPUKB_FT_P3 0x1.3198a2e037073p-69
#define NPUKB_FT_2_OVER_PI 0x1.45f306dc9c883p-1
/* x - m * P1 is exact while m < 2^11 and x's last bit is no finer than
 * P1's (2^-32) or m is 0: |x| < 1024 keeps both */
#define NPUKB_FT_MAX 1024.0f
#define NPUKB_FT_SLACK 0x1p-42
#define NPUKB_FT_BIG 0x1.8p52 /* adding and subtracting it rounds to an integer */
#define NPUKB_FT_BLOCK 256

/* The double sin (cos_shift 0) or cos (1) of a float with |x| < 1024,
 * within 2^-48 relative. m is 2x/pi rounded to an integer of the parity
 * that makes the result +-sin(r): even for sin, odd for cos. */
static inline double npukb_ft_eval(float xf, double cos_shift)
{
	const double x = (double)xf, big = NPUKB_FT_BIG;
	/* k = round((2x/pi - cos_shift) / 2), m = 2k + cos_shift */
	const double k = ((x * NPUKB_FT_2_OVER_PI - cos_shift) * 0.5 + big) - big;
	const double m = 2.0 * k + cos_shift;
	const double r = ((x - m * NPUKB_FT_P1) - m * NPUKB_FT_P2) - m * NPUKB_FT_P3;
	/* (-1)^k for sin, -(-1)^k for cos: h = k/2 is whole or half */
	const double h = k * 0.5, half = fabs(h - ((h + big) - big));
	const double sign = (1.0 - 4.0 * half) * (1.0 - 2.0 * cos_shift);
	const double z = r * r;
	const double p =
		-1.0 / 6 +
		z * (1.0 / 120 +
		     z * (-1.0 / 5040 +
			  z * (1.0 / 362880 +
			       z * (-1.0 / 39916800 +
				    z * (1.0 / 6227020800.0 +
					 z * (-1.0 / 1307674368000.0 +
					      z * (1.0 / 355687428096000.0 +
						   z * (-1.0 / 121645100408832000.0))))))));
	return sign * (r + r * z * p);
}

/* p rounded to float, when no double within the slack of p rounds to
 * another float. */
static inline int npukb_ft_settled(double p)
{
	const double d = fabs(p) * NPUKB_FT_SLACK;
	return (float)(p - d) == (float)(p + d);
}

/* d[i] = (float)sin((double)s[i]) (cos_shift 0) or cos (1), i < n. */
static inline void npukb_ft_apply(float *d, const float *s, size_t n, int cos_shift)
{
	double p[NPUKB_FT_BLOCK];
	const double shift = cos_shift ? 1.0 : 0.0;
	for (size_t i0 = 0; i0 < n; i0 += NPUKB_FT_BLOCK) {
		const size_t b = n - i0 < NPUKB_FT_BLOCK ? n - i0 : NPUKB_FT_BLOCK;
		size_t i;
		/* every element, |x| >= 1024 and NaN too (harmless
		 * arithmetic, replaced below): no branch in this loop */
		for (i = 0; i < b; i++)
			p[i] = npukb_ft_eval(s[i0 + i], shift);
		for (i = 0; i < b; i++) {
			const float v = s[i0 + i];
			/* zeros too: r + r z p is +0 for r = -0, and sin(-0) is -0 */
			if (fabsf(v) < NPUKB_FT_MAX && v != 0.0f && npukb_ft_settled(p[i]))
				d[i0 + i] = (float)p[i];
			else
				d[i0 + i] = (float)(cos_shift ? cos((double)v) : sin((double)v));
		}
	}
}

static inline float npukb_sin_f32(float x)
{
	float y;
	npukb_ft_apply(&y, &x, 1, 0);
	return y;
}

static inline float npukb_cos_f32(float x)
{
	float y;
	npukb_ft_apply(&y, &x, 1, 1);
	return y;
}

#endif
