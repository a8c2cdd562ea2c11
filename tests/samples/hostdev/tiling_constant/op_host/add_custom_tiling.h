// Test sample (host+device): the add_custom sample's tiling data next to a
// constant the kernel defines too (BUFFER_NUM, at global scope in
// AddCustom's expert answer). CANN gives the kernel the tiling structs
// only: the kernel-side build must not bring optiling's other names into
// the kernel's scope, where BUFFER_NUM would be ambiguous.
#ifndef TILING_CONSTANT_TILING_H
#define TILING_CONSTANT_TILING_H
#include "../../add_custom/op_host/add_custom_tiling.h"

namespace optiling {
constexpr uint32_t BUFFER_NUM = 2;
} // namespace optiling
#endif
