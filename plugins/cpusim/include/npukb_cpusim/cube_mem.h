/* npukb_cpusim/cube_mem.h - the AI core's cube buffers: L1, L0A, L0B, L0C
 * and the bias table (BT, TPosition C2).
 *
 * Owns: one host arena holding every cube buffer at a fixed origin (so one
 * 32-byte-block shadow serves the race check of all of them), carving
 * InitBuffer space out of each within the SoC's capacity, and the operand
 * check of the cube instructions (bounds, alignment). The instructions are
 * in cube.h, the positions and queues in kernel_operator.h. */
#ifndef NPUKB_CPUSIM_CUBE_MEM_H
#define NPUKB_CPUSIM_CUBE_MEM_H

#include "npukb_cpusim/runtime.h"

namespace npukb_cpusim {

alignas(4096) inline unsigned char cube_arena[CUBE_ARENA_BYTES];

/* The SoC's capacity of a cube buffer. */
inline uint32_t cube_capacity(Mem m)
{
	switch (m) {
	case M_L1: return g.soc.l1_bytes;
	case M_L0A: return g.soc.l0a_bytes;
	case M_L0B: return g.soc.l0b_bytes;
	case M_L0C: return g.soc.l0c_bytes;
	case M_BT: return g.soc.bt_bytes;
	default: return 0;
	}
}

/* Where a buffer's InitBuffer space starts: L0A/L0B tensors must start on a
 * 512-byte fractal, L0C tensors on 256 elements of fp32/int32 (1 KiB), the
 * bias table on 128 bytes (Mmad's documented operand alignments); L1 and UB
 * on 32 bytes. InitBuffer rounds each buffer up to it, so that every
 * buffer it hands out starts aligned. */
inline uint32_t mem_align(Mem m)
{
	switch (m) {
	case M_L0A:
	case M_L0B: return 512;
	case M_L0C: return 1024;
	case M_BT: return 128;
	default: return 32;
	}
}

inline unsigned char *cube_base(Mem m) { return cube_arena + CUBE_ORIGIN[m]; }

/* Carves `bytes` (already rounded to mem_align) out of cube buffer m. */
inline uint32_t cube_carve(Mem m, uint32_t bytes, const char *what, SrcLoc loc)
{
	const uint64_t end = (uint64_t)g.cube_used[m] + bytes;
	const uint32_t cap = cube_capacity(m);
	if (end > cap || end > CUBE_ROOM[m])
		fail("resource-limit", loc, "%s of %u bytes brings %s to %llu bytes, beyond the %u bytes of %s", what,
		     bytes, mem_name(m), (unsigned long long)end, cap, g.soc.name);
	const uint32_t off = g.cube_used[m];
	g.cube_used[m] = (uint32_t)end;
	return off;
}

/* Which cube buffer holds p (M_COUNT: none). */
inline Mem cube_mem_of(const void *p)
{
	const uintptr_t a = (uintptr_t)p, base = (uintptr_t)cube_arena;
	if (a < base || a >= base + CUBE_ARENA_BYTES)
		return M_COUNT;
	const uint32_t off = (uint32_t)(a - base);
	for (int m = M_BT; m >= M_L1; m--)
		if (off >= CUBE_ORIGIN[m])
			return (Mem)m;
	return M_COUNT;
}

/* An operand of a cube instruction: `bytes` at p must lie in buffer `want`
 * (one of the buffers the instruction accepts: a bit per Mem), inside
 * the tensor's `avail` bytes and the SoC's capacity, `align`-aligned. */
inline Mem cube_check(const void *p, uint64_t bytes, uint64_t avail, unsigned want, uint32_t align,
		      const char *what, const char *operand, SrcLoc loc)
{
	const Mem m = ((want & (1u << M_UB)) && (uintptr_t)p >= (uintptr_t)ub_arena &&
		       (uintptr_t)p < (uintptr_t)ub_arena + UB_ARENA_BYTES)
			      ? M_UB
			      : cube_mem_of(p);
	if (m == M_COUNT || !(want & (1u << m))) {
		char names[64] = "";
		for (int i = 0; i < M_COUNT; i++)
			if (want & (1u << i))
				snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
					 names[0] ? " or " : "", mem_name((Mem)i));
		if (m == M_COUNT)
			fail("out-of-bounds", loc, "%s: %s is not a tensor in %s (uninitialised LocalTensor?)", what,
			     operand, names);
		fail("out-of-bounds", loc, "%s: %s is a tensor in %s, not in %s", what, operand, mem_name(m), names);
	}
	if (m == M_UB) {
		ub_check(p, bytes, avail, what, operand, loc);
		return m;
	}
	core_unit_check(true, what, operand, loc);
	const uint32_t off = (uint32_t)((const unsigned char *)p - cube_base(m));
	if (off % align != 0)
		fail("misaligned", loc, "%s: %s at %s address 0x%x is not %u-byte aligned", what, operand,
		     mem_name(m), off, align);
	if (bytes > avail)
		fail("out-of-bounds", loc, "%s: %s: %llu bytes requested from a tensor of %llu bytes", what,
		     operand, (unsigned long long)bytes, (unsigned long long)avail);
	if (off + bytes > cube_capacity(m))
		fail("out-of-bounds", loc, "%s: %s runs past the end of %s (%u bytes)", what, operand, mem_name(m),
		     cube_capacity(m));
	ub_note_access(CUBE_ORIGIN[m] + off, bytes, what, operand, loc, true);
	return m;
}

/* A GM -> local DataCopy's name in findings. */
inline const char *gm_copy_name(const void *dst)
{
	return cube_mem_of(dst) == M_COUNT ? "DataCopy GM->UB" : "DataCopy GM->L1";
}

/* The destination of a GM -> local DataCopy: UB (MTE2 into the vector
 * core) or L1 (MTE2 into the cube core, TPosition A1/B1/C1). */
inline void local_check(const void *p, uint64_t bytes, uint64_t avail, const char *what, const char *operand,
			SrcLoc loc)
{
	if (cube_mem_of(p) == M_COUNT)
		ub_check(p, bytes, avail, what, operand, loc);
	else
		cube_check(p, bytes, avail, 1u << M_L1, 32, what, operand, loc);
}

} // namespace npukb_cpusim

#endif
