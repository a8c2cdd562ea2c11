// Test sample (host+device): the add_custom sample's tiling data.
#include "../../add_custom/op_host/add_custom_tiling.h"
