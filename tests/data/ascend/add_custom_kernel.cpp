// The kernel of npukb's ascend-device tests: z = x + y over n floats (n is
// the tiling's first word), the blocks taking every GetBlockNum()-th
// element. Written in the kernel language (extern "C" __global__
// __aicore__, GM_ADDR), so only a kernel-mode compile accepts it.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z,
						 GM_ADDR workspace, GM_ADDR tiling)
{
	uint32_t n = *reinterpret_cast<__gm__ uint32_t *>(tiling);
	int64_t step = AscendC::GetBlockNum();

	(void)workspace;
	for (int64_t i = AscendC::GetBlockIdx(); i < n; i += step)
		reinterpret_cast<__gm__ float *>(z)[i] = reinterpret_cast<__gm__ float *>(x)[i] +
							 reinterpret_cast<__gm__ float *>(y)[i];
}
