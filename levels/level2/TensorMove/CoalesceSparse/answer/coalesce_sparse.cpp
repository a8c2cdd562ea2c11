// CoalesceSparse expert answer (kernel-only mode, Ascend 910B): with the
// host's torch.unique of the flat indices given (unique_indices: each
// entry's output row), new_indices[u] = the coordinates of an entry of row
// u and new_value[u] = the sum of its entries' values.
//
// The U output rows are dealt to the cores in contiguous ranges, so no two
// cores write one row and no atomics are needed. Each core reads all of
// unique_indices once into UB and, per column chunk of the dense part,
// streams in (double-buffered) the values rows of the entries that fall in
// its range, adding them into UB accumulators (float for half, exact int32
// for int32), then writes its rows' chunk with one strided copy. A core's
// coordinates are gathered into UB on the first chunk and written at the
// end.
#include "kernel_operator.h"
#include "../../../../common/rows.h"

using namespace npukb_answer;

namespace {

template <typename T>
class CoalesceSparse {
public:
    // int32 sums are exact in int32; half and float add in float.
    using A = typename std::conditional<IsSameType<T, int32_t>::value, int32_t, float>::type;
    static constexpr bool CAST = IsSameType<T, half>::value;

    __aicore__ inline void Init(GM_ADDR inv, GM_ADDR idx, GM_ADDR val, GM_ADDR nidx, GM_ADDR nval,
                                const CoalesceSparseTilingData& td)
    {
        nnz = td.nnz;
        k = td.k;
        d = td.d;
        const uint64_t per = CeilDiv(td.u, GetBlockNum());
        u0 = per * GetBlockIdx();
        rows = u0 < td.u ? static_cast<uint32_t>(td.u - u0 < per ? td.u - u0 : per) : 0;
        invGm.SetGlobalBuffer((__gm__ int64_t*)inv, nnz);
        idxGm.SetGlobalBuffer((__gm__ int64_t*)idx, nnz * k);
        valGm.SetGlobalBuffer((__gm__ T*)val, nnz * d);
        nidxGm.SetGlobalBuffer((__gm__ int64_t*)nidx, td.u * k);
        nvalGm.SetGlobalBuffer((__gm__ T*)nval, td.u * d);
        if (rows == 0) {
            return;
        }
        kp = static_cast<uint32_t>(AlignUp(k, 4));
        const uint32_t invBytes = static_cast<uint32_t>(AlignUp(nnz, 4) * sizeof(int64_t));
        const uint32_t idxBytes = rows * kp * sizeof(int64_t);
        const uint32_t fixed = invBytes + idxBytes;
        const uint32_t perCol = rows * sizeof(A) + 2 * sizeof(T) + (CAST ? sizeof(float) + rows * sizeof(T) : 0);
        uint32_t w = fixed < UB_BUDGET ? (UB_BUDGET - fixed) / perCol / 64 * 64 : 64;
        const uint32_t dp = static_cast<uint32_t>(AlignUp(d, 64));
        wp = w == 0 ? 64 : (w < dp ? w : dp);
        pipe.InitBuffer(invBuf, invBytes);
        pipe.InitBuffer(idxBuf, idxBytes);
        pipe.InitBuffer(inQue, 2, wp * sizeof(T));
        pipe.InitBuffer(accBuf, rows * wp * sizeof(A));
        if (CAST) {
            pipe.InitBuffer(castBuf, wp * sizeof(float));
            pipe.InitBuffer(outBuf, rows * wp * sizeof(T));
        }
    }

    __aicore__ inline void Process()
    {
        if (rows == 0) {
            return;
        }
        LocalTensor<int64_t> inv = invBuf.Get<int64_t>();
        CopyGmToUb(inv, invGm, static_cast<uint32_t>(nnz));
        SetFlag<HardEvent::MTE2_S>(0);
        WaitFlag<HardEvent::MTE2_S>(0);
        for (uint32_t c0 = 0; c0 < d; c0 += wp) {
            Chunk(c0, d - c0 < wp ? d - c0 : wp, c0 == 0);
        }
        // The coordinates were gathered by MTE2 on the first chunk.
        SetFlag<HardEvent::MTE2_MTE3>(0);
        WaitFlag<HardEvent::MTE2_MTE3>(0);
        CopyRowsOut(nidxGm[u0 * k], idxBuf.Get<int64_t>(), rows, k, kp);
    }

private:
    __aicore__ inline void Chunk(uint32_t c0, uint32_t w, bool first)
    {
        LocalTensor<int64_t> inv = invBuf.Get<int64_t>();
        LocalTensor<A> acc = accBuf.Get<A>();
        Duplicate(acc, static_cast<A>(0), static_cast<int32_t>(rows * wp));
        PipeBarrier<PIPE_V>();
        for (uint64_t i = 0; i < nnz; i++) {
            const int64_t u = inv.GetValue(i);
            if (u < static_cast<int64_t>(u0) || u >= static_cast<int64_t>(u0 + rows)) {
                continue;
            }
            const uint32_t r = static_cast<uint32_t>(u - static_cast<int64_t>(u0));
            if (first) {
                CopyGmToUb(idxBuf.Get<int64_t>()[r * kp], idxGm[i * k], k);
            }
            LocalTensor<T> in = inQue.template AllocTensor<T>();
            CopyGmToUb(in, valGm[i * d + c0], w);
            inQue.EnQue(in);
            in = inQue.template DeQue<T>();
            if constexpr (CAST) {
                LocalTensor<float> f = castBuf.Get<float>();
                Cast(f, in, RoundMode::CAST_NONE, w);
                PipeBarrier<PIPE_V>();
                Add(acc[r * wp], acc[r * wp], f, w);
            } else {
                Add(acc[r * wp], acc[r * wp], in, w);
            }
            PipeBarrier<PIPE_V>();
            inQue.FreeTensor(in);
        }
        LocalTensor<T> out;
        if constexpr (CAST) {
            out = outBuf.Get<T>();
            Cast(out, acc, RoundMode::CAST_RINT, rows * wp);
        } else {
            out = acc;
        }
        SetFlag<HardEvent::V_MTE3>(0);
        WaitFlag<HardEvent::V_MTE3>(0);
        constexpr uint32_t epb = 32 / sizeof(T);
        DataCopyExtParams p{static_cast<uint16_t>(rows), static_cast<uint32_t>(w * sizeof(T)),
                            static_cast<uint32_t>((wp - (w + epb - 1) / epb * epb) / epb),
                            static_cast<uint32_t>((d - w) * sizeof(T)), 0};
        DataCopyPad(nvalGm[u0 * d + c0], out, p);
        // The next chunk clears the accumulators the copy reads.
        SetFlag<HardEvent::MTE3_V>(0);
        WaitFlag<HardEvent::MTE3_V>(0);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQue;
    TBuf<QuePosition::VECCALC> invBuf, idxBuf, accBuf, castBuf, outBuf;
    GlobalTensor<int64_t> invGm, idxGm, nidxGm;
    GlobalTensor<T> valGm, nvalGm;
    uint64_t nnz = 0, u0 = 0;
    uint32_t k = 0, d = 0, kp = 4, wp = 64, rows = 0;
};

} // namespace

extern "C" __global__ __aicore__ void coalesce_sparse(GM_ADDR unique_len, GM_ADDR unique_indices, GM_ADDR indices,
                                                      GM_ADDR values, GM_ADDR new_indices, GM_ADDR new_value,
                                                      GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    CoalesceSparse<DTYPE_VALUES> op;
    op.Init(unique_indices, indices, values, new_indices, new_value, tilingData);
    op.Process();
}
