#pragma once
#include "npukb_cpusim/ophost.h"
#include "register/tilingdata_base.h"
#include "npukb_cpusim/ophost_platform.h"

/* Tiling code that includes this header uses vector unqualified inside
 * namespace optiling (NPUKernelBench's ScatterList answer); one of the many
 * headers CANN's tiling_api.h pulls in provides it [unconfirmed which]. */
#include <vector>
namespace optiling {
using std::vector;
}
