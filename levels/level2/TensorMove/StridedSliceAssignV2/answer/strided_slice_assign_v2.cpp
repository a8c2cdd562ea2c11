// StridedSliceAssignV2 expert answer (kernel-only mode, Ascend 910B):
// var[slices] = input_value in place, the slices given by begin and strides
// along the listed axes (int64 tensors read once by the scalar unit).
//
// var and input_value are seen as three dimensions (leading ones of size 1
// for lower ranks). The rows of input_value (its last dimension) are dealt
// to the cores in contiguous ranges and streamed through UB in tiles of rows
// that share their first index, so that each tile lands in var as rows a
// fixed distance apart: one DataCopyPad in (dense) and one out (strided).
// A strided last axis (no case has one) is written element by element.
#include "kernel_operator.h"
#include "../../../../common/rows.h"

using namespace AscendC;
using namespace npukb_answer;

namespace {

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t TILE_BYTES = 40 * 1024;

template <typename T>
class SliceAssign {
public:
    __aicore__ inline void Init(GM_ADDR var, GM_ADDR value, GM_ADDR begin, GM_ADDR strides, GM_ADDR axes,
                                const StridedSliceAssignV2TilingData& t)
    {
        v[0] = t.v0;
        v[1] = t.v1;
        v[2] = t.v2;
        u[0] = t.u0;
        u[1] = t.u1;
        u[2] = t.u2;
        GlobalTensor<int64_t> bGm, sGm, aGm;
        bGm.SetGlobalBuffer((__gm__ int64_t*)begin, t.naxes);
        sGm.SetGlobalBuffer((__gm__ int64_t*)strides, t.naxes);
        aGm.SetGlobalBuffer((__gm__ int64_t*)axes, t.naxes);
        for (uint32_t i = 0; i < t.naxes; i++) {
            const int64_t k = aGm.GetValue(i) + 3 - static_cast<int64_t>(t.rank);
            if (k >= 0 && k < 3) {
                b[k] = static_cast<uint64_t>(bGm.GetValue(i));
                s[k] = static_cast<uint64_t>(sGm.GetValue(i));
            }
        }
        varGm.SetGlobalBuffer((__gm__ T*)var, v[0] * v[1] * v[2]);
        valGm.SetGlobalBuffer((__gm__ T*)value, u[0] * u[1] * u[2]);
        const uint64_t rows = u[0] * u[1];
        const uint64_t per = CeilDiv(rows, GetBlockNum());
        begin0 = per * GetBlockIdx();
        end0 = begin0 + per < rows ? begin0 + per : rows;
        slot = static_cast<uint32_t>(AlignUp(u[2] * sizeof(T), 32) / sizeof(T));
        maxRows = TILE_BYTES / (slot * sizeof(T));
        maxRows = maxRows < 4095 ? maxRows : 4095;
        pipe.InitBuffer(inQue, BUFFER_NUM, TILE_BYTES);
        pipe.InitBuffer(outQue, BUFFER_NUM, TILE_BYTES);
    }

    __aicore__ inline void Process()
    {
        if (u[2] == 0 || maxRows == 0) {
            return;
        }
        for (uint64_t r = begin0; r < end0;) {
            const uint64_t i0 = r / u[1], i1 = r % u[1];
            uint64_t n = u[1] - i1;
            n = n < end0 - r ? n : end0 - r;
            n = n < maxRows ? n : maxRows;
            const uint64_t to = ((b[0] + i0 * s[0]) * v[1] + b[1] + i1 * s[1]) * v[2] + b[2];
            if (s[2] == 1) {
                Tile(r * u[2], to, static_cast<uint32_t>(n));
            } else {
                Scatter(r * u[2], to, n);
            }
            r += n;
        }
    }

private:
    // n rows of input_value from element from, to var rows s1 * v2 apart.
    __aicore__ inline void Tile(uint64_t from, uint64_t to, uint32_t n)
    {
        const uint32_t w = static_cast<uint32_t>(u[2]);
        LocalTensor<T> in = inQue.template AllocTensor<T>();
        CopyRowsIn(in, valGm[from], n, w, slot);
        inQue.EnQue(in);
        in = inQue.template DeQue<T>();
        LocalTensor<T> out = outQue.template AllocTensor<T>();
        DataCopy(out.template ReinterpretCast<int32_t>(), in.template ReinterpretCast<int32_t>(),
                 n * slot * sizeof(T) / sizeof(int32_t));
        inQue.FreeTensor(in);
        outQue.EnQue(out);
        out = outQue.template DeQue<T>();
        DataCopyExtParams p{static_cast<uint16_t>(n), static_cast<uint32_t>(w * sizeof(T)), 0,
                            static_cast<uint32_t>((s[1] * v[2] - w) * sizeof(T)), 0};
        DataCopyPad(varGm[to], out, p);
        outQue.FreeTensor(out);
    }

    // A strided last axis: element by element on the scalar unit.
    __aicore__ inline void Scatter(uint64_t from, uint64_t to, uint64_t n)
    {
        for (uint64_t k = 0; k < n; k++) {
            for (uint64_t j = 0; j < u[2]; j++) {
                varGm.SetValue(to + k * s[1] * v[2] + j * s[2], valGm.GetValue(from + k * u[2] + j));
            }
        }
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQue;
    GlobalTensor<T> varGm, valGm;
    uint64_t v[3] = {1, 1, 1}, u[3] = {1, 1, 1}, b[3] = {0, 0, 0}, s[3] = {1, 1, 1};
    uint64_t begin0 = 0, end0 = 0, maxRows = 0;
    uint32_t slot = 0;
};

} // namespace

extern "C" __global__ __aicore__ void strided_slice_assign_v2(GM_ADDR var, GM_ADDR input_value, GM_ADDR begin,
                                                              GM_ADDR end, GM_ADDR strides, GM_ADDR axes,
                                                              GM_ADDR var_out, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    SliceAssign<DTYPE_VAR> op;
    op.Init(var, input_value, begin, strides, axes, tilingData);
    op.Process();
}
