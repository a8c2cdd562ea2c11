// Test sample (host+device): tiling data of an operator whose input and
// output are tensor lists: the number of members and the element count of
// each.
#ifndef FOREACH_NEG_TILING_H
#define FOREACH_NEG_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ForeachNegTilingData)
TILING_DATA_FIELD_DEF(uint32_t, memberNum);
TILING_DATA_FIELD_DEF_ARR(uint64_t, 8, memberLen);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ListNeg, ForeachNegTilingData)
} // namespace optiling
#endif
