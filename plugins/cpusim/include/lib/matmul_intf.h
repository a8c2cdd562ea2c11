/* lib/matmul_intf.h - where CANN declares the high-level Matmul for kernels
 * (MatmulType, MatmulConfig, Matmul, REGIST_MATMUL_OBJ): npukb_cpusim/matmul.h. */
#pragma once
#include "kernel_operator.h"
#include "npukb_cpusim/matmul.h"
