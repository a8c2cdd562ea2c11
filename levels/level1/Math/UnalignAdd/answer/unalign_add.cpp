// UnalignAdd expert answer: z = x + y in float16 for lengths that are not
// multiples of 32 bytes (kernel-only mode, Ascend 910B). The shared
// element-wise skeleton splits the tensor over the cores on 32-byte
// boundaries and moves each core's unaligned tail with DataCopyPad, so no
// core reads or writes past its range.
#include "kernel_operator.h"
#include "../../../../common/elementwise.h"

using namespace AscendC;
using namespace npukb_answer;

struct AddOp {
    using In = half;
    using Out = half;
    static constexpr int NIN = 2;
    static constexpr uint32_t TMP_BYTES_PER_ELEM = 0;

    __aicore__ inline void Compute(const LocalTensor<half>& z, const LocalTensor<half>* xy,
                                   const LocalTensor<uint8_t>& tmp, uint32_t count)
    {
        Add(z, xy[0], xy[1], count);
    }
};

extern "C" __global__ __aicore__ void unalign_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,
                                                  GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    AddOp op;
    GM_ADDR inputs[2] = {x, y};
    RunElementwise(op, inputs, z, tilingData.totalLength);
}
