// Test sample (host+device): tiling data of a mix (cube + vector) operator:
// the rows each vector block multiplies, the vector blocks the launch must
// give, and the Matmul tiling.
#ifndef MIX_MATMUL_TILING_H
#define MIX_MATMUL_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MixMatmulTilingData)
TILING_DATA_FIELD_DEF(uint32_t, m);
TILING_DATA_FIELD_DEF(uint32_t, n);
TILING_DATA_FIELD_DEF(uint32_t, k);
TILING_DATA_FIELD_DEF(uint32_t, rowsPerBlock);
TILING_DATA_FIELD_DEF(uint32_t, vectorBlocks);
TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cube);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MixMatmul, MixMatmulTilingData)
} // namespace optiling
#endif
