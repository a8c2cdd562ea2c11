/* block_fixture.h - the fixture the cpusim header tests share: one block
 * on a 910B-like SoC with round cost parameters (costs the tests work out
 * by hand), and a UB arena of 0xee bytes handed out in order, so a test
 * sees which bytes an instruction left untouched. Included once by each
 * test program, after kernel_operator.h. */
#ifndef NPUKB_TESTS_CPUSIM_BLOCK_FIXTURE_H
#define NPUKB_TESTS_CPUSIM_BLOCK_FIXTURE_H
#include <stdio.h>
#include <string.h>

#include "cube_host_block.h"

static uint32_t ub_next;
/* The boundary ub() puts each tensor on (a suite that needs more, like
 * Sort32's 256 bytes, raises it in its own init). */
static uint32_t ub_align = 32;

static void setup_block(void)
{
	npukb_cpusim::SocParams &p = npukb_cpusim::g.soc;
	memset(&npukb_cpusim::g, 0, sizeof npukb_cpusim::g);
	snprintf(p.name, sizeof p.name, "test");
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
	p.vec_repeat_cycles_mul = 1;
	p.vec_repeat_cycles_div = 4;
	p.vec_repeat_cycles_transc = 4;
	p.scalar_cycles = 2;
	p.gm_scalar_cycles = 100;
	p.cube_fractal_cycles = 1;
	npukb_cpusim::begin_block(0, 1);
	npukb_cpusim::defects_n = 0;
	ub_next = 0;
	ub_align = 32;
	memset(npukb_cpusim::ub_arena, 0xee, 65536);
}

/* A UB tensor of n elements on a ub_align boundary, filled with 0xee bytes. */
template <class T>
static AscendC::LocalTensor<T> ub(uint32_t n)
{
	ub_next = (ub_next + ub_align - 1) & ~(ub_align - 1);
	AscendC::LocalTensor<T> t((T *)(void *)(npukb_cpusim::ub_arena + ub_next), n);
	ub_next += (uint32_t)((n * sizeof(T) + 31) & ~(size_t)31);
	return t;
}
/* Registers host memory as the next kernel argument (a GM range). */
template <class T>
static AscendC::GlobalTensor<T> gm(T *p, uint64_t n)
{
	return cube_host_gm(p, n);
}

#endif
