// Cross expert answer: y = x1 x x2 along dim, for float16, float32, int32
// and int8 (kernel-only mode, Ascend 910B).
//  - Seen as [pre, 3, post], the work is cut into tiles of G groups (values
//    of p) by w columns (a chunk of post): each of the three components of
//    a tile is one strided DataCopyPad (G blocks of w elements, 3*post - w
//    apart in GM), so a large post is cut into column chunks and a small
//    one (down to post = 1) is gathered G groups at a time with no
//    per-element index work. Tiles are dealt to the cores in contiguous
//    ranges; input and output queues are double-buffered.
//  - In UB every block is padded to 32 bytes, so all six component rows of
//    a tile share one layout and the arithmetic is plain vector ops over
//    it (padding lanes are computed and never stored).
//  - float16 is computed in float and rounded once, int8 in half (exact
//    for int8 operands whose results fit int8), float32 and int32 natively.
#include "kernel_operator.h"
#include "../../../../common/elementwise.h"

using namespace AscendC;
using namespace npukb_answer;

namespace {

constexpr uint32_t E = 1024; // UB elements per component row set of a tile

template <typename T>
struct CrossCompute {
    using type = T;
};
template <>
struct CrossCompute<half> {
    using type = float;
};
template <>
struct CrossCompute<int8_t> {
    using type = half;
};

template <typename T>
class Cross {
public:
    using C = typename CrossCompute<T>::type;
    static constexpr bool WIDEN = !IsSameType<T, C>::value;

    __aicore__ inline void Init(GM_ADDR x1, GM_ADDR x2, GM_ADDR y, uint32_t pre, uint32_t post)
    {
        this->pre = pre;
        this->post = post;
        const uint64_t total = static_cast<uint64_t>(pre) * 3 * post;
        aGm.SetGlobalBuffer((__gm__ T*)x1, total);
        bGm.SetGlobalBuffer((__gm__ T*)x2, total);
        yGm.SetGlobalBuffer((__gm__ T*)y, total);
        // A row of w elements takes rowLen lanes in UB (32-byte padded).
        w = post < E ? post : E;
        rowLen = static_cast<uint32_t>(AlignUp(w * sizeof(T), 32) / sizeof(T));
        groups = E / rowLen;
        colChunks = static_cast<uint32_t>(CeilDiv(post, w));
        pipe.InitBuffer(inQueue, 2, 6 * E * sizeof(T));
        pipe.InitBuffer(outQueue, 2, 3 * E * sizeof(T));
        pipe.InitBuffer(calcBuf, (WIDEN ? 9 : 0) * E * sizeof(C) + 2 * E * sizeof(C));
    }

    __aicore__ inline void Process()
    {
        const uint64_t tiles = CeilDiv(pre, groups) * colChunks;
        const uint64_t perCore = CeilDiv(tiles, GetBlockNum());
        const uint64_t first = perCore * GetBlockIdx();
        const uint64_t last = first + perCore < tiles ? first + perCore : tiles;
        for (uint64_t t = first; t < last; t++) {
            const uint32_t g0 = static_cast<uint32_t>(t / colChunks) * groups;
            const uint32_t c0 = static_cast<uint32_t>(t % colChunks) * w;
            const uint32_t g = pre - g0 < groups ? pre - g0 : groups;
            const uint32_t wc = post - c0 < w ? post - c0 : w;
            CopyIn(g0, c0, g, wc);
            Compute(static_cast<uint32_t>(AlignUp(g * rowLen, 256 / sizeof(T))));
            CopyOut(g0, c0, g, wc);
        }
    }

private:
    // Component k of groups g0 .. g0+g-1, columns c0 .. c0+wc-1.
    __aicore__ inline uint64_t At(uint32_t g0, uint32_t k, uint32_t c0)
    {
        return (static_cast<uint64_t>(g0) * 3 + k) * post + c0;
    }

    __aicore__ inline void CopyIn(uint32_t g0, uint32_t c0, uint32_t g, uint32_t wc)
    {
        LocalTensor<T> in = inQueue.AllocTensor<T>();
        DataCopyExtParams p{g, static_cast<uint32_t>(wc * sizeof(T)),
                            static_cast<uint32_t>((3 * post - wc) * sizeof(T)), 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        for (uint32_t k = 0; k < 3; k++) {
            DataCopyPad(in[k * E], aGm[At(g0, k, c0)], p, pad);
            DataCopyPad(in[(3 + k) * E], bGm[At(g0, k, c0)], p, pad);
        }
        inQueue.EnQue(in);
    }

    __aicore__ inline void Compute(uint32_t count)
    {
        LocalTensor<T> in = inQueue.DeQue<T>();
        LocalTensor<T> out = outQueue.AllocTensor<T>();
        LocalTensor<C> all = calcBuf.Get<C>();
        LocalTensor<C> v[9];
        const uint32_t tmpAt = WIDEN ? 9 : 0;
        LocalTensor<C> t0 = all[tmpAt * E], t1 = all[(tmpAt + 1) * E];
        if constexpr (WIDEN) {
            for (uint32_t i = 0; i < 9; i++) {
                v[i] = all[i * E];
            }
            for (uint32_t i = 0; i < 6; i++) {
                Cast(v[i], in[i * E], RoundMode::CAST_NONE, count);
            }
            PipeBarrier<PIPE_V>();
        } else {
            for (uint32_t i = 0; i < 6; i++) {
                v[i] = in[i * E];
            }
            for (uint32_t i = 0; i < 3; i++) {
                v[6 + i] = out[i * E];
            }
        }
        // y_k = a_{k+1} b_{k+2} - a_{k+2} b_{k+1}; a = v[0..2], b = v[3..5]
        for (uint32_t k = 0; k < 3; k++) {
            const uint32_t k1 = (k + 1) % 3, k2 = (k + 2) % 3;
            Mul(t0, v[k1], v[3 + k2], count);
            Mul(t1, v[k2], v[3 + k1], count);
            PipeBarrier<PIPE_V>();
            Sub(v[6 + k], t0, t1, count);
            PipeBarrier<PIPE_V>();
        }
        if constexpr (WIDEN) {
            for (uint32_t k = 0; k < 3; k++) {
                Cast(out[k * E], v[6 + k], RoundMode::CAST_RINT, count);
            }
        }
        outQueue.EnQue(out);
        inQueue.FreeTensor(in);
    }

    __aicore__ inline void CopyOut(uint32_t g0, uint32_t c0, uint32_t g, uint32_t wc)
    {
        LocalTensor<T> out = outQueue.DeQue<T>();
        DataCopyExtParams p{g, static_cast<uint32_t>(wc * sizeof(T)), 0,
                            static_cast<uint32_t>((3 * post - wc) * sizeof(T)), 0};
        for (uint32_t k = 0; k < 3; k++) {
            DataCopyPad(yGm[At(g0, k, c0)], out[k * E], p);
        }
        outQueue.FreeTensor(out);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQueue;
    TQue<QuePosition::VECOUT, 2> outQueue;
    TBuf<QuePosition::VECCALC> calcBuf;
    GlobalTensor<T> aGm, bGm, yGm;
    uint32_t pre = 0, post = 0, w = 0, rowLen = 0, groups = 0, colChunks = 0;
};

} // namespace

extern "C" __global__ __aicore__ void cross(GM_ADDR x1, GM_ADDR x2, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    Cross<DTYPE_X1> op;
    op.Init(x1, x2, y, tilingData.pre, tilingData.post);
    op.Process();
}
