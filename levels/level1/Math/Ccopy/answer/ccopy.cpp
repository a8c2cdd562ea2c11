// Ccopy expert answer: y[i] = x[i * incx] for i < n, complex64 (BLAS ccopy;
// kernel-only mode, Ascend 910B).
// incx = 1 (every published case) is a contiguous copy: the elements are
// dealt to the cores on 32-byte boundaries and streamed GM -> UB -> GM in
// double-buffered tiles; no vector instruction touches the data (the bits
// are copied, NaN payloads included). The UB buffers are bound VECIN to
// VECOUT, so the hand-off orders the copy-out after the copy-in. A stride
// (no published case has one) reads each element through the scalar unit.
#include "kernel_operator.h"
#include "../../../../common/elementwise.h"

using namespace AscendC;
using namespace npukb_answer;

constexpr uint32_t TILE = 8192; // complex elements: 64 KiB a buffer

class KernelCcopy {
public:
    __aicore__ inline bool Init(GM_ADDR x, GM_ADDR y, uint32_t n, uint32_t incx)
    {
        constexpr uint32_t unit = 4; // complex elements in 32 bytes
        const uint64_t perCore = CeilDiv(CeilDiv(n, unit), GetBlockNum()) * unit;
        const uint64_t start = perCore * GetBlockIdx();
        if (start >= n) {
            return false;
        }
        stride = incx == 0 ? 1 : incx;
        length = n - start < perCore ? n - start : perCore;
        xGm.SetGlobalBuffer((__gm__ uint64_t*)x + start * stride, (length - 1) * stride + 1);
        yGm.SetGlobalBuffer((__gm__ uint64_t*)y + start, length);
        tile = static_cast<uint32_t>(length < TILE ? AlignUp(length, unit) : TILE);
        pipe.InitBuffer(queue, BUFFER_NUM, tile * sizeof(uint64_t));
        return true;
    }

    __aicore__ inline void Process()
    {
        for (uint64_t off = 0; off < length; off += tile) {
            const uint32_t n = static_cast<uint32_t>(length - off < tile ? length - off : tile);
            LocalTensor<uint64_t> buf = queue.AllocTensor<uint64_t>();
            if (stride == 1) {
                CopyGmToUb(buf, xGm[off], n);
            } else {
                Gathered(buf, off, n);
            }
            queue.EnQue(buf);
            buf = queue.DeQue<uint64_t>();
            CopyUbToGm(yGm[off], buf, n);
            queue.FreeTensor(buf);
        }
    }

private:
    __aicore__ inline void Gathered(const LocalTensor<uint64_t>& buf, uint64_t off, uint32_t n)
    {
        for (uint32_t i = 0; i < n; i++) {
            buf.SetValue(i, xGm.GetValue((off + i) * stride));
        }
    }

    TPipe pipe;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, BUFFER_NUM> queue;
    GlobalTensor<uint64_t> xGm;
    GlobalTensor<uint64_t> yGm;
    uint64_t length = 0;
    uint32_t stride = 1;
    uint32_t tile = 0;
};

extern "C" __global__ __aicore__ void ccopy(GM_ADDR x, GM_ADDR y, GM_ADDR workSpace, GM_ADDR tilingGm)
{
    GET_TILING_DATA(tilingData, tilingGm);
    KernelCcopy op;
    if (op.Init(x, y, tilingData.n, tilingData.incx)) {
        op.Process();
    }
}
