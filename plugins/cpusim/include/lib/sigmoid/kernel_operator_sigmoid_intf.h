/* lib/sigmoid/kernel_operator_sigmoid_intf.h - the per-API header of
 * AscendC's Sigmoid; kernel_operator.h already provides it. */
#pragma once
#include "kernel_operator.h"
