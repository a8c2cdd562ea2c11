/* kernel_utils.h - an AscendC implementation header some kernels include
 * directly; kernel_operator.h already provides it. */
#pragma once
#include "kernel_operator.h"
