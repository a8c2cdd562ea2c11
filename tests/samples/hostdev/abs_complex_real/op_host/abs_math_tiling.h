// Test sample (host+device): AbsMath's tiling data, the element count.
#ifndef ABS_MATH_TILING_H
#define ABS_MATH_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AbsMathTilingData)
TILING_DATA_FIELD_DEF(uint64_t, total);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AbsMath, AbsMathTilingData)
} // namespace optiling
#endif
