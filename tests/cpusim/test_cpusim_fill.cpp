/* test_cpusim_fill.cpp - Fill / InitConstValue on the cube buffers: which
 * bytes an L1 fill (32-byte blocks) and an L0 fill (512-byte fractals)
 * write, with repeats and gaps, the alignment each buffer demands, and the
 * pipe each one is charged to. The expected offsets are worked out by hand
 * from CANN's description of InitConstValueParams (a failed check exits
 * with status 3). */
#include <criterion/criterion.h>

#include "kernel_operator.h"
#include "cube_host_block.h"

using namespace AscendC;
namespace rt = npukb_cpusim;

static void setup_block(void)
{
	cube_host_block_910b();
}

TestSuite(cpusim_fill, .init = setup_block);

/* 3 repeats of 2 blocks with a gap of 1 block, in L1 (32-byte blocks of 16
 * halves): blocks 0-1, 3-4 and 6-7 are written, 2, 5 and 8 are not. */
Test(cpusim_fill, l1_blocks_repeats_and_gaps)
{
	TPipe pipe;
	TBuf<TPosition::A1> l1;
	pipe.InitBuffer(l1, 9 * 32);
	LocalTensor<half> t = l1.Get<half>();
	memset(t.addr_, 0x11, 9 * 32);
	Fill(t, InitConstValueParams<half>(3, 2, 1, half(-2.5f)));
	for (int b = 0; b < 9; b++) {
		const bool written = b % 3 != 2;
		for (int e = 0; e < 16; e++) {
			const half v = t.addr_[b * 16 + e];
			if (written)
				cr_expect_eq((float)v, -2.5f, "block %d element %d", b, e);
			else
				cr_expect_eq(v.bits, 0x1111, "block %d element %d is in a gap", b, e);
		}
	}
}

/* In L0A a block is a 512-byte fractal: 128 floats. 2 repeats of 1 fractal
 * with a gap of 1 fractal fill floats 0..127 and 256..383 only. */
Test(cpusim_fill, l0a_fractals_of_float)
{
	TPipe pipe;
	TBuf<TPosition::A2> l0a;
	pipe.InitBuffer(l0a, 3 * 512);
	LocalTensor<float> t = l0a.Get<float>();
	for (int i = 0; i < 384; i++)
		t.addr_[i] = 7.0f;
	InitConstValue(t, InitConstValueParams<float>(2, 1, 1, 0.0f));
	cr_expect_eq(t.addr_[0], 0.0f);
	cr_expect_eq(t.addr_[127], 0.0f);
	cr_expect_eq(t.addr_[128], 7.0f);
	cr_expect_eq(t.addr_[255], 7.0f);
	cr_expect_eq(t.addr_[256], 0.0f);
	cr_expect_eq(t.addr_[383], 0.0f);
}

/* An L0B fill of 4 fractals costs the MTE1 4 fractal-cycles (1 each on
 * this SoC), the first instruction of the block so starting at cycle 0. */
Test(cpusim_fill, l0_fill_charges_the_mte1)
{
	TPipe pipe;
	TBuf<TPosition::B2> l0b;
	pipe.InitBuffer(l0b, 4 * 512);
	Fill(l0b.Get<half>(), InitConstValueParams<half>(1, 4, 0, half(0.0f)));
	cr_expect_eq(rt::g.done[rt::P_MTE1], 4.0);
	cr_expect_eq(rt::g.done[rt::P_MTE2], 0.0);
}

/* An L1 fill of 32 blocks (1024 bytes, 2 fractals' worth) is charged to
 * the MTE2, not the MTE1. */
Test(cpusim_fill, l1_fill_charges_the_mte2)
{
	TPipe pipe;
	TBuf<TPosition::B1> l1;
	pipe.InitBuffer(l1, 1024);
	Fill(l1.Get<half>(), InitConstValueParams<half>(1, 32, 0, half(0.0f)));
	cr_expect_eq(rt::g.done[rt::P_MTE2], 2.0);
	cr_expect_eq(rt::g.done[rt::P_MTE1], 0.0);
}

/* 32 bytes into L0B is aligned for L1 but not for a fractal. */
Test(cpusim_fill, l0b_start_off_a_fractal_trips, .exit_code = 3)
{
	TPipe pipe;
	TBuf<TPosition::B2> l0b;
	pipe.InitBuffer(l0b, 2 * 512);
	Fill(l0b.Get<half>()[16], InitConstValueParams<half>(1, 1, 0, half(0.0f)));
}

/* 2 repeats of 1 block with a gap of 1 reach 3 blocks: 96 bytes of a
 * 64-byte tensor. */
Test(cpusim_fill, fill_past_its_tensor_trips, .exit_code = 3)
{
	TPipe pipe;
	TBuf<TPosition::A1> l1;
	pipe.InitBuffer(l1, 64);
	Fill(l1.Get<half>(), InitConstValueParams<half>(2, 1, 1, half(1.0f)));
}

/* The UB is not a cube buffer. */
Test(cpusim_fill, fill_in_ub_trips, .exit_code = 3)
{
	TPipe pipe;
	TBuf<TPosition::VECCALC> ub;
	pipe.InitBuffer(ub, 512);
	Fill(ub.Get<half>(), InitConstValueParams<half>(1, 1, 0, half(1.0f)));
}
