/* ophost_tmpsize.h - the host-side queries of the temporary buffer a
 * high-level kernel API needs (AscendC::GetXxxMaxMinTmpSize), which tiling
 * code calls to size a kernel's sharedTmpBuffer.
 *
 * cpusim's high-level APIs compute each element exactly and never read the
 * temporary buffer, so any size works for them; these return what the
 * device's instruction sequence plausibly needs, so that a tiling sizing
 * its UB from them stays within the SoC's UB as it would on the device:
 * the minimum is one 256-byte repeat per float temporary, the maximum room
 * for the whole input as float temporaries [the device's formulas are
 * unconfirmed]. */
#ifndef NPUKB_CPUSIM_OPHOST_TMPSIZE_H
#define NPUKB_CPUSIM_OPHOST_TMPSIZE_H

#include <cstdint>
#include <vector>

namespace AscendC {
namespace npukb_tmp {
inline uint32_t round32(uint64_t n) { return (uint32_t)((n + 31) / 32 * 32); }
inline void sizes(uint64_t elems, uint32_t temporaries, uint32_t &maxValue, uint32_t &minValue)
{
	minValue = 256u * temporaries;
	maxValue = round32(elems * sizeof(float) * temporaries);
	if (maxValue < minValue)
		maxValue = minValue;
}
inline uint64_t elems_of(const ge::Shape &shape)
{
	uint64_t n = 1;
	for (size_t i = 0; i < shape.GetDimNum(); i++)
		n *= (uint64_t)shape.GetDim(i);
	return n;
}
} // namespace npukb_tmp

/* Sigmoid: two float temporaries (typeSize and isReuseSource do not change
 * the estimate). */
inline void GetSigmoidMaxMinTmpSize(const ge::Shape &srcShape, uint32_t typeSize, bool isReuseSource,
				    uint32_t &maxValue, uint32_t &minValue)
{
	(void)typeSize;
	(void)isReuseSource;
	npukb_tmp::sizes(npukb_tmp::elems_of(srcShape), 2, maxValue, minValue);
}

/* Mean of rows of n elements: one accumulator row in accType. */
inline void GetMeanMaxMinTmpSize(uint32_t n, uint32_t srcTypeSize, uint32_t accTypeSize, bool isReuseSource,
				 uint32_t &maxValue, uint32_t &minValue)
{
	(void)srcTypeSize;
	(void)isReuseSource;
	minValue = maxValue = npukb_tmp::round32((uint64_t)n * accTypeSize);
}
} // namespace AscendC

#endif
