/* The kernel of a kernel-launch project, in the layout of the Ascend
 * samples' AddCustomSample/KernelLaunch/AddKernelInvocationNeo (seen as
 * mirrored in tjulitianyi1997/AscendProjects, operator/AddCustomSample/
 * KernelLaunch/): add_custom.cpp with a kernel that takes no tiling
 * argument and is written for a fixed number of blocks, plus a host
 * wrapper that launches it with <<<>>>; main.cpp calls the wrapper;
 * CMakeLists.txt builds the kernel with ascendc_library. Our own code. */
#include "kernel_operator.h"

constexpr uint32_t TOTAL = 8 * 2048;
constexpr uint32_t BLOCKS = 8;
constexpr uint32_t PER_BLOCK = TOTAL / BLOCKS;
constexpr uint32_t TILES = 4;
constexpr uint32_t TILE = PER_BLOCK / TILES;

class LaunchAdd {
public:
    __aicore__ inline LaunchAdd() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z)
    {
        const uint32_t base = PER_BLOCK * AscendC::GetBlockIdx();
        gx.SetGlobalBuffer((__gm__ half *)x + base, PER_BLOCK);
        gy.SetGlobalBuffer((__gm__ half *)y + base, PER_BLOCK);
        gz.SetGlobalBuffer((__gm__ half *)z + base, PER_BLOCK);
        pipe.InitBuffer(qin, 2, 2 * TILE * sizeof(half));
        pipe.InitBuffer(qout, 2, TILE * sizeof(half));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t t = 0; t < TILES; t++) {
            AscendC::LocalTensor<half> in = qin.AllocTensor<half>();
            AscendC::DataCopy(in, gx[t * TILE], TILE);
            AscendC::DataCopy(in[TILE], gy[t * TILE], TILE);
            qin.EnQue(in);
            in = qin.DeQue<half>();
            AscendC::LocalTensor<half> out = qout.AllocTensor<half>();
            AscendC::Add(out, in, in[TILE], TILE);
            qout.EnQue(out);
            qin.FreeTensor(in);
            out = qout.DeQue<half>();
            AscendC::DataCopy(gz[t * TILE], out, TILE);
            qout.FreeTensor(out);
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 2> qin;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 2> qout;
    AscendC::GlobalTensor<half> gx, gy, gz;
};

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    LaunchAdd op;
    op.Init(x, y, z);
    op.Process();
}

#ifndef ASCENDC_CPU_DEBUG
void run_add_custom(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *y, uint8_t *z)
{
    add_custom<<<blockDim, nullptr, stream>>>(x, y, z);
}
#endif
