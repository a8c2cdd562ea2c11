// Test sample (host+device): a KERNEL_TYPE_MIX_AIC_1_2 kernel. Vector block
// i (0 .. 2 x blockDim - 1) multiplies rows [i r, i r + r) of x by w with
// the high-level Matmul; a block past the rows has nothing to do. If the
// launch gave other than the tiling's vector blocks (GetBlockNum() counts
// AI cores, GetTaskRation() the vector cores of each), nothing is written.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

using AType = MatmulType<TPosition::GM, CubeFormat::ND, DTYPE_X>;
using BType = MatmulType<TPosition::GM, CubeFormat::ND, DTYPE_W>;
using CType = MatmulType<TPosition::GM, CubeFormat::ND, DTYPE_Y>;

extern "C" __global__ __aicore__ void mix_matmul(GM_ADDR x, GM_ADDR w, GM_ADDR y, GM_ADDR workspace,
                                                 GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    TPipe pipe;
    matmul::Matmul<AType, BType, CType> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &td.cube);
    if (GetBlockNum() * GetTaskRation() != td.vectorBlocks) {
        return;
    }
    const uint32_t start = GetBlockIdx() * td.rowsPerBlock;
    if (start >= td.m) {
        return;
    }
    const uint32_t rows = td.m - start < td.rowsPerBlock ? td.m - start : td.rowsPerBlock;
    GlobalTensor<DTYPE_X> xg;
    GlobalTensor<DTYPE_W> wg;
    GlobalTensor<DTYPE_Y> yg;
    xg.SetGlobalBuffer((__gm__ DTYPE_X *)x, td.m * td.k);
    wg.SetGlobalBuffer((__gm__ DTYPE_W *)w, td.k * td.n);
    yg.SetGlobalBuffer((__gm__ DTYPE_Y *)y, td.m * td.n);
    mm.SetTensorA(xg[start * td.k]);
    mm.SetTensorB(wg);
    mm.SetSingleShape(rows, td.n, td.k);
    mm.IterateAll(yg[start * td.n]);
    mm.End();
}
