#pragma once
/* CANN's home of gert::TilingContext; cpusim declares it with the rest
 * of the op-host interface. */
#include "npukb_cpusim/ophost.h"
