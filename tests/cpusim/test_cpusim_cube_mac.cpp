/* test_cpusim_cube_mac.cpp - the product loops of Mmad and Matmul in every
 * lane width this CPU runs give the bits of one scalar multiply then add
 * per product in k order: on random full-precision floats (where a fused
 * multiply-add would round differently), on ragged row lengths (vector
 * bodies and scalar tails), and on infinities, signed zeros, subnormals
 * and overflow. */
#include <criterion/criterion.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

#include "npukb_cpusim/cube_mac.h"

namespace rt = npukb_cpusim;

/* The variants to check: every one up to the widest this CPU has. */
static std::vector<rt::MacIsa> isas()
{
	std::vector<rt::MacIsa> v{rt::MAC_BASE};
	if (rt::mac_isa_best() >= rt::MAC_AVX2)
		v.push_back(rt::MAC_AVX2);
	if (rt::mac_isa_best() >= rt::MAC_AVX512)
		v.push_back(rt::MAC_AVX512);
	return v;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state >> 16);
}

/* A float with a full 24-bit mantissa in [-4, 4), or, one time in `edge`,
 * one of the values that tell rounding paths apart. */
static float rnd_float(unsigned edge)
{
	static const float special[] = {INFINITY, -INFINITY, 0.0f, -0.0f, 1e-40f, -3e-39f, 3e38f, -3e38f,
					1.0f + 0x1p-23f};
	if (edge && rnd() % edge == 0)
		return special[rnd() % (sizeof special / sizeof special[0])];
	return ((float)(rnd() & 0xffffff) / 0x1p24f * 8.0f - 4.0f) * (1.0f + 0x1p-23f * (float)(rnd() % 7));
}

/* Equal bits, except that any NaN matches any NaN (a payload depends on
 * which operand the compiler put first, in scalar code as much as in
 * vector code). */
template <class T>
static bool same(T a, T b)
{
	if constexpr (!std::is_integral<T>::value)
		if (a != a || b != b)
			return a != a && b != b;
	return memcmp(&a, &b, sizeof a) == 0;
}

/* c += a b, one rounded product then one rounded add per term (volatile:
 * no contraction whatever the compile line). */
template <class T>
static void rows_scalar(T *c, const T *a, const T *b, uint32_t m, uint32_t n, uint32_t k)
{
	for (uint32_t i = 0; i < m; i++)
		for (uint32_t j = 0; j < n; j++) {
			T s = c[(size_t)i * n + j];
			for (uint32_t p = 0; p < k; p++) {
				volatile T prod = a[(size_t)i * k + p] * b[(size_t)p * n + j];
				s = s + prod;
			}
			c[(size_t)i * n + j] = s;
		}
}

static void check_rows_float(uint32_t m, uint32_t n, uint32_t k, unsigned edge)
{
	std::vector<float> a((size_t)m * k), b((size_t)k * n), c0((size_t)m * n);
	for (auto &x : a)
		x = rnd_float(edge);
	for (auto &x : b)
		x = rnd_float(edge);
	for (auto &x : c0)
		x = rnd_float(edge);
	std::vector<float> want = c0;
	rows_scalar(want.data(), a.data(), b.data(), m, n, k);
	for (rt::MacIsa isa : isas()) {
		std::vector<float> got = c0;
		rt::mac_rows(isa, got.data(), a.data(), b.data(), m, n, k);
		size_t bad = 0;
		for (size_t i = 0; i < got.size(); i++)
			bad += !same(got[i], want[i]);
		cr_expect_eq(bad, 0u, "isa %d, %u x %u x %u, edge 1/%u: %zu of %zu elements differ", (int)isa, m, n, k,
			     edge, bad, got.size());
	}
}

Test(cpusim_cube_mac, float_rows_match_scalar_on_every_width)
{
	cr_log_info("widest variant on this CPU: %d", (int)rt::mac_isa_best());
	static const uint32_t ns[] = {1, 3, 7, 8, 15, 16, 17, 31, 32, 33, 47, 64, 100, 128, 257};
	for (uint32_t n : ns) {
		check_rows_float(5, n, 37, 0);
		check_rows_float(3, n, 64, 11);
	}
}

Test(cpusim_cube_mac, a_fused_multiply_add_would_differ)
{
	/* Proof that the data can tell: (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24
	 * loses its 2^-24 when the product is rounded to a float before the
	 * add; a fused multiply-add keeps it. */
	const float x = 1.0f + 0x1p-12f, c = -1.0f;
	volatile float prod = x * x;
	const float twice = c + prod, once = fmaf(x, x, c);
	cr_assert_neq(twice, once, "rounding twice and once must differ on this pair");
	std::vector<float> a(1, x), b(64, x);
	for (rt::MacIsa isa : isas()) {
		std::vector<float> got(64, c);
		rt::mac_rows(isa, got.data(), a.data(), b.data(), 1, 64, 1);
		for (float v : got)
			cr_expect(same(v, twice), "isa %d gave %a, rounded twice is %a", (int)isa, (double)v,
				  (double)twice);
	}
}

Test(cpusim_cube_mac, int32_rows_match_scalar)
{
	const uint32_t m = 4, n = 77, k = 96;
	std::vector<int32_t> a((size_t)m * k), b((size_t)k * n), c0((size_t)m * n);
	for (auto &x : a)
		x = (int32_t)(int8_t)rnd();
	for (auto &x : b)
		x = (int32_t)(int8_t)rnd();
	for (auto &x : c0)
		x = (int32_t)(rnd() % 100000) - 50000;
	std::vector<int32_t> want = c0;
	rows_scalar(want.data(), a.data(), b.data(), m, n, k);
	for (rt::MacIsa isa : isas()) {
		std::vector<int32_t> got = c0;
		rt::mac_rows(isa, got.data(), a.data(), b.data(), m, n, k);
		cr_expect(got == want, "isa %d: int32 sums differ", (int)isa);
	}
}

/* acc[i][j] += x[i][p] * b[p][j] in double, p in order. */
template <class B>
static void check_block(uint32_t rows, uint32_t nj, uint32_t k, size_t ld, unsigned edge)
{
	std::vector<double> x((size_t)rows * k);
	std::vector<B> b((size_t)k * ld);
	for (auto &v : x)
		v = (double)rnd_float(edge);
	for (auto &v : b)
		v = (B)rnd_float(edge) * (B)(1.0f + 0x1p-20f);
	double init[4][128];
	for (auto &r : init)
		for (auto &v : r)
			v = (double)rnd_float(edge) / 3.0;
	double want[4][128];
	memcpy(want, init, sizeof want);
	for (uint32_t i = 0; i < rows; i++)
		for (uint32_t j = 0; j < nj; j++)
			for (uint32_t p = 0; p < k; p++) {
				volatile double prod = x[(size_t)i * k + p] * (double)b[(size_t)p * ld + j];
				want[i][j] = want[i][j] + prod;
			}
	for (rt::MacIsa isa : isas()) {
		double got[4][128];
		memcpy(got, init, sizeof got);
		rt::mac_block(isa, got, x.data(), b.data(), rows, nj, k, ld);
		size_t bad = 0;
		for (uint32_t i = 0; i < 4; i++)
			for (uint32_t j = 0; j < 128; j++)
				bad += !same(got[i][j], want[i][j]);
		cr_expect_eq(bad, 0u, "isa %d, B of %zu bytes, %u rows x %u of %zu, k %u: %zu differ (rows and "
				      "columns past the block must stay as they were)",
			     (int)isa, sizeof(B), rows, nj, ld, k, bad);
	}
}

Test(cpusim_cube_mac, matmul_blocks_match_scalar_on_every_width)
{
	static const uint32_t njs[] = {1, 5, 8, 13, 64, 100, 127, 128};
	for (uint32_t nj : njs) {
		check_block<float>(4, nj, 29, 200, 0);
		check_block<float>(3, nj, 16, 128, 9);
		check_block<double>(4, nj, 33, 131, 0);
		check_block<double>(1, nj, 8, 128, 7);
	}
}
