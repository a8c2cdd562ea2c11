// InplaceFusedMatmulSoftmaxGrad expert answer (kernel-only mode, Ascend
// 910B): d = grad_output x values^T (M x N) with the high-level Matmul (the
// cube), then softmax_output := (d - rowsum(softmax_output * d)) *
// softmax_output in place on the vector unit.
//
// The columns are dealt to the blocks in ranges of a multiple of 16. Each
// block multiplies grad_output (M x K) by its rows of values (transposed
// B) into its columns of d, float, in the workspace; then, row by row in
// chunks of CHUNK columns (double-buffered), sums softmax_output * d for
// its columns. The blocks' partial row sums meet in the workspace after
// SyncAll; each block then writes its columns of the output over
// softmax_output. (cpusim runs each block's Matmul on the calling block, as
// the cube of its AI core would serve it in mix mode.)
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "../../../../common/elementwise.h"

using namespace npukb_answer;

namespace {

constexpr uint32_t CHUNK = 4096; // columns of one chunk
constexpr uint32_t ALIGN = 16;   // column range alignment, in elements

template <typename T>
class FusedMatmulSoftmaxGrad {
public:
    static constexpr bool F32 = IsSameType<T, float>::value;
    using AType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using BType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, T, true>;
    using CType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;

    __aicore__ inline void Init(GM_ADDR softmax, GM_ADDR grad, GM_ADDR values, GM_ADDR workspace, uint32_t m,
                                uint32_t n, uint32_t k)
    {
        rowsM = m;
        colsN = n;
        depthK = k;
        blocks = GetBlockNum();
        const uint32_t per = static_cast<uint32_t>(AlignUp(CeilDiv(n, blocks), ALIGN));
        n0 = per * GetBlockIdx();
        cols = n0 < n ? (n - n0 < per ? n - n0 : per) : 0;
        slot = static_cast<uint32_t>(AlignUp(m, 8));
        const uint64_t mn = static_cast<uint64_t>(m) * n;
        sGm.SetGlobalBuffer((__gm__ T*)softmax, mn);
        gGm.SetGlobalBuffer((__gm__ T*)grad, static_cast<uint64_t>(m) * k);
        vGm.SetGlobalBuffer((__gm__ T*)values, static_cast<uint64_t>(n) * k);
        // The workspace: d (M x N floats), then one slot of M row sums per block.
        dGm.SetGlobalBuffer((__gm__ float*)workspace, mn);
        partGm.SetGlobalBuffer((__gm__ float*)workspace + AlignUp(mn, 8), static_cast<uint64_t>(blocks) * slot);
        pipe.InitBuffer(sQue, 2, CHUNK * sizeof(T));
        pipe.InitBuffer(dQue, 2, CHUNK * sizeof(float));
        pipe.InitBuffer(outQue, 2, CHUNK * sizeof(T));
        pipe.InitBuffer(fBuf, CHUNK * sizeof(float));
        pipe.InitBuffer(workBuf, static_cast<uint32_t>(AlignUp(CeilDiv(CHUNK, 64), 8) * sizeof(float)));
        pipe.InitBuffer(sumBuf, 8 * sizeof(float));
        pipe.InitBuffer(rBuf, blocks * slot * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (cols > 0) {
            Multiply();
        }
        LocalTensor<float> r = rBuf.Get<float>();
        Duplicate(r, 0.0f, static_cast<int32_t>(slot));
        SetFlag<HardEvent::V_S>(0);
        WaitFlag<HardEvent::V_S>(0);
        for (uint32_t m = 0; cols > 0 && m < rowsM; m++) {
            r.SetValue(m, RowSum(m));
        }
        SetFlag<HardEvent::S_MTE3>(0);
        WaitFlag<HardEvent::S_MTE3>(0);
        DataCopy(partGm[static_cast<uint64_t>(GetBlockIdx()) * slot], r, slot);
        PipeBarrier<PIPE_ALL>();
        SyncAll();
        if (cols == 0) {
            return;
        }
        DataCopy(r, partGm, blocks * slot);
        SetFlag<HardEvent::MTE2_S>(0);
        WaitFlag<HardEvent::MTE2_S>(0);
        for (uint32_t m = 0; m < rowsM; m++) {
            float total = 0.0f;
            for (uint32_t b = 0; b < blocks; b++) {
                total += r.GetValue(b * slot + m);
            }
            Output(m, total);
        }
    }

private:
    // This block's columns of d = grad_output x values^T, into the workspace.
    __aicore__ inline void Multiply()
    {
        TCubeTiling cube;
        cube.usedCoreNum = 1;
        cube.M = static_cast<int32_t>(rowsM);
        cube.N = static_cast<int32_t>(colsN);
        cube.Ka = static_cast<int32_t>(depthK);
        cube.Kb = static_cast<int32_t>(depthK);
        cube.singleCoreM = static_cast<int32_t>(rowsM);
        cube.singleCoreN = static_cast<int32_t>(cols);
        cube.singleCoreK = static_cast<int32_t>(depthK);
        cube.baseM = 16;
        cube.baseN = 128;
        cube.baseK = 64;
        cube.depthA1 = 1;
        cube.depthB1 = 1;
        cube.stepM = 1;
        cube.stepN = 1;
        cube.stepKa = 1;
        cube.stepKb = 1;
        cube.isBias = 0;
        cube.iterateOrder = 0;
        matmul::Matmul<AType, BType, CType> mm;
        REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &cube);
        mm.SetOrgShape(static_cast<int>(rowsM), static_cast<int>(colsN), static_cast<int>(depthK));
        mm.SetTensorA(gGm);
        mm.SetTensorB(vGm[static_cast<uint64_t>(n0) * depthK], true);
        mm.SetSingleShape(static_cast<int>(rowsM), static_cast<int>(cols), static_cast<int>(depthK));
        mm.IterateAll(dGm[n0]);
        mm.End();
        // d must be in GM before the vector unit reads it back.
        PipeBarrier<PIPE_ALL>();
    }

    __aicore__ inline void CopyIn(uint32_t m, uint32_t c0, uint32_t n)
    {
        const uint64_t at = static_cast<uint64_t>(m) * colsN + n0 + c0;
        LocalTensor<T> s = sQue.template AllocTensor<T>();
        LocalTensor<float> d = dQue.template AllocTensor<float>();
        CopyGmToUb(s, sGm[at], n);
        CopyGmToUb(d, dGm[at], n);
        sQue.EnQue(s);
        dQue.EnQue(d);
    }

    // The chunk of row m from column c0 (n columns): s and d dequeued, and
    // softmax_output's chunk in float returned.
    __aicore__ inline LocalTensor<float> Load(uint32_t m, uint32_t c0, uint32_t n, LocalTensor<T>& s,
                                             LocalTensor<float>& d)
    {
        CopyIn(m, c0, n);
        s = sQue.template DeQue<T>();
        d = dQue.template DeQue<float>();
        LocalTensor<float> f = fBuf.Get<float>();
        if constexpr (F32) {
            Adds(f, s, 0.0f, n);
        } else {
            Cast(f, s, RoundMode::CAST_NONE, n);
        }
        PipeBarrier<PIPE_V>();
        return f;
    }

    // sum over this block's columns of softmax_output[m] * d[m].
    __aicore__ inline float RowSum(uint32_t m)
    {
        float acc = 0.0f;
        LocalTensor<float> sum = sumBuf.Get<float>();
        for (uint32_t c0 = 0; c0 < cols; c0 += CHUNK) {
            const uint32_t n = cols - c0 < CHUNK ? cols - c0 : CHUNK;
            LocalTensor<T> s;
            LocalTensor<float> d;
            LocalTensor<float> f = Load(m, c0, n, s, d);
            Mul(f, f, d, n);
            PipeBarrier<PIPE_V>();
            ReduceSum(sum, f, workBuf.Get<float>(), n);
            SetFlag<HardEvent::V_S>(0);
            WaitFlag<HardEvent::V_S>(0);
            acc += sum.GetValue(0);
            SetFlag<HardEvent::S_V>(0);
            WaitFlag<HardEvent::S_V>(0);
            sQue.FreeTensor(s);
            dQue.FreeTensor(d);
        }
        return acc;
    }

    // softmax_output[m] := (d[m] - r) * softmax_output[m] over this block's columns.
    __aicore__ inline void Output(uint32_t m, float r)
    {
        for (uint32_t c0 = 0; c0 < cols; c0 += CHUNK) {
            const uint32_t n = cols - c0 < CHUNK ? cols - c0 : CHUNK;
            LocalTensor<T> s;
            LocalTensor<float> d;
            LocalTensor<float> f = Load(m, c0, n, s, d);
            Adds(d, d, -r, n);
            PipeBarrier<PIPE_V>();
            LocalTensor<T> out = outQue.template AllocTensor<T>();
            if constexpr (F32) {
                Mul(out, d, f, n);
            } else {
                Mul(f, d, f, n);
                PipeBarrier<PIPE_V>();
                Cast(out, f, RoundMode::CAST_RINT, n);
            }
            outQue.EnQue(out);
            sQue.FreeTensor(s);
            dQue.FreeTensor(d);
            out = outQue.template DeQue<T>();
            CopyUbToGm(sGm[static_cast<uint64_t>(m) * colsN + n0 + c0], out, n);
            outQue.FreeTensor(out);
        }
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> sQue, dQue;
    TQue<QuePosition::VECOUT, 2> outQue;
    TBuf<QuePosition::VECCALC> fBuf, workBuf, sumBuf, rBuf;
    GlobalTensor<T> sGm, gGm, vGm;
    GlobalTensor<float> dGm, partGm;
    uint32_t rowsM = 0, colsN = 0, depthK = 0, blocks = 0, n0 = 0, cols = 0, slot = 0;
};

} // namespace

extern "C" __global__ __aicore__ void inplace_fused_matmul_softmax_grad(GM_ADDR softmax_output, GM_ADDR grad_output,
                                                                        GM_ADDR values, GM_ADDR workspace,
                                                                        GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    FusedMatmulSoftmaxGrad<DTYPE_SOFTMAX_OUTPUT> op;
    op.Init(softmax_output, grad_output, values, workspace, tilingData.m, tilingData.n, tilingData.k);
    op.Process();
}
