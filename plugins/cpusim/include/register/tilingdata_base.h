#pragma once
#include "npukb_cpusim/ophost_tiling.h"
#ifndef NPUKB_CPUSIM_KERNEL_SIDE
#include "npukb_cpusim/ophost.h"
#endif
