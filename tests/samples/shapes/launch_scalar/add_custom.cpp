/* The kernel of a kernel-launch project (the layout of launch_project:
 * an extern "C" kernel its host program launches with <<<>>>) that takes
 * its length as a scalar passed by value, as a <<<>>> launch can pass any
 * host value. Our own code. */
#include "kernel_operator.h"

constexpr uint32_t TILE = 1024;

class ScalarAdd {
public:
    __aicore__ inline ScalarAdd() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength)
    {
        span = totalLength / AscendC::GetBlockNum();
        const uint32_t base = span * AscendC::GetBlockIdx();
        gx.SetGlobalBuffer((__gm__ half *)x + base, span);
        gy.SetGlobalBuffer((__gm__ half *)y + base, span);
        gz.SetGlobalBuffer((__gm__ half *)z + base, span);
        pipe.InitBuffer(qa, 2, TILE * sizeof(half));
        pipe.InitBuffer(qb, 2, TILE * sizeof(half));
        pipe.InitBuffer(qc, 2, TILE * sizeof(half));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t at = 0; at < span; at += TILE) {
            AscendC::LocalTensor<half> a = qa.AllocTensor<half>();
            AscendC::LocalTensor<half> b = qb.AllocTensor<half>();
            AscendC::DataCopy(a, gx[at], TILE);
            AscendC::DataCopy(b, gy[at], TILE);
            qa.EnQue(a);
            qb.EnQue(b);
            a = qa.DeQue<half>();
            b = qb.DeQue<half>();
            AscendC::LocalTensor<half> c = qc.AllocTensor<half>();
            AscendC::Add(c, a, b, TILE);
            qc.EnQue(c);
            qa.FreeTensor(a);
            qb.FreeTensor(b);
            c = qc.DeQue<half>();
            AscendC::DataCopy(gz[at], c, TILE);
            qc.FreeTensor(c);
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 2> qa, qb;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 2> qc;
    AscendC::GlobalTensor<half> gx, gy, gz;
    uint32_t span = 0;
};

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength)
{
    ScalarAdd op;
    op.Init(x, y, z, totalLength);
    op.Process();
}
