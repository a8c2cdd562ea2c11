/* tiling/tiling_templates_registry.h - CANN's registry of tiling-class
 * templates. The GroupNormSwish answers include it for what it brings in
 * (the op-host API) and register no template; the registry itself
 * (REGISTER_TILING_TEMPLATE) is not emulated. */
#pragma once
#include "npukb_cpusim/ophost.h"
#include "register/tilingdata_base.h"
#include "npukb_cpusim/ophost_platform.h"
