/* cube_host_block.h - one simulated block on a 910B outside the harness, for
 * the cube test and benchmark: the SoC values soc/ascend910b.conf gives
 * (vector and cube side) and host arrays registered as kernel arguments. */
#ifndef NPUKB_CPUSIM_BENCH_CUBE_HOST_BLOCK_H
#define NPUKB_CPUSIM_BENCH_CUBE_HOST_BLOCK_H

#include "kernel_operator.h"

inline void cube_host_block_910b(void)
{
	npukb_cpusim::SocParams &p = npukb_cpusim::g.soc;
	memset(&npukb_cpusim::g, 0, sizeof npukb_cpusim::g);
	snprintf(p.name, sizeof p.name, "ascend910b");
	p.ub_bytes = 196608;
	p.cores = 48;
	p.clock_mhz = 1800;
	p.gm_bytes_per_cycle = 32;
	p.hbm_bytes_per_cycle = 1600e3 / 1800;
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
	npukb_cpusim::begin_block(0, 1);
}

/* Registers host memory as the next kernel argument (a GM range). */
template <class T>
inline AscendC::GlobalTensor<T> cube_host_gm(T *p, uint64_t n)
{
	npukb_cpusim::GmRange &r = npukb_cpusim::g.gm[npukb_cpusim::g.ngm];
	r.lo = (uintptr_t)p;
	r.hi = (uintptr_t)(p + n);
	r.arg = npukb_cpusim::g.ngm;
	r.role = "in";
	npukb_cpusim::g.ngm++;
	AscendC::GlobalTensor<T> t;
	t.SetGlobalBuffer(p, n);
	return t;
}

#endif
