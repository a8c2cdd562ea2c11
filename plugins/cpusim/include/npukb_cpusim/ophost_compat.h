/* ophost_compat.h - host-side tiling queries that tiling code of CANN's
 * samples and community operators calls and the other ophost headers do
 * not declare (issue 21), included by tiling/tiling_api.h. */
#ifndef NPUKB_CPUSIM_OPHOST_COMPAT_H
#define NPUKB_CPUSIM_OPHOST_COMPAT_H

#include <cstdint>
#include "npukb_cpusim/ophost_platform.h"
#include "npukb_cpusim/ophost_tmpsize.h"

namespace AscendC {
/* Broadcast's temporary buffer, from srcShape to dstShape. cpusim's
 * Broadcast never reads it (any size works); the sizes follow this
 * family's convention (ophost_tmpsize.h): the minimum one 256-byte repeat,
 * the maximum room for the whole output once [the device's formula is
 * unconfirmed]. isReuseSource does not change the estimate. */
inline void GetBroadCastMaxMinTmpSize(const platform_ascendc::PlatformAscendC &ascendcPlatform,
				      const ge::Shape &srcShape, const ge::Shape &dstShape, uint32_t typeSize,
				      bool isReuseSource, uint32_t &maxValue, uint32_t &minValue)
{
	(void)ascendcPlatform;
	(void)srcShape;
	(void)isReuseSource;
	minValue = 256u;
	maxValue = npukb_tmp::round32(npukb_tmp::elems_of(dstShape) * (uint64_t)(typeSize ? typeSize : 1));
	if (maxValue < minValue)
		maxValue = minValue;
}
} // namespace AscendC

#endif
