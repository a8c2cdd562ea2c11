/* fp16_selftest.cpp - checks npukb_cpusim/fp16.h against a slow reference.
 *
 * The reference rounds by searching the sorted list of representable values
 * for the two neighbours of x and picking the nearer (ties to the even bit
 * pattern), independent of the bit-twiddling under test. Every pair of
 * neighbours is probed at both ends, the exact midpoint and just either side
 * of it, for binary16 and bfloat16; then half arithmetic is checked to round
 * once. Exit 0 when everything agrees; prints the first failures otherwise. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "npukb_cpusim/fp16.h"

namespace {

int failures = 0;

void fail(const char *what, double x, unsigned got, unsigned want)
{
	if (failures++ < 20)
		fprintf(stderr, "%s(%.17g): got 0x%04x, want 0x%04x\n", what, x, got, want);
}

/* Value of a positive finite bit pattern, computed arithmetically. */
double value16(unsigned bits, int mbits, int bias)
{
	const unsigned e = bits >> mbits, m = bits & ((1u << mbits) - 1);
	if (e == 0)
		return ldexp((double)m, 1 - bias - mbits);
	return ldexp((double)(m | (1u << mbits)), (int)e - bias - mbits);
}

struct Format {
	const char *name;
	int mbits, bias;
	unsigned inf;     /* bit pattern of +inf */
	uint16_t (*round)(double);
	double (*widen)(uint16_t);
};

double widen_f16(uint16_t h) { return npukb_cpusim::f16_to_f32(h); }
double widen_bf16(uint16_t h) { return npukb_cpusim::bf16_to_f32(h); }

/* Reference rounding of a non-negative finite x; vals[i] = value of bits i. */
unsigned ref_round(double x, const double *vals, const Format &f)
{
	const unsigned top = f.inf - 1;
	if (x >= vals[top]) {
		/* Past the largest finite value: the next step would be inf. */
		const double ulp = vals[top] - vals[top - 1];
		const double mid = vals[top] + ulp / 2;
		return x < mid ? top : f.inf;
	}
	unsigned lo = 0, hi = top; /* vals[lo] <= x < vals[hi] */
	while (hi - lo > 1) {
		const unsigned mid = (lo + hi) / 2;
		if (vals[mid] <= x)
			lo = mid;
		else
			hi = mid;
	}
	const double dl = x - vals[lo], dh = vals[hi] - x;
	if (dl < dh)
		return lo;
	if (dh < dl)
		return hi;
	return (lo & 1) ? hi : lo;
}

void check_format(const Format &f)
{
	static double vals[0x8000];
	for (unsigned b = 0; b < f.inf; b++)
		vals[b] = value16(b, f.mbits, f.bias);
	for (unsigned b = 0; b < f.inf; b++) {
		/* Decoding agrees with the arithmetic value. */
		if (f.widen((uint16_t)b) != vals[b])
			fail(f.name, vals[b], b, b);
		double probes[6];
		int n = 0;
		probes[n++] = vals[b];
		if (b + 1 < f.inf) {
			const double mid = (vals[b] + vals[b + 1]) / 2;
			probes[n++] = mid;
			probes[n++] = nextafter(mid, 0);
			probes[n++] = nextafter(mid, INFINITY);
			probes[n++] = vals[b] + (vals[b + 1] - vals[b]) * 0.3;
		} else {
			probes[n++] = vals[b] * 1.0001;
		}
		for (int i = 0; i < n; i++) {
			const double x = probes[i];
			const unsigned want = ref_round(x, vals, f);
			const unsigned got = f.round(x);
			if (got != want)
				fail(f.name, x, got, want);
			const unsigned gotn = f.round(-x);
			if (gotn != (want | 0x8000))
				fail(f.name, -x, gotn, want | 0x8000);
		}
	}
	/* Specials. */
	if (f.round(INFINITY) != f.inf)
		fail(f.name, INFINITY, f.round(INFINITY), f.inf);
	if (f.round(-INFINITY) != (f.inf | 0x8000))
		fail(f.name, -INFINITY, f.round(-INFINITY), f.inf | 0x8000);
	const unsigned qnan = f.round(NAN);
	if ((qnan & 0x7fff) <= f.inf)
		fail(f.name, NAN, qnan, f.inf + 1);
	if (f.round(1e300) != f.inf)
		fail(f.name, 1e300, f.round(1e300), f.inf);
	if (f.round(1e-300) != 0)
		fail(f.name, 1e-300, f.round(1e-300), 0);
	if (f.round(5e-324) != 0)
		fail(f.name, 5e-324, f.round(5e-324), 0);
}

uint16_t round_f16(double d) { return npukb_cpusim::f64_to_f16(d); }
uint16_t round_bf16(double d) { return npukb_cpusim::f64_to_bf16(d); }

void check_half_arith()
{
	/* half + half must equal the exact sum rounded once. */
	uint64_t s = 0x9e3779b97f4a7c15ull;
	for (int i = 0; i < 2000000; i++) {
		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		const uint16_t a = (uint16_t)s, b = (uint16_t)(s >> 16);
		if ((a & 0x7c00) == 0x7c00 || (b & 0x7c00) == 0x7c00)
			continue;
		const half ha = half::from_bits(a), hb = half::from_bits(b);
		const double da = npukb_cpusim::f16_to_f32(a), db = npukb_cpusim::f16_to_f32(b);
		const half sum = ha + hb, prod = ha * hb;
		if (sum.bits != npukb_cpusim::f64_to_f16(da + db))
			fail("half+", da + db, sum.bits, npukb_cpusim::f64_to_f16(da + db));
		if (prod.bits != npukb_cpusim::f64_to_f16(da * db))
			fail("half*", da * db, prod.bits, npukb_cpusim::f64_to_f16(da * db));
	}
	/* A case where float would round twice: 1 + 2^-11 + 2^-24 (exact in
	 * double) must round up to 1 + 2^-10. */
	const double x = 1.0 + ldexp(1.0, -11) + ldexp(1.0, -24);
	if (npukb_cpusim::f64_to_f16(x) != 0x3c01)
		fail("f64_to_f16", x, npukb_cpusim::f64_to_f16(x), 0x3c01);
	/* Mixed operations keep their documented result types. */
	const half h = 1.5f;
	static_assert(std::is_same<decltype(h + 1), half>::value, "half + int is half");
	static_assert(std::is_same<decltype(h + 1.0f), float>::value, "half + float is float");
	static_assert(std::is_same<decltype(2.0 * h), double>::value, "double * half is double");
	if (!(h > 1) || !(h == 1.5) || (float)(h + 1) != 2.5f)
		fail("half mixed", 1.5, h.bits, 0x3e00);
}

/* `constexpr half k = 1.0;` goes through an arithmetic-only conversion:
 * it must agree with the runtime one everywhere. */
constexpr half CE_ONE = 1.0;
constexpr half CE_TIE = 1.0 + 1.0 / 2048;
static_assert(CE_ONE.bits == 0x3c00 && CE_TIE.bits == 0x3c00, "constexpr half rounds to nearest even");

void check_const_conversion()
{
	uint64_t s = 0x2545f4914f6cdd1dull;
	for (int i = 0; i < 1000000; i++) {
		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		const double d = ldexp((double)(s & 0xfffffffffffffull) / 4503599627370496.0 + 1.0, (int)(s >> 58) - 30) *
				 ((s >> 57) & 1 ? -1 : 1);
		const uint16_t c = npukb_cpusim::f64_to_f16_const(d), r = npukb_cpusim::f64_to_f16(d);
		if (c != r)
			fail("f64_to_f16_const", d, c, r);
	}
}

} // namespace

int main()
{
	const Format f16 = {"f64_to_f16", 10, 15, 0x7c00, round_f16, widen_f16};
	const Format bf16 = {"f64_to_bf16", 7, 127, 0x7f80, round_bf16, widen_bf16};
	check_format(f16);
	check_format(bf16);
	check_half_arith();
	check_const_conversion();
	if (failures) {
		fprintf(stderr, "%d failures\n", failures);
		return 1;
	}
	puts("fp16 selftest: ok");
	return 0;
}
