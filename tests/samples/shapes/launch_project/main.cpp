/* The host program of the kernel-launch project (see add_custom.cpp): it
 * needs the ACL runtime (or CANN's CPU debug library), which cpusim does
 * not have, so cpusim must not compile it. It declares the kernel for the
 * CPU debug build without defining it. */
#include "data_utils.h"
#ifndef ASCENDC_CPU_DEBUG
#include "acl/acl.h"
extern void run_add_custom(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *y, uint8_t *z);
#else
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z);
#endif

int32_t main(int32_t argc, char *argv[])
{
    const size_t bytes = 8 * 2048 * sizeof(uint16_t);
    uint32_t blockDim = 8;
    aclrtStream stream = nullptr;
    uint8_t *x = nullptr, *y = nullptr, *z = nullptr;

    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtCreateStream(&stream);
    aclrtMalloc((void **)&x, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void **)&y, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void **)&z, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    ReadFile("./input/input_x.bin", bytes, x, bytes);
    ReadFile("./input/input_y.bin", bytes, y, bytes);
    run_add_custom(blockDim, stream, x, y, z);
    aclrtSynchronizeStream(stream);
    WriteFile("./output/output_z.bin", z, bytes);
    aclrtFree(x);
    aclrtFree(y);
    aclrtFree(z);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
