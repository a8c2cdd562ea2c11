// Test sample (host+device): the add_custom sample's tiling data,
// registered for the StrAttrAdd operator.
#ifndef STR_ATTR_ADD_TILING_H
#define STR_ATTR_ADD_TILING_H
#include "../../add_custom/op_host/add_custom_tiling.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(StrAttrAdd, AddCustomTilingData)
} // namespace optiling
#endif
