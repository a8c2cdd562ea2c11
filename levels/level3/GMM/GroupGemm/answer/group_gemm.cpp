// GroupGemm expert answer: out_g = alpha[g] a_g b_g + beta[g] c_g for groups
// of their own sizes, all flat one after another (kernel-only mode, Ascend
// 910B). The sizes, alpha and beta are read on the device from GM; the
// groups' 128 x 128 output tiles are numbered group after group and shared
// round-robin over the 24 blocks.
//
// Per tile, the high-level Matmul (the vector block drives its AI core's
// cube, mix mode; levels/common/matmul_api_tiles.h fills its tiling) writes
// a_g b_g in float32, straight from L0C, into a float32 mirror of out in the
// workspace (at most 1.9 M elements, 7.6 MB of the 16 MiB), at the tile's
// own place so tiles never overlap. The vector side then reads that tile
// back with c's, 32 rows at a time, and computes alpha ab + beta c in
// float32 with one rounding to half at the end, as the reference rounds.
// Passing ab through half first (into out, as a workspace-free kernel
// would) adds a second rounding of up to half an ulp of |ab| (0.004 at
// |ab| = 13, typical for k = 1500), about an eighth of the tolerance there.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "../../../../common/matmul_api_tiles.h"

using namespace AscendC;
using namespace npukb_answer;

using T = DTYPE_OUT;
using AType = MatmulType<TPosition::GM, CubeFormat::ND, DTYPE_A>;
using BType = MatmulType<TPosition::GM, CubeFormat::ND, DTYPE_B>;
using AccType = MatmulType<TPosition::GM, CubeFormat::ND, float>;

constexpr uint32_t ROWS = 32;

extern "C" __global__ __aicore__ void group_gemm(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR alpha, GM_ADDR beta,
                                                 GM_ADDR m_list, GM_ADDR k_list, GM_ADDR n_list, GM_ADDR out,
                                                 GM_ADDR workspace, GM_ADDR tiling)
{
    // one vector core per AI core drives its cube through the Matmul API, so
    // no two vector cores issue the same tile (with 1:2 both would)
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);
    GET_TILING_DATA(t, tiling);
    const uint32_t groups = t.groups, total = t.total;
    const uint32_t blocks = GetBlockNum(), me = GetBlockIdx();
    GlobalTensor<DTYPE_M_LIST> gm;
    GlobalTensor<DTYPE_K_LIST> gk;
    GlobalTensor<DTYPE_N_LIST> gn;
    GlobalTensor<DTYPE_ALPHA> gal;
    GlobalTensor<DTYPE_BETA> gbe;
    gm.SetGlobalBuffer((__gm__ DTYPE_M_LIST *)m_list, groups);
    gk.SetGlobalBuffer((__gm__ DTYPE_K_LIST *)k_list, groups);
    gn.SetGlobalBuffer((__gm__ DTYPE_N_LIST *)n_list, groups);
    gal.SetGlobalBuffer((__gm__ DTYPE_ALPHA *)alpha, groups);
    gbe.SetGlobalBuffer((__gm__ DTYPE_BETA *)beta, groups);

    // the flat lengths of a and b, and the largest group, for the buffers
    // and the Matmul's tiling
    uint64_t aLen = 0, bLen = 0;
    uint32_t mMax = 1, nMax = 1, kMax = 1;
    for (uint32_t g = 0; g < groups; g++) {
        const uint32_t mg = (uint32_t)gm.GetValue(g), kg = (uint32_t)gk.GetValue(g), ng = (uint32_t)gn.GetValue(g);
        aLen += (uint64_t)mg * kg;
        bLen += (uint64_t)kg * ng;
        mMax = mg > mMax ? mg : mMax;
        nMax = ng > nMax ? ng : nMax;
        kMax = kg > kMax ? kg : kMax;
    }
    GlobalTensor<DTYPE_A> ga;
    GlobalTensor<DTYPE_B> gb;
    GlobalTensor<DTYPE_C> gc;
    GlobalTensor<float> gab;
    GlobalTensor<T> gout;
    ga.SetGlobalBuffer((__gm__ DTYPE_A *)a, aLen);
    gb.SetGlobalBuffer((__gm__ DTYPE_B *)b, bLen);
    gc.SetGlobalBuffer((__gm__ DTYPE_C *)c, total);
    gab.SetGlobalBuffer((__gm__ float *)GetUserWorkspace(workspace), total);
    gout.SetGlobalBuffer((__gm__ T *)out, total);

    // the Matmul first: the cube core of a mix kernel stays in
    // REGIST_MATMUL_OBJ serving it, and separated mode wants it before any
    // InitBuffer
    TPipe pipe;
    TCubeTiling mt;
    FillMatmulTiling(mt, mMax, nMax, kMax, false);
    matmul::Matmul<AType, BType, AccType> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &mt);

    TQue<TPosition::VECIN, 1> qab, qc;
    TQue<TPosition::VECOUT, 1> qo;
    TBuf<TPosition::VECCALC> tmp;
    pipe.InitBuffer(qab, 1, ROWS * MM_TILE_N * sizeof(float));
    pipe.InitBuffer(qc, 1, ROWS * MM_TILE_N * sizeof(T));
    pipe.InitBuffer(qo, 1, ROWS * MM_TILE_N * sizeof(T));
    pipe.InitBuffer(tmp, ROWS * MM_TILE_N * sizeof(float));
    // a tile whose float rows need a whole 32-byte block of padding leaves
    // that block unwritten by DataCopyPad; its lanes are computed but never
    // stored, and zeroing the buffer once keeps them finite from the start
    {
        LocalTensor<float> z = qab.AllocTensor<float>();
        Duplicate(z, 0.0f, ROWS * MM_TILE_N);
        qab.FreeTensor(z);
    }

    constexpr uint32_t PER_BLOCK = 32 / sizeof(T);
    constexpr uint32_t F_PER_BLOCK = 32 / sizeof(float);
    uint64_t aOff = 0, bOff = 0, cOff = 0;
    uint32_t tileBase = 0;
    for (uint32_t g = 0; g < groups; g++) {
        const uint32_t mg = (uint32_t)gm.GetValue(g), kg = (uint32_t)gk.GetValue(g), ng = (uint32_t)gn.GetValue(g);
        const float al = gal.GetValue(g), be = gbe.GetValue(g);
        const uint32_t tm = (mg + MM_TILE_M - 1) / MM_TILE_M, tn = (ng + MM_TILE_N - 1) / MM_TILE_N;
        const uint32_t tiles = tm * tn;
        mm.SetOrgShape(mg, ng, kg);
        // this block's first tile of the group in the numbering over all groups
        for (uint32_t i = (me + blocks - tileBase % blocks) % blocks; i < tiles; i += blocks) {
            const uint32_t m0 = i / tn * MM_TILE_M, n0 = i % tn * MM_TILE_N;
            const uint32_t rowsT = mg - m0 < MM_TILE_M ? mg - m0 : MM_TILE_M;
            const uint32_t cols = ng - n0 < MM_TILE_N ? ng - n0 : MM_TILE_N;
            const uint64_t at0 = cOff + (uint64_t)m0 * ng + n0;
            mm.SetSingleShape(rowsT, cols, kg);
            mm.SetTensorA(ga[aOff + (uint64_t)m0 * kg]);
            mm.SetTensorB(gb[bOff + n0]);
            mm.IterateAll(gab[at0]);
            // the vector side reads what the cube's Fixpipe wrote
            PipeBarrier<PIPE_ALL>();
            // rows padded in UB to whole 32-byte blocks of half, which are
            // whole blocks of float too; the pad zero-filled
            const uint32_t colsPad = (cols + PER_BLOCK - 1) / PER_BLOCK * PER_BLOCK;
            DataCopyPadExtParams<float> padF{true, 0, (uint8_t)((colsPad - cols) % F_PER_BLOCK), 0.0f};
            DataCopyPadExtParams<T> padH{true, 0, (uint8_t)(colsPad - cols), (T)0};
            for (uint32_t r0 = 0; r0 < rowsT; r0 += ROWS) {
                const uint32_t rows = rowsT - r0 < ROWS ? rowsT - r0 : ROWS;
                const uint64_t at = at0 + (uint64_t)r0 * ng;
                LocalTensor<float> xab = qab.AllocTensor<float>();
                LocalTensor<T> xc = qc.AllocTensor<T>();
                // float rows land colsPad apart: the source's 32-byte
                // blocks per row plus a destination gap for the rest
                const uint32_t fBlocks = (cols + F_PER_BLOCK - 1) / F_PER_BLOCK;
                DataCopyPad(xab, gab[at],
                            DataCopyExtParams(rows, cols * sizeof(float), (ng - cols) * sizeof(float),
                                              (colsPad / F_PER_BLOCK - fBlocks), 0),
                            padF);
                DataCopyPad(xc, gc[at], DataCopyExtParams(rows, cols * sizeof(T), (ng - cols) * sizeof(T), 0, 0),
                            padH);
                qab.EnQue(xab);
                qc.EnQue(xc);
                xab = qab.DeQue<float>();
                xc = qc.DeQue<T>();
                const uint32_t len = rows * colsPad;
                LocalTensor<float> cf = tmp.Get<float>();
                Cast(cf, xc, RoundMode::CAST_NONE, len);
                qc.FreeTensor(xc);
                Muls(cf, cf, be, len);
                Axpy(cf, xab, al, len);
                qab.FreeTensor(xab);
                LocalTensor<T> o = qo.AllocTensor<T>();
                Cast(o, cf, RoundMode::CAST_RINT, len);
                qo.EnQue(o);
                o = qo.DeQue<T>();
                DataCopyPad(gout[at], o, DataCopyExtParams(rows, cols * sizeof(T), 0, (ng - cols) * sizeof(T), 0));
                qo.FreeTensor(o);
            }
        }
        tileBase += tiles;
        aOff += (uint64_t)mg * kg;
        bOff += (uint64_t)kg * ng;
        cOff += (uint64_t)mg * ng;
    }
    mm.End();
}
