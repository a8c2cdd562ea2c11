/* init_const.h - Fill (8.x name InitConstValue): a constant written into a
 * cube buffer, L1 (A1/B1) or L0A/L0B (A2/B2), as CANN documents it for the
 * Atlas A2: repeatTimes iterations, each of blockNum blocks, dstGap blocks
 * between one iteration's end and the next's start. A block is 32 bytes
 * in L1 and a 512-byte fractal in L0A/L0B, which also sets the required
 * start alignment. Included by kernel_operator.h only, after cube.h.
 *
 * Pipes: the L1 fill is charged to the MTE2 and the L0 fill to the MTE1,
 * the pipes that next hand those buffers on (MTE2 -> MTE1, MTE1 -> M), so
 * the queues' synchronisation covers it as it does a copy. */
#ifndef NPUKB_CPUSIM_INIT_CONST_H
#define NPUKB_CPUSIM_INIT_CONST_H

namespace AscendC {

template <class T>
struct InitConstValueParams {
	uint16_t repeatTimes = 0;
	uint16_t blockNum = 0;
	uint16_t dstGap = 0;
	T initValue = T();
	InitConstValueParams() = default;
	InitConstValueParams(uint16_t repeat, uint16_t blocks, uint16_t gap, T value)
		: repeatTimes(repeat), blockNum(blocks), dstGap(gap), initValue(value) {}
};

template <class T>
inline void Fill(const LocalTensor<T> &dst, const InitConstValueParams<T> &p, SrcLoc loc = NPUKB_LOC)
{
	namespace rt = npukb_cpusim;
	static_assert(sizeof(T) == 2 || sizeof(T) == 4,
		      "Fill (InitConstValue): half, bfloat16_t, int16_t, uint16_t, float, int32_t or uint32_t");
	static const char what[] = "Fill (InitConstValue)";
	if (p.repeatTimes == 0 || p.blockNum == 0)
		return;
	/* The block size depends on where dst is, so ask before checking. */
	const rt::Mem where = rt::cube_mem_of(dst.addr_);
	const uint32_t blk = where == rt::M_L1 ? 32u : 512u;
	const uint64_t span = ((uint64_t)(p.repeatTimes - 1) * ((uint64_t)p.blockNum + p.dstGap) + p.blockNum) * blk;
	rt::cube_check(dst.addr_, span, dst.GetLength(), (1u << rt::M_L1) | (1u << rt::M_L0A) | (1u << rt::M_L0B),
		       blk, what, "destination", loc);
	const uint32_t per = blk / sizeof(T);
	for (uint32_t r = 0; r < p.repeatTimes; r++) {
		T *d = dst.addr_ + (uint64_t)r * ((uint64_t)p.blockNum + p.dstGap) * per;
		for (uint64_t i = 0; i < (uint64_t)p.blockNum * per; i++)
			d[i] = p.initValue;
	}
	const uint64_t fractals = ((uint64_t)p.repeatTimes * p.blockNum * blk + 511) / 512;
	if (where == rt::M_L1)
		rt::cost_pipe(rt::P_MTE2, (double)fractals * rt::g.soc.mte1_fractal_cycles, 0);
	else
		rt::cost_mte1(fractals);
}

template <class T>
inline void InitConstValue(const LocalTensor<T> &dst, const InitConstValueParams<T> &p, SrcLoc loc = NPUKB_LOC)
{
	Fill(dst, p, loc);
}

} // namespace AscendC

#endif
