/* test_cpusim_cube.cpp - cpusim's low-level cube: the positions A1/B1/C1
 * (L1), A2 (L0A), B2 (L0B), CO1 (L0C), C2 (bias table) with their SoC
 * capacities and alignments, checked against hand-computed offsets (a
 * failed check exits with status 3). */
#include <criterion/criterion.h>

#include "kernel_operator.h"
#include "cube_host_block.h"

using namespace AscendC;
namespace rt = npukb_cpusim;

/* One block on a 910B: the capacities soc/ascend910b.conf gives. */
static void setup_block(void)
{
	cube_host_block_910b();
	snprintf(rt::g.soc.name, sizeof rt::g.soc.name, "test910b");
}

TestSuite(cpusim_cube, .init = setup_block);

static uint32_t off_in(rt::Mem m, const void *p)
{
	return (uint32_t)((const unsigned char *)p - rt::cube_base(m));
}

/* ---- positions and InitBuffer ------------------------------------------------- */

Test(cpusim_cube, positions_carve_their_own_buffers)
{
	TPipe pipe;
	TQue<TPosition::A1, 1> a1;
	TQue<TPosition::B1, 1> b1;
	TQue<TPosition::A2, 1> a2;
	TQue<TPosition::B2, 1> b2;
	TQue<TPosition::CO1, 1> co1;
	TBuf<TPosition::C2> bias;
	pipe.InitBuffer(a1, 2, 100);  /* 2 x 128 (32-byte rounding) in L1 */
	pipe.InitBuffer(b1, 1, 4096); /* L1 bytes 256 .. 4352 */
	pipe.InitBuffer(a2, 2, 600);  /* 2 x 1024 (512-byte fractals) in L0A */
	pipe.InitBuffer(b2, 1, 512);
	pipe.InitBuffer(co1, 1, 1000); /* 1024 (256 fp32 elements) in L0C */
	pipe.InitBuffer(bias, 64);      /* 128 in the bias table */
	cr_expect_eq(rt::g.cube_used[rt::M_L1], 2 * 128 + 4096);
	cr_expect_eq(rt::g.cube_used[rt::M_L0A], 2 * 1024);
	cr_expect_eq(rt::g.cube_used[rt::M_L0B], 512);
	cr_expect_eq(rt::g.cube_used[rt::M_L0C], 1024);
	cr_expect_eq(rt::g.cube_used[rt::M_BT], 128);
	cr_expect_eq(rt::g.ub_used, 0u, "no cube position takes UB");

	LocalTensor<half> x = a1.AllocTensor<half>(), y = a1.AllocTensor<half>();
	cr_expect_eq(rt::cube_mem_of(x.addr_), rt::M_L1);
	cr_expect_eq(off_in(rt::M_L1, x.addr_), 0u);
	cr_expect_eq(off_in(rt::M_L1, y.addr_), 128u);
	cr_expect_eq(x.GetSize(), 64u);
	LocalTensor<half> w = b1.AllocTensor<half>();
	cr_expect_eq(off_in(rt::M_L1, w.addr_), 256u);
	LocalTensor<half> p = a2.AllocTensor<half>(), q = a2.AllocTensor<half>();
	cr_expect_eq(rt::cube_mem_of(p.addr_), rt::M_L0A);
	cr_expect_eq(off_in(rt::M_L0A, q.addr_), 1024u);
	LocalTensor<half> r = b2.AllocTensor<half>();
	cr_expect_eq(rt::cube_mem_of(r.addr_), rt::M_L0B);
	LocalTensor<float> c = co1.AllocTensor<float>();
	cr_expect_eq(rt::cube_mem_of(c.addr_), rt::M_L0C);
	cr_expect_eq(c.GetSize(), 256u);
	LocalTensor<float> bt = bias.Get<float>();
	cr_expect_eq(rt::cube_mem_of(bt.addr_), rt::M_BT);
	cr_expect_eq(bt.GetSize(), 32u);
	a1.FreeTensor(x);
	a1.FreeTensor(y);
	b1.FreeTensor(w);
	a2.FreeTensor(p);
	a2.FreeTensor(q);
	b2.FreeTensor(r);
	co1.FreeTensor(c);
}

Test(cpusim_cube, a_pipe_gives_its_cube_buffers_back)
{
	{
		TPipe pipe;
		TBuf<TPosition::A2> a;
		pipe.InitBuffer(a, 65536);
		cr_expect_eq(rt::g.cube_used[rt::M_L0A], 65536u);
	}
	cr_expect_eq(rt::g.cube_used[rt::M_L0A], 0u);
}

Test(cpusim_cube, every_buffer_fills_to_its_capacity)
{
	TPipe pipe;
	TBuf<TPosition::A1> l1;
	TBuf<TPosition::A2> l0a;
	TBuf<TPosition::B2> l0b;
	TBuf<TPosition::CO1> l0c;
	TBuf<TPosition::C2> bt;
	pipe.InitBuffer(l1, 524288);
	pipe.InitBuffer(l0a, 65536);
	pipe.InitBuffer(l0b, 65536);
	pipe.InitBuffer(l0c, 131072);
	pipe.InitBuffer(bt, 1024);
	cr_expect_eq(rt::g.cube_used[rt::M_L0C], 131072u);
}

Test(cpusim_cube, l1_overflow_trips, .exit_code = 3)
{
	TPipe pipe;
	TQue<TPosition::A1, 2> a1;
	TQue<TPosition::B1, 2> b1;
	pipe.InitBuffer(a1, 2, 131072);
	pipe.InitBuffer(b1, 2, 131072 + 32); /* 32 bytes past 512 KiB */
}

Test(cpusim_cube, l0a_overflow_by_rounding_trips, .exit_code = 3)
{
	TPipe pipe;
	TQue<TPosition::A2, 2> a2;
	/* 2 x 32769 bytes round to 2 x 33280: 66560 > 65536 */
	pipe.InitBuffer(a2, 2, 32769);
}

Test(cpusim_cube, l0c_overflow_trips, .exit_code = 3)
{
	TPipe pipe;
	TQue<TPosition::CO1, 1> co1;
	pipe.InitBuffer(co1, 2, 65536 + 1024);
}

Test(cpusim_cube, bias_table_overflow_trips, .exit_code = 3)
{
	TPipe pipe;
	TBuf<TPosition::C2> bt;
	pipe.InitBuffer(bt, 1025);
}

/* The operand check the cube instructions share: a view into the middle of
 * an L0A fractal is misaligned, a UB tensor is in the wrong buffer. */
Test(cpusim_cube, misaligned_l0a_operand_trips, .exit_code = 3)
{
	TPipe pipe;
	TBuf<TPosition::A2> a;
	pipe.InitBuffer(a, 4096);
	LocalTensor<half> t = a.Get<half>()[16]; /* 32 bytes in */
	rt::cube_check(t.addr_, 512, t.GetLength(), 1u << rt::M_L0A, 512, "Mmad", "fm", NPUKB_LOC);
}

Test(cpusim_cube, aligned_l0a_operand_passes)
{
	TPipe pipe;
	TBuf<TPosition::A2> a;
	pipe.InitBuffer(a, 4096);
	LocalTensor<half> t = a.Get<half>()[256]; /* one fractal in */
	cr_expect_eq(rt::cube_check(t.addr_, 512, t.GetLength(), 1u << rt::M_L0A, 512, "Mmad", "fm", NPUKB_LOC),
		     rt::M_L0A);
}

Test(cpusim_cube, wrong_buffer_operand_trips, .exit_code = 3)
{
	TPipe pipe;
	TBuf<TPosition::A1> l1;
	pipe.InitBuffer(l1, 4096);
	LocalTensor<half> t = l1.Get<half>();
	rt::cube_check(t.addr_, 512, t.GetLength(), 1u << rt::M_L0A, 512, "Mmad", "fm", NPUKB_LOC);
}

/* ---- GM -> L1 (Nd2Nz), L1 -> L0 (LoadData), Mmad, Fixpipe -------------------------- */

template <class T>
static GlobalTensor<T> gm(T *p, uint64_t n)
{
	return cube_host_gm(p, n);
}

Test(cpusim_cube, nd2nz_half_splits_columns_into_16_wide_blocks_and_pads)
{
	TPipe pipe;
	TBuf<TPosition::A1> l1;
	pipe.InitBuffer(l1, 2 * 16 * 16 * 2);
	LocalTensor<half> d = l1.Get<half>();
	memset(d.addr_, 0x7b, d.GetLength());
	static half src[3 * 20];
	for (int r = 0; r < 3; r++)
		for (int c = 0; c < 20; c++)
			src[r * 20 + c] = half(r * 100 + c);
	/* 3 x 20 ND -> two column blocks of 16, 16 rows apart (C0 stride 16) */
	DataCopy(d, gm(src, 60), Nd2NzParams(1, 3, 20, 0, 20, 16, 1, 0));
	cr_expect_eq((float)d.addr_[0], 0.0f);
	cr_expect_eq((float)d.addr_[15], 15.0f);
	cr_expect_eq((float)d.addr_[2 * 16 + 7], 207.0f);
	cr_expect_eq((float)d.addr_[256 + 0], 16.0f, "column 16 starts the second block");
	cr_expect_eq((float)d.addr_[256 + 16 + 3], 119.0f);
	cr_expect_eq(d.addr_[256 + 2 * 16 + 4].bits, 0, "columns 20..31 padded with zeros");
	cr_expect_eq(d.addr_[256 + 2 * 16 + 15].bits, 0);
	cr_expect_eq(d.addr_[3 * 16].bits, 0x7b7b, "row 3 of the block is not written");
}

Test(cpusim_cube, nd2nz_int8_blocks_are_32_wide_fp32_8_wide)
{
	TPipe pipe;
	TBuf<TPosition::B1> l1;
	pipe.InitBuffer(l1, 4096);
	LocalTensor<int8_t> d = l1.Get<int8_t>();
	memset(d.addr_, 0x55, 4096);
	static int8_t src[2 * 40];
	for (int i = 0; i < 80; i++)
		src[i] = (int8_t)(i - 40);
	/* 2 x 40 int8: blocks of 32 columns, 2 C0 lines (64 bytes) apart */
	DataCopy(d, gm(src, 80), Nd2NzParams(1, 2, 40, 0, 40, 2, 1, 0));
	cr_expect_eq(d.addr_[0], -40);
	cr_expect_eq(d.addr_[32 + 31], 40 + 31 - 40);  /* row 1, column 31 */
	cr_expect_eq(d.addr_[64 + 32 + 7], 40 + 39 - 40); /* row 1, column 39 */
	cr_expect_eq(d.addr_[64 + 32 + 8], 0, "padded to 32 bytes");
	cr_expect_eq(d.addr_[128], 0x55, "nothing past the second block");

	LocalTensor<float> f = l1.Get<float>()[512];
	static float fs[10];
	for (int i = 0; i < 10; i++)
		fs[i] = (float)i;
	/* 1 x 10 fp32: blocks of 8, one C0 line apart */
	DataCopy(f, gm(fs, 10), Nd2NzParams(1, 1, 10, 0, 10, 1, 1, 0));
	cr_expect_eq(f.addr_[7], 7.0f);
	cr_expect_eq(f.addr_[8], 8.0f);
	cr_expect_eq(f.addr_[9], 9.0f);
	cr_expect_eq(f.addr_[10], 0.0f);
}

Test(cpusim_cube, gm_to_l1_count_and_strided_copies)
{
	TPipe pipe;
	TBuf<TPosition::A1> l1;
	pipe.InitBuffer(l1, 256);
	LocalTensor<half> d = l1.Get<half>();
	memset(d.addr_, 0, 256);
	static half src[64];
	for (int i = 0; i < 64; i++)
		src[i] = half(i);
	GlobalTensor<half> g = gm(src, 64);
	DataCopy(d, g, 20); /* 40 bytes: one whole 32-byte block, 16 elements */
	cr_expect_eq((float)d.addr_[15], 15.0f);
	cr_expect_eq(d.addr_[16].bits, 0, "the 8 bytes past the last whole block are not copied");
	PipeBarrier<PIPE_ALL>();
	/* 2 blocks of 1 x 32 bytes, source gap 1 block, destination gap 2 */
	DataCopy(d[32], g, DataCopyParams(2, 1, 1, 2));
	cr_expect_eq((float)d.addr_[32 + 15], 15.0f);
	cr_expect_eq((float)d.addr_[32 + 48], 32.0f, "block 2 of the source to block 3 of the destination");
	cr_expect_eq(d.addr_[32 + 16].bits, 0);
}

Test(cpusim_cube, load_data_2d_strides_gaps_and_transposes)
{
	TPipe pipe;
	TBuf<TPosition::A1> l1;
	TBuf<TPosition::A2> l0a;
	TBuf<TPosition::B2> l0b;
	pipe.InitBuffer(l1, 4 * 512);
	pipe.InitBuffer(l0a, 3 * 512);
	pipe.InitBuffer(l0b, 512);
	LocalTensor<half> s = l1.Get<half>(), a = l0a.Get<half>(), b = l0b.Get<half>();
	for (int f = 0; f < 4; f++)
		for (int e = 0; e < 256; e++)
			s.addr_[f * 256 + e] = half(f * 256 + e); /* exact in half */
	memset(a.addr_, 0x11, 3 * 512);
	/* fractals 1 and 3 of L1 to fractals 0 and 2 of L0A */
	LoadData(a, s, LoadData2DParams(1, 2, 2, 0, 1, false, 0));
	PipeBarrier<PIPE_ALL>();
	cr_expect_eq((float)a.addr_[0], 256.0f);
	cr_expect_eq((float)a.addr_[255], 511.0f);
	cr_expect_eq(a.addr_[256].bits, 0x1111, "the gap fractal is not written");
	cr_expect_eq((float)a.addr_[512 + 17], 785.0f);
	/* fractal 2 transposed: (row 1, column 2) = element 18 goes to 2 * 16 + 1 */
	LoadData(b, s, LoadData2DParams(2, 1, 0, 0, 0, true, 0));
	cr_expect_eq((float)b.addr_[2 * 16 + 1], 530.0f);
	cr_expect_eq((float)b.addr_[1 * 16 + 2], 545.0f);
	cr_expect_eq((float)b.addr_[255], 767.0f);
}

Test(cpusim_cube, load_data_transpose_of_int8_trips, .exit_code = 3)
{
	TPipe pipe;
	TBuf<TPosition::B1> l1;
	TBuf<TPosition::B2> l0b;
	pipe.InitBuffer(l1, 512);
	pipe.InitBuffer(l0b, 512);
	LoadData(l0b.Get<int8_t>(), l1.Get<int8_t>(), LoadData2DParams(0, 1, 0, 0, 0, true, 0));
}

Test(cpusim_cube, load_data_source_past_its_tensor_trips, .exit_code = 3)
{
	TPipe pipe;
	TBuf<TPosition::A1> l1;
	TBuf<TPosition::A2> l0a;
	pipe.InitBuffer(l1, 2 * 512);
	pipe.InitBuffer(l0a, 2 * 512);
	/* fractals 0 and 2: the second is past the 2-fractal source */
	LoadData(l0a.Get<half>(), l1.Get<half>(), LoadData2DParams(0, 2, 2, 0, 0, false, 0));
}

/* The whole path of one tile, as a kernel writes it: A (m x k) and B (k x n)
 * row-major in GM, through L1 (NZ), L0A (ZZ) and L0B (ZN, transposed from
 * L1's NZ), Mmad into L0C and Fixpipe to C (m x n) row-major. */
template <class Out>
static void tile_matmul(const half *A, const half *B, Out *C, uint16_t m, uint16_t n, uint16_t k, QuantMode_t q)
{
	const uint16_t M1 = (m + 15) / 16, N1 = (n + 15) / 16, K1 = (k + 15) / 16;
	TPipe pipe;
	TQue<TPosition::A1, 1> qa1;
	TQue<TPosition::B1, 1> qb1;
	TQue<TPosition::A2, 1> qa2;
	TQue<TPosition::B2, 1> qb2;
	TQue<TPosition::CO1, 1> qc;
	pipe.InitBuffer(qa1, 1, M1 * K1 * 512);
	pipe.InitBuffer(qb1, 1, K1 * N1 * 512);
	pipe.InitBuffer(qa2, 1, M1 * K1 * 512);
	pipe.InitBuffer(qb2, 1, K1 * N1 * 512);
	pipe.InitBuffer(qc, 1, M1 * N1 * 1024);
	GlobalTensor<half> ga = gm((half *)A, (uint64_t)m * k), gb = gm((half *)B, (uint64_t)k * n);
	GlobalTensor<Out> gc = gm(C, (uint64_t)m * n);

	LocalTensor<half> a1 = qa1.AllocTensor<half>(), b1 = qb1.AllocTensor<half>();
	DataCopy(a1, ga, Nd2NzParams(1, m, k, 0, k, M1 * 16, 1, 0));
	DataCopy(b1, gb, Nd2NzParams(1, k, n, 0, n, K1 * 16, 1, 0));
	qa1.EnQue(a1);
	qb1.EnQue(b1);
	a1 = qa1.DeQue<half>();
	b1 = qb1.DeQue<half>();
	LocalTensor<half> a2 = qa2.AllocTensor<half>(), b2 = qb2.AllocTensor<half>();
	for (uint16_t i = 0; i < M1; i++)
		LoadData(a2[i * K1 * 256], a1, LoadData2DParams(i, K1, M1, 0, 0, false, 0));
	for (uint16_t i = 0; i < K1; i++)
		LoadData(b2[i * N1 * 256], b1, LoadData2DParams(i, N1, K1, 0, 0, true, 0));
	qa1.FreeTensor(a1);
	qb1.FreeTensor(b1);
	qa2.EnQue(a2);
	qb2.EnQue(b2);
	a2 = qa2.DeQue<half>();
	b2 = qb2.DeQue<half>();
	LocalTensor<float> c = qc.AllocTensor<float>();
	MmadParams mp;
	mp.m = m;
	mp.n = n;
	mp.k = k;
	Mmad(c, a2, b2, mp);
	qa2.FreeTensor(a2);
	qb2.FreeTensor(b2);
	qc.EnQue(c);
	c = qc.DeQue<float>();
	FixpipeParamsV220 fp;
	fp.nSize = n;
	fp.mSize = m;
	fp.srcStride = M1 * 16;
	fp.dstStride = n;
	fp.quantPre = q;
	Fixpipe<Out, float, CFG_ROW_MAJOR>(gc, c, fp);
	qc.FreeTensor(c);
	/* the launch ends: a second call starts on idle pipes */
	PipeBarrier<PIPE_ALL>();
}

Test(cpusim_cube, tile_matmul_by_hand)
{
	/* [1 2 3; 4 5 6] x [1 0; 0 1; 1 1] = [4 5; 10 11] */
	static half A[6] = {1, 2, 3, 4, 5, 6}, B[6] = {1, 0, 0, 1, 1, 1};
	static float C[4];
	tile_matmul(A, B, C, 2, 2, 3, NoQuant);
	cr_expect_eq(C[0], 4.0f);
	cr_expect_eq(C[1], 5.0f);
	cr_expect_eq(C[2], 10.0f);
	cr_expect_eq(C[3], 11.0f);
}

Test(cpusim_cube, fp16_products_are_exact_in_fp32)
{
	/* (1 + 2^-10)^2 = 1 + 2^-9 + 2^-20: 21 significant bits, which a float
	 * holds and a product rounded to half (1 + 2^-9) would lose. */
	static half A[1] = {half(1.0 + 1.0 / 1024)}, B[1] = {half(1.0 + 1.0 / 1024)};
	static float C[1];
	tile_matmul(A, B, C, 1, 1, 1, NoQuant);
	cr_expect_eq(C[0], (float)(1.0 + 1.0 / 512 + 1.0 / 1048576));
	static half h[1];
	tile_matmul(A, B, h, 1, 1, 1, F322F16);
	cr_expect_eq(h[0].bits, 0x3c02, "F322F16 rounds 1 + 2^-9 + 2^-20 to 1 + 2^-9");
}

Test(cpusim_cube, f322bf16_rounds_ties_to_even)
{
	/* 1 + 2^-8 lies halfway between bf16's 1 and 1 + 2^-7: even is 1.0;
	 * 1 + 3 * 2^-8 halfway between 1 + 2^-7 and 1 + 2^-6: even is 1 + 2^-6. */
	static half A[2] = {half(1.0 + 1.0 / 256), half(1.0 + 3.0 / 256)}, B[1] = {half(1.0)};
	static bfloat16_t C[2];
	tile_matmul(A, B, C, 2, 1, 1, F322BF16);
	cr_expect_eq(C[0].bits, 0x3f80);
	cr_expect_eq(C[1].bits, 0x3f82);
}

Test(cpusim_cube, tile_matmul_with_padding_matches_the_row_major_product)
{
	/* m, n, k not multiples of 16; products of small integers are exact, so
	 * the sums are exact too and their order does not matter. */
	enum { M = 20, N = 24, K = 40 };
	static half A[M * K], B[K * N];
	static float C[M * N];
	for (int i = 0; i < M * K; i++)
		A[i] = half((i * 7) % 13 - 6);
	for (int i = 0; i < K * N; i++)
		B[i] = half((i * 5) % 11 - 5);
	tile_matmul(A, B, C, M, N, K, NoQuant);
	int bad = 0;
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int want = 0;
			for (int l = 0; l < K; l++)
				want += ((i * K + l) * 7 % 13 - 6) * ((l * N + j) * 5 % 11 - 5);
			bad += C[i * N + j] != (float)want;
		}
	cr_expect_eq(bad, 0, "%d of %d elements differ", bad, M * N);
}

/* Each element of L0C is a float sum in the order of k of exact fp16
 * products, rounded at each addition: operands of varied magnitude make
 * that order show in the last bits, and n = 45 runs the vector blocks of
 * eight columns and a tail of five. */
Test(cpusim_cube, mmad_sums_each_element_in_k_order_across_the_column_blocks)
{
	enum { M = 19, N = 45, K = 37 };
	static half A[M * K], B[K * N];
	static float C[M * N];
	uint32_t r = 2024;
	auto next = [&r]() { r = r * 1664525u + 1013904223u; return (double)(r >> 8) / (1 << 24); };
	for (int i = 0; i < M * K; i++)
		A[i] = half(ldexp(next() * 2 - 1, (int)(next() * 10) - 5));
	for (int i = 0; i < K * N; i++)
		B[i] = half(ldexp(next() * 2 - 1, (int)(next() * 10) - 5));
	tile_matmul(A, B, C, M, N, K, NoQuant);
	int bad = 0;
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			float want = 0;
			for (int l = 0; l < K; l++)
				want += (float)A[i * K + l] * (float)B[l * N + j];
			if (memcmp(&want, &C[i * N + j], sizeof want) != 0)
				bad++;
		}
	cr_expect_eq(bad, 0, "%d of %d elements differ from a float sum in k order", bad, M * N);
}

Test(cpusim_cube, int8_mmad_accumulates_in_int32_and_cmatrix_init_accumulates)
{
	/* L0A/L0B written directly: one 16 x 32 fractal each. */
	TPipe pipe;
	TBuf<TPosition::A2> l0a;
	TBuf<TPosition::B2> l0b;
	TBuf<TPosition::CO1> l0c;
	pipe.InitBuffer(l0a, 512);
	pipe.InitBuffer(l0b, 512);
	pipe.InitBuffer(l0c, 1024);
	LocalTensor<int8_t> a = l0a.Get<int8_t>(), b = l0b.Get<int8_t>();
	LocalTensor<int32_t> c = l0c.Get<int32_t>();
	memset(a.addr_, 0, 512);
	memset(b.addr_, 0, 512);
	a.addr_[0] = 127;  /* A(0, 0) */
	a.addr_[1] = -128; /* A(0, 1) */
	b.addr_[0] = 127;  /* B(0, 0): column 0, k 0 */
	b.addr_[1] = -128; /* B(1, 0) */
	b.addr_[32] = 3;   /* B(0, 1): column 1 */
	MmadParams p;
	p.m = 1;
	p.n = 2;
	p.k = 2;
	Mmad(c, a, b, p);
	PipeBarrier<PIPE_ALL>();
	cr_expect_eq(c.addr_[0], 127 * 127 + 128 * 128);
	cr_expect_eq(c.addr_[1], 381);
	p.cmatrixInitVal = false; /* C += A B */
	Mmad(c, a, b, p);
	PipeBarrier<PIPE_ALL>();
	cr_expect_eq(c.addr_[0], 2 * (127 * 127 + 128 * 128));
	cr_expect_eq(c.addr_[1], 762);
}

Test(cpusim_cube, mmad_bias_in_the_bias_table_is_added_to_every_row)
{
	TPipe pipe;
	TBuf<TPosition::A2> l0a;
	TBuf<TPosition::B2> l0b;
	TBuf<TPosition::CO1> l0c;
	TBuf<TPosition::C2> bt;
	pipe.InitBuffer(l0a, 512);
	pipe.InitBuffer(l0b, 512);
	pipe.InitBuffer(l0c, 1024);
	pipe.InitBuffer(bt, 64);
	LocalTensor<half> a = l0a.Get<half>(), b = l0b.Get<half>();
	LocalTensor<float> c = l0c.Get<float>(), bias = bt.Get<float>();
	for (int i = 0; i < 256; i++) {
		a.addr_[i] = half(0.0);
		b.addr_[i] = half(0.0);
	}
	a.addr_[0] = half(2.0);      /* A(0, 0) */
	a.addr_[16] = half(3.0);     /* A(1, 0) */
	b.addr_[0] = half(5.0);      /* B(0, 0) */
	bias.addr_[0] = 0.5f;
	bias.addr_[1] = -1.0f;
	MmadParams p;
	p.m = 2;
	p.n = 2;
	p.k = 1;
	Mmad(c, a, b, bias, p);
	PipeBarrier<PIPE_ALL>();
	cr_expect_eq(c.addr_[0], 10.5f);
	cr_expect_eq(c.addr_[1], -1.0f);
	cr_expect_eq(c.addr_[16], 15.5f);
	cr_expect_eq(c.addr_[17], -1.0f);
}

Test(cpusim_cube, fixpipe_src_stride_below_m_trips, .exit_code = 3)
{
	TPipe pipe;
	TBuf<TPosition::CO1> l0c;
	pipe.InitBuffer(l0c, 4096);
	static float out[32 * 16];
	FixpipeParamsV220 fp;
	fp.nSize = 16;
	fp.mSize = 32;
	fp.srcStride = 16; /* two 16-row blocks need 32 */
	fp.dstStride = 16;
	Fixpipe<float, float, CFG_ROW_MAJOR>(gm(out, 32 * 16), l0c.Get<float>(), fp);
}

/* ---- the cube pipes in the cycle model --------------------------------------------- */

#include "cube_tiled_kernel.h"

/* Cycles of a 64 x 64 x 512 tiled matmul (8 k tiles of 64) with nbuf
 * buffers per queue; checks the result (small integers: exact). */
static double tiled_cycles(uint8_t nbuf)
{
	enum { M = 64, N = 64, K = 512 };
	static half A[M * K], B[K * N];
	static float C[M * N];
	for (int i = 0; i < M * K; i++)
		A[i] = half(i % 5 - 2);
	for (int i = 0; i < K * N; i++)
		B[i] = half(i % 3 - 1);
	rt::begin_block(0, 1);
	rt::g.ngm = 0;
	cube_tiled_matmul(gm(A, M * K), gm(B, K * N), gm(C, M * N), M, N, K, 64, 64, 64, nbuf);
	int bad = 0;
	for (int i = 0; i < M; i += 7)
		for (int j = 0; j < N; j += 5) {
			int want = 0;
			for (int l = 0; l < K; l++)
				want += ((i * K + l) % 5 - 2) * ((l * N + j) % 3 - 1);
			bad += C[i * N + j] != (float)want;
		}
	cr_expect_eq(bad, 0, "nbuf %u: %d sampled elements differ", nbuf, bad);
	return rt::end_block();
}

Test(cpusim_cube, double_buffered_pipeline_costs_less_than_single_buffered)
{
	const double one = tiled_cycles(1), two = tiled_cycles(2);
	cr_log_info("64x64x512 tiled matmul: single-buffered %.0f cycles, double-buffered %.0f", one, two);
	cr_expect_lt(two, one, "double-buffered %.0f cycles, single-buffered %.0f", two, one);
	/* Both pay at least the GM traffic: 8 x (8 KiB of A + 8 KiB of B) at
	 * 32 bytes a cycle, and the cube's 8 x 4 x 4 x 4 fractals. */
	cr_expect_gt(two, 8.0 * 16384 / 32);
	cr_expect_gt(rt::g.busy[rt::P_M], 0.0);
}

/* Each cube instruction's pipe and time, by hand: the scalar unit issues
 * one instruction a cycle; LoadData of 16 fractals takes 16 MTE1 cycles,
 * a 64 x 64 x 64 fp16 Mmad 4 x 4 x 4 cube cycles, Fixpipe of 64 x 64 fp32
 * (16 KiB) the GM port's 512 cycles at 32 bytes a cycle (its own 64 bytes a
 * cycle is faster) plus the write latency. Nothing orders them, so each
 * starts when issued. */
Test(cpusim_cube, cube_instructions_charge_their_pipes)
{
	static float out[64 * 64];
	GlobalTensor<float> g_out = gm(out, 64 * 64);
	rt::begin_block(0, 1);
	TPipe pipe;
	TBuf<TPosition::A1> l1;
	TBuf<TPosition::A2> l0a;
	TBuf<TPosition::B2> l0b;
	TBuf<TPosition::CO1> l0c;
	pipe.InitBuffer(l1, 8192);
	pipe.InitBuffer(l0a, 8192);
	pipe.InitBuffer(l0b, 8192);
	pipe.InitBuffer(l0c, 16384);
	LoadData(l0a.Get<half>(), l1.Get<half>(), LoadData2DParams(0, 16, 1, 0, 0, false, 0));
	cr_expect_eq(rt::g.done[rt::P_MTE1], 16.0);
	MmadParams p;
	p.m = 64;
	p.n = 64;
	p.k = 64;
	PipeBarrier<PIPE_ALL>(); /* the race check would flag L0A otherwise */
	Mmad(l0c.Get<float>(), l0a.Get<half>(), l0b.Get<half>(), p);
	cr_expect_eq(rt::g.done[rt::P_M], 16.0 + 64.0);
	PipeBarrier<PIPE_ALL>();
	FixpipeParamsV220 fp(64, 64, 64, 64, false);
	Fixpipe<float, float, CFG_ROW_MAJOR>(g_out, l0c.Get<float>(), fp);
	cr_expect_eq(rt::g.busy[rt::P_FIX], 80.0 + 512.0);
	cr_expect_eq(rt::g.done[rt::P_FIX], 80.0 + 512.0 + 100.0);
}

/* ---- races on the cube buffers ---------------------------------------------------------- */

/* One 16 x 16 half tile: GM -> L1 by MTE2, then L1 -> L0A by MTE1, with or
 * without the MTE2 -> MTE1 flag between them. */
static void l1_then_l0a(bool flag, bool refill = false)
{
	static half src[256];
	GlobalTensor<half> g_src = gm(src, 256);
	TPipe pipe;
	TBuf<TPosition::A1> l1;
	TBuf<TPosition::A2> l0a;
	pipe.InitBuffer(l1, 512);
	pipe.InitBuffer(l0a, 512);
	DataCopy(l1.Get<half>(), g_src, Nd2NzParams(1, 16, 16, 0, 16, 16, 1, 0));
	if (flag) {
		SetFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
		WaitFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
	}
	LoadData(l0a.Get<half>(), l1.Get<half>(), LoadData2DParams(0, 1, 0, 0, 0, false, 0));
	if (refill) /* no MTE1 -> MTE2 flag: the copy may land before the load read */
		DataCopy(l1.Get<half>(), g_src, Nd2NzParams(1, 16, 16, 0, 16, 16, 1, 0));
}

Test(cpusim_cube, load_data_racing_the_l1_copy_trips, .exit_code = 3)
{
	l1_then_l0a(false);
}

Test(cpusim_cube, load_data_after_the_mte2_mte1_flag_passes)
{
	l1_then_l0a(true);
	cr_expect_geq(rt::g.busy[rt::P_MTE1], rt::g.done[rt::P_MTE2], "MTE1 started after the copy landed");
}

/* Write after read: MTE2 refills L1 while MTE1 may still be reading it. */
Test(cpusim_cube, refilling_l1_under_a_load_data_trips, .exit_code = 3)
{
	l1_then_l0a(true, true);
}

/* Fixpipe reading L0C the cube is still writing: M -> FIX needs a flag or
 * the CO1 queue. */
static void mmad_then_fixpipe(bool flag)
{
	static float out[256];
	GlobalTensor<float> g_out = gm(out, 256);
	TPipe pipe;
	TBuf<TPosition::A2> l0a;
	TBuf<TPosition::B2> l0b;
	TBuf<TPosition::CO1> l0c;
	pipe.InitBuffer(l0a, 64 * 64 * 2);
	pipe.InitBuffer(l0b, 64 * 64 * 2);
	pipe.InitBuffer(l0c, 64 * 64 * 4);
	MmadParams p; /* 64 cube cycles: still running when Fixpipe is issued */
	p.m = 64;
	p.n = 64;
	p.k = 64;
	Mmad(l0c.Get<float>(), l0a.Get<half>(), l0b.Get<half>(), p);
	if (flag) {
		SetFlag<HardEvent::M_FIX>(EVENT_ID0);
		WaitFlag<HardEvent::M_FIX>(EVENT_ID0);
	}
	Fixpipe<float, float, CFG_ROW_MAJOR>(g_out, l0c.Get<float>(), FixpipeParamsV220(16, 16, 16, 16, false));
}

Test(cpusim_cube, fixpipe_racing_the_mmad_trips, .exit_code = 3)
{
	mmad_then_fixpipe(false);
}

Test(cpusim_cube, fixpipe_after_the_m_fix_flag_passes)
{
	mmad_then_fixpipe(true);
	cr_expect_geq(rt::g.busy[rt::P_FIX], rt::g.done[rt::P_M]);
}

/* ---- Mmad's operand conversion ------------------------------------------------ */

/* Mmad widens half operands through a table: every one of the 65,536
 * halves must give the bits of the per-element conversion, NaNs included. */
Test(cpusim_cube, mmad_widens_every_half_as_the_scalar_conversion)
{
	uint32_t bad = 0;
	for (uint32_t u = 0; u < 65536; u++) {
		const float got = rt::mmad_value(half::from_bits((uint16_t)u)), want = rt::f16_to_f32((uint16_t)u);
		bad += memcmp(&got, &want, sizeof got) != 0;
	}
	cr_expect_eq(bad, 0u, "%u halves widen differently", bad);
}
