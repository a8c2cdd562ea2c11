/* select_bytes_mask.h - AscendC's SelectWithBytesMask high-level API: per
 * element, a whole mask element (not a bit) picks src0 where it is 0 and
 * src1 elsewhere; one of the two sources is a scalar.
 *
 * Shapes: firstAxis rows of srcLastAxis elements (the row length of src and
 * dst), the mask's rows srcLastAxis or longer (maskLastAxis; its surplus
 * elements are ignored). As documented: both row lengths 32-byte aligned,
 * the mask's a multiple of 16 elements. dst may be the source tensor (the
 * sources are read element by element before that element is written).
 * The shared temporary buffer must be a unified-buffer tensor; its size
 * is not checked. Cost: one vector repeat per 256 bytes of dst for each of
 * the documented steps (mask reduce, Cast, Compare, Select) [unconfirmed]. */
#ifndef NPUKB_CPUSIM_SELECT_BYTES_MASK_H
#define NPUKB_CPUSIM_SELECT_BYTES_MASK_H

namespace AscendC {

struct SelectWithBytesMaskShapeInfo {
	uint32_t firstAxis = 0;
	uint32_t srcLastAxis = 0;
	uint32_t maskLastAxis = 0;
};

namespace detail {

template <class T, class U, class Pick>
inline void select_bytes_mask(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<U> &mask,
			      const LocalTensor<uint8_t> &tmp, const SelectWithBytesMaskShapeInfo &info, Pick pick,
			      SrcLoc loc)
{
	static const char what[] = "SelectWithBytesMask";
	if ((uint64_t)info.srcLastAxis * sizeof(T) % 32 != 0)
		npukb_cpusim::fail("misaligned", loc, "%s: srcLastAxis %u x %zu bytes is not a multiple of 32 bytes",
				   what, info.srcLastAxis, sizeof(T));
	if ((uint64_t)info.maskLastAxis * sizeof(U) % 32 != 0 || info.maskLastAxis % 16 != 0)
		npukb_cpusim::fail("misaligned", loc,
				   "%s: maskLastAxis %u must be a multiple of 16 elements and of 32 bytes", what,
				   info.maskLastAxis);
	if (info.maskLastAxis < info.srcLastAxis)
		npukb_cpusim::fail("out-of-bounds", loc, "%s: maskLastAxis %u is shorter than srcLastAxis %u", what,
				   info.maskLastAxis, info.srcLastAxis);
	const uint64_t n = (uint64_t)info.firstAxis * info.srcLastAxis;
	npukb_cpusim::ub_check(mask.addr_, (uint64_t)info.firstAxis * info.maskLastAxis * sizeof(U),
			       mask.GetLength(), what, "mask", loc);
	npukb_cpusim::ub_check(src.addr_, n * sizeof(T), src.GetLength(), what, "source", loc);
	npukb_cpusim::ub_check(tmp.addr_, 0, tmp.GetLength(), what, "temporary buffer", loc);
	npukb_cpusim::ub_check(dst.addr_, n * sizeof(T), dst.GetLength(), what, "destination", loc);
	for (uint64_t r = 0; r < info.firstAxis; r++)
		for (uint64_t c = 0; c < info.srcLastAxis; c++) {
			const uint64_t i = r * info.srcLastAxis + c;
			const bool zero = widen(mask.addr_[r * info.maskLastAxis + c]) == 0;
			dst.addr_[i] = pick(zero, src.addr_[i]);
		}
	npukb_cpusim::cost_vec(n * sizeof(T) * 4, rep());
	after_count_form();
}

} // namespace detail

/* src0 a tensor, src1 a scalar: dst = mask == 0 ? src0 : src1. */
template <typename T, typename U, bool isReuseMask = true>
inline void SelectWithBytesMask(const LocalTensor<T> &dst, const LocalTensor<T> &src0, T src1,
				const LocalTensor<U> &mask, const LocalTensor<uint8_t> &sharedTmpBuffer,
				const SelectWithBytesMaskShapeInfo &info, SrcLoc loc = NPUKB_LOC)
{
	detail::select_bytes_mask(dst, src0, mask, sharedTmpBuffer, info,
				  [src1](bool zero, T s) { return zero ? s : src1; }, loc);
}

/* src0 a scalar, src1 a tensor: dst = mask == 0 ? src0 : src1. */
template <typename T, typename U, bool isReuseMask = true>
inline void SelectWithBytesMask(const LocalTensor<T> &dst, T src0, const LocalTensor<T> &src1,
				const LocalTensor<U> &mask, const LocalTensor<uint8_t> &sharedTmpBuffer,
				const SelectWithBytesMaskShapeInfo &info, SrcLoc loc = NPUKB_LOC)
{
	detail::select_bytes_mask(dst, src1, mask, sharedTmpBuffer, info,
				  [src0](bool zero, T s) { return zero ? src0 : s; }, loc);
}

} // namespace AscendC

#endif
