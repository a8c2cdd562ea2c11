#pragma once
#include "npukb_cpusim/ophost_tiling.h"
/* On the kernel side too: op_host tiling headers also declare the host
 * tiling's own helpers (ge::DataType members, ge::char_t names) next to
 * the tiling data, and cpusim forces them into the kernel build. */
#include "npukb_cpusim/ophost.h"
