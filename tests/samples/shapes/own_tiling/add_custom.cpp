/* A kernel-only AddCustom answer that defines the tiling struct it reads
 * itself (by the name and field order of AddCustom's manifest), as kernel
 * sources written for a launch of their own do, before its kernel (here
 * the single-buffer sample's, included). cpusim must not define the
 * struct a second time. */
#include <cstdint>

struct AddCustomTilingData {
    uint32_t totalLength;
    uint32_t tileNum;
};

#include "../../AddCustom/single_buffer/add_custom.cpp"
