// ForeachRoundOffNumber expert answer: y[m] = x[m] rounded as roundMode says,
// for every member m of the tensor lists (kernel-only mode, Ascend 910B). The
// list walk (each member split over all cores, tiled to the UB, double-
// buffered, tails by DataCopyPad; half and bfloat16 computed in float and
// rounded once) is levels/common/foreach.h; this file is the function of one
// tile.
#include "kernel_operator.h"
#include "../../../../common/foreach.h"

using namespace AscendC;
using namespace npukb_answer;

// Nearest with ties to odd: where x is halfway (|x - trunc(x)| == 0.5),
// rint chose the even neighbour, and the odd one is 2x - rint(x).
__aicore__ inline void RoundTiesToOdd(const LocalTensor<float>& y, const LocalTensor<float>& x,
                                      const LocalTensor<float>* s, uint32_t n)
{
    Cast(y, x, RoundMode::CAST_RINT, n);
    Cast(s[0], x, RoundMode::CAST_TRUNC, n);
    PipeBarrier<PIPE_V>();
    Sub(s[0], x, s[0], n);
    Muls(s[1], x, 2.0f, n);
    PipeBarrier<PIPE_V>();
    Abs(s[0], s[0], n);
    Sub(s[1], s[1], y, n);
    PipeBarrier<PIPE_V>();
    LocalTensor<uint8_t> mask = s[2].ReinterpretCast<uint8_t>();
    CompareScalar(mask, s[0], 0.5f, CMPMODE::EQ, n);
    PipeBarrier<PIPE_V>();
    Select(y, mask, s[1], y, SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
}

struct RoundOffNumberFn {
    static constexpr int NLIST = 1;
    static constexpr uint32_t SCRATCH = 3;

    template <typename C>
    __aicore__ static inline void Apply(const LocalTensor<C>& y, const LocalTensor<C>* x, const LocalTensor<C>* s,
                                        C v, uint32_t n)
    {
        if (v == (C)1) {
            Cast(y, x[0], RoundMode::CAST_RINT, n);
        } else if (v == (C)2) {
            Cast(y, x[0], RoundMode::CAST_FLOOR, n);
        } else if (v == (C)3) {
            Cast(y, x[0], RoundMode::CAST_CEIL, n);
        } else if (v == (C)4) {
            Cast(y, x[0], RoundMode::CAST_ROUND, n);
        } else if (v == (C)5) {
            Cast(y, x[0], RoundMode::CAST_TRUNC, n);
        } else if (v == (C)6) {
            RoundTiesToOdd(y, x[0], s, n);
        } else if (v == (C)7) {
            Cast(s[0], x[0], RoundMode::CAST_TRUNC, n);
            PipeBarrier<PIPE_V>();
            Sub(y, x[0], s[0], n);
        } else {
            Muls(y, x[0], (C)1, n);
        }
    }
};

extern "C" __global__ __aicore__ void foreach_round_off_number(GM_ADDR x, GM_ADDR roundMode,
                                                               GM_ADDR y, GM_ADDR workspace,
                                                               GM_ADDR tiling)
{
    GM_ADDR lists[1] = {x};
    RunForeach<DTYPE_X, RoundOffNumberFn, ForeachScalar::ONE, DTYPE_ROUNDMODE>(lists, y, roundMode);
}
