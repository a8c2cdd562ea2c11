// matmul_api_tiles.h - the Level 3 matmul answers that need an epilogue
// (a bias, an added matrix, alpha/beta scaling) run the high-level Matmul
// (AscendC's matmul API: the vector blocks drive the cube of their AI core,
// mix mode on Ascend 910B) one 128 x 128 output tile at a time, tiles shared
// round-robin over the blocks, so that each block's vector epilogue only
// touches the tile its own Matmul just wrote. In kernel-only mode there is
// no host tiling, so the kernel fills the TCubeTiling itself: base blocks of
// 128 x 128 x 64 (L0A/L0B 16 KiB each, double-buffered; L0C 64 KiB), K
// streamed through L1 four base blocks at a time.
#ifndef NPUKB_ANSWER_MATMUL_API_TILES_H
#define NPUKB_ANSWER_MATMUL_API_TILES_H

#include "kernel_operator.h"
#include "lib/matmul_intf.h"

namespace npukb_answer {

using namespace AscendC;

constexpr uint32_t MM_TILE_M = 128;
constexpr uint32_t MM_TILE_N = 128;

__aicore__ inline void FillMatmulTiling(TCubeTiling &t, uint32_t m, uint32_t n, uint32_t k, bool bias)
{
    t.usedCoreNum = GetBlockNum();
    t.M = m;
    t.N = n;
    t.Ka = k;
    t.Kb = k;
    t.singleCoreM = m < MM_TILE_M ? m : MM_TILE_M;
    t.singleCoreN = n < MM_TILE_N ? n : MM_TILE_N;
    t.singleCoreK = k;
    t.baseM = MM_TILE_M;
    t.baseN = MM_TILE_N;
    t.baseK = 64;
    t.depthA1 = 8;
    t.depthB1 = 8;
    t.stepM = 1;
    t.stepN = 1;
    t.stepKa = 4;
    t.stepKb = 4;
    t.isBias = bias ? 1 : 0;
    t.iterateOrder = 0;
    t.dbL0A = 2;
    t.dbL0B = 2;
    t.dbL0C = 1;
}

// Calls fn(m0, n0, mt, nt) for each of this block's output tiles.
template <class Fn>
__aicore__ inline void ForEachTile(uint32_t m, uint32_t n, Fn fn)
{
    const uint32_t tm = (m + MM_TILE_M - 1) / MM_TILE_M, tn = (n + MM_TILE_N - 1) / MM_TILE_N;
    for (uint32_t t = GetBlockIdx(); t < tm * tn; t += GetBlockNum()) {
        const uint32_t m0 = t / tn * MM_TILE_M, n0 = t % tn * MM_TILE_N;
        fn(m0, n0, m - m0 < MM_TILE_M ? m - m0 : MM_TILE_M, n - n0 < MM_TILE_N ? n - n0 : MM_TILE_N);
    }
}

} // namespace npukb_answer

#endif
