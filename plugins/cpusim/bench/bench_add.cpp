// cpusim speed benchmark kernel: z = x + y in float (see run-speed.sh).
#include "kernel_operator.h"
#include "../../../levels/common/elementwise.h"

using namespace AscendC;
using namespace npukb_answer;

struct AddOp {
    using In = float;
    using Out = float;
    static constexpr int NIN = 2;
    static constexpr uint32_t TMP_BYTES_PER_ELEM = 0;
    __aicore__ inline void Compute(const LocalTensor<float>& z, const LocalTensor<float>* xy,
                                   const LocalTensor<uint8_t>&, uint32_t count)
    {
        Add(z, xy[0], xy[1], count);
    }
};

extern "C" __global__ __aicore__ void bench(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR n)
{
    AddOp op;
    GM_ADDR in[2] = {x, y};
    RunElementwise(op, in, z, *(__gm__ uint64_t*)n);
}
