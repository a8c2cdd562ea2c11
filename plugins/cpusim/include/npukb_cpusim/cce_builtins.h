/* cce_builtins.h - the device compiler's raw builtins that kernels call
 * outside AscendC: mask register, vector address registers, and the
 * instructions behind Duplicate, Or, DataCopy UB->UB, the 16x16 transpose
 * and TransDataTo5HD. Each runs the AscendC form that issues the same
 * instruction, with the mask register as it stands (isSetMask = false), so
 * the same checks apply. Raw UB addresses carry no tensor length: an
 * operand is bounded by the end of the unified buffer only. */
#ifndef NPUKB_CPUSIM_CCE_BUILTINS_H
#define NPUKB_CPUSIM_CCE_BUILTINS_H

/* ---- mask register: the same as SetMaskCount/SetMaskNorm/SetVectorMask ---- */

inline void set_mask_count() { AscendC::SetMaskCount(); }
inline void set_mask_norm() { AscendC::SetMaskNorm(); }
inline void set_vector_mask(uint64_t maskHigh, uint64_t maskLow)
{
	npukb_cpusim::g.vmask[0] = maskLow;
	npukb_cpusim::g.vmask[1] = maskHigh;
}

/* ---- vector instructions on raw UB addresses ---------------------------------- */

template <class T>
inline void vector_dup(T *dst, T scalar, uint8_t repeat, uint16_t dstBlockStride, uint16_t /* srcBlockStride */,
		       uint8_t dstRepeatStride, uint8_t /* srcRepeatStride */, npukb_cpusim::SrcLoc loc = NPUKB_LOC)
{
	AscendC::Duplicate<T, false>(AscendC::detail::ub_address_view(dst, "vector_dup", loc), scalar,
				     AscendC::MASK_PLACEHOLDER, repeat, dstBlockStride, dstRepeatStride, loc);
}

template <class T>
inline void vor(T *dst, T *src0, T *src1, uint8_t repeat, uint16_t dstBlockStride, uint16_t src0BlockStride,
		uint16_t src1BlockStride, uint8_t dstRepeatStride, uint8_t src0RepeatStride, uint8_t src1RepeatStride,
		npukb_cpusim::SrcLoc loc = NPUKB_LOC)
{
	using AscendC::detail::ub_address_view;
	AscendC::Or<T, false>(ub_address_view(dst, "vor", loc), ub_address_view(src0, "vor", loc),
			      ub_address_view(src1, "vor", loc), AscendC::MASK_PLACEHOLDER, (int32_t)repeat,
			      AscendC::BinaryRepeatParams(dstBlockStride, src0BlockStride, src1BlockStride,
							  dstRepeatStride, src0RepeatStride, src1RepeatStride),
			      loc);
}

/* nBurst bursts of lenBurst 32-byte blocks, gaps in 32-byte blocks. */
template <class T>
inline void copy_ubuf_to_ubuf(T *dst, T *src, uint8_t /* sid */, uint16_t nBurst, uint16_t lenBurst, uint16_t srcGap,
			      uint16_t dstGap, npukb_cpusim::SrcLoc loc = NPUKB_LOC)
{
	using AscendC::detail::ub_address_view;
	AscendC::DataCopy(ub_address_view(dst, "copy_ubuf_to_ubuf", loc), ub_address_view(src, "copy_ubuf_to_ubuf", loc),
			  AscendC::DataCopyParams(nBurst, lenBurst, srcGap, dstGap), loc);
}

/* A 16 x 16 matrix of 16-bit elements (512 bytes) transposed. */
template <class T>
inline void vtranspose(T *dst, T *src, npukb_cpusim::SrcLoc loc = NPUKB_LOC)
{
	static_assert(sizeof(T) == 2, "vtranspose: 16-bit elements only");
	npukb_cpusim::ub_check(src, 512, 512, "vtranspose", "source", loc);
	npukb_cpusim::ub_check(dst, 512, 512, "vtranspose", "destination", loc);
	T m[256];
	memcpy(m, src, sizeof m);
	for (int r = 0; r < 16; r++)
		for (int c = 0; c < 16; c++)
			dst[c * 16 + r] = m[r * 16 + c];
	npukb_cpusim::cost_vec(512, npukb_cpusim::g.soc.vec_repeat_cycles);
}

/* ---- vector address registers and TransDataTo5HD ------------------------------ */

enum ub_addr8_t { VA0 = 0, VA1, VA2, VA3, VA4, VA5, VA6, VA7 };

inline void set_va_reg_sb(ub_addr8_t reg, const uint64_t *addrs)
{
	memcpy(npukb_cpusim::g.va_reg[reg], addrs, sizeof npukb_cpusim::g.va_reg[reg]);
}

namespace npukb_cpusim {
/* TransDataTo5HD with its 16 destination addresses in registers dst and
 * dst + 1, its 16 sources in src and src + 1. */
template <class T>
inline void scatter_vnchwconv(ub_addr8_t dst, ub_addr8_t src, const AscendC::TransDataTo5HDParams &p, SrcLoc loc)
{
	if (dst > VA6 || src > VA6)
		fail("out-of-bounds", loc, "scatter_vnchwconv: VA%d and VA%d hold the lists; VA7 has no successor",
		     (int)dst, (int)src);
	uint64_t d[AscendC::NCHW_CONV_ADDR_LIST_SIZE], s[AscendC::NCHW_CONV_ADDR_LIST_SIZE];
	for (int i = 0; i < 8; i++) {
		d[i] = g.va_reg[dst][i];
		d[8 + i] = g.va_reg[dst + 1][i];
		s[i] = g.va_reg[src][i];
		s[8 + i] = g.va_reg[src + 1][i];
	}
	AscendC::TransDataTo5HD<T>(d, s, p, loc);
}
} // namespace npukb_cpusim

inline void scatter_vnchwconv_b16(ub_addr8_t dst, ub_addr8_t src, uint8_t repeat, uint16_t dstStride,
				  uint16_t srcStride, npukb_cpusim::SrcLoc loc = NPUKB_LOC)
{
	npukb_cpusim::scatter_vnchwconv<uint16_t>(dst, src, AscendC::TransDataTo5HDParams(false, false, repeat, dstStride, srcStride),
						  loc);
}

inline void scatter_vnchwconv_b32(ub_addr8_t dst, ub_addr8_t src, uint8_t repeat, uint16_t dstStride,
				  uint16_t srcStride, npukb_cpusim::SrcLoc loc = NPUKB_LOC)
{
	npukb_cpusim::scatter_vnchwconv<uint32_t>(dst, src, AscendC::TransDataTo5HDParams(false, false, repeat, dstStride, srcStride),
						  loc);
}

inline void scatter_vnchwconv_b8(ub_addr8_t dst, ub_addr8_t src, uint8_t repeat, uint16_t dstStride,
				 uint16_t srcStride, bool dstHighHalf, bool srcHighHalf, npukb_cpusim::SrcLoc loc = NPUKB_LOC)
{
	npukb_cpusim::scatter_vnchwconv<uint8_t>(dst, src,
						 AscendC::TransDataTo5HDParams(dstHighHalf, srcHighHalf, repeat, dstStride, srcStride),
						 loc);
}

#endif
