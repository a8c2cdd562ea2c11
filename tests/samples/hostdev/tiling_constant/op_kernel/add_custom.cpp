// Test sample (host+device): AddCustom's expert answer, whose BUFFER_NUM
// the tiling header defines too. Kernels also name the tiling struct, at
// global scope, as CANN generates it for them.
#include "../../add_custom/op_kernel/add_custom.cpp"

static_assert(sizeof(AddCustomTilingData) == 2 * sizeof(uint32_t), "the tiling struct is visible by name");
static_assert(BUFFER_NUM == 2, "the kernel's own BUFFER_NUM");
