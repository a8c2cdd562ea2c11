/* softmax_tiling.h - SoftMaxTiling and SoftMaxShapeInfo, shared by the
 * host (a tiling data struct embeds a SoftMaxTiling, filled by
 * SoftMaxTilingFunc) and the kernel (SoftMax reads it): one plain struct of
 * 16 uint32_t fields with the tiling-data accessors, so both sides see the
 * same bytes. CANN names it optiling::SoftMaxTiling on the host and
 * SoftMaxTiling at global scope on the kernel side; both names are given. */
#ifndef NPUKB_CPUSIM_SOFTMAX_TILING_H
#define NPUKB_CPUSIM_SOFTMAX_TILING_H

#include "npukb_cpusim/tiling_data_def.h"

BEGIN_TILING_DATA_DEF(SoftMaxTiling)
TILING_DATA_FIELD_DEF(uint32_t, srcM)
TILING_DATA_FIELD_DEF(uint32_t, srcK)
TILING_DATA_FIELD_DEF(uint32_t, srcSize)
TILING_DATA_FIELD_DEF(uint32_t, outMaxM)
TILING_DATA_FIELD_DEF(uint32_t, outMaxK)
TILING_DATA_FIELD_DEF(uint32_t, outMaxSize)
TILING_DATA_FIELD_DEF(uint32_t, splitM)
TILING_DATA_FIELD_DEF(uint32_t, splitK)
TILING_DATA_FIELD_DEF(uint32_t, splitSize)
TILING_DATA_FIELD_DEF(uint32_t, reduceM)
TILING_DATA_FIELD_DEF(uint32_t, reduceK)
TILING_DATA_FIELD_DEF(uint32_t, reduceSize)
TILING_DATA_FIELD_DEF(uint32_t, rangeM)
TILING_DATA_FIELD_DEF(uint32_t, tailM)
TILING_DATA_FIELD_DEF(uint32_t, tailSplitSize)
TILING_DATA_FIELD_DEF(uint32_t, tailReduceSize)
END_TILING_DATA_DEF

namespace optiling {
using ::SoftMaxTiling;
}

namespace AscendC {
/* Rows (srcM) of srcK elements as laid out in UB (srcK 32-byte aligned);
 * oriSrcM/oriSrcK the unpadded extent the rows hold. */
struct SoftMaxShapeInfo {
	uint32_t srcM = 0;
	uint32_t srcK = 0;
	uint32_t oriSrcM = 0;
	uint32_t oriSrcK = 0;
};
} // namespace AscendC

#endif
