/* ophost_matmul.h - the host side of AscendC's Matmul: namespace
 * matmul_tiling (MatmulApiTiling, MultiCoreMatmulTiling) filling a
 * TCubeTiling (cube_tiling.h), as CANN declares it in tiling/tiling_api.h.
 *
 * cpusim's kernel-side Matmul (matmul.h) computes the whole product of the
 * single shape it is given and reads only M/N/Ka/Kb and singleCore* from the
 * tiling, so the rest only has to be plausible and self-consistent for
 * tiling code that reads it back: M/N split over the SetDim cores, K never
 * split (as CANN's table says), base blocks multiples of 16 (K: of the
 * 32-byte C0) inside L0A/L0B (half each, double-buffered) and L0C, L1 steps
 * inside the L1 space. The splitting rules are estimates [CANN's tiling
 * algorithm and its choices are unconfirmed]. */
#ifndef NPUKB_CPUSIM_OPHOST_MATMUL_H
#define NPUKB_CPUSIM_OPHOST_MATMUL_H
#include "npukb_cpusim/dt_macros_push.h"

#include <cstdint>
#include "npukb_cpusim/cube_tiling.h"
#include "npukb_cpusim/ophost_platform.h"

namespace matmul_tiling {

/* Values are ge::DataType's: tiling code static_casts ge types to these. */
enum class DataType : int32_t {
	DT_FLOAT = ge::DT_FLOAT,
	DT_FLOAT16 = ge::DT_FLOAT16,
	DT_INT8 = ge::DT_INT8,
	DT_INT32 = ge::DT_INT32,
	DT_UINT8 = ge::DT_UINT8,
	DT_INT16 = ge::DT_INT16,
	DT_UINT16 = ge::DT_UINT16,
	DT_UINT32 = ge::DT_UINT32,
	DT_INT64 = ge::DT_INT64,
	DT_UINT64 = ge::DT_UINT64,
	DT_DOUBLE = ge::DT_DOUBLE,
	DT_BOOL = ge::DT_BOOL,
	DT_BF16 = ge::DT_BF16,
	DT_INT4 = 29,
	DT_UNDEFINED = ge::DT_UNDEFINED,
};

enum class TPosition : int32_t { GM, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC, LCM = VECCALC, SPM, SHM = SPM, TSCM, MAX };
enum class CubeFormat : int32_t { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR };
enum class MatrixTraverse : int32_t { NOSET = 0, FIRSTM = 1, FIRSTN = 2 };

namespace detail {
inline int64_t dtype_bytes(DataType t)
{
	switch (t) {
	case DataType::DT_FLOAT: case DataType::DT_INT32: case DataType::DT_UINT32: return 4;
	case DataType::DT_INT8: case DataType::DT_UINT8: case DataType::DT_INT4: case DataType::DT_BOOL: return 1;
	case DataType::DT_INT64: case DataType::DT_UINT64: case DataType::DT_DOUBLE: return 8;
	default: return 2;
	}
}
inline int64_t ceil_div(int64_t a, int64_t b) { return b > 0 ? (a + b - 1) / b : 0; }
inline int64_t align_up(int64_t a, int64_t b) { return ceil_div(a, b) * b; }
inline int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
inline int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
} // namespace detail

/* One core's Matmul (the single shape is the whole shape). */
class MatmulApiTiling {
public:
	MatmulApiTiling() : MatmulApiTiling(platform_ascendc::PlatformAscendC()) {}
	explicit MatmulApiTiling(const platform_ascendc::PlatformAscendC &p)
	{
		uint64_t v = 0;
		p.GetCoreMemSize(platform_ascendc::CoreMemType::L1, v);
		l1_ = (int64_t)v;
		p.GetCoreMemSize(platform_ascendc::CoreMemType::L0_A, v);
		l0a_ = (int64_t)v;
		p.GetCoreMemSize(platform_ascendc::CoreMemType::L0_B, v);
		l0b_ = (int64_t)v;
		p.GetCoreMemSize(platform_ascendc::CoreMemType::L0_C, v);
		l0c_ = (int64_t)v;
		p.GetCoreMemSize(platform_ascendc::CoreMemType::UB, v);
		ub_ = (int64_t)v;
		aic_ = p.GetCoreNumAic();
	}
	virtual ~MatmulApiTiling() = default;

	int32_t SetAType(TPosition pos, CubeFormat fmt, DataType t, bool isTrans = false)
	{
		a_ = Operand{pos, fmt, t, isTrans, true};
		return 0;
	}
	int32_t SetBType(TPosition pos, CubeFormat fmt, DataType t, bool isTrans = false)
	{
		b_ = Operand{pos, fmt, t, isTrans, true};
		return 0;
	}
	int32_t SetCType(TPosition pos, CubeFormat fmt, DataType t)
	{
		c_ = Operand{pos, fmt, t, false, true};
		return 0;
	}
	int32_t SetBiasType(TPosition pos, CubeFormat fmt, DataType t)
	{
		bias_t_ = Operand{pos, fmt, t, false, true};
		return 0;
	}
	int32_t SetShape(int32_t m, int32_t n, int32_t k)
	{
		m_ = m;
		n_ = n;
		k_ = k;
		return 0;
	}
	int32_t SetOrgShape(int32_t orgM, int32_t orgN, int32_t orgK) { return SetOrgShape(orgM, orgN, orgK, orgK); }
	int32_t SetOrgShape(int32_t orgM, int32_t orgN, int32_t orgKa, int32_t orgKb)
	{
		org_m_ = orgM;
		org_n_ = orgN;
		org_ka_ = orgKa;
		org_kb_ = orgKb;
		return 0;
	}
	int32_t SetBias(bool isBias = false)
	{
		bias_ = isBias;
		return 0;
	}
	int32_t EnableBias(bool isBias = false) { return SetBias(isBias); }
	/* -1 keeps the platform's size. */
	int32_t SetBufferSpace(int32_t l1Size = -1, int32_t l0CSize = -1, int32_t ubSize = -1, int32_t btSize = -1)
	{
		(void)btSize;
		if (l1Size >= 0)
			l1_ = l1Size;
		if (l0CSize >= 0)
			l0c_ = l0CSize;
		if (ubSize >= 0)
			ub_ = ubSize;
		return 0;
	}
	int32_t SetFixSplit(int32_t baseMIn = -1, int32_t baseNIn = -1, int32_t baseKIn = -1)
	{
		fix_m_ = baseMIn;
		fix_n_ = baseNIn;
		fix_k_ = baseKIn;
		return 0;
	}
	int32_t SetTraverse(MatrixTraverse t)
	{
		traverse_ = t;
		return 0;
	}
	int32_t SetSingleShape(int32_t singleMIn = -1, int32_t singleNIn = -1, int32_t singleKIn = -1)
	{
		single_m_ = singleMIn;
		single_n_ = singleNIn;
		single_k_ = singleKIn;
		return 0;
	}
	template <class... A>
	int32_t SetMatmulConfigParams(A...) { return 0; }

	/* 0, or -1 when the shape or the types make no sense. */
	int64_t GetTiling(TCubeTiling &t) { return compute(t, 1); }
	/* The kernel-side struct is the same type here (cube_tiling.h). */

protected:
	struct Operand {
		TPosition pos;
		CubeFormat fmt;
		DataType type;
		bool trans, set;
	};

	/* Fills t for a split of the M x N plane over at most `dim` cores. */
	int64_t compute(TCubeTiling &t, int64_t dim)
	{
		using namespace detail;
		const int64_t orgM = org_m_ > 0 ? org_m_ : m_, orgN = org_n_ > 0 ? org_n_ : n_;
		const int64_t orgKa = org_ka_ > 0 ? org_ka_ : k_, orgKb = org_kb_ > 0 ? org_kb_ : k_;
		const int64_t M = m_ > 0 ? m_ : orgM, N = n_ > 0 ? n_ : orgN, K = k_ > 0 ? k_ : orgKa;
		if (M <= 0 || N <= 0 || K <= 0 || M > orgM || N > orgN || K > orgKa || K > orgKb || dim <= 0)
			return -1;
		if (!a_.set || !b_.set || dtype_bytes(a_.type) != dtype_bytes(b_.type))
			return -1;
		const int64_t in_bytes = dtype_bytes(a_.type);
		const int64_t c0 = 32 / in_bytes; /* K elements of one fractal row */

		/* The single shape: given, or M and N split over the cores so that
		 * the largest share is smallest (fewer cores on a tie). */
		int64_t sM = single_m_ > 0 ? single_m_ : 0, sN = single_n_ > 0 ? single_n_ : 0;
		if (sM == 0 || sN == 0) {
			int64_t best = -1, best_used = 0, best_m = 0, best_n = 0;
			for (int64_t md = 1; md <= dim; md++) {
				const int64_t nd = min64(dim / md, ceil_div(N, 16));
				if (nd < 1 || (md > 1 && md > ceil_div(M, 16)))
					continue;
				const int64_t cm = sM ? sM : ceil_div(M, md), cn = sN ? sN : ceil_div(N, nd);
				const int64_t work = align_up(cm, 16) * align_up(cn, 16);
				const int64_t used = ceil_div(M, cm) * ceil_div(N, cn);
				if (best < 0 || work < best || (work == best && used < best_used)) {
					best = work;
					best_used = used;
					best_m = cm;
					best_n = cn;
				}
			}
			sM = best_m;
			sN = best_n;
		}
		const int64_t sK = single_k_ > 0 ? single_k_ : K;
		if (sM > M || sN > N || sK > K)
			return -1;
		t.usedCoreNum = (int32_t)(ceil_div(M, sM) * ceil_div(N, sN));
		t.M = (int32_t)orgM;
		t.N = (int32_t)orgN;
		t.Ka = (int32_t)orgKa;
		t.Kb = (int32_t)orgKb;
		t.singleCoreM = (int32_t)sM;
		t.singleCoreN = (int32_t)sN;
		t.singleCoreK = (int32_t)sK;

		/* Base blocks: fractal multiples, L0C holds baseM x baseN floats
		 * (int32 for int8), L0A/L0B half of themselves each (double
		 * buffering) [the device's choice of base block unconfirmed]. */
		int64_t bM = fix_m_ > 0 ? fix_m_ : min64(align_up(sM, 16), 128);
		int64_t bN = fix_n_ > 0 ? fix_n_ : min64(align_up(sN, 16), 256);
		while (bM * bN * 4 > l0c_ && bN > 16)
			bN -= 16;
		while (bM * bN * 4 > l0c_ && bM > 16)
			bM -= 16;
		int64_t bK = fix_k_ > 0 ? fix_k_ : align_up(sK, c0);
		if (fix_k_ <= 0) {
			const int64_t cap_a = (l0a_ / 2) / (bM * in_bytes), cap_b = (l0b_ / 2) / (bN * in_bytes);
			const int64_t cap = max64(c0, min64(cap_a, cap_b) / c0 * c0);
			bK = min64(bK, min64(cap, 256 / in_bytes * 2));
		}
		if (bM * bN * 4 > l0c_ || bM * bK * in_bytes > l0a_ || bK * bN * in_bytes > l0b_)
			return -1;
		t.baseM = (int32_t)bM;
		t.baseN = (int32_t)bN;
		t.baseK = (int32_t)bK;

		/* L1: A and B each get half; as many K steps of a base block as
		 * fit twice (double buffering), at most the whole K. */
		const int64_t kIter = ceil_div(sK, bK);
		const int64_t a_blk = bM * bK * in_bytes, b_blk = bN * bK * in_bytes;
		int64_t stepKa = max64(1, min64(kIter, (l1_ / 2) / (2 * a_blk)));
		int64_t stepKb = max64(1, min64(kIter, (l1_ / 2) / (2 * b_blk)));
		t.stepM = 1;
		t.stepN = 1;
		t.stepKa = (int32_t)stepKa;
		t.stepKb = (int32_t)stepKb;
		t.depthA1 = (int32_t)(stepKa * (kIter > stepKa ? 2 : 1));
		t.depthB1 = (int32_t)(stepKb * (kIter > stepKb ? 2 : 1));
		t.isBias = bias_ ? 1 : 0;
		const bool c_in_ub = c_.set && c_.pos != TPosition::GM;
		t.transLength = c_in_ub ? (int32_t)(bM * bN * dtype_bytes(c_.type)) : 0;
		t.iterateOrder = traverse_ == MatrixTraverse::FIRSTN ? 1 : 0;
		t.shareMode = 0;
		t.shareL1Size = (int32_t)(t.depthA1 * a_blk + t.depthB1 * b_blk + (bias_ ? bN * 4 : 0));
		t.shareL0CSize = (int32_t)(bM * bN * 4);
		t.shareUbSize = 0;
		t.batchM = t.batchN = t.singleBatchM = t.singleBatchN = 1;
		t.depthAL1CacheUB = t.depthBL1CacheUB = 0;
		t.dbL0A = 2;
		t.dbL0B = 2;
		t.dbL0C = 1;
		t.BatchNum = 1;
		return 0;
	}

	Operand a_{}, b_{}, c_{}, bias_t_{};
	int64_t m_ = 0, n_ = 0, k_ = 0;
	int64_t org_m_ = 0, org_n_ = 0, org_ka_ = 0, org_kb_ = 0;
	int64_t single_m_ = -1, single_n_ = -1, single_k_ = -1;
	int64_t fix_m_ = -1, fix_n_ = -1, fix_k_ = -1;
	bool bias_ = false;
	MatrixTraverse traverse_ = MatrixTraverse::NOSET;
	int64_t l1_ = 0, l0a_ = 0, l0b_ = 0, l0c_ = 0, ub_ = 0;
	uint32_t aic_ = 1;
};

/* Matmul over SetDim cores: M and N split, K whole. */
class MultiCoreMatmulTiling : public MatmulApiTiling {
public:
	MultiCoreMatmulTiling() = default;
	explicit MultiCoreMatmulTiling(const platform_ascendc::PlatformAscendC &p) : MatmulApiTiling(p) {}
	int32_t SetDim(int32_t dim)
	{
		dim_ = dim;
		return 0;
	}
	int32_t SetSingleRange(int32_t maxM = -1, int32_t maxN = -1, int32_t maxK = -1, int32_t minM = -1,
			       int32_t minN = -1, int32_t minK = -1)
	{
		(void)maxM, (void)maxN, (void)maxK, (void)minM, (void)minN, (void)minK;
		return 0;
	}
	int64_t GetTiling(TCubeTiling &t)
	{
		const int64_t rc = compute(t, dim_ > 0 ? dim_ : 1);
		if (rc == 0) {
			got_m_ = t.singleCoreM;
			got_n_ = t.singleCoreN;
			got_k_ = t.singleCoreK;
			m_dim_ = (int32_t)detail::ceil_div(m_ > 0 ? m_ : t.M, t.singleCoreM);
			n_dim_ = (int32_t)detail::ceil_div(n_ > 0 ? n_ : t.N, t.singleCoreN);
		}
		return rc;
	}
	int32_t GetSingleShape(int32_t &shapeM, int32_t &shapeN, int32_t &shapeK) const
	{
		shapeM = got_m_;
		shapeN = got_n_;
		shapeK = got_k_;
		return got_m_ > 0 ? 0 : -1;
	}
	/* The cores the tiling uses: dim = mDim * nDim. */
	int32_t GetCoreNum(int32_t &dim, int32_t &mDim, int32_t &nDim) const
	{
		mDim = m_dim_;
		nDim = n_dim_;
		dim = m_dim_ * n_dim_;
		return m_dim_ > 0 ? 0 : -1;
	}

private:
	int32_t dim_ = 0;
	int32_t got_m_ = 0, got_n_ = 0, got_k_ = 0, m_dim_ = 0, n_dim_ = 0;
};

} // namespace matmul_tiling

#include "npukb_cpusim/dt_macros_pop.h"
#endif
