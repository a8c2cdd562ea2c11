// ComplexMatDot expert answer: result = matx * maty element by element, in
// complex64 (kernel-only mode, Ascend 910B), on the shared element-wise
// skeleton (multi-core split, double-buffered tiles).
//
// A complex element is one 64-bit word; on its float view (re, im pairs):
//   (a + bi)(c + di) = (ac - bd) + (ad + bc)i
//   re: y * (1, -1, 1, -1 ...) = (c, -d); x * that = (ac, -bd); PairReduceSum
//   im: y with each pair swapped (Gather) = (d, c); x * that = (ad, bc); PairReduceSum
// and one more Gather interleaves the re and im results back into pairs.
// The sign pattern and both offset tables are built once per core.
#include "kernel_operator.h"
#include "../../../../common/elementwise.h"

using namespace AscendC;
using namespace npukb_answer;

struct ComplexMulOp {
    using In = uint64_t;
    using Out = uint64_t;
    static constexpr int NIN = 2;
    // per complex element: sign pattern, swap table, interleave table, two
    // products and the re|im results, 8 bytes each
    static constexpr uint32_t TMP_BYTES_PER_ELEM = 48;
    uint32_t capacity = 0; // elements of the first (largest) tile: the tables' size

    __aicore__ inline void Compute(const LocalTensor<uint64_t>& y, const LocalTensor<uint64_t>* x,
                                   const LocalTensor<uint8_t>& tmp, uint32_t count)
    {
        if (capacity == 0) {
            capacity = count;
            BuildTables(tmp);
        }
        const uint32_t cap = capacity;
        LocalTensor<float> sign = TmpAs<float>(tmp, 0);
        LocalTensor<uint32_t> swapOff = TmpAs<uint32_t>(tmp, cap * 8);
        LocalTensor<uint32_t> mergeOff = TmpAs<uint32_t>(tmp, cap * 16);
        LocalTensor<float> t = TmpAs<float>(tmp, cap * 24);
        LocalTensor<float> p = TmpAs<float>(tmp, cap * 32);
        LocalTensor<float> reim = TmpAs<float>(tmp, cap * 40); // re at 0, im at cap
        LocalTensor<float> a = x[0].ReinterpretCast<float>();
        LocalTensor<float> b = x[1].ReinterpretCast<float>();
        const uint32_t nf = 2 * count;

        Mul(t, b, sign, nf);
        PipeBarrier<PIPE_V>();
        Mul(p, a, t, nf);
        PipeBarrier<PIPE_V>();
        PairSums(reim, p, count);
        Gather(t, b, swapOff, 0, nf);
        PipeBarrier<PIPE_V>();
        Mul(p, a, t, nf);
        PipeBarrier<PIPE_V>();
        PairSums(reim[cap], p, count);
        PipeBarrier<PIPE_V>();
        Gather(y.ReinterpretCast<float>(), reim, mergeOff, 0, nf);
    }

private:
    // out[k] = in[2k] + in[2k+1] for k < count (64 floats a repeat, at most 255 a call)
    __aicore__ inline void PairSums(const LocalTensor<float>& out, const LocalTensor<float>& in, uint32_t count)
    {
        constexpr uint32_t PER_CALL = 32 * 255;
        for (uint32_t done = 0; done < count; done += PER_CALL) {
            const uint32_t n = count - done < PER_CALL ? count - done : PER_CALL;
            PairReduceSum<float>(out[done], in[2 * done], static_cast<int32_t>(CeilDiv(n, 32)), 64, 1, 1, 8);
        }
    }

    __aicore__ inline void BuildTables(const LocalTensor<uint8_t>& tmp)
    {
        const uint32_t cap = capacity;
        LocalTensor<float> sign = TmpAs<float>(tmp, 0);
        LocalTensor<uint32_t> swapOff = TmpAs<uint32_t>(tmp, cap * 8);
        LocalTensor<uint32_t> mergeOff = TmpAs<uint32_t>(tmp, cap * 16);
        for (uint32_t k = 0; k < cap; k++) {
            sign.SetValue(2 * k, 1.0f);
            sign.SetValue(2 * k + 1, -1.0f);
            swapOff.SetValue(2 * k, (2 * k + 1) * 4);
            swapOff.SetValue(2 * k + 1, 2 * k * 4);
            mergeOff.SetValue(2 * k, k * 4);
            mergeOff.SetValue(2 * k + 1, (cap + k) * 4);
        }
        PipeBarrier<PIPE_ALL>();
    }
};

extern "C" __global__ __aicore__ void complex_mat_dot(GM_ADDR matx, GM_ADDR maty, GM_ADDR result, GM_ADDR workspace,
                                                      GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    ComplexMulOp op;
    GM_ADDR in[2] = {matx, maty};
    RunElementwise(op, in, result, static_cast<uint64_t>(tilingData.m) * tilingData.n);
}
