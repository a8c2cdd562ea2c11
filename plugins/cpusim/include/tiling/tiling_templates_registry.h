/* tiling/tiling_templates_registry.h - CANN's registry of tiling-class
 * templates (REGISTER_TILING_TEMPLATE, TilingRegistry): tiling_base.h. */
#pragma once
#include "tiling/tiling_base.h"
