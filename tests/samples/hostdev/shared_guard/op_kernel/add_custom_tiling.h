// Test sample (host+device): the kernel's own view of the tiling, under the
// same include guard as op_host/add_custom_tiling.h (a pattern of
// Ascend/samples: CANN's kernel build never sees the op_host header, so
// the two never meet there).
#ifndef ADD_CUSTOM_TILING_H
#define ADD_CUSTOM_TILING_H
#include <cstdint>
struct AddCustomKernelTiling {
    uint32_t totalLength;
    uint32_t tileNum;
};
#endif
