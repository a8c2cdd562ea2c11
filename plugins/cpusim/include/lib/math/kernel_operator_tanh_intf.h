/* lib/math/kernel_operator_tanh_intf.h - the per-API header of AscendC's
 * high-level math library; kernel_operator.h already provides it. */
#pragma once
#include "kernel_operator.h"
