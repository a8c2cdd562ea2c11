/* cube_tiling.h - TCubeTiling, the Matmul tiling both sides share: the host
 * embeds it in a tiling-data struct (TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling,
 * x)) and fills it with matmul_tiling's GetTiling; the kernel reads it from
 * GET_TILING_DATA and hands it to a Matmul object (REGIST_MATMUL_OBJ / Init).
 * One plain struct of int32_t fields with the tiling-data accessors, so both
 * sides see the same bytes, as SoftMaxTiling does (softmax_tiling.h). Field
 * names and their order follow CANN's public TCubeTiling table (every field
 * an int); the layout-info fields of the batch forms are kept so that the
 * size is plausible, though cpusim reads none of them. CANN names it
 * optiling::TCubeTiling on the host and TCubeTiling at global scope in the
 * kernel; both names are given. */
#ifndef NPUKB_CPUSIM_CUBE_TILING_H
#define NPUKB_CPUSIM_CUBE_TILING_H

#include "npukb_cpusim/tiling_data_def.h"

BEGIN_TILING_DATA_DEF(TCubeTiling)
TILING_DATA_FIELD_DEF(int32_t, usedCoreNum)
TILING_DATA_FIELD_DEF(int32_t, M)
TILING_DATA_FIELD_DEF(int32_t, N)
TILING_DATA_FIELD_DEF(int32_t, Ka)
TILING_DATA_FIELD_DEF(int32_t, Kb)
TILING_DATA_FIELD_DEF(int32_t, singleCoreM)
TILING_DATA_FIELD_DEF(int32_t, singleCoreN)
TILING_DATA_FIELD_DEF(int32_t, singleCoreK)
TILING_DATA_FIELD_DEF(int32_t, baseM)
TILING_DATA_FIELD_DEF(int32_t, baseN)
TILING_DATA_FIELD_DEF(int32_t, baseK)
TILING_DATA_FIELD_DEF(int32_t, depthA1)
TILING_DATA_FIELD_DEF(int32_t, depthB1)
TILING_DATA_FIELD_DEF(int32_t, stepM)
TILING_DATA_FIELD_DEF(int32_t, stepN)
TILING_DATA_FIELD_DEF(int32_t, isBias)
TILING_DATA_FIELD_DEF(int32_t, transLength)
TILING_DATA_FIELD_DEF(int32_t, iterateOrder)
TILING_DATA_FIELD_DEF(int32_t, shareMode)
TILING_DATA_FIELD_DEF(int32_t, shareL1Size)
TILING_DATA_FIELD_DEF(int32_t, shareL0CSize)
TILING_DATA_FIELD_DEF(int32_t, shareUbSize)
TILING_DATA_FIELD_DEF(int32_t, batchM)
TILING_DATA_FIELD_DEF(int32_t, batchN)
TILING_DATA_FIELD_DEF(int32_t, singleBatchM)
TILING_DATA_FIELD_DEF(int32_t, singleBatchN)
TILING_DATA_FIELD_DEF(int32_t, stepKa)
TILING_DATA_FIELD_DEF(int32_t, stepKb)
TILING_DATA_FIELD_DEF(int32_t, depthAL1CacheUB)
TILING_DATA_FIELD_DEF(int32_t, depthBL1CacheUB)
TILING_DATA_FIELD_DEF(int32_t, dbL0A)
TILING_DATA_FIELD_DEF(int32_t, dbL0B)
TILING_DATA_FIELD_DEF(int32_t, dbL0C)
TILING_DATA_FIELD_DEF(int32_t, ALayoutInfoB)
TILING_DATA_FIELD_DEF(int32_t, ALayoutInfoS)
TILING_DATA_FIELD_DEF(int32_t, ALayoutInfoN)
TILING_DATA_FIELD_DEF(int32_t, ALayoutInfoG)
TILING_DATA_FIELD_DEF(int32_t, ALayoutInfoD)
TILING_DATA_FIELD_DEF(int32_t, BLayoutInfoB)
TILING_DATA_FIELD_DEF(int32_t, BLayoutInfoS)
TILING_DATA_FIELD_DEF(int32_t, BLayoutInfoN)
TILING_DATA_FIELD_DEF(int32_t, BLayoutInfoG)
TILING_DATA_FIELD_DEF(int32_t, BLayoutInfoD)
TILING_DATA_FIELD_DEF(int32_t, CLayoutInfoB)
TILING_DATA_FIELD_DEF(int32_t, CLayoutInfoS1)
TILING_DATA_FIELD_DEF(int32_t, CLayoutInfoN)
TILING_DATA_FIELD_DEF(int32_t, CLayoutInfoG)
TILING_DATA_FIELD_DEF(int32_t, CLayoutInfoS2)
TILING_DATA_FIELD_DEF(int32_t, BatchNum)
TILING_DATA_FIELD_DEF(int32_t, reserved)
END_TILING_DATA_DEF

namespace optiling {
using ::TCubeTiling;
}

#endif
