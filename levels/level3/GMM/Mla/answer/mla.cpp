// Mla expert answer (kernel-only mode, Ascend 910B): multi-head latent
// attention over a paged KV cache, FlashAttention style.
//
// A work item is one query token's heads of one kv head, up to 32 of them
// (the float32 accumulator of 32 x 512 fills the 64 KiB the vector side
// keeps for it); items go round-robin over the 24 AI cores. The item walks
// the sequence's kv_seqlen cached tokens 512 at a time; block_tables names
// the cache block of every block_size tokens, so each 512-token step is cut
// into runs inside one cache block, where the rows are evenly spaced.
// A mix kernel (1:1): the cube core (AIC) does the products, one vector
// core (AIV) the softmax:
//   AIC: S = q_nope k_nope^T + q_rope k_rope^T, both products accumulated
//        in one L0C tile per run (levels/common/cube_matmul.h, the cache
//        rows read as B^T) -> Fixpipe -> float32 workspace; flag S;
//   AIV: online softmax of S / sqrt(dnope + drope)
//        (levels/common/online_softmax.h) -> P -> workspace; flag P;
//   AIC: P V, V = k_nope, every run of the step accumulated in L0C ->
//        Fixpipe -> float32 workspace; flag O;
//   AIV: acc = acc * exp(m_old - m_new) + P V in UB.
// The AIV finally divides by the row sums and writes out.
//
// The two cores of an AI core share its slice of the workspace and hand it
// over with mode-2 cross-core flags, each set once the pipe that wrote
// (FIX on the AIC, MTE3 on the AIV) is done. Each wait also frees what the
// waiter wrote before: the AIC overwrites S only after P, O only after the
// next P; the AIV overwrites P only after the next S.
#include "kernel_operator.h"
#include "../../../../common/cube_matmul.h"
#include "../../../../common/online_softmax.h"

using namespace AscendC;
using namespace npukb_answer;

namespace {

// The mode-2 flags between an AI core's cube and vector core: S and P V
// ready on the AIC's side, P ready on the AIV's.
constexpr uint16_t FLAG_S = 3, FLAG_P = 4, FLAG_O = 5;

// 1 / sqrt(x) on the scalar unit by Newton's iteration: from y = 1 / x
// (below sqrt(3 / x) for x >= 1/3, where the iteration converges) it grows
// by half each step until near the root, then doubles its correct digits.
__aicore__ inline float InvSqrt(float x)
{
    float y = 1.0f / x;
    for (int i = 0; i < 64; i++)
        y = y * (1.5f - 0.5f * x * y * y);
    return y;
}

struct MlaShape {
    uint32_t batch, qlen, kvlen, heads, kvHeads, dn, dr, blocks, blockSize, maxBlocks;
};

template <class T>
struct MlaKernel {
    using Soft = OnlineSoftmax<T>;
    static constexpr uint32_t BN = Soft::BN;
    static constexpr uint32_t RUN = CubeMatmul<T>::BASE_N; // cached tokens per cube tile

    MlaShape s;
    GlobalTensor<T> qn, qr, kn, kr, out, pWs;
    GlobalTensor<int32_t> table;
    GlobalTensor<float> sWs, oWs;
    TPipe pipe;
    CubeMatmul<T> mm;
    Soft sm;

    // The run of cached tokens from j (< end) that one cache block holds,
    // at most RUN long: its length, and its first row's index in the
    // caches' [blocks * block_size * kv_heads] rows.
    __aicore__ inline uint32_t CacheRun(uint32_t b, uint32_t g, uint32_t j, uint32_t end, uint64_t &row)
    {
        const uint32_t blk = (uint32_t)table.GetValue((uint64_t)b * s.maxBlocks + j / s.blockSize);
        const uint32_t r = j % s.blockSize;
        uint32_t len = s.blockSize - r;
        len = len < end - j ? len : end - j;
        len = len < RUN ? len : RUN;
        row = ((uint64_t)blk * s.blockSize + r) * s.kvHeads + g;
        return len;
    }

    // The cube core's part of an item.
    __aicore__ inline void CubeItem(uint32_t tok, uint32_t g, uint32_t h0, uint32_t rows)
    {
        const uint32_t b = tok / s.qlen;
        const uint64_t qrow = (uint64_t)tok * s.heads + (uint64_t)g * (s.heads / s.kvHeads) + h0;
        const GlobalTensor<T> qnT = qn[qrow * s.dn], qrT = qr[qrow * s.dr];
        const uint32_t ldn = s.kvHeads * s.dn, ldr = s.kvHeads * s.dr;
        uint64_t row;
        for (uint32_t j0 = 0; j0 < s.kvlen; j0 += BN) {
            const uint32_t end = s.kvlen - j0 < BN ? s.kvlen : j0 + BN;
            for (uint32_t j = j0, len; j < end; j += len) {
                len = CacheRun(b, g, j, end, row);
                LocalTensor<float> acc = mm.qc.template AllocTensor<float>();
                mm.Accumulate(acc, qnT, kn[row * s.dn], s.dn, ldn, rows, len, 0, s.dn, true, true);
                mm.Accumulate(acc, qrT, kr[row * s.dr], s.dr, ldr, rows, len, 0, s.dr, false, true);
                mm.template Store<float>(sWs[j - j0], acc, BN, rows, len);
            }
            CrossCoreSetFlag<2, PIPE_FIX>(FLAG_S);
            CrossCoreWaitFlag(FLAG_P);
            for (uint32_t n0 = 0; n0 < s.dn; n0 += CubeMatmul<T>::BASE_N) {
                const uint32_t nt = s.dn - n0 < CubeMatmul<T>::BASE_N ? s.dn - n0 : CubeMatmul<T>::BASE_N;
                LocalTensor<float> acc = mm.qc.template AllocTensor<float>();
                for (uint32_t j = j0, len; j < end; j += len) {
                    len = CacheRun(b, g, j, end, row);
                    mm.Accumulate(acc, pWs[j - j0], kn[row * s.dn + n0], BN, ldn, rows, nt, 0, len, j == j0);
                }
                mm.template Store<float>(oWs[n0], acc, s.dn, rows, nt);
            }
            CrossCoreSetFlag<2, PIPE_FIX>(FLAG_O);
        }
    }

    // The vector core's part of an item.
    __aicore__ inline void VectorItem(uint32_t tok, uint32_t g, uint32_t h0, uint32_t rows, float scale)
    {
        const uint64_t qrow = (uint64_t)tok * s.heads + (uint64_t)g * (s.heads / s.kvHeads) + h0;
        sm.Begin(rows);
        for (uint32_t j0 = 0; j0 < s.kvlen; j0 += BN) {
            const uint32_t end = s.kvlen - j0 < BN ? s.kvlen : j0 + BN;
            CrossCoreWaitFlag(FLAG_S);
            sm.Step(sWs, pWs, rows, end - j0, scale);
            CrossCoreSetFlag<2, PIPE_MTE3>(FLAG_P);
            CrossCoreWaitFlag(FLAG_O);
            sm.Accumulate(oWs, rows);
        }
        sm.Finish(out[qrow * s.dn], rows, s.dn);
    }

    __aicore__ inline void Run(GM_ADDR queryNope, GM_ADDR queryRope, GM_ADDR kvNope, GM_ADDR kvRope,
                               GM_ADDR blockTables, GM_ADDR o, GM_ADDR workspace)
    {
        const uint32_t tokens = s.batch * s.qlen, group = s.heads / s.kvHeads;
        const uint64_t cacheRows = (uint64_t)s.blocks * s.blockSize * s.kvHeads;
        qn.SetGlobalBuffer((__gm__ T *)queryNope, (uint64_t)tokens * s.heads * s.dn);
        qr.SetGlobalBuffer((__gm__ T *)queryRope, (uint64_t)tokens * s.heads * s.dr);
        kn.SetGlobalBuffer((__gm__ T *)kvNope, cacheRows * s.dn);
        kr.SetGlobalBuffer((__gm__ T *)kvRope, cacheRows * s.dr);
        table.SetGlobalBuffer((__gm__ int32_t *)blockTables, (uint64_t)s.batch * s.maxBlocks);
        out.SetGlobalBuffer((__gm__ T *)o, (uint64_t)tokens * s.heads * s.dn);

        const uint32_t hm = Soft::MaxRows(s.dn);
        const uint32_t chunks = (group + hm - 1) / hm;
        const uint64_t items = (uint64_t)tokens * s.kvHeads * chunks;
        if ((uint64_t)GetBlockIdx() >= items)
            return;

        // this AI core's workspace: S (float), P (T), P V (float)
        const uint64_t sBytes = (uint64_t)hm * BN * sizeof(float), pBytes = (uint64_t)hm * BN * sizeof(T);
        const uint64_t oBytes = (uint64_t)hm * s.dn * sizeof(float);
        GM_ADDR ws = workspace + (uint64_t)GetBlockIdx() * (sBytes + pBytes + oBytes);
        sWs.SetGlobalBuffer((__gm__ float *)ws, (uint64_t)hm * BN);
        pWs.SetGlobalBuffer((__gm__ T *)(ws + sBytes), (uint64_t)hm * BN);
        oWs.SetGlobalBuffer((__gm__ float *)(ws + sBytes + pBytes), (uint64_t)hm * s.dn);

        const float scale = InvSqrt((float)(s.dn + s.dr));
        if ASCEND_IS_AIC {
            mm.Init(&pipe);
        }
        if ASCEND_IS_AIV {
            sm.Init(&pipe, hm, s.dn);
        }
        for (uint64_t it = GetBlockIdx(); it < items; it += GetBlockNum()) {
            const uint32_t c = it % chunks, tg = it / chunks;
            const uint32_t h0 = c * hm, rows = group - h0 < hm ? group - h0 : hm;
            if ASCEND_IS_AIC {
                CubeItem(tg / s.kvHeads, tg % s.kvHeads, h0, rows);
            }
            if ASCEND_IS_AIV {
                VectorItem(tg / s.kvHeads, tg % s.kvHeads, h0, rows, scale);
            }
        }
    }
};

} // namespace

extern "C" __global__ __aicore__ void mla(GM_ADDR query_nope, GM_ADDR query_rope, GM_ADDR kv_nope_cache,
                                          GM_ADDR kv_rope_cache, GM_ADDR block_tables, GM_ADDR out,
                                          GM_ADDR workspace, GM_ADDR tiling)
{
    // the cube core's products, one vector core's softmax
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);
    GET_TILING_DATA(t, tiling);
    MlaKernel<DTYPE_QUERY_NOPE> k;
    k.s = MlaShape{t.batch,    t.q_seqlen,       t.kv_seqlen,  t.num_heads,  t.kv_heads,
                   t.head_size, t.head_size_rope, t.num_blocks, t.block_size, t.max_blocks};
    k.Run(query_nope, query_rope, kv_nope_cache, kv_rope_cache, block_tables, out, GetUserWorkspace(workspace));
}
