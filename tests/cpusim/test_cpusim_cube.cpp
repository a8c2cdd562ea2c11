/* test_cpusim_cube.cpp - cpusim's low-level cube: the positions A1/B1/C1
 * (L1), A2 (L0A), B2 (L0B), CO1 (L0C), C2 (bias table) with their SoC
 * capacities and alignments, checked against hand-computed offsets (a
 * failed check exits with status 3). */
#include <criterion/criterion.h>

#include "kernel_operator.h"

using namespace AscendC;
namespace rt = npukb_cpusim;

/* One block on a 910B: the capacities soc/ascend910b.conf gives. */
static void setup_block(void)
{
	rt::SocParams &p = rt::g.soc;
	memset(&rt::g, 0, sizeof rt::g);
	snprintf(p.name, sizeof p.name, "test910b");
	p.ub_bytes = 196608;
	p.cores = 48;
	p.clock_mhz = 1800;
	p.gm_bytes_per_cycle = 32;
	p.hbm_bytes_per_cycle = 888;
	p.mte2_latency = 200;
	p.mte3_latency = 100;
	p.issue_cycles = 1;
	p.vec_latency = 10;
	p.vec_repeat_cycles = 1;
	p.cube_fractal_cycles = 1;
	p.l1_bytes = 524288;
	p.l0a_bytes = 65536;
	p.l0b_bytes = 65536;
	p.l0c_bytes = 131072;
	p.bt_bytes = 1024;
	p.mte1_fractal_cycles = 1;
	p.fix_bytes_per_cycle = 64;
	rt::begin_block(0, 1);
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
