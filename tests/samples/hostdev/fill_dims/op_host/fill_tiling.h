// Test sample (host+device): Fill's tiling data, the element count.
#ifndef FILL_TILING_H
#define FILL_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(FillTilingData)
TILING_DATA_FIELD_DEF(uint64_t, total);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Fill, FillTilingData)
} // namespace optiling
#endif
