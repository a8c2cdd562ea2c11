// Test sample (host+device): IsFinite's tiling data: the element count and
// each block's share.
#ifndef IS_FINITE_TILING_H
#define IS_FINITE_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(IsFiniteTilingData)
TILING_DATA_FIELD_DEF(uint64_t, total);
TILING_DATA_FIELD_DEF(uint64_t, perBlock);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(IsFinite, IsFiniteTilingData)
} // namespace optiling
#endif
