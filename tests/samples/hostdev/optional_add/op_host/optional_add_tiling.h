// Test sample (host+device): tiling data of an operator with an OPTIONAL
// input: the length, and whether the case gave the input.
#ifndef OPTIONAL_ADD_TILING_H
#define OPTIONAL_ADD_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(OptionalAddTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
TILING_DATA_FIELD_DEF(uint32_t, hasBias);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(OptionalAdd, OptionalAddTilingData)
} // namespace optiling
#endif
