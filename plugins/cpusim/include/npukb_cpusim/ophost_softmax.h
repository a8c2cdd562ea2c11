/* ophost_softmax.h - the host side of AscendC's SoftMax: its temporary
 * buffer queries and SoftMaxTilingFunc.
 *
 * cpusim's kernel-side SoftMax computes each row exactly and reads neither
 * the tiling nor the temporary buffer, so these only need to be plausible
 * for tiling code that sizes its UB from them: a row needs a float copy of
 * itself (two for half: the converted input too) plus one 32-byte block each
 * for its max and sum; the minimum buffer holds one row, the maximum every
 * row. SoftMaxTilingFunc splits the rows into as many as that buffer holds
 * [the device's formulas and field meanings are unconfirmed]. */
#ifndef NPUKB_CPUSIM_OPHOST_SOFTMAX_H
#define NPUKB_CPUSIM_OPHOST_SOFTMAX_H

#include "npukb_cpusim/softmax_tiling.h"

namespace AscendC {
namespace npukb_softmax {
struct Rows {
	uint64_t m, k;
};
inline Rows rows_of(const ge::Shape &shape)
{
	Rows r = {1, 0};
	const size_t n = shape.GetDimNum();
	for (size_t i = 0; i + 1 < n; i++)
		r.m *= (uint64_t)shape.GetDim(i);
	r.k = n ? (uint64_t)shape.GetDim(n - 1) : 0;
	return r;
}
inline uint64_t row_bytes(uint64_t k, uint32_t typeSize)
{
	return k * sizeof(float) * (typeSize == 2 ? 2 : 1) + 64;
}
} // namespace npukb_softmax

inline uint32_t GetSoftMaxMinTmpSize(const ge::Shape &srcShape, const uint32_t dataTypeSize, const bool isReuseSource)
{
	(void)isReuseSource;
	return (uint32_t)npukb_softmax::row_bytes(npukb_softmax::rows_of(srcShape).k, dataTypeSize);
}

inline uint32_t GetSoftMaxMaxTmpSize(const ge::Shape &srcShape, const uint32_t dataTypeSize, const bool isReuseSource)
{
	(void)isReuseSource;
	const npukb_softmax::Rows r = npukb_softmax::rows_of(srcShape);
	return (uint32_t)(r.m * npukb_softmax::row_bytes(r.k, dataTypeSize));
}

inline void SoftMaxTilingFunc(const ge::Shape &srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
			      optiling::SoftMaxTiling &tiling)
{
	const npukb_softmax::Rows r = npukb_softmax::rows_of(srcShape);
	const uint32_t per_block = dataTypeSize ? 32 / dataTypeSize : 8;
	uint64_t split = localWorkSpaceSize / npukb_softmax::row_bytes(r.k, dataTypeSize);
	if (split < 1)
		split = 1;
	if (split > r.m)
		split = r.m;
	tiling.srcM = (uint32_t)r.m;
	tiling.srcK = (uint32_t)r.k;
	tiling.srcSize = (uint32_t)(r.m * r.k);
	tiling.outMaxM = (uint32_t)r.m;
	tiling.outMaxK = per_block;
	tiling.outMaxSize = (uint32_t)(r.m * per_block);
	tiling.splitM = (uint32_t)split;
	tiling.splitK = (uint32_t)r.k;
	tiling.splitSize = (uint32_t)(split * r.k);
	tiling.reduceM = (uint32_t)split;
	tiling.reduceK = per_block;
	tiling.reduceSize = (uint32_t)(split * per_block);
	tiling.rangeM = split ? (uint32_t)(r.m / split) : 0;
	tiling.tailM = split ? (uint32_t)(r.m % split) : 0;
	tiling.tailSplitSize = tiling.tailM * (uint32_t)r.k;
	tiling.tailReduceSize = tiling.tailM * per_block;
}
/* SoftmaxGrad: a row needs float copies of the gradient and the source
 * (half inputs converted first) and one 32-byte block for its row sum;
 * isFront (only the row sums) needs no copy of the result, which is the
 * same size here [device formulas unconfirmed]. */
inline uint32_t GetSoftMaxGradMinTmpSize(const ge::Shape &srcShape, const uint32_t typeSize, const bool isFront,
					 const bool isReuseSource)
{
	(void)isFront;
	(void)isReuseSource;
	return (uint32_t)npukb_softmax::row_bytes(npukb_softmax::rows_of(srcShape).k, typeSize);
}

inline uint32_t GetSoftMaxGradMaxTmpSize(const ge::Shape &srcShape, const uint32_t typeSize, const bool isFront,
					 const bool isReuseSource)
{
	(void)isFront;
	(void)isReuseSource;
	const npukb_softmax::Rows r = npukb_softmax::rows_of(srcShape);
	return (uint32_t)(r.m * npukb_softmax::row_bytes(r.k, typeSize));
}

/* The same row split as SoftMaxTilingFunc: the fields mean the same. */
inline void SoftMaxGradTilingFunc(const ge::Shape &srcShape, const uint32_t typeSize, const uint32_t localWorkSpaceSize,
				  optiling::SoftMaxTiling &tiling, const bool isFront = false)
{
	(void)isFront;
	SoftMaxTilingFunc(srcShape, typeSize, localWorkSpaceSize, tiling);
}
} // namespace AscendC

#endif
