// Test sample (host+device): each block writes one bool (a byte, 0 or 1)
// per element of its share of x.
#include "kernel_operator.h"

using namespace AscendC;

// The device build says which dtype x has, as CANN's op build does.
#if ORIG_DTYPE_X == DT_FLOAT16
static_assert(std::is_same<DTYPE_X, half>::value, "ORIG_DTYPE_X");
#elif ORIG_DTYPE_X == DT_BF16
static_assert(std::is_same<DTYPE_X, bfloat16_t>::value, "ORIG_DTYPE_X");
#elif ORIG_DTYPE_X == DT_FLOAT
static_assert(std::is_same<DTYPE_X, float>::value, "ORIG_DTYPE_X");
#else
#error "no ORIG_DTYPE_X"
#endif

extern "C" __global__ __aicore__ void is_finite(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    const uint64_t begin = GetBlockIdx() * td.perBlock;
    const uint64_t end = begin + td.perBlock < td.total ? begin + td.perBlock : td.total;
    GlobalTensor<DTYPE_X> xg;
    GlobalTensor<uint8_t> yg;
    xg.SetGlobalBuffer((__gm__ DTYPE_X *)x, td.total);
    yg.SetGlobalBuffer((__gm__ uint8_t *)y, td.total);
    for (uint64_t i = begin; i < end; i++) {
        const float v = static_cast<float>(xg.GetValue(i));
        yg.SetValue(i, static_cast<uint8_t>(v - v == 0.0f ? 1 : 0));
    }
}
