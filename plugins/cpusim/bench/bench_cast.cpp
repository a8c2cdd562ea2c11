// cpusim speed benchmark kernel: y = (half)x, round to nearest even (see run-speed.sh).
#include "kernel_operator.h"
#include "../../../levels/common/elementwise.h"

using namespace AscendC;
using namespace npukb_answer;

struct CastOp {
    using In = float;
    using Out = half;
    static constexpr int NIN = 1;
    static constexpr uint32_t TMP_BYTES_PER_ELEM = 0;
    __aicore__ inline void Compute(const LocalTensor<half>& y, const LocalTensor<float>* x,
                                   const LocalTensor<uint8_t>&, uint32_t count)
    {
        Cast(y, x[0], RoundMode::CAST_RINT, count);
    }
};

extern "C" __global__ __aicore__ void bench(GM_ADDR x, GM_ADDR y, GM_ADDR n)
{
    CastOp op;
    GM_ADDR in[1] = {x};
    RunElementwise(op, in, y, *(__gm__ uint64_t*)n);
}
