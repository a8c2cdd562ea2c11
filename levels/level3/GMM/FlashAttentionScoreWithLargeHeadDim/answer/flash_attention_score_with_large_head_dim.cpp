// FlashAttentionScoreWithLargeHeadDim expert answer (kernel-only mode,
// Ascend 910B): FlashAttention over BSH tensors, one query tile of up to 128
// rows of one (batch, head) per work item, items round-robin over the 24
// AI cores (consecutive items share a head, so K and V stay hot in L2).
//
// A mix kernel (1:1): on each AI core the cube core (AIC) does the
// products and one vector core (AIV) the softmax. Per block of 512 keys:
//   AIC: S = Q K^T (levels/common/cube_matmul.h, K read transposed
//        straight from BSH) -> Fixpipe -> float32 workspace; flag S;
//   AIV: waits for S; online softmax of S * scale
//        (levels/common/online_softmax.h) -> P in half -> workspace; flag P;
//   AIC: waits for P; P V -> Fixpipe -> float32 workspace; flag O;
//   AIV: waits for O; acc = acc * exp(m_old - m_new) + P V in UB.
// After the last block the AIV divides by the row sums and writes the
// head's columns of attention_out.
//
// The two cores of an AI core share its slice of the workspace and hand it
// over with mode-2 cross-core flags, each set once the pipe that wrote
// (FIX on the AIC, MTE3 on the AIV) is done. Each wait also frees what the
// waiter wrote before: the AIC overwrites S only after P (the AIV has read
// S), and O only after the next P (the AIV has folded O in); the AIV
// overwrites P only after the next S (the AIC has multiplied P V).
#include "kernel_operator.h"
#include "../../../../common/cube_matmul.h"
#include "../../../../common/online_softmax.h"

using namespace AscendC;
using namespace npukb_answer;

namespace {

// The mode-2 flags between an AI core's cube and vector core: S and P V
// ready on the AIC's side, P ready on the AIV's.
constexpr uint16_t FLAG_S = 3, FLAG_P = 4, FLAG_O = 5;

template <class T>
__aicore__ inline void FlashAttention(GM_ADDR query, GM_ADDR key, GM_ADDR value, GM_ADDR out, GM_ADDR workspace,
                                      uint32_t batch, uint32_t seq, uint32_t hidden, uint32_t heads, uint32_t d,
                                      float scale)
{
    using Soft = OnlineSoftmax<T>;
    constexpr uint32_t BN = Soft::BN;
    const uint32_t bm = Soft::MaxRows(d);
    const uint64_t total = (uint64_t)batch * seq * hidden;
    GlobalTensor<T> gq, gk, gv, go;
    gq.SetGlobalBuffer((__gm__ T *)query, total);
    gk.SetGlobalBuffer((__gm__ T *)key, total);
    gv.SetGlobalBuffer((__gm__ T *)value, total);
    go.SetGlobalBuffer((__gm__ T *)out, total);

    // this AI core's workspace: S (float), P (T), P V (float)
    const uint64_t sBytes = (uint64_t)bm * BN * sizeof(float), pBytes = (uint64_t)bm * BN * sizeof(T);
    const uint64_t oBytes = (uint64_t)bm * d * sizeof(float);
    GM_ADDR ws = workspace + (uint64_t)GetBlockIdx() * (sBytes + pBytes + oBytes);
    GlobalTensor<float> sWs, oWs;
    GlobalTensor<T> pWs;
    sWs.SetGlobalBuffer((__gm__ float *)ws, (uint64_t)bm * BN);
    pWs.SetGlobalBuffer((__gm__ T *)(ws + sBytes), (uint64_t)bm * BN);
    oWs.SetGlobalBuffer((__gm__ float *)(ws + sBytes + pBytes), (uint64_t)bm * d);

    const uint32_t tiles = (seq + bm - 1) / bm;
    const uint64_t items = (uint64_t)batch * heads * tiles;
    if ((uint64_t)GetBlockIdx() >= items)
        return;

    TPipe pipe;
    if ASCEND_IS_AIC {
        CubeMatmul<T> mm;
        mm.Init(&pipe);
        for (uint64_t it = GetBlockIdx(); it < items; it += GetBlockNum()) {
            const uint32_t tile = it % tiles, bh = it / tiles;
            const uint32_t b = bh / heads, h = bh % heads;
            const uint32_t m0 = tile * bm, rows = seq - m0 < bm ? seq - m0 : bm;
            // element (row 0, column 0) of this head in batch b
            const uint64_t head = (uint64_t)b * seq * hidden + (uint64_t)h * d;
            const GlobalTensor<T> q = gq[head + (uint64_t)m0 * hidden];
            for (uint32_t kv0 = 0; kv0 < seq; kv0 += BN) {
                const uint32_t n = seq - kv0 < BN ? seq - kv0 : BN;
                for (uint32_t n0 = 0; n0 < n; n0 += CubeMatmul<T>::BASE_N) {
                    const uint32_t nt = n - n0 < CubeMatmul<T>::BASE_N ? n - n0 : CubeMatmul<T>::BASE_N;
                    mm.template Tile<float>(q, gk[head + (uint64_t)(kv0 + n0) * hidden], sWs[n0], hidden, hidden,
                                            BN, rows, nt, 0, d, true);
                }
                CrossCoreSetFlag<2, PIPE_FIX>(FLAG_S);
                CrossCoreWaitFlag(FLAG_P);
                for (uint32_t n0 = 0; n0 < d; n0 += CubeMatmul<T>::BASE_N) {
                    const uint32_t nt = d - n0 < CubeMatmul<T>::BASE_N ? d - n0 : CubeMatmul<T>::BASE_N;
                    mm.template Tile<float>(pWs, gv[head + (uint64_t)kv0 * hidden + n0], oWs[n0], BN, hidden, d,
                                            rows, nt, 0, n);
                }
                CrossCoreSetFlag<2, PIPE_FIX>(FLAG_O);
            }
        }
    }
    if ASCEND_IS_AIV {
        Soft sm;
        sm.Init(&pipe, bm, d);
        for (uint64_t it = GetBlockIdx(); it < items; it += GetBlockNum()) {
            const uint32_t tile = it % tiles, bh = it / tiles;
            const uint32_t b = bh / heads, h = bh % heads;
            const uint32_t m0 = tile * bm, rows = seq - m0 < bm ? seq - m0 : bm;
            const uint64_t head = (uint64_t)b * seq * hidden + (uint64_t)h * d;
            sm.Begin(rows);
            for (uint32_t kv0 = 0; kv0 < seq; kv0 += BN) {
                const uint32_t n = seq - kv0 < BN ? seq - kv0 : BN;
                CrossCoreWaitFlag(FLAG_S);
                sm.Step(sWs, pWs, rows, n, scale);
                CrossCoreSetFlag<2, PIPE_MTE3>(FLAG_P);
                CrossCoreWaitFlag(FLAG_O);
                sm.Accumulate(oWs, rows);
            }
            sm.Finish(go[head + (uint64_t)m0 * hidden], rows, hidden);
        }
    }
}

} // namespace

extern "C" __global__ __aicore__ void flash_attention_score_with_large_head_dim(GM_ADDR query, GM_ADDR key,
                                                                                GM_ADDR value, GM_ADDR attention_out,
                                                                                GM_ADDR workspace, GM_ADDR tiling)
{
    // the cube core's products, one vector core's softmax
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);
    GET_TILING_DATA(t, tiling);
    FlashAttention<DTYPE_QUERY>(query, key, value, attention_out, GetUserWorkspace(workspace), t.batch, t.seq,
                                t.hidden, t.head_num, t.head_dim, t.scale_value);
}
