/* broadcast.h - AscendC's BroadCast high-level API: a tensor of srcShape
 * (size 1 along the broadcast axis) repeated into dstShape, for 1- and
 * 2-dimensional shapes, with or without sharedTmpBuffer.
 *
 * Every element of dst is the element of src at the same index, the index
 * taken as 0 along every axis where srcShape is 1. The source is read
 * whole before dst is written, so dst may be src itself (the RmsNorm
 * answers broadcast gamma in place). The temporary buffer, when given, must
 * be a unified-buffer tensor; its size is not checked. Cost: one vector
 * repeat per 256 bytes of dst [the device's instruction sequence is
 * unconfirmed]. */
#ifndef NPUKB_CPUSIM_BROADCAST_H
#define NPUKB_CPUSIM_BROADCAST_H

#include <vector>

namespace AscendC {

template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
inline void BroadCast(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint32_t dstShape[dim],
		      const uint32_t srcShape[dim], SrcLoc loc = NPUKB_LOC)
{
	static_assert(dim == 1 || dim == 2, "BroadCast: dim must be 1 or 2");
	static_assert(axis >= 0 && axis < dim, "BroadCast: axis must be below dim");
	static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4,
		      "BroadCast: element type not supported (8-, 16- or 32-bit)");
	uint64_t dn = 1, sn = 1;
	for (int32_t d = 0; d < dim; d++) {
		if (srcShape[d] != dstShape[d] && srcShape[d] != 1)
			npukb_cpusim::fail("out-of-bounds", loc,
					   "BroadCast: source dimension %d is %u, neither 1 nor the destination's %u", d,
					   srcShape[d], dstShape[d]);
		dn *= dstShape[d];
		sn *= srcShape[d];
	}
	npukb_cpusim::ub_check_elem(src.addr_, sn * sizeof(T), src.GetLength(), sizeof(T),
				    "BroadCast", "source", loc);
	npukb_cpusim::ub_check_elem(dst.addr_, dn * sizeof(T), dst.GetLength(), sizeof(T),
				    "BroadCast", "destination", loc);
	const std::vector<T> in(src.addr_, src.addr_ + sn);
	const uint64_t cols = dim == 2 ? dstShape[1] : dstShape[0], rows = dim == 2 ? dstShape[0] : 1;
	const uint64_t scols = dim == 2 ? srcShape[1] : srcShape[0];
	const bool row_one = dim == 2 && srcShape[0] == 1, col_one = scols == 1;
	for (uint64_t r = 0; r < rows; r++)
		for (uint64_t c = 0; c < cols; c++)
			dst.addr_[r * cols + c] = in[(row_one ? 0 : r) * scols + (col_one ? 0 : c)];
	npukb_cpusim::cost_vec_rep((dn * sizeof(T) + 255) / 256, detail::rep());
}

template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
inline void BroadCast(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint32_t dstShape[dim],
		      const uint32_t srcShape[dim], const LocalTensor<uint8_t> &sharedTmpBuffer, SrcLoc loc = NPUKB_LOC)
{
	detail::tmp_check(sharedTmpBuffer, "BroadCast", loc);
	BroadCast<T, dim, axis, isReuseSource>(dst, src, dstShape, srcShape, loc);
}

/* Broadcast: the later releases' name of the same API. */
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
inline void Broadcast(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint32_t dstShape[dim],
		      const uint32_t srcShape[dim], SrcLoc loc = NPUKB_LOC)
{
	BroadCast<T, dim, axis, isReuseSource>(dst, src, dstShape, srcShape, loc);
}

template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
inline void Broadcast(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint32_t dstShape[dim],
		      const uint32_t srcShape[dim], const LocalTensor<uint8_t> &sharedTmpBuffer, SrcLoc loc = NPUKB_LOC)
{
	BroadCast<T, dim, axis, isReuseSource>(dst, src, dstShape, srcShape, sharedTmpBuffer, loc);
}

} // namespace AscendC

#endif
