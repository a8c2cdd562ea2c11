// foreach.h - the list walk shared by npukb's ForeachXxx expert answers
// (Level 2, kernel-only mode, Ascend 910B vector cores).
//
// A Foreach operator applies one element-wise function to every member of
// its tensor lists: y[m] = f(x1[m], x2[m], ..., scalar). The lists arrive
// as ListTensorDesc; members may differ in shape, each starts on its own
// 512-byte boundary. Every member is split over all cores in contiguous
// ranges of 32-byte units (no two cores touch the same block) and streamed
// through UB in tiles: one input queue per list and one output queue, each
// of depth 2 (double buffering), plus float buffers when the dtype is
// widened and scratch for the function. The UB is sized once for the
// largest tile; members smaller than a tile use a prefix of it. Tails move
// with DataCopyPad.
//
// half and bfloat16 are computed in float and rounded once (nearest even);
// float and int32 are computed in their own type.
//
// The function is a class F with
//   static constexpr int NLIST;       input lists (0: the output list is
//                                     rewritten in place, ZeroInplace)
//   static constexpr uint32_t SCRATCH;  scratch tensors of the compute type
//   template <typename C> static void Apply(const LocalTensor<C>& y,
//       const LocalTensor<C>* x, const LocalTensor<C>* scratch, C scalar,
//       uint32_t count);
// where count is a multiple of 256 bytes of both types; Apply may
// overwrite x. The lanes of a tail tile past the member's end read as zero.
// Apply may be a non-static member: RunForeach(f, ...) keeps f's state
// across tiles and members (ForeachNonFiniteCheckAndUnscale's flag).
#ifndef NPUKB_ANSWER_FOREACH_H
#define NPUKB_ANSWER_FOREACH_H

#include "elementwise.h"

namespace npukb_answer {

// Where the scalar operand comes from: none, one value for every member,
// or value m for member m.
enum class ForeachScalar { NONE, ONE, PER_MEMBER };

template <typename T>
struct ForeachCompute {
    using type = float;
};
template <>
struct ForeachCompute<int32_t> {
    using type = int32_t;
};

constexpr uint32_t FOREACH_MAX_RANK = 8;

// This core's share of member m of a list: [start, start + len), whole
// 32-byte units of T for every core but the last with work; false when the
// core has none (members smaller than the cores' count of units).
template <typename T>
__aicore__ inline bool MemberShare(ListTensorDesc& list, uint32_t m, uint64_t& start, uint64_t& len)
{
    uint64_t shape[FOREACH_MAX_RANK];
    TensorDesc<T> desc;
    desc.SetShapeAddr(shape);
    list.GetDesc(desc, m);
    uint64_t numel = 1;
    for (uint64_t d = 0; d < desc.GetDim(); d++) {
        numel *= desc.GetShape(static_cast<uint32_t>(d));
    }
    constexpr uint64_t unit = 32 / sizeof(T);
    const uint64_t perCore = CeilDiv(CeilDiv(numel, unit), GetBlockNum()) * unit;
    start = perCore * GetBlockIdx();
    if (start >= numel) {
        return false;
    }
    len = numel - start < perCore ? numel - start : perCore;
    return true;
}

// Zeroes the lanes of a tile of n elements up to count (a tail's padding),
// before the copy-in that fills the first n: stale values could be NaN.
template <typename T>
__aicore__ inline void ZeroTail(const LocalTensor<T>& x, uint32_t n, uint32_t count)
{
    if (n != count) {
        Duplicate(x.template ReinterpretCast<half>(), (half)0.0f,
                  static_cast<int32_t>(count * sizeof(T) / sizeof(half)));
        PipeBarrier<PIPE_ALL>();
    }
}

template <typename T, class F, ForeachScalar SC = ForeachScalar::NONE, typename S = float>
class Foreach {
public:
    using C = typename ForeachCompute<T>::type;
    static constexpr bool WIDEN = !IsSameType<T, C>::value;
    static constexpr int NL = F::NLIST > 0 ? F::NLIST : 1;
    static constexpr uint32_t NARROW = sizeof(T) < sizeof(C) ? sizeof(T) : sizeof(C);
    static constexpr uint32_t GRAIN = 256 / NARROW;

    __aicore__ inline void Init(GM_ADDR const* lists, GM_ADDR y, GM_ADDR scalar)
    {
        for (int i = 0; i < F::NLIST; i++) {
            in[i].Init(lists[i]);
        }
        out.Init(y);
        if constexpr (SC != ForeachScalar::NONE) {
            scalarGm.SetGlobalBuffer((__gm__ S*)scalar, SC == ForeachScalar::ONE ? 1 : out.GetSize());
        }
        const uint32_t perElem = BUFFER_NUM * (F::NLIST + 1) * sizeof(T) +
                                 (WIDEN ? (F::NLIST + 1) * sizeof(C) : 0) + F::SCRATCH * sizeof(C);
        uint32_t t = UB_BUDGET / perElem / GRAIN * GRAIN;
        tile = t < MAX_TILE ? t : MAX_TILE / GRAIN * GRAIN;
        for (int i = 0; i < F::NLIST; i++) {
            pipe.InitBuffer(inQueue[i], BUFFER_NUM, tile * sizeof(T));
        }
        pipe.InitBuffer(outQueue, BUFFER_NUM, tile * sizeof(T));
        if constexpr (WIDEN || F::SCRATCH > 0) {
            pipe.InitBuffer(calcBuf, tile * sizeof(C) * ((WIDEN ? F::NLIST + 1 : 0) + F::SCRATCH));
        }
    }

    __aicore__ inline void Process(F& f)
    {
        for (uint32_t m = 0; m < out.GetSize(); m++) {
            C scalar = 0;
            if constexpr (SC == ForeachScalar::ONE) {
                scalar = ToCompute(scalarGm.GetValue(0));
            } else if constexpr (SC == ForeachScalar::PER_MEMBER) {
                scalar = ToCompute(scalarGm.GetValue(m));
            }
            Member(f, m, scalar);
        }
    }

private:
    template <typename V>
    __aicore__ static inline C ToCompute(V v)
    {
        if constexpr (IsSameType<C, float>::value) {
            return static_cast<float>(v);
        } else {
            return static_cast<C>(v);
        }
    }

    __aicore__ inline void Member(F& f, uint32_t m, C scalar)
    {
        uint64_t start = 0, len = 0;
        if (!MemberShare<T>(out, m, start, len)) {
            return;
        }
        for (int i = 0; i < F::NLIST; i++) {
            xGm[i].SetGlobalBuffer(in[i].template GetDataPtr<T>(m) + start, len);
        }
        yGm.SetGlobalBuffer(out.template GetDataPtr<T>(m) + start, len);
        for (uint64_t off = 0; off < len; off += tile) {
            const uint32_t n = static_cast<uint32_t>(len - off < tile ? len - off : tile);
            CopyIn(off, n);
            Compute(f, static_cast<uint32_t>(AlignUp(n, GRAIN)), scalar);
            CopyOut(off, n);
        }
    }

    __aicore__ inline void CopyIn(uint64_t off, uint32_t n)
    {
        for (int i = 0; i < F::NLIST; i++) {
            LocalTensor<T> x = inQueue[i].template AllocTensor<T>();
            ZeroTail(x, n, static_cast<uint32_t>(AlignUp(n, GRAIN)));
            CopyGmToUb(x, xGm[i][off], n);
            inQueue[i].EnQue(x);
        }
    }

    __aicore__ inline void Compute(F& f, uint32_t count, C scalar)
    {
        LocalTensor<T> x[NL];
        for (int i = 0; i < F::NLIST; i++) {
            x[i] = inQueue[i].template DeQue<T>();
        }
        LocalTensor<T> y = outQueue.template AllocTensor<T>();
        LocalTensor<C> s[F::SCRATCH > 0 ? F::SCRATCH : 1];
        if constexpr (WIDEN) {
            LocalTensor<C> all = calcBuf.template Get<C>();
            LocalTensor<C> xc[NL];
            for (int i = 0; i < F::NLIST; i++) {
                xc[i] = all[i * tile];
                Cast(xc[i], x[i], RoundMode::CAST_NONE, count);
            }
            LocalTensor<C> yc = all[F::NLIST * tile];
            for (uint32_t i = 0; i < F::SCRATCH; i++) {
                s[i] = all[(F::NLIST + 1 + i) * tile];
            }
            PipeBarrier<PIPE_V>();
            f.template Apply<C>(yc, xc, s, scalar, count);
            PipeBarrier<PIPE_V>();
            Cast(y, yc, RoundMode::CAST_RINT, count);
        } else {
            if constexpr (F::SCRATCH > 0) {
                LocalTensor<C> all = calcBuf.template Get<C>();
                for (uint32_t i = 0; i < F::SCRATCH; i++) {
                    s[i] = all[i * tile];
                }
            }
            f.template Apply<C>(y, x, s, scalar, count);
        }
        outQueue.EnQue(y);
        for (int i = 0; i < F::NLIST; i++) {
            inQueue[i].FreeTensor(x[i]);
        }
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t n)
    {
        LocalTensor<T> y = outQueue.template DeQue<T>();
        CopyUbToGm(yGm[off], y, n);
        outQueue.FreeTensor(y);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue[NL];
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    TBuf<QuePosition::VECCALC> calcBuf;
    ListTensorDesc in[NL];
    ListTensorDesc out;
    GlobalTensor<T> xGm[NL];
    GlobalTensor<T> yGm;
    GlobalTensor<S> scalarGm;
    uint32_t tile = 0;
};

// The whole kernel body of a Foreach operator: lists[0 .. F::NLIST-1] are
// the input lists, y the output list (for NLIST 0, the list rewritten in
// place), scalar the scalar tensor of type S (unused for NONE).
template <typename T, class F, ForeachScalar SC = ForeachScalar::NONE, typename S = float>
__aicore__ inline void RunForeach(F& f, GM_ADDR const* lists, GM_ADDR y, GM_ADDR scalar = nullptr)
{
    Foreach<T, F, SC, S> kernel;
    kernel.Init(lists, y, scalar);
    kernel.Process(f);
}

template <typename T, class F, ForeachScalar SC = ForeachScalar::NONE, typename S = float>
__aicore__ inline void RunForeach(GM_ADDR const* lists, GM_ADDR y, GM_ADDR scalar = nullptr)
{
    F f;
    RunForeach<T, F, SC, S>(f, lists, y, scalar);
}

} // namespace npukb_answer

#endif
