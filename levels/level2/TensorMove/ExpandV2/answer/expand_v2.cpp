// ExpandV2 expert answer (kernel-only mode, Ascend 910B): y is x repeated
// reps times (x's shape is y's trailing dimensions, every case's form).
//
// The reps copies are dealt to the cores in contiguous ranges. A core
// loads x once (in pieces of up to 8K elements when longer), replicates it
// in UB into as many 32-byte-aligned slots as fit, and then writes that
// same tile out again and again, one DMA per group of copies: after the
// one load there is nothing to read, so nothing to double-buffer.
#include "kernel_operator.h"
#include "../../../../common/rows.h"

using namespace AscendC;
using namespace npukb_answer;

namespace {

constexpr uint32_t TILE_BYTES = 128 * 1024;
constexpr uint32_t MAX_PIECE_BYTES = 64 * 1024;

template <typename T>
__aicore__ inline void Expand(GM_ADDR x, GM_ADDR y, uint64_t xn, uint64_t reps)
{
    const uint64_t per = CeilDiv(reps, GetBlockNum());
    const uint64_t r0 = per * GetBlockIdx();
    if (r0 >= reps || xn == 0) {
        return;
    }
    const uint64_t r1 = r0 + per < reps ? r0 + per : reps;
    GlobalTensor<T> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ T*)x, xn);
    yGm.SetGlobalBuffer((__gm__ T*)y, reps * xn);
    TPipe pipe;
    TBuf<QuePosition::VECCALC> buf;
    pipe.InitBuffer(buf, TILE_BYTES);
    LocalTensor<T> tile = buf.Get<T>();
    const uint64_t pw = xn * sizeof(T) <= MAX_PIECE_BYTES ? xn : MAX_PIECE_BYTES / sizeof(T);
    for (uint64_t c0 = 0; c0 < xn; c0 += pw) {
        const uint32_t w = static_cast<uint32_t>(xn - c0 < pw ? xn - c0 : pw);
        const uint32_t slot = static_cast<uint32_t>(AlignUp(w * sizeof(T), 32) / sizeof(T));
        uint64_t k = TILE_BYTES / (slot * sizeof(T));
        k = k < r1 - r0 ? k : r1 - r0;
        k = k < 4095 ? k : 4095;
        // The previous piece's writes read this buffer.
        PipeBarrier<PIPE_ALL>();
        CopyRowsIn(tile, xGm[c0], 1, w, slot);
        SetFlag<HardEvent::MTE2_V>(0);
        WaitFlag<HardEvent::MTE2_V>(0);
        ReplicateRow(tile, static_cast<uint32_t>(k), slot);
        SetFlag<HardEvent::V_MTE3>(0);
        WaitFlag<HardEvent::V_MTE3>(0);
        for (uint64_t r = r0; r < r1; r += k) {
            const uint32_t n = static_cast<uint32_t>(r1 - r < k ? r1 - r : k);
            // n copies of the piece, xn elements apart in GM
            DataCopyExtParams p{static_cast<uint16_t>(n), static_cast<uint32_t>(w * sizeof(T)), 0,
                                static_cast<uint32_t>((xn - w) * sizeof(T)), 0};
            DataCopyPad(yGm[r * xn + c0], tile, p);
        }
    }
}

} // namespace

extern "C" __global__ __aicore__ void expand_v2(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    Expand<DTYPE_X>(x, y, tilingData.xn, tilingData.reps);
}
