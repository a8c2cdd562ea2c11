// Test sample (host+device): the add_custom sample's tiling data, whose
// header defines TileCount (not inline). Both op_host files include it, and
// they are in different CANN targets: linked into separate libraries as in
// CANN, the two definitions must not collide.
#include "../../add_custom/op_host/add_custom_tiling.h"
