/* impl/dav_c220/kernel_operator_reg_others_impl.h - an AscendC
 * implementation header some kernels include directly; kernel_operator.h
 * already provides it. */
#pragma once
#include "kernel_operator.h"
