// Test sample (host+device): tiling data of MaskedSelect: the element count.
#ifndef MASKED_SELECT_TILING_H
#define MASKED_SELECT_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MaskedSelectTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MaskedSelect, MaskedSelectTilingData)
} // namespace optiling
#endif
