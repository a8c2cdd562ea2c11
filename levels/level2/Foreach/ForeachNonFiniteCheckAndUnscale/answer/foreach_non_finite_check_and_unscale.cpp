// ForeachNonFiniteCheckAndUnscale expert answer: every member of
// scaled_grads is multiplied by inv_scale in place, and found_inf becomes
// 1.0 when any element was +-inf or NaN, 0.0 otherwise (kernel-only mode,
// Ascend 910B). The list walk is levels/common/foreach.h (the list is both
// the input and the output); this file is the function of one tile, which
// also keeps the core's flag.
//  - x - x is 0 exactly for finite x (NaN otherwise); a compare and a
//    select turn that into 0.0 / 1.0 and a ReduceMax folds the tile.
//  - Core 0 clears the flag before a SyncAll; afterwards a core that found
//    something writes 1.0 (every writer writes the same value).
#include "kernel_operator.h"
#include "../../../../common/foreach.h"

using namespace AscendC;
using namespace npukb_answer;

struct UnscaleFn {
    static constexpr int NLIST = 1;
    static constexpr uint32_t SCRATCH = 3;
    bool found = false;

    template <typename C>
    __aicore__ inline void Apply(const LocalTensor<C>& y, const LocalTensor<C>* x, const LocalTensor<C>* s, C v,
                                 uint32_t n)
    {
        LocalTensor<uint8_t> mask = s[1].template ReinterpretCast<uint8_t>();
        Sub(s[0], x[0], x[0], n);
        PipeBarrier<PIPE_V>();
        CompareScalar(mask, s[0], (C)0, CMPMODE::EQ, n);
        PipeBarrier<PIPE_V>();
        Select(s[0], mask, s[0], (C)1, SELMODE::VSEL_TENSOR_SCALAR_MODE, n);
        if (v == (C)0) {
            Duplicate(y, (C)0, n);
        } else {
            Muls(y, x[0], v, n);
        }
        PipeBarrier<PIPE_V>();
        ReduceMax(s[0], s[0], s[2], n, false);
        PipeBarrier<PIPE_ALL>();
        if (s[0].GetValue(0) != (C)0) {
            found = true;
        }
    }
};

extern "C" __global__ __aicore__ void foreach_non_finite_check_and_unscale(GM_ADDR scaled_grads, GM_ADDR found_inf,
                                                                           GM_ADDR inv_scale, GM_ADDR workspace,
                                                                           GM_ADDR tiling)
{
    GlobalTensor<float> flag;
    flag.SetGlobalBuffer((__gm__ float*)found_inf, 1);
    if (GetBlockIdx() == 0) {
        flag.SetValue(0, 0.0f);
    }
    SyncAll();
    UnscaleFn f;
    GM_ADDR lists[1] = {scaled_grads};
    RunForeach<DTYPE_SCALED_GRADS, UnscaleFn, ForeachScalar::ONE, float>(f, lists, scaled_grads, inv_scale);
    if (f.found) {
        flag.SetValue(0, 1.0f);
    }
}
