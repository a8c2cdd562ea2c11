// Fill expert answer: every element of y is value[0], for bfloat16, bool,
// float16, float32, int32, int64 and int8 (kernel-only mode, Ascend 910B).
// The output is a constant, so each core fills one UB tile once and copies
// it out over its range as many times as needed: no input streaming, and
// the copies are the only per-element cost. The tile is filled by the
// vector unit (Duplicate of a 16- or 32-bit pattern: two bytes for 8-bit
// types), or for int64, by the scalar unit writing one 32-byte block that
// UB-to-UB copies then double. Core ranges start on 32-byte boundaries;
// the last copy of a range moves with DataCopyPad.
#include "kernel_operator.h"
#include "../../../../common/elementwise.h"

using namespace AscendC;
using namespace npukb_answer;

constexpr uint32_t TILE_BYTES = 32 * 1024;

template <typename T>
class KernelFill {
public:
    __aicore__ inline bool Init(GM_ADDR value, GM_ADDR y, uint64_t total)
    {
        constexpr uint32_t unit = 32 / sizeof(T);
        const uint64_t perCore = CeilDiv(CeilDiv(total, unit), GetBlockNum()) * unit;
        const uint64_t start = perCore * GetBlockIdx();
        if (start >= total) {
            return false;
        }
        length = total - start < perCore ? total - start : perCore;
        GlobalTensor<T> v;
        v.SetGlobalBuffer((__gm__ T*)value, 1);
        fillValue = v.GetValue(0);
        yGm.SetGlobalBuffer((__gm__ T*)y + start, length);
        const uint64_t need = AlignUp(length * sizeof(T), 256);
        tileBytes = static_cast<uint32_t>(need < TILE_BYTES ? need : TILE_BYTES);
        pipe.InitBuffer(tileBuf, tileBytes);
        return true;
    }

    __aicore__ inline void Process()
    {
        LocalTensor<T> tile = tileBuf.Get<T>();
        FillTile(tile);
        PipeBarrier<PIPE_ALL>();
        const uint32_t tileElems = tileBytes / sizeof(T);
        for (uint64_t off = 0; off < length; off += tileElems) {
            const uint32_t n = static_cast<uint32_t>(length - off < tileElems ? length - off : tileElems);
            CopyUbToGm(yGm[off], tile, n);
        }
    }

private:
    __aicore__ inline void FillTile(const LocalTensor<T>& tile)
    {
        if constexpr (sizeof(T) == 1) {
            const uint16_t b = static_cast<uint8_t>(fillValue);
            Duplicate(tile.template ReinterpretCast<uint16_t>(), static_cast<uint16_t>(b | (b << 8)),
                      tileBytes / 2);
        } else if constexpr (sizeof(T) == 8) {
            for (uint32_t i = 0; i < 32 / sizeof(T); i++) {
                tile.SetValue(i, fillValue);
            }
            PipeBarrier<PIPE_ALL>();
            for (uint32_t have = 32; have < tileBytes; have *= 2) {
                const uint32_t n = have < tileBytes - have ? have : tileBytes - have;
                DataCopy(tile[have / sizeof(T)], tile, n / sizeof(T));
                PipeBarrier<PIPE_ALL>();
            }
        } else {
            Duplicate(tile, fillValue, tileBytes / sizeof(T));
        }
    }

    TPipe pipe;
    TBuf<QuePosition::VECCALC> tileBuf;
    GlobalTensor<T> yGm;
    T fillValue;
    uint64_t length = 0;
    uint32_t tileBytes = 0;
};

// dims repeats y's shape; the tiling already gives its element count.
extern "C" __global__ __aicore__ void fill(GM_ADDR dims, GM_ADDR value, GM_ADDR y, GM_ADDR workspace,
                                           GM_ADDR tiling)
{
    (void)dims;
    GET_TILING_DATA(tilingData, tiling);
    // bool travels as its byte
    using T = typename std::conditional<IsSameType<DTYPE_Y, bool>::value, uint8_t, DTYPE_Y>::type;
    KernelFill<T> op;
    if (op.Init(value, y, tilingData.totalLength)) {
        op.Process();
    }
}
