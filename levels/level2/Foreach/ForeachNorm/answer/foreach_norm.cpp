// ForeachNorm expert answer: y[m] = the p-norm of member m of the list x
// (p = scalar[0]), for float16, bfloat16 and float32 (kernel-only mode,
// Ascend 910B).
//  - Each member is split over all cores in contiguous 32-byte-aligned
//    ranges, streamed through a double-buffered queue; every tile adds its
//    terms (|x|^p; x*x for p = 2) lane by lane into a float accumulator
//    (a running maximum for p = inf), which keeps each lane's sum short.
//  - At the end of a member each core reduces its accumulator to one float
//    and writes it to the workspace (DMA, not the scalar cache); after one
//    SyncAll, core m % blocks adds member m's partials and takes the root.
#include "kernel_operator.h"
#include "../../../../common/foreach.h"

using namespace AscendC;
using namespace npukb_answer;

namespace {

constexpr uint32_t TILE = 4096;   // elements per tile
constexpr uint32_t MAX_CORES = 64; // partials read back per member

template <typename T>
class Norm {
public:
    static constexpr bool WIDEN = !IsSameType<T, float>::value;

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR scalar, GM_ADDR y, GM_ADDR workspace)
    {
        in.Init(x);
        out.Init(y);
        GlobalTensor<float> pGm;
        pGm.SetGlobalBuffer((__gm__ float*)scalar, 1);
        p = pGm.GetValue(0);
        inf = p > 3.0e38f;
        partGm.SetGlobalBuffer((__gm__ float*)GetUserWorkspace(workspace), in.GetSize() * GetBlockNum());
        pipe.InitBuffer(inQueue, 2, TILE * sizeof(T));
        pipe.InitBuffer(wideBuf, TILE * sizeof(float));
        pipe.InitBuffer(termBuf, TILE * sizeof(float));
        pipe.InitBuffer(accBuf, TILE * sizeof(float));
        pipe.InitBuffer(workBuf, TILE * sizeof(float));
        pipe.InitBuffer(onesBuf, TILE * sizeof(float));
        pipe.InitBuffer(maskBuf, TILE / 8);
        pipe.InitBuffer(smallBuf, MAX_CORES * sizeof(float));
        pipe.InitBuffer(smallWork, MAX_CORES * sizeof(float));
        pipe.InitBuffer(outBuf, MAX_CORES * sizeof(float));
        Duplicate(onesBuf.Get<float>(), 1.0f, TILE);
    }

    __aicore__ inline void Process()
    {
        const uint32_t members = in.GetSize();
        for (uint32_t m = 0; m < members; m++) {
            Partial(m);
        }
        SyncAll();
        for (uint32_t m = GetBlockIdx(); m < members; m += GetBlockNum()) {
            Finish(m);
        }
    }

private:
    // This core's share of member m, folded to one float in the workspace.
    __aicore__ inline void Partial(uint32_t m)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        Duplicate(acc, 0.0f, TILE);
        PipeBarrier<PIPE_V>();
        uint64_t start = 0, len = 0;
        if (MemberShare<T>(in, m, start, len)) {
            GlobalTensor<T> xGm;
            xGm.SetGlobalBuffer(in.GetDataPtr<T>(m) + start, len);
            for (uint64_t off = 0; off < len; off += TILE) {
                const uint32_t n = static_cast<uint32_t>(len - off < TILE ? len - off : TILE);
                const uint32_t count = static_cast<uint32_t>(AlignUp(n, 256 / sizeof(T)));
                LocalTensor<T> x = inQueue.AllocTensor<T>();
                ZeroTail(x, n, count); // zero lanes add nothing to any norm
                CopyGmToUb(x, xGm[off], n);
                inQueue.EnQue(x);
                Accumulate(count);
            }
        }
        LocalTensor<float> res = smallBuf.Get<float>();
        if (inf) {
            ReduceMax(res, acc, workBuf.Get<float>(), TILE, false);
        } else {
            ReduceSum(res, acc, workBuf.Get<float>(), TILE);
        }
        PipeBarrier<PIPE_ALL>();
        DataCopyExtParams prm{1, sizeof(float), 0, 0, 0};
        DataCopyPad(partGm[m * GetBlockNum() + GetBlockIdx()], res, prm);
        PipeBarrier<PIPE_ALL>();
    }

    __aicore__ inline void Accumulate(uint32_t count)
    {
        LocalTensor<T> x = inQueue.DeQue<T>();
        LocalTensor<float> v;
        if constexpr (WIDEN) {
            v = wideBuf.Get<float>();
            Cast(v, x, RoundMode::CAST_NONE, count);
            PipeBarrier<PIPE_V>();
        } else {
            v = x;
        }
        LocalTensor<float> t = termBuf.Get<float>();
        LocalTensor<float> acc = accBuf.Get<float>();
        if (p == 2.0f) {
            Mul(t, v, v, count);
        } else {
            Abs(t, v, count);
            PipeBarrier<PIPE_V>();
            if (p == 0.0f) {
                LocalTensor<uint8_t> mask = maskBuf.Get<uint8_t>();
                CompareScalar(mask, t, 0.0f, CMPMODE::GT, count);
                PipeBarrier<PIPE_V>();
                Select(t, mask, onesBuf.Get<float>(), 0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, count);
            } else if (!inf && p != 1.0f) {
                Power(t, t, p, count);
            }
        }
        PipeBarrier<PIPE_V>();
        if (inf) {
            Max(acc, acc, t, count);
        } else {
            Add(acc, acc, t, count);
        }
        PipeBarrier<PIPE_V>();
        inQueue.FreeTensor(x);
    }

    // Adds member m's partials, takes the root, writes y[m][0].
    __aicore__ inline void Finish(uint32_t m)
    {
        const uint32_t cores = GetBlockNum();
        LocalTensor<float> parts = smallBuf.Get<float>();
        Duplicate(parts, 0.0f, MAX_CORES);
        PipeBarrier<PIPE_ALL>();
        DataCopyExtParams prm{1, static_cast<uint32_t>(cores * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0};
        DataCopyPad(parts, partGm[m * cores], prm, pad);
        PipeBarrier<PIPE_ALL>();
        LocalTensor<float> r = outBuf.Get<float>();
        if (inf) {
            ReduceMax(r, parts, smallWork.Get<float>(), MAX_CORES, false);
        } else {
            ReduceSum(r, parts, smallWork.Get<float>(), MAX_CORES);
        }
        PipeBarrier<PIPE_V>();
        if (!inf && p != 0.0f && p != 1.0f) {
            if (p == 2.0f) {
                Sqrt(r, r, 8);
            } else {
                // s^(1/p) = exp(ln(s) / p)
                Ln(r, r, 8);
                PipeBarrier<PIPE_V>();
                Muls(r, r, 1.0f / p, 8);
                PipeBarrier<PIPE_V>();
                Exp(r, r, 8);
            }
            PipeBarrier<PIPE_V>();
        }
        GlobalTensor<T> yGm;
        yGm.SetGlobalBuffer(out.GetDataPtr<T>(m), 1);
        DataCopyExtParams one{1, sizeof(T), 0, 0, 0};
        if constexpr (WIDEN) {
            LocalTensor<T> rt = smallWork.Get<T>();
            Cast(rt, r, RoundMode::CAST_RINT, 64);
            PipeBarrier<PIPE_ALL>();
            DataCopyPad(yGm, rt, one);
        } else {
            PipeBarrier<PIPE_ALL>();
            DataCopyPad(yGm, r, one);
        }
        PipeBarrier<PIPE_ALL>();
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQueue;
    TBuf<QuePosition::VECCALC> wideBuf, termBuf, accBuf, workBuf, onesBuf, maskBuf, smallBuf, smallWork, outBuf;
    ListTensorDesc in, out;
    GlobalTensor<float> partGm;
    float p = 2.0f;
    bool inf = false;
};

} // namespace

extern "C" __global__ __aicore__ void foreach_norm(GM_ADDR x, GM_ADDR scalar, GM_ADDR y, GM_ADDR workspace,
                                                   GM_ADDR tiling)
{
    Norm<DTYPE_X> op;
    op.Init(x, scalar, y, workspace);
    op.Process();
}
