// Test sample (host+device): AddCustom's tiling data, as a CANN operator
// project declares it. The kernel is AddCustom's expert answer. The header
// also defines a function that is not inline, as some answers' headers
// do: the op_host and the kernel (which gets this header forced in) must
// still link.
#ifndef ADD_CUSTOM_TILING_H
#define ADD_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AddCustomTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
TILING_DATA_FIELD_DEF(uint32_t, tileNum);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AddCustom, AddCustomTilingData)

uint32_t TileCount(uint32_t totalLength)
{
    return totalLength < 8 ? 1 : 8;
}
} // namespace optiling
#endif
