/* cube_tiled_kernel.h - a tiled half x half -> float matmul written with the
 * low-level cube API, as an AscendC kernel writes it: for each baseM x baseN
 * tile of C, the k tiles of A and B go GM -> L1 (Nd2Nz) -> L0A/L0B
 * (LoadData) -> Mmad accumulating in L0C, then Fixpipe to C. `nbuf` buffers
 * per queue: 1 runs the stages of consecutive k tiles one after another, 2
 * lets MTE2 fetch tile i + 1 while MTE1 and the cube work on tile i. Used
 * by the cube test (the pipeline ranking) and bench_matmul.cpp. */
#ifndef NPUKB_TESTS_CUBE_TILED_KERNEL_H
#define NPUKB_TESTS_CUBE_TILED_KERNEL_H

#include "kernel_operator.h"

/* M, N, K multiples of the base sizes; base sizes multiples of 16. */
inline void cube_tiled_matmul(AscendC::GlobalTensor<half> a, AscendC::GlobalTensor<half> b,
			      AscendC::GlobalTensor<float> c, uint32_t M, uint32_t N, uint32_t K, uint16_t baseM,
			      uint16_t baseN, uint16_t baseK, uint8_t nbuf)
{
	using namespace AscendC;
	const uint16_t M1 = baseM / 16, N1 = baseN / 16, K1 = baseK / 16;
	TPipe pipe;
	TQue<TPosition::A1, 2> qa1;
	TQue<TPosition::B1, 2> qb1;
	TQue<TPosition::A2, 2> qa2;
	TQue<TPosition::B2, 2> qb2;
	TQue<TPosition::CO1, 1> qc;
	pipe.InitBuffer(qa1, nbuf, baseM * baseK * 2);
	pipe.InitBuffer(qb1, nbuf, baseK * baseN * 2);
	pipe.InitBuffer(qa2, nbuf, baseM * baseK * 2);
	pipe.InitBuffer(qb2, nbuf, baseK * baseN * 2);
	pipe.InitBuffer(qc, 1, baseM * baseN * 4);
	for (uint32_t m0 = 0; m0 < M; m0 += baseM)
		for (uint32_t n0 = 0; n0 < N; n0 += baseN) {
			LocalTensor<float> acc = qc.AllocTensor<float>();
			for (uint32_t k0 = 0; k0 < K; k0 += baseK) {
				LocalTensor<half> a1 = qa1.AllocTensor<half>(), b1 = qb1.AllocTensor<half>();
				DataCopy(a1, a[(uint64_t)m0 * K + k0], Nd2NzParams(1, baseM, baseK, 0, (uint16_t)K, baseM, 1, 0));
				DataCopy(b1, b[(uint64_t)k0 * N + n0], Nd2NzParams(1, baseK, baseN, 0, (uint16_t)N, baseK, 1, 0));
				qa1.EnQue(a1);
				qb1.EnQue(b1);
				a1 = qa1.DeQue<half>();
				b1 = qb1.DeQue<half>();
				LocalTensor<half> a2 = qa2.AllocTensor<half>(), b2 = qb2.AllocTensor<half>();
				for (uint16_t i = 0; i < M1; i++)
					LoadData(a2[i * K1 * 256], a1, LoadData2DParams(i, (uint8_t)K1, M1, 0, 0, false, 0));
				for (uint16_t i = 0; i < K1; i++)
					LoadData(b2[i * N1 * 256], b1, LoadData2DParams(i, (uint8_t)N1, K1, 0, 0, true, 0));
				qa1.FreeTensor(a1);
				qb1.FreeTensor(b1);
				qa2.EnQue(a2);
				qb2.EnQue(b2);
				a2 = qa2.DeQue<half>();
				b2 = qb2.DeQue<half>();
				MmadParams p;
				p.m = baseM;
				p.n = baseN;
				p.k = baseK;
				p.cmatrixInitVal = k0 == 0;
				Mmad(acc, a2, b2, p);
				qa2.FreeTensor(a2);
				qb2.FreeTensor(b2);
			}
			qc.EnQue(acc);
			acc = qc.DeQue<float>();
			FixpipeParamsV220 fp;
			fp.nSize = baseN;
			fp.mSize = baseM;
			fp.srcStride = baseM;
			fp.dstStride = N;
			Fixpipe<float, float, CFG_ROW_MAJOR>(c[(uint64_t)m0 * N + n0], acc, fp);
			qc.FreeTensor(acc);
		}
}

#endif
