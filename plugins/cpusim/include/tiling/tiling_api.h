#pragma once
#include "npukb_cpusim/ophost.h"
#include "register/tilingdata_base.h"
#include "npukb_cpusim/ophost_platform.h"
/* matmul_tiling: MatmulApiTiling, MultiCoreMatmulTiling. */
#include "npukb_cpusim/ophost_matmul.h"
#include "npukb_cpusim/ophost_compat.h"

/* Tiling code that includes this header uses vector and map unqualified
 * inside namespace optiling (NPUKernelBench's ScatterList and GeGluGradV2
 * answers); one of the many headers CANN's tiling_api.h pulls in provides
 * them [unconfirmed which]. */
#include <map>
#include <vector>
namespace optiling {
using std::map;
using std::vector;
}
