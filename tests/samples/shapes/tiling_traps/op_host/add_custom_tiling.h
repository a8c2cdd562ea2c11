// Test sample (host+device): AddCustom's tiling data, the hostdev sample's.
#include "../../../hostdev/add_custom/op_host/add_custom_tiling.h"
