// Test sample (host+device): tiling data of MaskedSelect: the element count.
// The header is not named *tiling*, as MaskedSelectV3's answer names its own:
// what makes it the kernel's tiling header is the struct it defines.
#ifndef MASKED_SELECT_H
#define MASKED_SELECT_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MaskedSelectTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MaskedSelect, MaskedSelectTilingData)
} // namespace optiling
#endif
