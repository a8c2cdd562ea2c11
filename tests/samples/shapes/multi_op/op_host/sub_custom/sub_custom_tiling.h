// Test sample (host+device): the second operator's tiling data, made from
// the same template as the first's, struct name included.
#ifndef SUB_CUSTOM_TILING_H
#define SUB_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AddCustomTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
TILING_DATA_FIELD_DEF(uint32_t, tileNum);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SubCustom, AddCustomTilingData)
} // namespace optiling
#endif
