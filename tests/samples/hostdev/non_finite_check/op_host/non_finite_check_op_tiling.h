// Test sample (host+device): tiling data of an operator whose input is a
// tensor list (an OpDef DYNAMIC input): the number of members and the
// element count of each.
#ifndef NON_FINITE_CHECK_OP_TILING_H
#define NON_FINITE_CHECK_OP_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(NonFiniteCheckOpTilingData)
TILING_DATA_FIELD_DEF(uint32_t, memberNum);
TILING_DATA_FIELD_DEF_ARR(uint64_t, 16, memberLen);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(NonFiniteCheckOp, NonFiniteCheckOpTilingData)
} // namespace optiling
#endif
