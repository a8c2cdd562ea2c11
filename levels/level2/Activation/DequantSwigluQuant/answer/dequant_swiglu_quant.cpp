// DequantSwigluQuant expert answer (kernel-only mode, Ascend 910B): x
// [N, 2h] (int32 dequantised with bias, weight_scale and activate_scale;
// half or bfloat16 as is), s = silu(a) * b or silu(b) * a of its halves,
// then int8 codes, static (per column quant_scale and quant_offset) or
// dynamic (per row maximum), in groups of consecutive rows that select the
// rows of weight_scale, quant_scale and quant_offset.
//
// The rows are dealt to the cores in contiguous ranges and streamed through
// UB in tiles of whole rows (double-buffered queues); one strided copy puts
// the a halves of a tile's rows in one block of rows and the b halves in
// another. A row's work runs in float with its group's parameters, which
// are reloaded only when the group changes (group_index is read on the
// scalar unit: the core finds the group of its first row, then follows).
#include "kernel_operator.h"
#include "../../../../common/quant.h"
#include "../../../../common/float_map.h"
#include "../../../../common/rows.h"

using namespace npukb_answer;

namespace {

template <typename T>
class DequantSwigluQuant {
public:
    static constexpr bool DEQ = IsSameType<T, int32_t>::value;
    static constexpr uint32_t MAX_ROWS = 64;

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR ws, GM_ADDR as, GM_ADDR bias, GM_ADDR qs, GM_ADDR qo,
                                GM_ADDR gi, GM_ADDR y, GM_ADDR scale, const DequantSwigluQuantTilingData& td)
    {
        h = td.h;
        hp = static_cast<uint32_t>(AlignUp(h, 64));
        left = td.activate_left != 0;
        dynamic = td.dynamic != 0;
        withBias = bias != nullptr;
        withAs = as != nullptr;
        withGroups = gi != nullptr;
        groups = td.groups;
        const uint64_t perCore = CeilDiv(td.rows, GetBlockNum());
        start = perCore * GetBlockIdx();
        rows = start < td.rows ? (td.rows - start < perCore ? td.rows - start : perCore) : 0;
        total = td.rows;
        xGm.SetGlobalBuffer((__gm__ T*)x, td.rows * 2 * h);
        yGm.SetGlobalBuffer((__gm__ int8_t*)y, td.rows * h);
        sGm.SetGlobalBuffer((__gm__ float*)scale, td.rows);
        wsGm.SetGlobalBuffer((__gm__ float*)ws, static_cast<uint64_t>(groups) * 2 * h);
        asGm.SetGlobalBuffer((__gm__ float*)as, td.rows);
        biasGm.SetGlobalBuffer((__gm__ T*)bias, 2 * h);
        qsGm.SetGlobalBuffer((__gm__ float*)qs, static_cast<uint64_t>(groups) * h);
        qoGm.SetGlobalBuffer((__gm__ float*)qo, static_cast<uint64_t>(groups) * h);
        giGm.SetGlobalBuffer((__gm__ int32_t*)gi, groups);

        // Fixed: bias, weight_scale (two rows each), quant_scale and
        // quant_offset rows, in float. Per row: the two halves in T
        // (double-buffered), the codes (double-buffered), three float rows.
        const uint32_t rowF = hp * sizeof(float);
        const uint32_t fixed = 6 * rowF + 2 * 64 * sizeof(float) + 2 * MAX_ROWS * sizeof(float);
        const uint32_t perRow = 2 * (2 * hp * sizeof(T) + hp) + 3 * rowF;
        uint32_t nr = fixed < UB_BUDGET ? (UB_BUDGET - fixed) / perRow : 1;
        nr = nr == 0 ? 1 : (nr < MAX_ROWS ? nr : MAX_ROWS);
        tileRows = static_cast<uint32_t>(rows == 0 ? 1 : (nr < rows ? nr : rows));
        pipe.InitBuffer(xQue, 2, 2 * tileRows * hp * sizeof(T));
        pipe.InitBuffer(yQue, 2, tileRows * hp);
        pipe.InitBuffer(sQue, 2, AlignUp(tileRows, 8) * sizeof(float));
        pipe.InitBuffer(fBuf, 3 * tileRows * rowF);
        pipe.InitBuffer(parBuf, 6 * rowF);
        pipe.InitBuffer(redBuf, 64 * sizeof(float));
        pipe.InitBuffer(workBuf, 64 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (rows == 0) {
            return;
        }
        if (DEQ && withBias) {
            LoadBias();
        }
        FindGroup(start);
        for (uint64_t r0 = 0; r0 < rows; r0 += tileRows) {
            const uint32_t nr = static_cast<uint32_t>(rows - r0 < tileRows ? rows - r0 : tileRows);
            CopyIn(start + r0, nr);
            Compute(start + r0, nr);
            CopyOut(start + r0, nr);
        }
    }

private:
    // Parameter rows: 0, 1 bias halves; 2, 3 weight_scale halves; 4
    // quant_scale; 5 quant_offset.
    __aicore__ inline LocalTensor<float> Par(uint32_t k) { return parBuf.Get<float>()[k * hp]; }

    __aicore__ inline void LoadBias()
    {
        LocalTensor<T> stage = parBuf.Get<T>();
        CopyRowsIn(stage, biasGm, 2, h, hp);
        SetFlag<HardEvent::MTE2_V>(0);
        WaitFlag<HardEvent::MTE2_V>(0);
        // In place: int32 and float have the same width.
        Cast(Par(0), stage, RoundMode::CAST_NONE, 2 * hp);
        PipeBarrier<PIPE_V>();
    }

    // The group of row r and the row its group ends at (group_index read
    // from GM on the scalar unit; without it one group of all rows).
    __aicore__ inline void FindGroup(uint64_t r)
    {
        group = 0;
        groupEnd = withGroups ? 0 : total;
        if (withGroups) {
            groupEnd = static_cast<uint64_t>(giGm.GetValue(0));
            while (groupEnd <= r && group + 1 < groups) {
                group++;
                groupEnd += static_cast<uint64_t>(giGm.GetValue(group));
            }
        }
        loaded = groups; // none loaded yet
    }

    // Makes the parameters those of row r's group (the groups are met in
    // order: empty ones are skipped).
    __aicore__ inline void Params(uint64_t r)
    {
        while (r >= groupEnd && group + 1 < groups) {
            group++;
            groupEnd += static_cast<uint64_t>(giGm.GetValue(group));
        }
        if (group == loaded) {
            return;
        }
        // The vector unit must be done with the old parameters.
        SetFlag<HardEvent::V_MTE2>(0);
        WaitFlag<HardEvent::V_MTE2>(0);
        if (DEQ) {
            CopyRowsIn(Par(2), wsGm[static_cast<uint64_t>(group) * 2 * h], 2, h, hp);
        }
        CopyGmToUb(Par(4), qsGm[static_cast<uint64_t>(group) * h], h);
        if (!dynamic) {
            CopyGmToUb(Par(5), qoGm[static_cast<uint64_t>(group) * h], h);
        }
        SetFlag<HardEvent::MTE2_V>(0);
        WaitFlag<HardEvent::MTE2_V>(0);
        loaded = group;
    }

    // Rows r0 .. r0 + nr - 1: their a halves at 0, their b halves at
    // nr * hp, rows hp apart.
    __aicore__ inline void CopyIn(uint64_t r0, uint32_t nr)
    {
        constexpr uint32_t epb = 32 / sizeof(T);
        const uint32_t gap = (hp - (h + epb - 1) / epb * epb) / epb;
        DataCopyExtParams p{static_cast<uint16_t>(nr), static_cast<uint32_t>(h * sizeof(T)),
                            static_cast<uint32_t>(h * sizeof(T)), gap, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        LocalTensor<T> x = xQue.template AllocTensor<T>();
        DataCopyPad(x, xGm[r0 * 2 * h], p, pad);
        DataCopyPad(x[tileRows * hp], xGm[r0 * 2 * h + h], p, pad);
        xQue.EnQue(x);
    }

    __aicore__ inline void Compute(uint64_t r0, uint32_t nr)
    {
        const uint32_t n = nr * hp;
        LocalTensor<T> x = xQue.template DeQue<T>();
        LocalTensor<float> f = fBuf.Get<float>();
        LocalTensor<float> a = f, b = f[tileRows * hp], t = f[2 * tileRows * hp];
        Cast(a, x, RoundMode::CAST_NONE, n);
        Cast(b, x[tileRows * hp], RoundMode::CAST_NONE, n);
        PipeBarrier<PIPE_V>();
        xQue.FreeTensor(x);
        LocalTensor<int8_t> y = yQue.template AllocTensor<int8_t>();
        LocalTensor<float> s = sQue.template AllocTensor<float>();
        if (!dynamic) {
            Duplicate(s, 1.0f, nr);
        } else {
            // The scalar unit writes the scales: the copy-out of this
            // buffer's last tile must be done.
            SetFlag<HardEvent::MTE3_S>(0);
            WaitFlag<HardEvent::MTE3_S>(0);
        }
        for (uint32_t i = 0; i < nr; i++) {
            const uint64_t r = r0 + i;
            LocalTensor<float> ai = a[i * hp], bi = b[i * hp], ti = t[i * hp];
            Params(r);
            if (DEQ) {
                Dequant(ai, bi, r);
            }
            // s = silu(act) * other, into a.
            if (left) {
                XSigmoid(ai, ai, ti, 1.0f, h);
            } else {
                XSigmoid(bi, bi, ti, 1.0f, h);
            }
            PipeBarrier<PIPE_V>();
            Mul(ai, ai, bi, h);
            PipeBarrier<PIPE_V>();
            if (dynamic) {
                Mul(ai, ai, Par(4), h);
                PipeBarrier<PIPE_V>();
                Abs(ti, ai, h);
                PipeBarrier<PIPE_V>();
                LocalTensor<float> red = redBuf.Get<float>();
                ReduceMax(red, ti, workBuf.Get<float>(), h);
                const float amax = red.GetValue(0);
                s.SetValue(i, amax / 127.0f);
                Muls(ai, ai, 127.0f / amax, h);
            } else {
                Div(ai, ai, Par(4), h);
                PipeBarrier<PIPE_V>();
                Add(ai, ai, Par(5), h);
            }
            PipeBarrier<PIPE_V>();
            QuantInt8(y[i * hp], ai, ti.template ReinterpretCast<half>(), h);
            PipeBarrier<PIPE_V>();
        }
        yQue.EnQue(y);
        sQue.EnQue(s);
    }

    // v = (x + bias) * weight_scale (* activate_scale[r]) on both halves.
    __aicore__ inline void Dequant(const LocalTensor<float>& ai, const LocalTensor<float>& bi, uint64_t r)
    {
        if (withBias) {
            Add(ai, ai, Par(0), h);
            Add(bi, bi, Par(1), h);
            PipeBarrier<PIPE_V>();
        }
        Mul(ai, ai, Par(2), h);
        Mul(bi, bi, Par(3), h);
        PipeBarrier<PIPE_V>();
        if (withAs) {
            const float k = asGm.GetValue(r);
            Muls(ai, ai, k, h);
            Muls(bi, bi, k, h);
            PipeBarrier<PIPE_V>();
        }
    }

    __aicore__ inline void CopyOut(uint64_t r0, uint32_t nr)
    {
        LocalTensor<int8_t> y = yQue.template DeQue<int8_t>();
        CopyRowsOut(yGm[r0 * h], y, nr, h, hp);
        yQue.FreeTensor(y);
        LocalTensor<float> s = sQue.template DeQue<float>();
        // The dynamic scales were written by the scalar unit.
        SetFlag<HardEvent::S_MTE3>(0);
        WaitFlag<HardEvent::S_MTE3>(0);
        CopyUbToGm(sGm[r0], s, nr);
        sQue.FreeTensor(s);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> xQue;
    TQue<QuePosition::VECOUT, 2> yQue, sQue;
    TBuf<QuePosition::VECCALC> fBuf, parBuf, redBuf, workBuf;
    GlobalTensor<T> xGm, biasGm;
    GlobalTensor<int8_t> yGm;
    GlobalTensor<float> sGm, wsGm, asGm, qsGm, qoGm;
    GlobalTensor<int32_t> giGm;
    uint64_t start = 0, rows = 0, total = 0, groupEnd = 0;
    uint32_t h = 0, hp = 0, tileRows = 1, groups = 1, group = 0, loaded = 0;
    bool left = false, dynamic = false, withBias = false, withAs = false, withGroups = false;
};

} // namespace

extern "C" __global__ __aicore__ void dequant_swiglu_quant(GM_ADDR x, GM_ADDR weight_scale, GM_ADDR activate_scale,
                                                           GM_ADDR bias, GM_ADDR quant_scale, GM_ADDR quant_offset,
                                                           GM_ADDR group_index, GM_ADDR y, GM_ADDR scale,
                                                           GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    DequantSwigluQuant<DTYPE_X> op;
    op.Init(x, weight_scale, activate_scale, bias, quant_scale, quant_offset, group_index, y, scale, tilingData);
    op.Process();
}
