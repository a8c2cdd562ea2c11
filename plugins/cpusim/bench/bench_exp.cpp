// cpusim speed benchmark kernel: y = exp(x) in float (see run-speed.sh).
#include "kernel_operator.h"
#include "../../../levels/common/elementwise.h"

using namespace AscendC;
using namespace npukb_answer;

struct ExpOp {
    using In = float;
    using Out = float;
    static constexpr int NIN = 1;
    static constexpr uint32_t TMP_BYTES_PER_ELEM = 0;
    __aicore__ inline void Compute(const LocalTensor<float>& y, const LocalTensor<float>* x,
                                   const LocalTensor<uint8_t>&, uint32_t count)
    {
        Exp(y, x[0], count);
    }
};

extern "C" __global__ __aicore__ void bench(GM_ADDR x, GM_ADDR y, GM_ADDR n)
{
    ExpOp op;
    GM_ADDR in[1] = {x};
    RunElementwise(op, in, y, *(__gm__ uint64_t*)n);
}
