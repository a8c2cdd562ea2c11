// The add_custom sample's tiling data (the forced header includes this file).
#include "../../add_custom/op_host/add_custom_tiling.h"
