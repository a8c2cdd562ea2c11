/* npukb_cpusim/cube.h - the low-level cube instructions: DataCopy GM->L1
 * with ND->NZ conversion (Nd2NzParams), LoadData L1->L0A/L0B
 * (LoadData2DParams), Mmad (MmadParams) and Fixpipe L0C->GM
 * (FixpipeParamsV220), with their pipes in the cycle model.
 *
 * Layouts (AscendC's Mmad documentation): a fractal is 16 rows of 32 bytes
 * (C0 = 32 / sizeof(T) elements: 16 for fp16/bf16, 32 for int8, 8 for fp32).
 * L1 holds NZ (fractals column after column, each row-major); L0A holds A
 * as ZZ (fractals row after row, each row-major, 16 x C0); L0B holds B as
 * ZN (fractals row after row, each column-major, C0 x 16); L0C holds C as
 * NZ of 16 x 16 fractals. Products are exact (fp16 x fp16 and bf16 x bf16
 * fit a float, int8 x int8 an int32) and accumulate in fp32 / int32 in k
 * order [the device's adder tree order is unpublished]. Written from the
 * public API description, not from CANN's sources. */
#ifndef NPUKB_CPUSIM_CUBE_H
#define NPUKB_CPUSIM_CUBE_H

#include <vector>

#include "npukb_cpusim/cube_mac.h"
#include "npukb_cpusim/fp16_bulk.h"
#include "npukb_cpusim/cube_mem.h"

namespace npukb_cpusim {

/* ---- cycle model of the cube pipes -----------------------------------------
 * MTE2 brings GM into L1 through the core's GM port (cost_dma); MTE1 moves
 * 512-byte fractals L1 -> L0A/L0B at mte1_fractal_cycles each; the cube
 * (P_M) does one 16 x 16 x C0 fractal MAC per cube_fractal_cycles; FIX
 * drains L0C at fix_bytes_per_cycle, its GM writes sharing the GM port.
 * The pipes run concurrently; only queues and flags order them, so a
 * double-buffered pipeline overlaps what a serial one adds up. The rates
 * are [unconfirmed] (the soc .conf files); the structure (pipes and their
 * concurrency) is the documented one (ASCENDC.md section 6). */
inline void cost_pipe(Pipe p, double dur, double latency)
{
	ub_auto_sync_wait(p);
	const double start = max2(g.busy[p], issue());
	const double end = start + dur;
	g.busy[p] = end;
	g.done[p] = max2(g.done[p], end + latency);
	ub_race_commit(p, start, end, end + latency);
}

inline void cost_mte1(uint64_t fractals) { cost_pipe(P_MTE1, (double)fractals * g.soc.mte1_fractal_cycles, 0); }

inline void cost_mmad(uint64_t fractals) { cost_pipe(P_M, (double)fractals * g.soc.cube_fractal_cycles, 0); }

/* L0C -> GM: the FIX pipe's own rate, or the GM port if that is slower. */
inline void cost_fix(uint64_t bytes)
{
	ub_auto_sync_wait(P_FIX);
	const double start = max2(g.busy[P_FIX], issue());
	const double port_end = port_book(start, (double)bytes / g.gm_rate);
	const double end = max2(port_end, start + (double)bytes / g.soc.fix_bytes_per_cycle);
	g.busy[P_FIX] = end;
	g.done[P_FIX] = max2(g.done[P_FIX], end + g.soc.mte3_latency);
	ub_race_commit(P_FIX, start, end, end + g.soc.mte3_latency);
	g.gm_bytes += bytes;
}

template <class T>
constexpr uint32_t c0_of() { return 32u / (uint32_t)sizeof(T); }

/* The accumulator type of a Mmad source type. */
template <class T> struct MmadAcc { using type = float; };
template <> struct MmadAcc<int8_t> { using type = int32_t; };

template <class T> inline float mmad_value(T v) { return (float)v; }
/* The lookup fp16_bulk.h checks against f16_to_f32 for every half: the
 * operands of a Mmad are converted once per call, and the software
 * conversion cost as much as the products at Level 3's tile sizes. */
inline float mmad_value(half v) { return f16_to_f32_table()[v.bits]; }
inline int32_t mmad_value(int8_t v) { return v; }

} // namespace npukb_cpusim

namespace AscendC {

/* ---- GM -> L1 with ND -> NZ ---------------------------------------------------- */

struct Nd2NzParams {
	uint16_t ndNum = 1;
	uint16_t nValue = 0;            /* rows of each ND matrix */
	uint16_t dValue = 0;            /* columns (elements) */
	uint16_t srcNdMatrixStride = 0; /* elements between ND matrices in GM */
	uint16_t srcDValue = 0;         /* elements between rows in GM */
	uint16_t dstNzC0Stride = 0;     /* C0 blocks (32 bytes) between column blocks in L1 */
	uint16_t dstNzNStride = 0;      /* 32-byte blocks between rows in L1 */
	uint16_t dstNzMatrixStride = 0; /* elements between NZ matrices in L1 */
	Nd2NzParams() = default;
	Nd2NzParams(uint16_t nd, uint16_t n, uint16_t d, uint16_t srcMat, uint16_t srcD, uint16_t c0Stride,
		    uint16_t nStride, uint16_t dstMat)
		: ndNum(nd), nValue(n), dValue(d), srcNdMatrixStride(srcMat), srcDValue(srcD),
		  dstNzC0Stride(c0Stride), dstNzNStride(nStride), dstNzMatrixStride(dstMat) {}
};

/* Row r, column c of ND matrix i lands at
 * i * dstNzMatrixStride + r * dstNzNStride * C0 + (c / C0) * dstNzC0Stride * C0 + c % C0;
 * a last column block that dValue does not fill is padded with zeros up to
 * 32 bytes (copy_gm_to_cbuf_multi_nd2nz's documented behaviour). */
template <class T>
inline void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const Nd2NzParams &p,
		     SrcLoc loc = NPUKB_LOC)
{
	namespace rt = npukb_cpusim;
	constexpr uint32_t C0 = rt::c0_of<T>();
	static const char what[] = "DataCopy GM->L1 (Nd2Nz)";
	const uint32_t dblocks = (p.dValue + C0 - 1) / C0;
	if (p.ndNum == 0 || p.nValue == 0 || p.dValue == 0)
		return; /* a NOP on the device */
	if (p.srcDValue < p.dValue)
		rt::fail("out-of-bounds", loc, "%s: srcDValue %u is smaller than dValue %u (rows overlap)", what,
			 p.srcDValue, p.dValue);
	/* The furthest element written, for the bounds check. */
	const uint64_t last = (uint64_t)(p.ndNum - 1) * p.dstNzMatrixStride +
			      (uint64_t)(p.nValue - 1) * p.dstNzNStride * C0 +
			      (uint64_t)(dblocks - 1) * p.dstNzC0Stride * C0 + C0;
	rt::cube_check(dst.addr_, last * sizeof(T), dst.GetLength(), 1u << rt::M_L1, 32, what, "destination", loc);
	uint64_t bytes = 0;
	for (uint32_t i = 0; i < p.ndNum; i++)
		for (uint32_t r = 0; r < p.nValue; r++) {
			const T *row = src.addr_ + (uint64_t)i * p.srcNdMatrixStride + (uint64_t)r * p.srcDValue;
			rt::gm_check(row, (uint64_t)p.dValue * sizeof(T), what, loc);
			T *drow = dst.addr_ + (uint64_t)i * p.dstNzMatrixStride + (uint64_t)r * p.dstNzNStride * C0;
			for (uint32_t b = 0; b < dblocks; b++) {
				T *blk = drow + (uint64_t)b * p.dstNzC0Stride * C0;
				const uint32_t n = p.dValue - b * C0 < C0 ? p.dValue - b * C0 : C0;
				memcpy(blk, row + b * C0, n * sizeof(T));
				memset((void *)(blk + n), 0, (C0 - n) * sizeof(T));
			}
			bytes += (uint64_t)dblocks * 32;
		}
	rt::cost_dma(rt::P_MTE2, bytes);
}

/* ---- L1 -> L0A / L0B ------------------------------------------------------------- */

struct LoadData2DParams {
	uint16_t startIndex = 0; /* first source fractal */
	uint8_t repeatTimes = 0; /* fractals moved */
	uint16_t srcStride = 0;  /* source fractals from one start to the next */
	uint8_t sid = 0;
	uint16_t dstGap = 0;     /* fractals between one destination's end and the next's start */
	bool ifTranspose = false;
	uint8_t addrMode = 0;
	LoadData2DParams() = default;
	LoadData2DParams(uint16_t start, uint8_t repeat, uint16_t stride, uint8_t sidIn, uint16_t gap, bool transpose,
			 uint8_t mode)
		: startIndex(start), repeatTimes(repeat), srcStride(stride), sid(sidIn), dstGap(gap),
		  ifTranspose(transpose), addrMode(mode) {}
};

/* Fractal i (of 512 bytes) comes from source fractal startIndex + i *
 * srcStride and goes to destination fractal i * (1 + dstGap); with
 * ifTranspose each 16 x 16 fractal is transposed, which the 2D load does
 * for 2-byte types only (int8 and fp32 need LoadDataWithTranspose). */
template <class T>
inline void LoadData(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LoadData2DParams &p,
		     SrcLoc loc = NPUKB_LOC)
{
	namespace rt = npukb_cpusim;
	static const char what[] = "LoadData (2D)";
	constexpr uint32_t FRACTAL = 512;
	if (p.repeatTimes == 0)
		return;
	if (p.ifTranspose && sizeof(T) != 2)
		rt::fail("misaligned", loc,
			 "%s: ifTranspose needs 16 x 16 fractals of a 2-byte type, not %zu-byte elements "
			 "(LoadDataWithTranspose transposes int8 and fp32)",
			 what, sizeof(T));
	const uint64_t dspan = ((uint64_t)(p.repeatTimes - 1) * (1u + p.dstGap) + 1) * FRACTAL;
	const uint64_t slast = ((uint64_t)p.startIndex + (uint64_t)(p.repeatTimes - 1) * p.srcStride + 1) * FRACTAL;
	rt::cube_check(src.addr_, slast, src.GetLength(), 1u << rt::M_L1, 32, what, "source", loc);
	rt::cube_check(dst.addr_, dspan, dst.GetLength(), (1u << rt::M_L0A) | (1u << rt::M_L0B), 512, what,
		       "destination", loc);
	const unsigned char *s = (const unsigned char *)src.addr_;
	unsigned char *d = (unsigned char *)dst.addr_;
	for (uint32_t i = 0; i < p.repeatTimes; i++) {
		const unsigned char *sf = s + ((uint64_t)p.startIndex + (uint64_t)i * p.srcStride) * FRACTAL;
		unsigned char *df = d + (uint64_t)i * (1u + p.dstGap) * FRACTAL;
		if (!p.ifTranspose) {
			memmove(df, sf, FRACTAL);
			continue;
		}
		uint16_t tmp[256];
		memcpy(tmp, sf, FRACTAL);
		for (int r = 0; r < 16; r++)
			for (int c = 0; c < 16; c++)
				memcpy(df + (c * 16 + r) * 2, &tmp[r * 16 + c], 2);
	}
	rt::cost_mte1(p.repeatTimes);
}

/* ---- Mmad ------------------------------------------------------------------------------ */

struct MmadParams {
	uint16_t m = 0, n = 0, k = 0;
	bool isBias = false;     /* deprecated: true accumulates onto L0C */
	int32_t fmOffset = 0;
	bool enSsparse = false, enWinogradA = false, enWinogradB = false;
	uint8_t unitFlag = 0;
	bool kDirectionAlign = false;
	bool cmatrixSource = false;  /* initial C from the bias table (C2) rather than L0C */
	bool cmatrixInitVal = true;  /* initial C is zero */
	MmadParams() = default;
	MmadParams(uint16_t mIn, uint16_t nIn, uint16_t kIn, bool bias, int32_t fm, bool sparse, bool wa, bool wb)
		: m(mIn), n(nIn), k(kIn), isBias(bias), fmOffset(fm), enSsparse(sparse), enWinogradA(wa), enWinogradB(wb) {}
	MmadParams(uint16_t mIn, uint16_t nIn, uint16_t kIn, uint8_t unit, bool kAlign, bool source, bool init)
		: m(mIn), n(nIn), k(kIn), unitFlag(unit), kDirectionAlign(kAlign), cmatrixSource(source), cmatrixInitVal(init) {}
};

namespace detail {
enum class MmadInit { ZERO, L0C, BIAS_ROW };

/* C (NZ in L0C, m x n) = init + A (ZZ in L0A, m x k) * B (ZN in L0B, k x n). */
template <class T, class U, class S>
inline void mmad(const LocalTensor<T> &c, const LocalTensor<U> &a, const LocalTensor<S> &b, MmadInit init,
		 const T *bias_row, const T *bias_l0c, const MmadParams &p, SrcLoc loc)
{
	namespace rt = npukb_cpusim;
	static_assert(sizeof(U) == sizeof(S), "Mmad: the left and right matrices have one dtype");
	static_assert(std::is_same<T, typename rt::MmadAcc<U>::type>::value,
		      "Mmad: the result is float for half/bfloat16_t/float inputs and int32_t for int8_t");
	static const char what[] = "Mmad";
	constexpr uint32_t K0 = rt::c0_of<U>();
	const uint32_t M1 = (p.m + 15u) / 16u, N1 = (p.n + 15u) / 16u, K1 = (p.k + K0 - 1) / K0;
	if (p.m == 0 || p.n == 0 || p.k == 0)
		return;
	rt::cube_check(a.addr_, (uint64_t)M1 * K1 * 512, a.GetLength(), 1u << rt::M_L0A, 512, what, "fm (left matrix)", loc);
	rt::cube_check(b.addr_, (uint64_t)K1 * N1 * 512, b.GetLength(), 1u << rt::M_L0B, 512, what,
		       "filter (right matrix)", loc);
	rt::cube_check(c.addr_, (uint64_t)M1 * N1 * 256 * sizeof(T), c.GetLength(), 1u << rt::M_L0C, 1024, what,
		       "destination", loc);
	/* Unpacked to row-major A (m x k), B (k x n) and C (m x n), so that the
	 * inner loop runs along n over contiguous memory and vectorises; each
	 * C element still sums its k products in k order. */
	static thread_local std::vector<T> ad, bd, cd;
	const uint32_t m = p.m, n = p.n, k = p.k;
	ad.resize((size_t)m * k);
	bd.resize((size_t)k * n);
	cd.resize((size_t)m * n);
	for (uint32_t mi = 0; mi < m; mi++)
		for (uint32_t j = 0; j < k; j++)
			ad[(size_t)mi * k + j] =
				(T)rt::mmad_value(a.addr_[((uint64_t)(mi / 16) * K1 + j / K0) * 16 * K0 + (mi % 16) * K0 + j % K0]);
	for (uint32_t j = 0; j < k; j++)
		for (uint32_t ni = 0; ni < n; ni++)
			bd[(size_t)j * n + ni] =
				(T)rt::mmad_value(b.addr_[((uint64_t)(j / K0) * N1 + ni / 16) * 16 * K0 + (ni % 16) * K0 + j % K0]);
	const auto c_at = [M1](uint32_t mi, uint32_t ni) {
		return ((uint64_t)(ni / 16) * M1 + mi / 16) * 256 + (mi % 16) * 16 + ni % 16;
	};
	for (uint32_t mi = 0; mi < m; mi++)
		for (uint32_t ni = 0; ni < n; ni++)
			cd[(size_t)mi * n + ni] = init == MmadInit::ZERO       ? (T)0
						  : init == MmadInit::BIAS_ROW ? bias_row[ni]
									       : bias_l0c[c_at(mi, ni)];
	/* the same bits in every lane width (cube_mac.h) */
	rt::mac_rows(rt::mac_isa_best(), cd.data(), ad.data(), bd.data(), m, n, k);
	for (uint32_t mi = 0; mi < m; mi++)
		for (uint32_t ni = 0; ni < n; ni++)
			c.addr_[c_at(mi, ni)] = cd[(size_t)mi * n + ni];
	rt::cost_mmad((uint64_t)M1 * N1 * K1);
}
} // namespace detail

/* Initial C: zero (cmatrixInitVal, unless the deprecated isBias asks to
 * accumulate), L0C's own contents, or the bias table's first n values
 * broadcast over the rows (cmatrixSource). */
template <class T, class U, class S>
inline void Mmad(const LocalTensor<T> &dst, const LocalTensor<U> &fm, const LocalTensor<S> &filter,
		 const MmadParams &p, SrcLoc loc = NPUKB_LOC)
{
	namespace rt = npukb_cpusim;
	detail::MmadInit init = detail::MmadInit::ZERO;
	const T *row = nullptr;
	if (p.isBias || !p.cmatrixInitVal)
		init = p.cmatrixSource ? detail::MmadInit::BIAS_ROW : detail::MmadInit::L0C;
	if (init == detail::MmadInit::BIAS_ROW) {
		row = (const T *)(void *)rt::cube_base(rt::M_BT);
		rt::cube_check(row, (uint64_t)p.n * sizeof(T), rt::g.soc.bt_bytes, 1u << rt::M_BT, 128, "Mmad",
			       "bias table", loc);
	}
	detail::mmad(dst, fm, filter, init, row, (const T *)dst.addr_, p, loc);
}

/* The bias form: a bias in C2 (the bias table) is a row of n values added
 * to every row; a bias in CO1 is a whole m x n matrix in L0C's layout. */
template <class T, class U, class S, class V>
inline void Mmad(const LocalTensor<T> &dst, const LocalTensor<U> &fm, const LocalTensor<S> &filter,
		 const LocalTensor<V> &bias, const MmadParams &p, SrcLoc loc = NPUKB_LOC)
{
	namespace rt = npukb_cpusim;
	static_assert(std::is_same<T, V>::value, "Mmad: the bias has the result's dtype");
	const rt::Mem m = rt::cube_check(bias.addr_, (uint64_t)p.n * sizeof(V), bias.GetLength(),
					 (1u << rt::M_BT) | (1u << rt::M_L0C), 128, "Mmad", "bias", loc);
	if (m == rt::M_BT)
		detail::mmad(dst, fm, filter, detail::MmadInit::BIAS_ROW, (const T *)bias.addr_, (const T *)nullptr, p, loc);
	else
		detail::mmad(dst, fm, filter, detail::MmadInit::L0C, (const T *)nullptr, (const T *)bias.addr_, p, loc);
}

/* ---- Fixpipe: L0C -> GM ------------------------------------------------------------------ */

enum QuantMode_t { NoQuant, F322F16, F322BF16, DEQF16, VDEQF16, QF322B8_PRE, VQF322B8_PRE, REQ8, VREQ8 };
enum class CO2Layout : uint8_t { NZ = 0, ROW_MAJOR, COLUMN_MAJOR };
struct FixpipeConfig {
	CO2Layout format;
};
constexpr FixpipeConfig CFG_NZ = {CO2Layout::NZ};
constexpr FixpipeConfig CFG_ROW_MAJOR = {CO2Layout::ROW_MAJOR};

struct FixpipeParamsV220 {
	uint16_t nSize = 0;     /* columns written */
	uint16_t mSize = 0;     /* rows written */
	uint16_t srcStride = 0; /* rows (16-element Z lines) from one L0C column block to the next */
	uint32_t dstStride = 0; /* elements between GM rows */
	QuantMode_t quantPre = NoQuant;
	uint64_t deqScalar = 0;
	uint16_t ndNum = 1;
	uint16_t srcNdStride = 0;
	uint16_t dstNdStride = 0;
	bool reluEn = false;
	uint8_t unitFlag = 0;
	bool isChannelSplit = false;
	FixpipeParamsV220() = default;
	FixpipeParamsV220(uint16_t n, uint16_t m, uint16_t srcS, uint32_t dstS, bool relu)
		: nSize(n), mSize(m), srcStride(srcS), dstStride(dstS), reluEn(relu) {}
};

namespace detail {
template <class T, class U>
inline T fix_convert(U v, QuantMode_t q, bool relu, SrcLoc loc)
{
	if (relu && v < (U)0)
		v = (U)0;
	if constexpr (std::is_same<U, float>::value) {
		if (q == NoQuant && std::is_same<T, float>::value)
			return (T)v;
		if (q == F322F16 && std::is_same<T, half>::value)
			return (T)half(v);
		if (q == F322BF16 && std::is_same<T, bfloat16_t>::value)
			return (T)bfloat16_t(v);
	} else {
		if (q == NoQuant && std::is_same<T, U>::value)
			return (T)v;
	}
	npukb_cpusim::fail("out-of-bounds", loc,
			   "Fixpipe: quantPre %d does not turn %zu-byte L0C values into %zu-byte outputs "
			   "(modelled: NoQuant, F322F16, F322BF16)",
			   (int)q, sizeof(U), sizeof(T));
}
} // namespace detail

/* Row-major output (NZ -> ND): element (i, j) of the mSize x nSize result
 * comes from L0C at ((j / 16) * srcStride + i) * 16 + j % 16 and goes to
 * dst[i * dstStride + j]; quantPre converts fp32 to half or bfloat16
 * (round to nearest even), reluEn clamps negatives to zero first. */
template <class T, class U, const FixpipeConfig &config = CFG_ROW_MAJOR>
inline void Fixpipe(const GlobalTensor<T> &dst, const LocalTensor<U> &src, const FixpipeParamsV220 &p,
		    SrcLoc loc = NPUKB_LOC)
{
	namespace rt = npukb_cpusim;
	static_assert(config.format == CO2Layout::ROW_MAJOR, "cpusim: Fixpipe models the row-major (NZ -> ND) output");
	static const char what[] = "Fixpipe L0C->GM";
	if (p.mSize == 0 || p.nSize == 0)
		return;
	if (p.srcStride < p.mSize || p.srcStride % 16 != 0)
		rt::fail("misaligned", loc, "%s: srcStride %u must be a multiple of 16 and at least mSize %u", what,
			 p.srcStride, p.mSize);
	if (p.ndNum > 1 || p.isChannelSplit)
		rt::fail("out-of-bounds", loc, "%s: ndNum %u / isChannelSplit: not modelled by cpusim", what, p.ndNum);
	if (p.nSize > 4096)
		rt::fail("out-of-bounds", loc, "%s: nSize %u beyond 4096", what, p.nSize);
	if (p.dstStride < p.nSize)
		rt::fail("out-of-bounds", loc, "%s: dstStride %u is smaller than nSize %u (rows overlap)", what,
			 p.dstStride, p.nSize);
	const uint32_t nblk = (p.nSize + 15u) / 16u;
	const uint64_t span = ((uint64_t)(nblk - 1) * p.srcStride + p.mSize) * 16 * sizeof(U);
	rt::cube_check(src.addr_, span, src.GetLength(), 1u << rt::M_L0C, 64, what, "source", loc);
	T row[4096];
	for (uint32_t i = 0; i < p.mSize; i++) {
		for (uint32_t j = 0; j < p.nSize; j++)
			row[j] = detail::fix_convert<T, U>(
				src.addr_[((uint64_t)(j / 16) * p.srcStride + i) * 16 + j % 16], p.quantPre, p.reluEn, loc);
		T *d = dst.addr_ + (uint64_t)i * p.dstStride;
		rt::gm_check(d, (uint64_t)p.nSize * sizeof(T), what, loc);
		rt::gm_store(d, row, (uint64_t)p.nSize * sizeof(T), loc);
	}
	rt::cost_fix((uint64_t)p.mSize * p.nSize * sizeof(T));
}

} // namespace AscendC

#endif
