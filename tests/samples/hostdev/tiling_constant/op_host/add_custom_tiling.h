// Test sample (host+device): AddCustom's tiling data next to a constant the
// kernel defines too (BUFFER_NUM, at global scope in AddCustom's expert
// answer). CANN gives the kernel the tiling structs only: the kernel-side
// build must not bring optiling's other names into the kernel's scope,
// where BUFFER_NUM would be ambiguous.
#ifndef TILING_CONSTANT_TILING_H
#define TILING_CONSTANT_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
constexpr uint32_t BUFFER_NUM = 2;

BEGIN_TILING_DATA_DEF(AddCustomTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
TILING_DATA_FIELD_DEF(uint32_t, tileNum);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AddCustom, AddCustomTilingData)
} // namespace optiling
#endif
