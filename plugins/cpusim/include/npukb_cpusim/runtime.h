/* npukb_cpusim/runtime.h - state of the simulated core and its checks.
 *
 * Owns: the SoC parameters, the block being run, the GM ranges the harness
 * mapped, the unified buffer (UB) arena, the per-pipe timelines of the cycle
 * model, and the check reporter. Header-only (inline variables) so that the
 * kernel, the launcher and the harness share one copy without a library.
 * Knows nothing of AscendC names; kernel_operator.h builds on it. */
#ifndef NPUKB_CPUSIM_RUNTIME_H
#define NPUKB_CPUSIM_RUNTIME_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

namespace npukb_cpusim {

/* Where in the kernel source an API call was made. API functions take it as
 * a last parameter defaulted to NPUKB_LOC: the constructor's own defaulted
 * __builtin_FILE/LINE are then evaluated at the kernel's call site (GCC and
 * Clang both do this; a braced SrcLoc{__builtin_FILE(), ...} would not). The
 * tag keeps a stray extra argument such as 0 from converting to a SrcLoc. */
struct SrcLocTag {};
struct SrcLoc {
	const char *file;
	int line;
	SrcLoc(SrcLocTag = SrcLocTag(), const char *f = __builtin_FILE(), int l = __builtin_LINE())
		: file(f), line(l) {}
};
#define NPUKB_LOC (::npukb_cpusim::SrcLoc())

enum Pipe { P_S, P_V, P_MTE2, P_MTE3, P_M, P_MTE1, P_FIX, P_COUNT };

/* g_coreType's values (AscendC's AIC and AIV). */
enum CoreType : int32_t { CORE_AIC = 1, CORE_AIV = 2 };

/* Cost-model and resource parameters of one SoC (soc/<family>.conf). */
struct SocParams {
	char name[64];
	uint32_t ub_bytes;        /* unified buffer per vector core */
	uint32_t cores;           /* vector cores (AIV) blocks are spread over */
	double clock_mhz;
	double gm_bytes_per_cycle;  /* one core's GM port */
	double hbm_bytes_per_cycle; /* the whole chip */
	double mte2_latency, mte3_latency;
	double issue_cycles;        /* scalar cost of issuing any instruction */
	double vec_latency;         /* per vector instruction */
	double vec_repeat_cycles;   /* per 256-byte repeat, simple ops */
	double vec_repeat_cycles_mul;
	double vec_repeat_cycles_div;
	double vec_repeat_cycles_transc; /* exp, sqrt, ln ... */
	double scalar_cycles;      /* GetValue/SetValue on UB */
	double gm_scalar_cycles;   /* GetValue/SetValue on GM */
	double launch_cycles;      /* fixed kernel launch overhead */
	double sync_all_cycles;    /* SyncAll: from the last arrival to the release */
	double cube_fractal_cycles; /* one 16x16x(32 bytes) fractal MAC of the cube */
	/* The AI core's cube buffers (cube_mem.h): L1, L0A, L0B, L0C and the
	 * bias table (C2). */
	uint32_t l1_bytes, l0a_bytes, l0b_bytes, l0c_bytes, bt_bytes;
	double mte1_fractal_cycles; /* LoadData: one 512-byte fractal L1 -> L0 */
	double fix_bytes_per_cycle; /* Fixpipe L0C -> GM */
	/* Vector cores per cube core of an AI core (910B: 2); 0 for a SoC
	 * whose AI cores are not split (310P), where a block has both units. */
	uint32_t aiv_per_aic;
};

struct GmRange {
	uintptr_t lo, hi;
	int arg;           /* kernel parameter index */
	const char *role;  /* "in", "out", "ws", "tiling" */
	/* End of the tensor's device allocation (gm_alloc_bytes: 32 bytes
	 * more, rounded up to GM_ALLOC_ALIGN), as the framework's allocators
	 * give it, so kernels that copy
	 * a whole 32-byte block past a small tensor's end (in or out) work as
	 * on the device; 0 means hi. Bytes written there are not part of the
	 * result; a write reaching another core's bytes is still a race. */
	uintptr_t read_hi;
};

constexpr uint64_t GM_ALLOC_ALIGN = 512;
/* Bytes every device allocation has past its end: aclrtMalloc's rule is
 * "size aligned up to 32, plus 32", and torch_npu's caching allocator
 * (NPUKernelBench's harness) rounds size + 32 up to 512. */
constexpr uint64_t GM_ALLOC_GUARD = 32;

/* The device allocation of a tensor of n bytes. */
inline uint64_t gm_alloc_bytes(uint64_t n)
{
	return (n + GM_ALLOC_GUARD + GM_ALLOC_ALIGN - 1) / GM_ALLOC_ALIGN * GM_ALLOC_ALIGN;
}

/* The largest UB any supported SoC has; the SoC's own size is enforced by
 * the InitBuffer check, the arena only has to hold it. */
constexpr uint32_t UB_ARENA_BYTES = 512u * 1024u;
constexpr int MAX_GM_RANGES = 64;
constexpr int EVENT_KINDS = 32;
constexpr int EVENT_IDS = 8;
constexpr int PORT_SLOTS = 256;
/* UB operands the race check remembers per instruction: TransDataTo5HD's
 * 16 sources and 16 destinations, with room to spare. */
constexpr int UB_PENDING_MAX = 34;

/* The cube buffers (cube_mem.h) share one host arena, each at a fixed
 * origin with room for the largest any supported SoC has (310P: L1 1 MiB,
 * L0C 256 KiB), so that one shadow serves the race check of all. */
enum Mem : uint8_t { M_UB, M_L1, M_L0A, M_L0B, M_L0C, M_BT, M_COUNT };
constexpr uint32_t CUBE_ORIGIN[M_COUNT] = {0, 0, 1u << 20, (1u << 20) + (64u << 10), (1u << 20) + (128u << 10),
					   (1u << 20) + (384u << 10)};
constexpr uint32_t CUBE_ROOM[M_COUNT] = {0, 1u << 20, 64u << 10, 64u << 10, 256u << 10, 4u << 10};
constexpr uint32_t CUBE_ARENA_BYTES = (1u << 20) + (388u << 10);

inline const char *mem_name(Mem m)
{
	static const char *const names[] = {"UB", "L1", "L0A", "L0B", "L0C", "BT"};
	return m < M_COUNT ? names[m] : "?";
}

struct State {
	SocParams soc;
	/* GetBlockIdx: the vector block, 0 .. block_num * task_ratio - 1 (in a
	 * MIX_AIC_1_2 kernel two per AI core); GetBlockNum: the launch's block
	 * dim (AI cores in mix mode); core_idx: the AI core of a mix kernel's
	 * vector block (the device's raw block_idx), block_idx otherwise. */
	int64_t block_idx;
	int64_t block_num;
	int64_t task_ratio;
	int64_t core_idx;
	/* The core the block runs on: CORE_AIC (cube) or CORE_AIV (vector),
	 * g_coreType. core_checks: the kernel's type split it onto one of
	 * them, so an instruction of the other's unit is an error; off for a
	 * kernel that declares no type or a SoC whose AI cores are not split
	 * (the block then has both units, reporting AIV as before). */
	int32_t core_type;
	bool core_checks;
	/* Whose GM writes may overlap without a race (check_gm_write_overlap):
	 * the block, or in a mix kernel the AI core, whose cube and vector
	 * cores order their hand-offs through cross-core flags. */
	int64_t race_unit;
	int ngm;
	GmRange gm[MAX_GM_RANGES];
	uint32_t ub_used;  /* bytes handed out by InitBuffer in this block */
	uint32_t cube_used[8]; /* the same per cube buffer (cube_mem.h's Mem) */
	uint32_t ub_peak;
	/* Cycle model: when each pipe may start its next instruction and when
	 * everything it was given has completed (DMA overlaps its latency). */
	double busy[P_COUNT];
	double done[P_COUNT];
	/* Busy intervals of this core's GM port, sorted and disjoint. */
	int nport;
	double port_s[PORT_SLOTS], port_e[PORT_SLOTS];
	double gm_rate;     /* bytes/cycle this core's GM port gets */
	double event_at[EVENT_KINDS][EVENT_IDS];
	/* Vector mask register: normal mode keeps a 128-bit lane pattern,
	 * counter mode (mask_counter) an element count in vmask[0]. */
	uint64_t vmask[2];
	bool mask_counter;
	/* The vector address registers VA0..VA7 (set_va_reg_sb): 8 UB
	 * addresses each, read by the scatter_vnchwconv builtins. */
	uint64_t va_reg[8][8];
	/* SetAtomicAdd & co: applied by every UB->GM copy until SetAtomicNone. */
	void (*atomic_fn)(void *dst, const void *src, uint64_t bytes);
	/* SyncAll: the scheduler (harness) that suspends this block until every
	 * block has arrived; null when blocks run one after another. */
	void (*sync_all)(SrcLoc at, bool aiv_only);
	/* Cross-core flags (CrossCoreSetFlag/WaitFlag): the scheduler's, null
	 * when blocks run one after another (mode 0 then falls back to
	 * SyncAll). set: `t` is when the flag's pipe has finished its work.
	 * end_core: ends the running core here for good (the cube core of a
	 * mix kernel at REGIST_MATMUL_OBJ, which serves the vector cores'
	 * Matmul calls on the device; cpusim runs them in the vector core). */
	void (*cross_set)(int mode, int flag, double t, SrcLoc at);
	void (*cross_wait)(int flag, SrcLoc at);
	void (*end_core)();
	void *cur_pipe;     /* the block's TPipe (GetTPipePtr) */
	uint64_t tiling_key; /* TILING_KEY_IS */
	/* The value and index the last ReduceMax/ReduceMin found
	 * (GetReduceMaxMinCount). */
	double rmm_value;
	uint64_t rmm_index;
	/* vcadd's accumulator (GetAccVal) and the DEQSCALE register
	 * (SetDeqScale(half), which Cast int32_t -> half multiplies by). */
	uint64_t acc_val;
	double deq_scale;
	/* When the vector instruction that last wrote a register the scalar
	 * unit reads (vcadd's accumulator, ReduceMax/Min's value and index)
	 * completes: the read waits for it (vreg_read). */
	double vreg_at;
	/* When the scalar unit's last UB access ends: auto-sync only has to
	 * look at an instruction's operands if that is still ahead of it. */
	double s_ub_until;
	/* Mode-0 cross-core flags this block has set and not yet waited on. */
	uint32_t cross_core_set;
	/* Per 32-byte block of UB: the state of the queue buffer holding it
	 * (UB_NOT_QUEUE for TBuf and unallocated space), so that any use of a
	 * freed or enqueued tensor is seen. Bounded: 16 KiB. */
	uint8_t ub_owner[UB_ARENA_BYTES / 32];
	/* Pipe races, per 32-byte block of UB: which pipe last wrote it and when
	 * that write completes, which pipe last read it and when that read
	 * ends. An access on another pipe that starts before then was not
	 * ordered by a flag, a queue hand-off or a barrier (the cycle model
	 * delays an instruction exactly for those). Bounded: about 0.5 MiB. */
	double ub_w_done[UB_ARENA_BYTES / 32];
	double ub_r_done[UB_ARENA_BYTES / 32];
	uint8_t ub_w_pipe[UB_ARENA_BYTES / 32];
	uint8_t ub_r_pipe[UB_ARENA_BYTES / 32];
	const char *ub_w_file[UB_ARENA_BYTES / 32];
	int ub_w_line[UB_ARENA_BYTES / 32];
	/* UB operands checked by the instruction being issued, committed to
	 * the race shadow by its cost function (which knows its pipe and
	 * times). */
	struct UbAccess { /* plain data: State is copied and cleared bytewise */
		uint32_t off, bytes;
		bool write;
		bool cube; /* off is in cube_arena (cube_mem.h), not the UB */
		const char *what, *operand;
		const char *file;
		int line;
	} ub_pending[UB_PENDING_MAX];
	int ub_npending;
	uint64_t gm_bytes;  /* all blocks */
	uint64_t vec_instrs;
	uint64_t dma_instrs;
};

enum UbOwner : uint8_t { UB_NOT_QUEUE = 0, UB_FREE, UB_IN_USE, UB_ENQUEUED };

inline State g;
alignas(4096) inline unsigned char ub_arena[UB_ARENA_BYTES];

/* ---- reporting --------------------------------------------------------- */

/* One report line on stderr: "<prefix><category>: <message> (block N) at
 * <file>:<line>" (cpusim_run.c reads them back). */
inline void report_line(const char *prefix, const char *category, SrcLoc loc, const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));

inline void report_line(const char *prefix, const char *category, SrcLoc loc, const char *fmt, va_list ap)
{
	char msg[512];
	vsnprintf(msg, sizeof msg, fmt, ap);
	fflush(stdout);
	fprintf(stderr, "%s%s: %s (block %lld) at %s:%d\n", prefix, category, msg, (long long)g.block_idx,
		loc.file ? loc.file : "?", loc.line);
	fflush(stderr);
}

[[noreturn]] inline void fail(const char *category, SrcLoc loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

[[noreturn]] inline void fail(const char *category, SrcLoc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	report_line("npukb-cpusim: ", category, loc, fmt, ap);
	va_end(ap);
	/* _exit: the kernel's own static destructors must not run after a
	 * report, and a second report must never follow the first. */
	_exit(3);
}

/* A finding the device would compute through (plugins/cpusim/API.md,
 * "Checks"): a documented contract broken with no effect on the output.
 * It is reported on its own line and the kernel goes on, so that the
 * numbers decide the verdict (npukb run --strict fails on it too). Each
 * category and place is reported once, at most DEFECTS_MAX places: a
 * loop must not flood the report the launch's real error comes after. */
constexpr int DEFECTS_MAX = 16;
struct DefectSeen {
	const char *category, *file;
	int line;
	char text[640]; /* the report line, without prefix and newline */
};
inline DefectSeen defects_seen[DEFECTS_MAX];
inline int defects_n;

inline void defect(const char *category, SrcLoc loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

inline void defect(const char *category, SrcLoc loc, const char *fmt, ...)
{
	const char *file = loc.file ? loc.file : "?";
	for (int i = 0; i < defects_n; i++)
		if (defects_seen[i].line == loc.line && strcmp(defects_seen[i].category, category) == 0 &&
		    strcmp(defects_seen[i].file, file) == 0)
			return;
	if (defects_n >= DEFECTS_MAX)
		return;
	DefectSeen &d = defects_seen[defects_n++];
	d.category = category;
	d.file = file;
	d.line = loc.line;
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	/* The verdict takes its defects from the stats file the harness
	 * writes after the kernel (harness.cpp): stderr is the kernel's too,
	 * and a kernel printing past the kept tail, or closing it, would
	 * hide them. The line on stderr is for a person reading a failure. */
	snprintf(d.text, sizeof d.text, "%s: %s (block %lld) at %s:%d", category, msg, (long long)g.block_idx,
		 file, loc.line);
	for (char *c = d.text; *c; c++)
		if (*c == '\n' || *c == '\r')
			*c = ' '; /* one defect, one line of the stats file */
	fflush(stdout);
	fprintf(stderr, "npukb-cpusim-defect: %s\n", d.text);
	fflush(stderr);
}

/* ---- global memory -------------------------------------------------------- */

inline const GmRange *gm_find(uintptr_t p)
{
	for (int i = 0; i < g.ngm; i++)
		if (p >= g.gm[i].lo && p < g.gm[i].hi)
			return &g.gm[i];
	return nullptr;
}

/* An access of `bytes` at p must lie inside one kernel argument. */
inline void gm_check(const void *p, uint64_t bytes, const char *what, SrcLoc loc)
{
	if (bytes == 0)
		return;
	const uintptr_t lo = (uintptr_t)p;
	const GmRange *r = gm_find(lo);
	if (r && lo + bytes <= r->hi)
		return;
	{
		/* An access may start or end in the allocation's padding: the
		 * device has those bytes (the same allocation), and nothing
		 * else reads them, so the output is the same — a defect. */
		for (int i = 0; !r && i < g.ngm; i++)
			if (g.gm[i].read_hi && lo >= g.gm[i].lo && lo < g.gm[i].read_hi)
				r = &g.gm[i];
		if (r && r->read_hi && lo + bytes <= r->read_hi) {
			defect("out-of-bounds", loc,
			       "%s: %llu bytes at offset %llu of argument %d (%s, %llu bytes) run %llu bytes past its end, "
			       "inside its allocation's padding",
			       what, (unsigned long long)bytes, (unsigned long long)(lo - r->lo), r->arg, r->role,
			       (unsigned long long)(r->hi - r->lo), (unsigned long long)(lo + bytes - r->hi));
			return;
		}
	}
	if (r)
		fail("out-of-bounds", loc,
		     "%s: %llu bytes at offset %llu of argument %d (%s, %llu bytes) run %llu bytes past its end",
		     what, (unsigned long long)bytes, (unsigned long long)(lo - r->lo), r->arg, r->role,
		     (unsigned long long)(r->hi - r->lo), (unsigned long long)(lo + bytes - r->hi));
	/* Name the argument just below, the usual victim of a bad offset. */
	const GmRange *below = nullptr;
	for (int i = 0; i < g.ngm; i++)
		if (g.gm[i].lo <= lo && (!below || g.gm[i].lo > below->lo))
			below = &g.gm[i];
	if (below && lo - below->lo < (1ull << 40))
		fail("out-of-bounds", loc,
		     "%s: %llu bytes at offset %llu of argument %d (%s, %llu bytes), outside every kernel argument",
		     what, (unsigned long long)bytes, (unsigned long long)(lo - below->lo), below->arg,
		     below->role, (unsigned long long)(below->hi - below->lo));
	fail("out-of-bounds", loc, "%s: %llu bytes at GM address %p, outside every kernel argument",
	     what, (unsigned long long)bytes, p);
}

/* ---- unified buffer ------------------------------------------------------- */

inline uint32_t ub_offset(const void *p) { return (uint32_t)((const unsigned char *)p - ub_arena); }

/* Carves `bytes` (a multiple of 32) out of the UB for InitBuffer. */
/* An operand within its tensor that runs past the UB's end. When the
 * buffers InitBuffer handed out exceed the UB (a defect until touched, in
 * ub_carve), this is that over-allocation touched: ub-overflow, as the
 * first touch of a wholly outside tensor is. Otherwise the tensor itself
 * was placed past the end (Tril's answer): out-of-bounds. */
[[noreturn]] inline void ub_past_end(const char *what, const char *operand, SrcLoc loc)
{
	if (g.ub_used > g.soc.ub_bytes)
		fail("ub-overflow", loc,
		     "%s: %s runs past the end of the unified buffer (the buffers InitBuffer handed out take %u "
		     "bytes of its %u)",
		     what, operand, g.ub_used, g.soc.ub_bytes);
	fail("out-of-bounds", loc, "%s: %s runs past the end of the unified buffer", what, operand);
}

inline uint32_t ub_carve(uint32_t bytes, const char *what, SrcLoc loc)
{
	const uint64_t end = (uint64_t)g.ub_used + bytes;
	/* Past the SoC's UB, CANN's pool check exists only in CPU-debug
	 * builds: the device hands the addresses out, and only touching them
	 * goes wrong (ub_check and LocalTensor's element access fail then,
	 * as errors). The arena still has to hold what is carved. */
	if (end > UB_ARENA_BYTES)
		fail("ub-overflow", loc,
		     "%s of %u bytes brings the unified buffer to %llu bytes, beyond the %u bytes of %s",
		     what, bytes, (unsigned long long)end, g.soc.ub_bytes, g.soc.name);
	if (end > g.soc.ub_bytes)
		defect("ub-overflow", loc,
		       "%s of %u bytes brings the unified buffer to %llu bytes, beyond the %u bytes of %s "
		       "(an error as soon as a byte past the end is touched)",
		       what, bytes, (unsigned long long)end, g.soc.ub_bytes, g.soc.name);
	const uint32_t off = g.ub_used;
	g.ub_used = (uint32_t)end;
	if (g.ub_used > g.ub_peak)
		g.ub_peak = g.ub_used;
	return off;
}

/* A UB operand of `bytes` starting at p, whose tensor holds `avail` bytes. */
/* A queue's tensor may be used between AllocTensor (or DeQue) and EnQue
 * (or FreeTensor): after FreeTensor the buffer belongs to the queue again,
 * and while enqueued it belongs to the pipe that will dequeue it. */
inline void ub_owner_check(uint32_t off, const char *what, const char *operand, SrcLoc loc)
{
	const uint8_t st = g.ub_owner[off / 32];
	/* FreeTensor only marks the buffer: until an AllocTensor hands it out
	 * again (the state is then UB_IN_USE) it holds what it held, so the
	 * device computes the same (a defect). A pipe race it causes is the
	 * race check's to report. */
	if (st == UB_FREE)
		defect("queue-misuse", loc, "%s: %s is a queue's tensor after FreeTensor (or before AllocTensor)",
		       what, operand);
	if (st == UB_ENQUEUED)
		fail("queue-misuse", loc, "%s: %s is a queue's tensor while it is enqueued (DeQue it first)",
		     what, operand);
}

inline void ub_owner_set(uint32_t off, uint32_t len, UbOwner st)
{
	for (uint32_t b = off / 32; b < (off + len + 31) / 32 && b < UB_ARENA_BYTES / 32; b++)
		g.ub_owner[b] = st;
}

constexpr uint8_t NO_PIPE = 0xff;

/* The race shadow of the cube buffers, per 32-byte block, as State keeps
 * the UB's. Outside State, which a vector core's suspension copies whole:
 * the scheduler (cores.h) saves the used part of it with the cube arena
 * only when another cube core needs them. */
struct CubeShadow {
	double w_done[CUBE_ARENA_BYTES / 32];
	double r_done[CUBE_ARENA_BYTES / 32];
	uint8_t w_pipe[CUBE_ARENA_BYTES / 32];
	uint8_t r_pipe[CUBE_ARENA_BYTES / 32];
	const char *w_file[CUBE_ARENA_BYTES / 32];
	int w_line[CUBE_ARENA_BYTES / 32];
};
inline CubeShadow cube_shadow;

/* One memory's race shadow. */
struct Shadow {
	double *w_done, *r_done;
	uint8_t *w_pipe, *r_pipe;
	const char **w_file;
	int *w_line;
	uint32_t blocks;
};

inline Shadow shadow_of(bool cube)
{
	if (cube)
		return Shadow{cube_shadow.w_done, cube_shadow.r_done, cube_shadow.w_pipe, cube_shadow.r_pipe,
			      cube_shadow.w_file, cube_shadow.w_line, CUBE_ARENA_BYTES / 32};
	return Shadow{g.ub_w_done, g.ub_r_done, g.ub_w_pipe, g.ub_r_pipe, g.ub_w_file, g.ub_w_line, UB_ARENA_BYTES / 32};
}

/* "UB 0x40", "L0A 0x200": where block b of a shadow is. */
inline const char *shadow_where(bool cube, uint32_t b, char *buf, size_t n)
{
	const uint32_t off = b * 32;
	int m = M_UB;
	if (cube)
		for (m = M_BT; m > M_L1 && off < CUBE_ORIGIN[m]; m--)
			;
	snprintf(buf, n, "%s 0x%x", mem_name((Mem)m), off - CUBE_ORIGIN[m]);
	return buf;
}

inline const char *pipe_name(int p)
{
	static const char *const names[] = { "scalar", "vector", "MTE2", "MTE3", "cube", "MTE1", "FIX" };
	return p >= 0 && p < P_COUNT ? names[p] : "?";
}

/* Remembers a UB operand of the instruction being checked; operands of an
 * earlier instruction that never reached a cost function are dropped. */
inline void ub_note_access(uint32_t off, uint64_t bytes, const char *what, const char *operand, SrcLoc loc,
			   bool cube = false)
{
	if (g.ub_npending > 0 &&
	    (g.ub_pending[0].what != what || g.ub_pending[0].line != loc.line ||
	     g.ub_pending[0].file != loc.file))
		g.ub_npending = 0;
	if (g.ub_npending >= UB_PENDING_MAX || bytes == 0)
		return;
	const bool write = strcmp(operand, "destination") == 0 || strcmp(operand, "work tensor") == 0;
	g.ub_pending[g.ub_npending++] = State::UbAccess{off, (uint32_t)bytes, write, cube, what, operand, loc.file, loc.line};
}

/* The race check of one access by pipe p starting at `start`. */
inline void ub_race_access(int p, double start, double read_end, double write_done, const State::UbAccess &a)
{
	SrcLoc at;
	at.file = a.file;
	at.line = a.line;
	const Shadow sh = shadow_of(a.cube);
	char where[48];
	const uint32_t first = a.off / 32, last = (a.off + a.bytes + 31) / 32;
	for (uint32_t b = first; b < last && b < sh.blocks; b++) {
		const int wp = sh.w_pipe[b], rp = sh.r_pipe[b];
		if (wp != NO_PIPE && wp != p && start < sh.w_done[b])
			fail("sync-race", at,
			     "%s (%s pipe) %s its %s at %s while the %s pipe is still writing it (at %s:%d): "
			     "no SetFlag/WaitFlag, queue hand-off or PipeBarrier orders them",
			     a.what, pipe_name(p), a.write ? "writes" : "reads", a.operand,
			     shadow_where(a.cube, b, where, sizeof where), pipe_name(wp),
			     sh.w_file[b] ? sh.w_file[b] : "?", sh.w_line[b]);
		if (a.write && rp != NO_PIPE && rp != p && start < sh.r_done[b])
			fail("sync-race", at,
			     "%s (%s pipe) overwrites its %s at %s while the %s pipe may still be reading it: "
			     "no SetFlag/WaitFlag, queue hand-off or PipeBarrier orders them",
			     a.what, pipe_name(p), a.operand, shadow_where(a.cube, b, where, sizeof where), pipe_name(rp));
		/* one pass: a block's check reads only its own shadow, and a
		 * failing check ends the run, so updating as we go finds the
		 * same races */
		if (a.write) {
			sh.w_pipe[b] = (uint8_t)p;
			sh.w_done[b] = write_done;
			sh.w_file[b] = a.file;
			sh.w_line[b] = a.line;
		} else if (sh.r_pipe[b] == p || sh.r_pipe[b] == NO_PIPE || read_end >= sh.r_done[b]) {
			sh.r_pipe[b] = (uint8_t)p;
			sh.r_done[b] = read_end;
		}
	}
}

/* pipe `to` cannot start before time t (a flag, a queue hand-off). */
inline void wait_until(Pipe to, double t)
{
	if (t > g.busy[to])
		g.busy[to] = t;
	if (g.busy[to] > g.done[to])
		g.done[to] = g.busy[to];
}

/* CANN builds kernels with --cce-auto-sync by default (kernel launch and
 * custom operator projects alike): the compiler inserts the flags between
 * the scalar unit and the MTE2, MTE3 and vector pipes wherever a LocalTensor
 * is shared, so those pairs are never races there; MTE2/vector/MTE3
 * hand-offs remain the kernel's job (queues, flags). The harness turns it
 * off for a sample whose CMakeLists.txt says --cce-auto-sync=off. */
inline bool auto_sync = true;

inline bool auto_synced(int a, int b)
{
	const auto mem_or_vec = [](int p) { return p == P_V || p == P_MTE2 || p == P_MTE3; };
	return (a == P_S && mem_or_vec(b)) || (b == P_S && mem_or_vec(a));
}

/* The flag auto-sync inserts before an instruction of pipe p: p waits
 * until the other pipe's conflicting access to its operands is over. */
inline void ub_auto_sync_wait(int p)
{
	if (!auto_sync || g.ub_npending == 0 || (p != P_S && g.s_ub_until <= g.busy[p]))
		return;
	/* the cube's pipes are never auto-synced (auto_synced is false for
	 * every pair with one of them): nothing to wait for */
	if (p != P_S && p != P_V && p != P_MTE2 && p != P_MTE3)
		return;
	double t = 0;
	for (int i = 0; i < g.ub_npending; i++) {
		const State::UbAccess &a = g.ub_pending[i];
		const Shadow sh = shadow_of(a.cube);
		const uint32_t first = a.off / 32, last = (a.off + a.bytes + 31) / 32;
		for (uint32_t b = first; b < last && b < sh.blocks; b++) {
			const int wp = sh.w_pipe[b], rp = sh.r_pipe[b];
			if (wp != NO_PIPE && auto_synced(p, wp) && sh.w_done[b] > t)
				t = sh.w_done[b];
			if (a.write && rp != NO_PIPE && auto_synced(p, rp) && sh.r_done[b] > t)
				t = sh.r_done[b];
		}
	}
	wait_until((Pipe)p, t);
}

/* Called by each cost function with the instruction's pipe and times. */
inline void ub_race_commit(int p, double start, double read_end, double write_done)
{
	/* Reads first: "reads what another pipe is writing" is the usual
	 * diagnosis when an in-place destination is also a source. */
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < g.ub_npending; i++)
			if (g.ub_pending[i].write == (pass == 1))
				ub_race_access(p, start, read_end, write_done, g.ub_pending[i]);
	g.ub_npending = 0;
}

/* A tensor an over-allocating InitBuffer placed past the SoC's UB (the
 * arena is larger, so the kernel could run on): touching it is an error. */
inline void ub_past_soc(uintptr_t a, const char *what, const char *operand, SrcLoc loc)
{
	const uintptr_t base = (uintptr_t)ub_arena;
	if (a >= base + g.soc.ub_bytes && a < base + UB_ARENA_BYTES)
		fail("ub-overflow", loc, "%s: %s at UB 0x%llx lies past the %u bytes of %s's unified buffer", what,
		     operand, (unsigned long long)(a - base), g.soc.ub_bytes, g.soc.name);
}

/* On a split AI core the cube core (AIC) has L1, L0A/L0B/L0C and the bias
 * table but no unified buffer or vector unit, a vector core (AIV) the
 * reverse. CANN's own instruction wrappers test the core type and compile
 * to nothing on the wrong one, so the device silently skips such an
 * instruction: an error here, where the kernel can be told which branch it
 * belongs in. cube: the operand is in a cube buffer (else the UB). */
inline void core_unit_check(bool cube, const char *what, const char *operand, SrcLoc loc)
{
	if (!g.core_checks || cube == (g.core_type == CORE_AIC))
		return;
	if (cube)
		fail("core-type", loc,
		     "%s: %s is in a cube-core buffer (L1/L0/BT), but this is vector core AIV %lld, which has none; "
		     "the device skips the instruction (put it under `if ASCEND_IS_AIC`)",
		     what, operand, (long long)g.block_idx);
	fail("core-type", loc,
	     "%s: %s is in the unified buffer, but this is cube core AIC %lld, which has no UB or vector unit; "
	     "the device skips the instruction (put it under `if ASCEND_IS_AIV`)",
	     what, operand, (long long)g.block_idx);
}

inline void ub_check(const void *p, uint64_t bytes, uint64_t avail, const char *what,
		     const char *operand, SrcLoc loc)
{
	core_unit_check(false, what, operand, loc);
	const uintptr_t a = (uintptr_t)p, base = (uintptr_t)ub_arena;
	ub_past_soc(a, what, operand, loc);
	if (a < base || a >= base + g.soc.ub_bytes)
		fail("out-of-bounds", loc, "%s: %s is not a unified-buffer tensor (uninitialised LocalTensor?)",
		     what, operand);
	const uint32_t off = (uint32_t)(a - base);
	ub_owner_check(off, what, operand, loc);
	if (off % 32 != 0)
		fail("misaligned", loc, "%s: %s at UB address 0x%x is not 32-byte aligned", what, operand, off);
	if (bytes > avail)
		fail("out-of-bounds", loc, "%s: %s: %llu bytes requested from a tensor of %llu bytes",
		     what, operand, (unsigned long long)bytes, (unsigned long long)avail);
	if (off + bytes > g.soc.ub_bytes)
		ub_past_end(what, operand, loc);
	ub_note_access(off, bytes, what, operand, loc);
}

/* ---- cycle model ---------------------------------------------------------- */

inline double max2(double a, double b) { return a > b ? a : b; }

inline double issue()
{
	const double at = g.busy[P_S];
	g.busy[P_S] += g.soc.issue_cycles;
	g.done[P_S] = g.busy[P_S];
	return at;
}

/* Books `dur` cycles of the GM port from time t on, filling idle gaps in time
 * order and splitting across them: MTE2 and MTE3 run concurrently, so a
 * transfer issued later in program order may use the port earlier. Returns
 * when the last byte has moved. */
inline double port_book(double t, double dur)
{
	/* Nothing can start before the earlier of the two MTE pipes: older
	 * intervals no longer matter. */
	const double horizon = g.busy[P_MTE2] < g.busy[P_MTE3] ? g.busy[P_MTE2] : g.busy[P_MTE3];
	int keep = 0;
	for (int i = 0; i < g.nport; i++)
		if (g.port_e[i] > horizon) {
			g.port_s[keep] = g.port_s[i];
			g.port_e[keep] = g.port_e[i];
			keep++;
		}
	g.nport = keep;

	double ns[PORT_SLOTS + 1], ne[PORT_SLOTS + 1];
	int n = 0;
	double left = dur;
	for (int i = 0; i < g.nport && left > 0; i++) {
		if (g.port_e[i] <= t)
			continue;
		if (g.port_s[i] > t) {
			const double take = g.port_s[i] - t < left ? g.port_s[i] - t : left;
			ns[n] = t;
			ne[n] = t + take;
			n++;
			left -= take;
			t += take;
		}
		if (left > 0 && g.port_e[i] > t)
			t = g.port_e[i];
	}
	if (left > 0) {
		ns[n] = t;
		ne[n] = t + left;
		n++;
		t += left;
	}
	/* Merge the new pieces in, coalescing touching intervals. */
	double ms[2 * PORT_SLOTS + 1], me[2 * PORT_SLOTS + 1];
	int m = 0, i = 0, j = 0;
	while (i < g.nport || j < n) {
		double s, e;
		if (j >= n || (i < g.nport && g.port_s[i] <= ns[j])) {
			s = g.port_s[i];
			e = g.port_e[i];
			i++;
		} else {
			s = ns[j];
			e = ne[j];
			j++;
		}
		if (m > 0 && s <= me[m - 1]) {
			if (e > me[m - 1])
				me[m - 1] = e;
		} else {
			ms[m] = s;
			me[m] = e;
			m++;
		}
	}
	/* Too many gaps to track: close the earliest ones (slightly pessimistic). */
	while (m > PORT_SLOTS) {
		me[0] = me[1];
		for (int k = 1; k + 1 < m; k++) {
			ms[k] = ms[k + 1];
			me[k] = me[k + 1];
		}
		m--;
	}
	for (int k = 0; k < m; k++) {
		g.port_s[k] = ms[k];
		g.port_e[k] = me[k];
	}
	g.nport = m;
	return t;
}

/* GM<->UB transfer on an MTE pipe: streams through the core's GM port at its
 * share of the bandwidth; the latency overlaps the pipe's next transfer. */
inline void cost_dma(Pipe p, uint64_t bytes)
{
	ub_auto_sync_wait(p);
	const double start = max2(g.busy[p], issue());
	const double end = port_book(start, (double)bytes / g.gm_rate);
	const double lat = p == P_MTE3 ? g.soc.mte3_latency : g.soc.mte2_latency;
	g.busy[p] = end;
	g.done[p] = max2(g.done[p], end + lat);
	/* UB is read while the bytes stream, written when they have landed. */
	ub_race_commit(p, start, end, end + lat);
	g.gm_bytes += bytes;
	g.dma_instrs++;
}

inline void cost_vec(uint64_t bytes, double per_repeat)
{
	ub_auto_sync_wait(P_V);
	const double start = max2(g.busy[P_V], issue());
	const uint64_t repeats = (bytes + 255) / 256;
	const double end = start + g.soc.vec_latency + (double)repeats * per_repeat;
	g.busy[P_V] = end;
	g.done[P_V] = end;
	g.vec_instrs++;
	ub_race_commit(P_V, start, end, end);
}

/* A vector instruction of `repeats` repeats (mask/repeat forms). */
inline void cost_vec_rep(uint64_t repeats, double per_repeat)
{
	ub_auto_sync_wait(P_V);
	const double start = max2(g.busy[P_V], issue());
	const double end = start + g.soc.vec_latency + (double)repeats * per_repeat;
	g.busy[P_V] = end;
	g.done[P_V] = end;
	g.vec_instrs++;
	ub_race_commit(P_V, start, end, end);
}

/* A UB operand that only needs element alignment (reduction results). */
inline void ub_check_elem(const void *p, uint64_t bytes, uint64_t avail, uint32_t align,
			  const char *what, const char *operand, SrcLoc loc)
{
	core_unit_check(false, what, operand, loc);
	const uintptr_t a = (uintptr_t)p, base = (uintptr_t)ub_arena;
	ub_past_soc(a, what, operand, loc);
	if (a < base || a >= base + g.soc.ub_bytes)
		fail("out-of-bounds", loc, "%s: %s is not a unified-buffer tensor (uninitialised LocalTensor?)",
		     what, operand);
	const uint32_t off = (uint32_t)(a - base);
	ub_owner_check(off, what, operand, loc);
	if (off % align != 0)
		fail("misaligned", loc, "%s: %s at UB address 0x%x is not %u-byte aligned", what, operand,
		     off, align);
	if (bytes > avail)
		fail("out-of-bounds", loc, "%s: %s: %llu bytes requested from a tensor of %llu bytes",
		     what, operand, (unsigned long long)bytes, (unsigned long long)avail);
	if (off + bytes > g.soc.ub_bytes)
		ub_past_end(what, operand, loc);
	ub_note_access(off, bytes, what, operand, loc);
}

/* ---- GM writes of different blocks ------------------------------------------
 * Two cores writing the same GM bytes with no SyncAll between them race on
 * the device: the result depends on which is last (and a DataCopy of whole
 * 32-byte blocks past a core's own range clobbers its neighbour's). Every
 * non-atomic UB->GM copy is logged as a byte range with its block and
 * SyncAll epoch; consecutive ranges of one block merge, so a streaming
 * kernel costs a few records per block. The harness checks the log when
 * the launch ends (check_gm_write_overlap). Bounded: past GM_LOG_MAX
 * records the rest of the launch is not logged. */
struct GmWrite {
	uintptr_t lo, hi;
	/* The hull of the bytes the writes changed (empty when chg_lo ==
	 * chg_hi): blocks run one after another, so a later block whose
	 * write changed nothing in an overlap wrote the values already there,
	 * and the race between them cannot change the output. */
	uintptr_t chg_lo, chg_hi;
	int64_t block;
	uint32_t epoch;
	SrcLoc at;
};
constexpr size_t GM_LOG_MAX = (size_t)1 << 20;
inline GmWrite *gm_log;
inline size_t gm_log_n, gm_log_cap;
inline uint32_t gm_epoch; /* SyncAll barriers passed by the whole launch */

/* src: the bytes about to be written, to tell which change the memory;
 * null when unknown (every byte counts as changed). Call before writing. */
inline void gm_note_write(const void *dst, uint64_t bytes, SrcLoc loc, const void *src = nullptr)
{
	const uintptr_t lo = (uintptr_t)dst;
	if (bytes == 0)
		return;
	uint64_t c0 = 0, c1 = bytes;
	if (src) {
		const unsigned char *d = (const unsigned char *)dst, *s = (const unsigned char *)src;
		while (c0 < bytes && d[c0] == s[c0])
			c0++;
		while (c1 > c0 && d[c1 - 1] == s[c1 - 1])
			c1--;
	}
	const uintptr_t chg_lo = lo + c0, chg_hi = c0 < c1 ? lo + c1 : lo + c0;
	if (gm_log_n > 0) {
		GmWrite &last = gm_log[gm_log_n - 1];
		if (last.block == g.race_unit && last.epoch == gm_epoch && lo >= last.lo &&
		    lo <= last.hi) {
			last.hi = lo + bytes > last.hi ? lo + bytes : last.hi;
			if (chg_lo < chg_hi) {
				if (last.chg_lo == last.chg_hi) {
					last.chg_lo = chg_lo;
					last.chg_hi = chg_hi;
				} else {
					last.chg_lo = chg_lo < last.chg_lo ? chg_lo : last.chg_lo;
					last.chg_hi = chg_hi > last.chg_hi ? chg_hi : last.chg_hi;
				}
			}
			return;
		}
	}
	if (gm_log_n == gm_log_cap) {
		if (gm_log_cap >= GM_LOG_MAX)
			return;
		const size_t cap = gm_log_cap ? 2 * gm_log_cap : 1024;
		GmWrite *p = (GmWrite *)realloc(gm_log, cap * sizeof(GmWrite));
		if (!p)
			return;
		gm_log = p;
		gm_log_cap = cap;
	}
	gm_log[gm_log_n++] = GmWrite{lo, lo + bytes, chg_lo, chg_hi, g.race_unit, gm_epoch, loc};
}

/* Every UB->GM copy goes through here so that SetAtomicAdd applies; the
 * atomic ones combine on the device and are not races. */
inline void gm_store(void *dst, const void *src, uint64_t bytes, SrcLoc loc)
{
	if (g.atomic_fn) {
		g.atomic_fn(dst, src, bytes);
	} else {
		gm_note_write(dst, bytes, loc, src);
		memcpy(dst, src, bytes);
	}
}

inline void cost_scalar(double cycles)
{
	ub_auto_sync_wait(P_S);
	const double start = g.busy[P_S];
	g.busy[P_S] += cycles;
	g.done[P_S] = g.busy[P_S];
	if (g.ub_npending > 0)
		g.s_ub_until = g.busy[P_S];
	ub_race_commit(P_S, start, g.busy[P_S], g.busy[P_S]);
}

/* The vector instruction just costed wrote a register the scalar unit
 * reads. */
inline void vreg_written() { g.vreg_at = g.done[P_V]; }

/* The scalar unit reads such a register: as on the device (CANN's own
 * operators read GetAccVal right after vcadd), the read waits until the
 * vector pipe has written it, and everything the scalar unit issues
 * afterwards is ordered after it (cost model and race check alike). */
inline void vreg_read()
{
	wait_until(P_S, g.vreg_at);
	g.busy[P_S] += g.soc.scalar_cycles;
	g.done[P_S] = g.busy[P_S];
}

inline double pipe_done(Pipe p) { return p == P_S ? g.busy[P_S] : g.done[p]; }

inline void barrier_all()
{
	double t = 0;
	for (int i = 0; i < P_COUNT; i++)
		t = max2(t, max2(g.busy[i], g.done[i]));
	for (int i = 0; i < P_COUNT; i++)
		g.busy[i] = g.done[i] = t;
}

/* The cube (high-level Matmul, matmul.h): the block's AI core loads A and B
 * (in_bytes) over its MTE2 at the block's GM rate while the cube computes
 * one 16 x 16 x (32 bytes of K) fractal per cube_fractal_cycles, then the
 * FIX pipe stores C (out_bytes; an atomic store reads it too). Charged to
 * the block's cube pipe; the vector core waits for it, as a synchronous
 * IterateAll does on the device. Not modelled: the two vector blocks of a
 * MIX_AIC_1_2 kernel sharing one cube, L1 reuse across base blocks (each
 * operand is read once) [the rate and the overlap are unconfirmed]. */
inline void cost_cube(uint64_t in_bytes, uint64_t out_bytes, uint64_t m, uint64_t n, uint64_t k, size_t elem_bytes)
{
	const uint64_t c0 = elem_bytes ? 32 / elem_bytes : 16;
	const double fractals = (double)((m + 15) / 16) * (double)((n + 15) / 16) * (double)((k + c0 - 1) / c0);
	const double start = max2(g.busy[P_M], issue());
	const double load = (double)in_bytes / g.gm_rate, mac = fractals * g.soc.cube_fractal_cycles;
	const double end = start + g.soc.mte2_latency + max2(load, mac) + (double)out_bytes / g.gm_rate +
			   g.soc.mte3_latency;
	g.busy[P_M] = g.done[P_M] = end;
	wait_until(P_S, end);
	g.gm_bytes += in_bytes + out_bytes;
}

/* KERNEL_TASK_TYPE_DEFAULT's kernel type, as the cores it runs per
 * launched block: cube cores (0 or 1) and vector cores (0, 1 or 2);
 * declared_kernel_type is -1 until a kernel declares one, and
 * declared_task_ratio the vector cores (1 for AIC-only kernels, so that
 * GetTaskRation's formula still holds). Set during static initialisation
 * (kernel_operator.h), so the harness knows it before any block runs. */
inline int declared_kernel_type = -1;
inline int declared_aic = 0, declared_aiv = 0;
inline int64_t declared_task_ratio = 0;
inline int declare_kernel_type(int type, int aic, int aiv)
{
	declared_kernel_type = type;
	declared_aic = aic;
	declared_aiv = aiv;
	declared_task_ratio = aiv > 1 ? aiv : 1;
	return 0;
}

/* ---- blocks --------------------------------------------------------------- */

/* Block idx of a launch of num blocks, ratio vector blocks each; a
 * vector core of a split AI core leaves the cube buffers' shadow alone
 * (the cube core of its AI core may be using it). */
inline void begin_block(int64_t idx, int64_t num, int64_t ratio = 1, bool vector_core_only = false)
{
	g.block_idx = idx;
	g.block_num = num;
	g.task_ratio = ratio;
	g.core_idx = idx / ratio;
	g.core_type = CORE_AIV;
	g.core_checks = false;
	g.race_unit = idx;
	g.ub_used = 0;
	memset(g.cube_used, 0, sizeof g.cube_used);
	memset(g.ub_owner, UB_NOT_QUEUE, sizeof g.ub_owner);
	memset(g.ub_w_pipe, NO_PIPE, sizeof g.ub_w_pipe);
	memset(g.ub_r_pipe, NO_PIPE, sizeof g.ub_r_pipe);
	if (!vector_core_only) {
		memset(cube_shadow.w_pipe, NO_PIPE, sizeof cube_shadow.w_pipe);
		memset(cube_shadow.r_pipe, NO_PIPE, sizeof cube_shadow.r_pipe);
	}
	g.ub_npending = 0;
	for (int i = 0; i < P_COUNT; i++)
		g.busy[i] = g.done[i] = 0;
	g.nport = 0;
	g.vmask[0] = g.vmask[1] = ~0ull;
	g.mask_counter = false;
	memset(g.va_reg, 0, sizeof g.va_reg);
	g.atomic_fn = nullptr;
	g.cur_pipe = nullptr;
	g.acc_val = 0;
	g.deq_scale = 1.0;
	g.vreg_at = 0;
	for (int k = 0; k < EVENT_KINDS; k++)
		for (int i = 0; i < EVENT_IDS; i++)
			g.event_at[k][i] = 0;
	const uint64_t vec_blocks = (uint64_t)(num * ratio);
	const uint64_t active = vec_blocks < g.soc.cores ? vec_blocks : g.soc.cores;
	const double share = g.soc.hbm_bytes_per_cycle / (double)(active ? active : 1);
	g.gm_rate = share < g.soc.gm_bytes_per_cycle ? share : g.soc.gm_bytes_per_cycle;
}

/* Cycles the block took on its core. */
inline double end_block()
{
	double t = 0;
	for (int i = 0; i < P_COUNT; i++)
		t = max2(t, max2(g.busy[i], g.done[i]));
	return t;
}

} // namespace npukb_cpusim

#endif
