// A kernel of npukb's ascend-device tests with a tensor list and an
// optional input: z = xs[0] + xs[1] (+ bias when given), n = the tiling's
// first word. It reads the list through the ListTensorDesc layout (the
// address table's byte offset first, then ranks and dims, then the
// members' addresses), as the launch program lays it out.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void list_add(GM_ADDR xs, GM_ADDR bias, GM_ADDR z,
					       GM_ADDR workspace, GM_ADDR tiling)
{
	__gm__ uint64_t *desc = reinterpret_cast<__gm__ uint64_t *>(xs);
	__gm__ uint64_t *table = desc + desc[0] / sizeof(uint64_t);
	__gm__ float *a = reinterpret_cast<__gm__ float *>(table[0]);
	__gm__ float *b = reinterpret_cast<__gm__ float *>(table[1]);
	__gm__ float *c = reinterpret_cast<__gm__ float *>(bias);
	__gm__ float *out = reinterpret_cast<__gm__ float *>(z);
	uint32_t n = *reinterpret_cast<__gm__ uint32_t *>(tiling);

	(void)workspace;
	if (AscendC::GetBlockIdx() != 0)
		return;
	for (uint32_t i = 0; i < n; i++)
		out[i] = a[i] + b[i] + (c ? c[i] : 0.0f);
}
