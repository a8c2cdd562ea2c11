/* tiling/tiling_type.h - included by tiling headers of CANN's operator
 * sources alongside tiling_base.h; it brings the op-host API. */
#pragma once
#include "tiling/tiling_base.h"
