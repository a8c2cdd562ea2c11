/* npukb_cpusim/cube_mac.h - the multiply-accumulate loops behind Mmad and
 * Matmul::IterateAll, in one lane width per instruction set, picked at run
 * time.
 *
 * Kernels are built for generic x86-64, whose 16-byte SSE2 vectors leave
 * most of a newer core idle in the products that dominate Level 3's run
 * time. Every lane does the same multiply, then the same add, as the
 * scalar tail: widening the vectors changes which element shares an
 * instruction with which, never what is computed. The wide variants
 * forbid contraction themselves (AVX-512F has fused multiply-adds, which
 * would round once where the narrow path rounds twice), whatever the
 * compile line says, so every machine gives the same bits. */
#ifndef NPUKB_CPUSIM_CUBE_MAC_H
#define NPUKB_CPUSIM_CUBE_MAC_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

namespace npukb_cpusim {

enum MacIsa { MAC_BASE, MAC_AVX2, MAC_AVX512 };

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define NPUKB_MAC_WIDE 1
#define NPUKB_MAC_AVX2 __attribute__((target("avx2"), optimize("fp-contract=off")))
#define NPUKB_MAC_AVX512 __attribute__((target("avx512f"), optimize("fp-contract=off")))
#else
#define NPUKB_MAC_WIDE 0
#endif

/* The widest variant this CPU runs: asked once per process. */
inline MacIsa mac_isa_best()
{
#if NPUKB_MAC_WIDE
	static const MacIsa best = __builtin_cpu_supports("avx512f") ? MAC_AVX512
				   : __builtin_cpu_supports("avx2")  ? MAC_AVX2
								     : MAC_BASE;
	return best;
#else
	return MAC_BASE;
#endif
}

namespace mac {

/* L lanes of T. A class template, so the size is applied when the template
 * is instantiated (gcc drops a dependent vector_size on a non-dependent type
 * written inside a function template). */
template <class T, unsigned L>
struct Vec {
	typedef T type __attribute__((vector_size(L * sizeof(T))));
};

/* c (m x n) += a (m x k) * b (k x n), all row-major: for each row of c, k
 * updates along the whole row, so each element sums its products in k
 * order. L lanes of T per vector. */
template <class T, unsigned L>
__attribute__((always_inline)) inline void rows(T *c, const T *a, const T *b, uint32_t m, uint32_t n, uint32_t k)
{
	typedef typename Vec<T, L>::type V;
	for (uint32_t mi = 0; mi < m; mi++) {
		T *cr = c + (size_t)mi * n;
		for (uint32_t j = 0; j < k; j++) {
			const T x = a[(size_t)mi * k + j];
			const T *br = b + (size_t)j * n;
			V xv = {};
			for (unsigned l = 0; l < L; l++)
				xv[l] = x;
			uint32_t i = 0;
			for (; i + 2 * L <= n; i += 2 * L) {
				V c0, c1, b0, b1;
				memcpy(&c0, cr + i, sizeof c0);
				memcpy(&c1, cr + i + L, sizeof c1);
				memcpy(&b0, br + i, sizeof b0);
				memcpy(&b1, br + i + L, sizeof b1);
				c0 += xv * b0;
				c1 += xv * b1;
				memcpy(cr + i, &c0, sizeof c0);
				memcpy(cr + i + L, &c1, sizeof c1);
			}
			for (; i < n; i++)
				cr[i] += x * br[i];
		}
	}
}

/* acc (rows x 128 doubles, nj used) += x (rows x k) * b (k rows of ld
 * elements, nj used), each product in double: Matmul's block of rows, the
 * sums in p order. */
template <class B, unsigned L>
__attribute__((always_inline)) inline void block(double (*acc)[128], const double *x, const B *b, uint32_t rows,
						 uint32_t nj, uint32_t k, size_t ld)
{
	typedef typename Vec<double, L>::type V;
	for (uint32_t p = 0; p < k; p++) {
		const B *br = b + (size_t)p * ld;
		for (uint32_t ii = 0; ii < rows; ii++) {
			const double xs = x[(size_t)ii * k + p];
			double *out = acc[ii];
			V xv = {};
			for (unsigned l = 0; l < L; l++)
				xv[l] = xs;
			uint32_t j = 0;
			for (; j + L <= nj; j += L) {
				V o;
				typename Vec<B, L>::type bv;
				memcpy(&o, out + j, sizeof o);
				memcpy(&bv, br + j, sizeof bv);
				o += xv * __builtin_convertvector(bv, V);
				memcpy(out + j, &o, sizeof o);
			}
			for (; j < nj; j++)
				out[j] += xs * (double)br[j];
		}
	}
}

template <class T>
inline void rows_base(T *c, const T *a, const T *b, uint32_t m, uint32_t n, uint32_t k)
{
	rows<T, 16 / sizeof(T)>(c, a, b, m, n, k);
}

template <class B>
inline void block_base(double (*acc)[128], const double *x, const B *b, uint32_t rows, uint32_t nj, uint32_t k,
		       size_t ld)
{
	block<B, 2>(acc, x, b, rows, nj, k, ld);
}

#if NPUKB_MAC_WIDE
template <class T>
NPUKB_MAC_AVX2 inline void rows_avx2(T *c, const T *a, const T *b, uint32_t m, uint32_t n, uint32_t k)
{
	rows<T, 32 / sizeof(T)>(c, a, b, m, n, k);
}

template <class T>
NPUKB_MAC_AVX512 inline void rows_avx512(T *c, const T *a, const T *b, uint32_t m, uint32_t n, uint32_t k)
{
	rows<T, 64 / sizeof(T)>(c, a, b, m, n, k);
}

template <class B>
NPUKB_MAC_AVX2 inline void block_avx2(double (*acc)[128], const double *x, const B *b, uint32_t rows, uint32_t nj,
				      uint32_t k, size_t ld)
{
	block<B, 4>(acc, x, b, rows, nj, k, ld);
}

template <class B>
NPUKB_MAC_AVX512 inline void block_avx512(double (*acc)[128], const double *x, const B *b, uint32_t rows,
					  uint32_t nj, uint32_t k, size_t ld)
{
	block<B, 8>(acc, x, b, rows, nj, k, ld);
}
#endif

} // namespace mac

/* The variant `isa` (tests compare them); isa must not exceed
 * mac_isa_best(). */
template <class T>
inline void mac_rows(MacIsa isa, T *c, const T *a, const T *b, uint32_t m, uint32_t n, uint32_t k)
{
#if NPUKB_MAC_WIDE
	if (isa == MAC_AVX512)
		return mac::rows_avx512(c, a, b, m, n, k);
	if (isa == MAC_AVX2)
		return mac::rows_avx2(c, a, b, m, n, k);
#endif
	(void)isa;
	mac::rows_base(c, a, b, m, n, k);
}

template <class B>
inline void mac_block(MacIsa isa, double (*acc)[128], const double *x, const B *b, uint32_t rows, uint32_t nj,
		      uint32_t k, size_t ld)
{
#if NPUKB_MAC_WIDE
	if (isa == MAC_AVX512)
		return mac::block_avx512(acc, x, b, rows, nj, k, ld);
	if (isa == MAC_AVX2)
		return mac::block_avx2(acc, x, b, rows, nj, k, ld);
#endif
	(void)isa;
	mac::block_base(acc, x, b, rows, nj, k, ld);
}

} // namespace npukb_cpusim

#endif
