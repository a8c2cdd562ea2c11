// NonFiniteCheckOp expert answer: found_flag = 1.0 when any element of any
// tensor of the list is +-inf or NaN, else 0.0; float16, bfloat16 and
// float32 (kernel-only mode, Ascend 910B).
//  - The list arrives as a ListTensorDesc; each tensor is split over all
//    cores in contiguous 32-byte-aligned ranges, streamed through a
//    double-buffered queue.
//  - x - x is 0 exactly for finite x (NaN otherwise); a compare and a
//    select turn that into 0.0 / 1.0, folded into a running maximum, and
//    one reduction per core at the end (bfloat16 goes through float).
//  - Core 0 clears the flag before a SyncAll; afterwards a core that found
//    something writes 1.0 (every writer writes the same value).
#include "kernel_operator.h"
#include "../../../../common/elementwise.h"

using namespace AscendC;
using namespace npukb_answer;

namespace {

constexpr uint32_t TILE = 4096;  // elements per tile
constexpr uint32_t MAX_RANK = 8;

template <typename T>
class NonFiniteCheck {
public:
    using C = typename std::conditional<IsSameType<T, bfloat16_t>::value, float, T>::type;
    static constexpr bool WIDEN = !IsSameType<T, C>::value;

    __aicore__ inline void Init(GM_ADDR list, GM_ADDR flag)
    {
        desc.Init(list);
        flagGm.SetGlobalBuffer((__gm__ float*)flag, 1);
        pipe.InitBuffer(inQueue, 2, TILE * sizeof(T));
        pipe.InitBuffer(testBuf, TILE * sizeof(C));
        pipe.InitBuffer(zeroBuf, TILE * sizeof(C));
        pipe.InitBuffer(accBuf, TILE * sizeof(C));
        pipe.InitBuffer(workBuf, TILE * sizeof(C));
        pipe.InitBuffer(maskBuf, TILE / 8);
        pipe.InitBuffer(resBuf, 32);
        if constexpr (WIDEN) {
            pipe.InitBuffer(wideBuf, TILE * sizeof(float));
        }
    }

    __aicore__ inline void Process()
    {
        if (GetBlockIdx() == 0) {
            flagGm.SetValue(0, 0.0f);
        }
        SyncAll();
        LocalTensor<C> acc = accBuf.Get<C>();
        Duplicate(acc, (C)0.0f, TILE);
        Duplicate(zeroBuf.Get<C>(), (C)0.0f, TILE);
        PipeBarrier<PIPE_V>();
        for (uint32_t m = 0; m < desc.GetSize(); m++) {
            CheckTensor(m);
        }
        LocalTensor<C> res = resBuf.Get<C>();
        ReduceMax(res, acc, workBuf.Get<C>(), TILE, false);
        PipeBarrier<PIPE_ALL>();
        if ((float)res.GetValue(0) != 0.0f) {
            flagGm.SetValue(0, 1.0f);
        }
    }

private:
    __aicore__ inline void CheckTensor(uint32_t m)
    {
        uint64_t shape[MAX_RANK];
        TensorDesc<T> td;
        td.SetShapeAddr(shape);
        desc.GetDesc(td, m);
        uint64_t numel = 1;
        for (uint64_t d = 0; d < td.GetDim(); d++) {
            numel *= td.GetShape(static_cast<uint32_t>(d));
        }
        constexpr uint64_t unit = 32 / sizeof(T);
        const uint64_t perCore = CeilDiv(CeilDiv(numel, unit), GetBlockNum()) * unit;
        const uint64_t start = perCore * GetBlockIdx();
        if (start >= numel) {
            return;
        }
        const uint64_t len = numel - start < perCore ? numel - start : perCore;
        GlobalTensor<T> xGm;
        xGm.SetGlobalBuffer(desc.GetDataPtr<T>(m) + start, len);
        for (uint64_t off = 0; off < len; off += TILE) {
            const uint32_t n = static_cast<uint32_t>(len - off < TILE ? len - off : TILE);
            constexpr uint32_t grain = 256 / sizeof(C);
            const uint32_t count = static_cast<uint32_t>(AlignUp(n, grain));
            LocalTensor<T> x = inQueue.AllocTensor<T>();
            if (n != count) {
                // The lanes past the tail must not hold stale values.
                Duplicate(x.template ReinterpretCast<half>(), (half)0.0f, count * sizeof(T) / sizeof(half));
                PipeBarrier<PIPE_ALL>();
            }
            CopyGmToUb(x, xGm[off], n);
            inQueue.EnQue(x);
            Test(count);
        }
    }

    __aicore__ inline void Test(uint32_t count)
    {
        LocalTensor<T> x = inQueue.DeQue<T>();
        LocalTensor<C> v;
        if constexpr (WIDEN) {
            v = wideBuf.Get<float>();
            Cast(v, x, RoundMode::CAST_NONE, count);
            PipeBarrier<PIPE_V>();
        } else {
            v = x;
        }
        LocalTensor<C> t = testBuf.Get<C>();
        LocalTensor<uint8_t> mask = maskBuf.Get<uint8_t>();
        Sub(t, v, v, count);
        PipeBarrier<PIPE_V>();
        CompareScalar(mask, t, (C)0.0f, CMPMODE::EQ, count);
        PipeBarrier<PIPE_V>();
        Select(t, mask, zeroBuf.Get<C>(), (C)1.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, count);
        PipeBarrier<PIPE_V>();
        LocalTensor<C> acc = accBuf.Get<C>();
        Max(acc, acc, t, count);
        PipeBarrier<PIPE_V>();
        inQueue.FreeTensor(x);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQueue;
    TBuf<QuePosition::VECCALC> testBuf, zeroBuf, accBuf, workBuf, maskBuf, resBuf, wideBuf;
    ListTensorDesc desc;
    GlobalTensor<float> flagGm;
};

} // namespace

extern "C" __global__ __aicore__ void non_finite_check_op(GM_ADDR tensor_list, GM_ADDR found_flag,
                                                          GM_ADDR workspace, GM_ADDR tiling)
{
    NonFiniteCheck<DTYPE_TENSOR_LIST> op;
    op.Init(tensor_list, found_flag);
    op.Process();
}
