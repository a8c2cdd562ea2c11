// hostile sample: template_bomb (expected: compile-timeout)
#include "kernel_operator.h"
template <int N> struct T { static constexpr long v = T<N - 1>::v + T<N - 2>::v + T<N - 3>::v; };
template <> struct T<0> { static constexpr long v = 1; };
template <> struct T<1> { static constexpr long v = 1; };
template <> struct T<2> { static constexpr long v = 1; };
template <int N> struct W { using type = typename W<N - 1>::type; char pad[T<N % 30>::v % 7 + 1]; };
template <> struct W<0> { using type = int; };
static W<100000>::type bomb_value;

using namespace AscendC;

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    const uint32_t n = td.totalLength;
    GlobalTensor<half> gx, gy, gz;
    gx.SetGlobalBuffer((__gm__ half *)x, n);
    gy.SetGlobalBuffer((__gm__ half *)y, n);
    gz.SetGlobalBuffer((__gm__ half *)z, n);
    if (GetBlockIdx() != 0) {
        return;
    }
    
    for (uint32_t i = 0; i < n; i++) {
        gz.SetValue(i, gx.GetValue(i) + gy.GetValue(i));
    }
    
}
