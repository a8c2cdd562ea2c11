// MaskedSelectV3 expert answer (kernel-only mode, Ascend 910B): y = the
// elements of x where mask is true, in order; shapeout = (1, count), the
// rank and dimensions of y (its real shape: the kernel computes it).
//
// The n elements are dealt to the cores in contiguous ranges of whole
// 128-element units. Pass 1: each core counts the true bytes of its mask
// range (Cast to half, CompareScalar to a bit pattern, GatherMask's count)
// and posts the count to the workspace; SyncAll. Pass 2: each core sums the
// counts of the cores before it, which is where its output starts, and
// streams its range again: the selected elements of each tile are packed
// by GatherMask with the same pattern and written with one DataCopyPad
// (byte-exact in GM). x and mask tiles are double-buffered; the last core
// writes shapeout.
#include "kernel_operator.h"

using namespace AscendC;

namespace {

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t UNIT = 128;  // CompareScalar on half: 256-byte multiples
constexpr uint32_t TILE = 8192; // elements per tile
constexpr uint32_t SLOT = 8;    // int32 words per core's count (32 bytes)

template <typename T>
class MaskedSelect {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR mask, GM_ADDR y, GM_ADDR shapeout, GM_ADDR workspace, uint64_t n)
    {
        total = n;
        const uint64_t units = (n + UNIT - 1) / UNIT;
        const uint64_t per = (units + GetBlockNum() - 1) / GetBlockNum() * UNIT;
        start = per * GetBlockIdx();
        len = start < n ? (n - start < per ? n - start : per) : 0;
        xGm.SetGlobalBuffer((__gm__ T*)x, n);
        maskGm.SetGlobalBuffer((__gm__ uint8_t*)mask, n);
        yGm.SetGlobalBuffer((__gm__ T*)y, n);
        shapeGm.SetGlobalBuffer((__gm__ int64_t*)shapeout, 2);
        countGm.SetGlobalBuffer((__gm__ int32_t*)GetUserWorkspace(workspace), GetBlockNum() * SLOT);
        pipe.InitBuffer(xQue, BUFFER_NUM, TILE * sizeof(T));
        pipe.InitBuffer(maskQue, BUFFER_NUM, TILE);
        pipe.InitBuffer(yQue, BUFFER_NUM, TILE * sizeof(T));
        pipe.InitBuffer(halfBuf, TILE * sizeof(half));
        pipe.InitBuffer(bitsBuf, TILE / 8);
        pipe.InitBuffer(countBuf, GetBlockNum() * SLOT * sizeof(int32_t));
    }

    __aicore__ inline void Process()
    {
        PostCount(CountSelected());
        SyncAll();
        uint64_t at = 0, all = 0;
        ReadCounts(at, all);
        for (uint64_t off = 0; off < len; off += TILE) {
            const uint32_t cnt = static_cast<uint32_t>(len - off < TILE ? len - off : TILE);
            LocalTensor<T> xl = xQue.template AllocTensor<T>();
            CopyIn(xl, xGm[start + off], cnt);
            xQue.EnQue(xl);
            LoadMask(off, cnt);
            const uint64_t got = Select(cnt);
            LocalTensor<T> yl = yQue.template DeQue<T>();
            if (got > 0) {
                DataCopyExtParams p{1, static_cast<uint32_t>(got * sizeof(T)), 0, 0, 0};
                DataCopyPad(yGm[at], yl, p);
            }
            yQue.FreeTensor(yl);
            at += got;
        }
        if (GetBlockIdx() == GetBlockNum() - 1) {
            shapeGm.SetValue(0, 1);
            shapeGm.SetValue(1, static_cast<int64_t>(all));
        }
    }

private:
    template <typename U>
    __aicore__ inline void CopyIn(const LocalTensor<U>& dst, const GlobalTensor<U>& src, uint32_t cnt)
    {
        DataCopyExtParams p{1, static_cast<uint32_t>(cnt * sizeof(U)), 0, 0, 0};
        DataCopyPadExtParams<U> pad{false, 0, 0, 0};
        DataCopyPad(dst, src, p, pad);
    }

    __aicore__ inline void LoadMask(uint64_t off, uint32_t cnt)
    {
        LocalTensor<uint8_t> m = maskQue.template AllocTensor<uint8_t>();
        CopyIn(m, maskGm[start + off], cnt);
        maskQue.EnQue(m);
    }

    // The bit pattern of the dequeued mask tile: bit i set when byte i is not 0.
    __aicore__ inline LocalTensor<uint16_t> Pattern(uint32_t cnt)
    {
        const uint32_t lanes = (cnt + UNIT - 1) / UNIT * UNIT;
        LocalTensor<uint8_t> m = maskQue.template DeQue<uint8_t>();
        LocalTensor<half> h = halfBuf.Get<half>();
        LocalTensor<uint8_t> bits = bitsBuf.Get<uint8_t>();
        Cast(h, m, RoundMode::CAST_NONE, lanes);
        PipeBarrier<PIPE_V>();
        CompareScalar(bits, h, static_cast<half>(0), CMPMODE::NE, lanes);
        PipeBarrier<PIPE_V>();
        maskQue.FreeTensor(m);
        return bits.ReinterpretCast<uint16_t>();
    }

    __aicore__ inline uint64_t CountSelected()
    {
        uint64_t count = 0;
        for (uint64_t off = 0; off < len; off += TILE) {
            const uint32_t cnt = static_cast<uint32_t>(len - off < TILE ? len - off : TILE);
            LoadMask(off, cnt);
            LocalTensor<uint16_t> bits = Pattern(cnt);
            // Packs the mask's own halves: only the count is wanted.
            LocalTensor<half> h = halfBuf.Get<half>();
            uint64_t got = 0;
            GatherMask(h, h, bits, true, cnt, {1, 1, 8, 1}, got);
            PipeBarrier<PIPE_V>();
            count += got;
        }
        return count;
    }

    __aicore__ inline void PostCount(uint64_t count)
    {
        LocalTensor<int32_t> c = countBuf.Get<int32_t>();
        Duplicate(c, 0, static_cast<int32_t>(SLOT));
        SetFlag<HardEvent::V_S>(0);
        WaitFlag<HardEvent::V_S>(0);
        c.SetValue(0, static_cast<int32_t>(count));
        SetFlag<HardEvent::S_MTE3>(0);
        WaitFlag<HardEvent::S_MTE3>(0);
        DataCopy(countGm[GetBlockIdx() * SLOT], c, SLOT);
    }

    // at: the elements the cores before this one select; all: every core's.
    __aicore__ inline void ReadCounts(uint64_t& at, uint64_t& all)
    {
        LocalTensor<int32_t> c = countBuf.Get<int32_t>();
        // The post above read this buffer.
        SetFlag<HardEvent::MTE3_MTE2>(0);
        WaitFlag<HardEvent::MTE3_MTE2>(0);
        DataCopy(c, countGm, GetBlockNum() * SLOT);
        SetFlag<HardEvent::MTE2_S>(0);
        WaitFlag<HardEvent::MTE2_S>(0);
        for (uint32_t b = 0; b < GetBlockNum(); b++) {
            const uint64_t v = static_cast<uint64_t>(c.GetValue(b * SLOT));
            at += b < GetBlockIdx() ? v : 0;
            all += v;
        }
    }

    __aicore__ inline uint64_t Select(uint32_t cnt)
    {
        LocalTensor<uint16_t> bits = Pattern(cnt);
        LocalTensor<T> xl = xQue.template DeQue<T>();
        LocalTensor<T> yl = yQue.template AllocTensor<T>();
        uint64_t got = 0;
        GatherMask(yl, xl, bits, true, cnt, {1, 1, 8, 1}, got);
        yQue.EnQue(yl);
        xQue.FreeTensor(xl);
        return got;
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> xQue, maskQue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> yQue;
    TBuf<QuePosition::VECCALC> halfBuf, bitsBuf, countBuf;
    GlobalTensor<T> xGm, yGm;
    GlobalTensor<uint8_t> maskGm;
    GlobalTensor<int64_t> shapeGm;
    GlobalTensor<int32_t> countGm;
    uint64_t total = 0, start = 0, len = 0;
};

} // namespace

extern "C" __global__ __aicore__ void masked_select_v3(GM_ADDR x, GM_ADDR mask, GM_ADDR y, GM_ADDR shapeout,
                                                       GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    MaskedSelect<DTYPE_X> op;
    op.Init(x, mask, y, shapeout, workspace, tilingData.totalLength);
    op.Process();
}
