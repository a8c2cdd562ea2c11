/* kernel_tiling/kernel_tiling.h - where CANN's build puts the kernel-side
 * tiling structs (cpusim forces the op_host's tiling header into each kernel
 * build instead); kernel_operator.h already provides it. */
#pragma once
#include "kernel_operator.h"
