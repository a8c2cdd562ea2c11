// ScatterList expert answer: for each tensor i of the list var whose mask is
// set, var[i][.., start:start+len, ..] = updates[i][.., 0:len, ..] along
// axis, with (start, len) = indice[i]; float16, in place (kernel-only mode,
// Ascend 910B).
//  - Viewing each tensor as [rows, axisDim, cols] (tiling), the update of
//    tensor i is `rows` contiguous blocks of len * cols elements. The
//    blocks, cut into pieces of at most PIECE elements, are the work items;
//    each core takes a contiguous range of them, so even a one-tensor list
//    keeps every core busy.
//  - A piece goes GM -> UB -> GM through a double-buffered queue (the next
//    piece's read overlaps this one's write), with DataCopyPad for any
//    length or destination offset that is not 32-byte aligned.
//  - varOut is var (the same list): the kernel writes through var.
#include "kernel_operator.h"
#include "../../../../common/elementwise.h"

using namespace AscendC;
using namespace npukb_answer;

namespace {

constexpr uint32_t PIECE = 16384;  // elements per piece (32 KiB of half)
constexpr uint32_t MAX_TENSORS = 64;

template <typename T>
class ScatterListKernel {
public:
    __aicore__ inline void Init(GM_ADDR var, GM_ADDR indice, GM_ADDR updates, GM_ADDR mask,
                                const ScatterListTilingData& t)
    {
        list.Init(var);
        num = t.tensorNum < MAX_TENSORS ? t.tensorNum : MAX_TENSORS;
        rows = t.rows;
        axisDim = t.axisDim;
        cols = t.cols;
        indiceGm.SetGlobalBuffer((__gm__ int64_t*)indice, 2 * num);
        maskGm.SetGlobalBuffer((__gm__ uint8_t*)mask, num);
        updGm.SetGlobalBuffer((__gm__ T*)updates, static_cast<uint64_t>(num) * rows * axisDim * cols);
        // Work items before tensor i: tensors without mask contribute none.
        items = 0;
        for (uint32_t i = 0; i < num; i++) {
            firstItem[i] = items;
            start[i] = indiceGm.GetValue(2 * i);
            len[i] = indiceGm.GetValue(2 * i + 1);
            pieces[i] = maskGm.GetValue(i) != 0 && len[i] > 0 ? CeilDiv(len[i] * cols, PIECE) : 0;
            items += pieces[i] * rows;
        }
        pipe.InitBuffer(queue, 2, PIECE * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        const uint64_t perCore = CeilDiv(items, GetBlockNum());
        const uint64_t first = perCore * GetBlockIdx();
        const uint64_t last = first + perCore < items ? first + perCore : items;
        uint32_t i = 0;
        for (uint64_t w = first; w < last; w++) {
            while (w >= firstItem[i] + pieces[i] * rows) {
                i++;
            }
            const uint64_t k = w - firstItem[i];
            const uint64_t r = k / pieces[i];
            const uint64_t p = k - r * pieces[i];
            const uint64_t blockLen = len[i] * cols;
            const uint64_t off = p * PIECE;
            const uint32_t n = static_cast<uint32_t>(blockLen - off < PIECE ? blockLen - off : PIECE);
            // Source: updates[i][r, 0, 0] + off; destination: var[i][r, start, 0] + off.
            const uint64_t src = (static_cast<uint64_t>(i) * rows + r) * axisDim * cols + off;
            const uint64_t dst = (r * axisDim + start[i]) * cols + off;
            GlobalTensor<T> varGm;
            varGm.SetGlobalBuffer(list.GetDataPtr<T>(i), static_cast<uint64_t>(rows) * axisDim * cols);
            LocalTensor<T> buf = queue.AllocTensor<T>();
            CopyGmToUb(buf, updGm[src], n);
            queue.EnQue(buf);
            buf = queue.DeQue<T>();
            if (dst % (32 / sizeof(T)) == 0) {
                CopyUbToGm(varGm[dst], buf, n);
            } else {
                DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
                DataCopyPad(varGm[dst], buf, cp);
            }
            queue.FreeTensor(buf);
        }
    }

private:
    TPipe pipe;
    TQueBind<QuePosition::VECIN, QuePosition::VECOUT, 2> queue;
    ListTensorDesc list;
    GlobalTensor<int64_t> indiceGm;
    GlobalTensor<uint8_t> maskGm;
    GlobalTensor<T> updGm;
    uint32_t num = 0, rows = 0, axisDim = 0, cols = 0;
    uint64_t items = 0;
    uint64_t firstItem[MAX_TENSORS];
    uint64_t start[MAX_TENSORS], len[MAX_TENSORS], pieces[MAX_TENSORS];
};

} // namespace

extern "C" __global__ __aicore__ void scatter_list(GM_ADDR var, GM_ADDR indice, GM_ADDR updates, GM_ADDR mask,
                                                   GM_ADDR varOut, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    ScatterListKernel<DTYPE_VAR> op;
    op.Init(var, indice, updates, mask, tilingData);
    op.Process();
}
