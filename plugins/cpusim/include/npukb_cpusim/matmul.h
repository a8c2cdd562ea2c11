/* matmul.h - AscendC's high-level cube API, Matmul, for operands in GM.
 *
 * C[m x n] = A[m x k] x B[k x n] (+ bias[n]) over the single shape (the
 * tiling's singleCoreM/N/K until SetSingleShape/SetTail change it). A, B and
 * C are row-major (ND) in GM, rows as far apart as the org shape says: A is
 * M x Ka (transposed: Ka x M), B is Kb x N (transposed: N x Kb), C has N
 * columns (SetOrgShape's orgKc when given). Products are exact and summed in
 * double, the sum (with the bias) rounded once to float, as the cube's L0C
 * holds it (int8 inputs: an exact int32), then rounded to C's type with
 * round-to-nearest-even; enAtomic adds it to what C holds, rounding once
 * more [the cube's accumulation order and rounding within K unconfirmed].
 *
 * On the device the vector core's Matmul calls are messages to its AI
 * core's cube (mix mode) that IterateAll waits for; here the calling block
 * computes the product itself. Every row of A, B and C goes through the GM
 * bounds check, so an operand past its kernel argument is reported at the
 * IterateAll line. Operands in UB/L1 (LocalTensor forms), NZ formats,
 * batched and partial (Iterate/GetTensorC) forms are not modelled.
 *
 * Cost (runtime.h cost_cube): the block's cube pipe loads A and B and
 * stores C at the core's GM rate and computes one 16x16x(32 bytes) fractal
 * MAC per cycle, loads overlapping the compute; the vector core waits for
 * it, as a synchronous IterateAll does. */
#ifndef NPUKB_CPUSIM_MATMUL_H
#define NPUKB_CPUSIM_MATMUL_H

#include <type_traits>
#include <vector>
#include "npukb_cpusim/cube_mac.h"
#include "npukb_cpusim/cube_tiling.h"

namespace AscendC {

enum class CubeFormat { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR };
enum class LayoutMode { NONE = 0, BSNGD, SBNGD, BNGS1S2, NORMAL };

template <TPosition POSITION, CubeFormat FORMAT, typename TYPE, bool ISTRANS = false,
	  LayoutMode LAYOUT = LayoutMode::NONE, bool IBSHARE = false>
struct MatmulType {
	constexpr static TPosition pos = POSITION;
	constexpr static CubeFormat format = FORMAT;
	using T = TYPE;
	constexpr static bool isTrans = ISTRANS;
	constexpr static LayoutMode layout = LAYOUT;
	constexpr static bool ibShare = IBSHARE;
};

/* The configuration template argument: cpusim computes the same product
 * whatever the configuration says. */
struct MatmulConfig {
	bool doNorm = true;
	bool doBasicBlock = false;
	bool doMultiDataLoad = false;
	uint32_t basicM = 0, basicN = 0, basicK = 0;
	bool intrinsicsCheck = false;
	bool isNBatch = false;
	bool enVecND2NZ = false;
	bool doSpecialBasicBlock = false;
	uint32_t doMTE2Preload = 0;
	uint32_t singleCoreM = 0, singleCoreN = 0, singleCoreK = 0;
	uint32_t stepM = 0, stepN = 0;
	uint32_t baseMN = 0;
	uint32_t singleCoreMN = 0;
	bool enUnitFlag = true;
	bool isPerTensor = false;
	bool hasAntiQuantOffset = false;
	bool doIBShareNorm = false;
	bool doSpecialMDL = false;
	bool enableInit = true;
	uint32_t batchMode = 0;
	bool enableEnd = true;
	bool enableGetTensorC = true;
	bool enableSetOrgShape = true;
	bool enableSetBias = true;
	bool enableSetTail = true;
	bool enableQuantVector = true;
	bool enableSetDefineData = true;
	uint8_t iterateMode = 0;
	bool enableReuse = true;
};

constexpr MatmulConfig npukb_mm_config(bool norm, bool mdl, bool basic)
{
	MatmulConfig c{};
	c.doNorm = norm;
	c.doMultiDataLoad = mdl;
	c.doBasicBlock = basic;
	return c;
}
inline constexpr MatmulConfig CFG_NORM = npukb_mm_config(true, false, false);
inline constexpr MatmulConfig CFG_MDL = npukb_mm_config(false, true, false);
inline constexpr MatmulConfig CFG_IBSHARE_NORM = npukb_mm_config(true, false, false);
inline constexpr MatmulConfig MM_CFG_BB = npukb_mm_config(false, false, true);
template <class... A>
constexpr MatmulConfig GetNormalConfig(A...) { return CFG_NORM; }
template <class... A>
constexpr MatmulConfig GetMDLConfig(A...) { return CFG_MDL; }
template <class... A>
constexpr MatmulConfig GetBasicConfig(A...) { return MM_CFG_BB; }

namespace detail {
/* An input element exactly (vec.h's widen: half and bfloat16 widen
 * without rounding), as a double for the sum. */
template <class T>
inline double mm_in(const T &v)
{
	return (double)widen(v);
}

/* The L0C value (float, or int32 for integer inputs) in C's type. */
template <class C>
inline C mm_out(double l0c)
{
	if constexpr (std::is_integral<C>::value)
		return (C)l0c;
	else
		return C((float)l0c);
}
} // namespace detail

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE, const auto &MM_CFG = CFG_NORM,
	  class MM_CB = void, class... Policy>
class Matmul {
	using SrcAT = typename A_TYPE::T;
	using SrcBT = typename B_TYPE::T;
	using DstT = typename C_TYPE::T;
	using BiasT = typename BIAS_TYPE::T;
	static_assert(sizeof(SrcAT) == sizeof(SrcBT), "Matmul: A and B element types differ in size");

public:
	void Init(const TCubeTiling *tiling, TPipe *tpipe = nullptr)
	{
		(void)tpipe;
		if (!tiling)
			return;
		tiling_ = *tiling;
		org_m_ = tiling_.M;
		org_n_ = tiling_.N;
		org_ka_ = tiling_.Ka;
		org_kb_ = tiling_.Kb;
		org_kc_ = 0;
		single_m_ = tiling_.singleCoreM;
		single_n_ = tiling_.singleCoreN;
		single_k_ = tiling_.singleCoreK;
		bias_on_ = tiling_.isBias != 0;
	}
	void SetOrgShape(int orgM, int orgN, int orgK) { SetOrgShape(orgM, orgN, orgK, orgK, 0); }
	void SetOrgShape(int orgM, int orgN, int orgKa, int orgKb, int orgKc = 0)
	{
		org_m_ = orgM;
		org_n_ = orgN;
		org_ka_ = orgKa;
		org_kb_ = orgKb;
		org_kc_ = orgKc;
	}
	void SetSingleShape(int singleM, int singleN, int singleK)
	{
		single_m_ = singleM;
		single_n_ = singleN;
		single_k_ = singleK;
	}
	/* A negative value keeps the current one. */
	void SetTail(int tailM = -1, int tailN = -1, int tailK = -1)
	{
		if (tailM >= 0)
			single_m_ = tailM;
		if (tailN >= 0)
			single_n_ = tailN;
		if (tailK >= 0)
			single_k_ = tailK;
	}
	/* CANN's UB scratch for the format conversions some SoCs do on the
	 * vector core; cpusim computes from GM directly and needs none. */
	void SetLocalWorkspace(const LocalTensor<uint8_t> &) {}
	void SetTensorA(const GlobalTensor<SrcAT> &gm, bool isTransposeA = false)
	{
		a_ = gm.addr_;
		trans_a_ = isTransposeA;
	}
	void SetTensorB(const GlobalTensor<SrcBT> &gm, bool isTransposeB = false)
	{
		b_ = gm.addr_;
		trans_b_ = isTransposeB;
	}
	void SetBias(const GlobalTensor<BiasT> &gm)
	{
		bias_ = gm.addr_;
		bias_on_ = true;
	}
	void DisableBias() { bias_on_ = false; }
	void ClearBias() { bias_on_ = false; }
	template <class... A>
	void SetSubBlockIdx(A...) {}
	template <class... A>
	void SetHF32(A...) {}

	template <bool sync = true>
	void IterateAll(const GlobalTensor<DstT> &gm, uint8_t enAtomic = 0, bool enSequentialWrite = false,
			bool waitIterateAll = false, bool fakeMsg = false, SrcLoc loc = NPUKB_LOC)
	{
		(void)enSequentialWrite, (void)waitIterateAll, (void)fakeMsg;
		compute(gm.addr_, enAtomic != 0, loc);
	}
	void WaitIterateAll() {}
	void End() {}

private:
	void compute(DstT *c, bool atomic, SrcLoc loc)
	{
		static const char what[] = "Matmul::IterateAll";
		const int64_t m = single_m_, n = single_n_, k = single_k_;
		if (m <= 0 || n <= 0 || k <= 0)
			npukb_cpusim::fail("out-of-bounds", loc, "%s: single shape %lld x %lld x %lld (Init with a tiling, "
					   "or SetSingleShape, first)", what, (long long)m, (long long)n, (long long)k);
		if (!a_ || !b_)
			npukb_cpusim::fail("out-of-bounds", loc, "%s: SetTensorA and SetTensorB come first", what);
		/* Row strides in elements, from the org shape. */
		const int64_t lda = trans_a_ ? org_m_ : org_ka_, ldb = trans_b_ ? org_kb_ : org_n_;
		const int64_t ldc = org_kc_ > 0 ? org_kc_ : org_n_;
		const int64_t a_rows = trans_a_ ? k : m, a_len = trans_a_ ? m : k;
		const int64_t b_rows = trans_b_ ? n : k, b_len = trans_b_ ? k : n;
		for (int64_t r = 0; r < a_rows; r++)
			npukb_cpusim::gm_check(a_ + r * lda, a_len * sizeof(SrcAT), "Matmul A reads", loc);
		for (int64_t r = 0; r < b_rows; r++)
			npukb_cpusim::gm_check(b_ + r * ldb, b_len * sizeof(SrcBT), "Matmul B reads", loc);
		if (bias_on_) {
			if (!bias_)
				npukb_cpusim::fail("out-of-bounds", loc, "%s: the tiling says isBias but SetBias never ran",
						   what);
			npukb_cpusim::gm_check(bias_, n * sizeof(BiasT), "Matmul bias reads", loc);
		}
		for (int64_t i = 0; i < m; i++)
			npukb_cpusim::gm_check(c + i * ldc, n * sizeof(DstT), "Matmul C writes", loc);

		/* Each output element is the sum, in double and in the order of
		 * p, of bias then the exact products, rounded once to L0C's type:
		 * the same operations as one dot product per element, arranged
		 * so that a row of B (widened once, exactly: half, bfloat16,
		 * float and int8 all fit a float) serves a block of rows and
		 * the inner loop runs along contiguous columns. */
		using WideB = typename std::conditional<std::is_integral<SrcBT>::value && (sizeof(SrcBT) > 2),
							double, float>::type;
		std::vector<WideB> bw((size_t)(k * n));
		for (int64_t p = 0; p < k; p++)
			for (int64_t j = 0; j < n; j++)
				bw[(size_t)(p * n + j)] =
					(WideB)detail::mm_in(trans_b_ ? b_[j * ldb + p] : b_[p * ldb + j]);
		constexpr int64_t kRows = 4, kCols = 128;
		std::vector<DstT> rows((size_t)(kRows * n));
		double acc[kRows][kCols];
		std::vector<double> xs((size_t)(kRows * k)); /* the block's rows of A, widened once */
		const npukb_cpusim::MacIsa isa = npukb_cpusim::mac_isa_best();
		for (int64_t i0 = 0; i0 < m; i0 += kRows) {
			const int64_t ni = m - i0 < kRows ? m - i0 : kRows;
			for (int64_t ii = 0; ii < ni; ii++)
				for (int64_t p = 0; p < k; p++) {
					const int64_t i = i0 + ii;
					xs[(size_t)(ii * k + p)] =
						detail::mm_in(trans_a_ ? a_[p * lda + i] : a_[i * lda + p]);
				}
			for (int64_t j0 = 0; j0 < n; j0 += kCols) {
				const int64_t nj = n - j0 < kCols ? n - j0 : kCols;
				for (int64_t ii = 0; ii < ni; ii++)
					for (int64_t jj = 0; jj < nj; jj++)
						acc[ii][jj] = bias_on_ ? detail::mm_in(bias_[j0 + jj]) : 0.0;
				npukb_cpusim::mac_block(isa, acc, xs.data(), &bw[(size_t)j0], (uint32_t)ni, (uint32_t)nj,
							(uint32_t)k, (size_t)n);
				for (int64_t ii = 0; ii < ni; ii++) {
					const int64_t i = i0 + ii;
					for (int64_t jj = 0; jj < nj; jj++) {
						const double s = acc[ii][jj];
						const double l0c = std::is_integral<SrcAT>::value ? (double)(int32_t)s : (double)(float)s;
						const int64_t j = j0 + jj;
						rows[(size_t)(ii * n + j)] =
							atomic ? detail::mm_out<DstT>(detail::mm_in(c[i * ldc + j]) +
										      (double)detail::mm_out<float>(l0c))
							       : detail::mm_out<DstT>(l0c);
					}
				}
			}
			for (int64_t ii = 0; ii < ni; ii++) {
				DstT *dst = c + (i0 + ii) * ldc;
				if (!atomic)
					npukb_cpusim::gm_note_write(dst, n * sizeof(DstT), loc);
				memcpy(dst, &rows[(size_t)(ii * n)], n * sizeof(DstT));
			}
		}
		npukb_cpusim::cost_cube((uint64_t)(m * k * sizeof(SrcAT) + k * n * sizeof(SrcBT) +
						   (bias_on_ ? n * sizeof(BiasT) : 0)),
					(uint64_t)(m * n * sizeof(DstT)) * (atomic ? 2 : 1), (uint64_t)m, (uint64_t)n,
					(uint64_t)k, sizeof(SrcAT));
	}

	TCubeTiling tiling_{};
	int64_t org_m_ = 0, org_n_ = 0, org_ka_ = 0, org_kb_ = 0, org_kc_ = 0;
	int64_t single_m_ = 0, single_n_ = 0, single_k_ = 0;
	SrcAT *a_ = nullptr;
	SrcBT *b_ = nullptr;
	BiasT *bias_ = nullptr;
	bool trans_a_ = false, trans_b_ = false, bias_on_ = false;
};

namespace detail {
inline void regist_matmul(TPipe *, GM_ADDR) {}

/* On the device the cube core of a mix kernel stays in REGIST_MATMUL_OBJ,
 * serving the vector cores' Matmul calls until they end; cpusim runs
 * those calls in the vector core, so the cube core's part ends here. */
inline void regist_matmul_aic_end()
{
	namespace rt = npukb_cpusim;
	if (rt::g.core_checks && rt::g.core_type == rt::CORE_AIC && rt::declared_aiv > 0 && rt::g.end_core)
		rt::g.end_core();
}
template <class MM, class TP, class... Rest>
inline void regist_matmul(TPipe *pipe, GM_ADDR ws, MM &mm, TP tiling, Rest &&...rest)
{
	if (tiling)
		mm.Init(tiling, pipe);
	regist_matmul(pipe, ws, std::forward<Rest>(rest)...);
}
} // namespace detail

} // namespace AscendC

/* REGIST_MATMUL_OBJ(pipe, workspace, mm1, tiling1[, mm2, tiling2 ...]):
 * initialises each object with its tiling (a null tiling leaves it for a
 * later Init). The workspace (CANN's message area between the vector and
 * the cube cores) is not used. */
#define REGIST_MATMUL_OBJ(tpipe, workspace, ...) \
	(::AscendC::detail::regist_matmul_aic_end(), \
	 ::AscendC::detail::regist_matmul((tpipe), (GM_ADDR)(workspace), __VA_ARGS__))

/* Kernels name these matmul::Matmul (beside `using namespace AscendC`). */
namespace matmul {
using AscendC::CFG_MDL;
using AscendC::CFG_NORM;
using AscendC::CubeFormat;
using AscendC::GetMDLConfig;
using AscendC::GetNormalConfig;
using AscendC::Matmul;
using AscendC::MatmulConfig;
using AscendC::MatmulType;
} // namespace matmul

#endif
