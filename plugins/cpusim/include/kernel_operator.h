/* kernel_operator.h - npukb cpusim's AscendC subset, for compiling unmodified
 * kernel sources with the host C++ compiler (C++17).
 *
 * Owns: the AscendC vocabulary kernels use (qualifiers, GM_ADDR, TPipe, TQue,
 * TBuf, LocalTensor, GlobalTensor, DataCopy, flags, SyncAll) on top of
 * npukb_cpusim/runtime.h, which checks what the hardware would reject and
 * charges cycles. The instruction families live in npukb_cpusim/vec.h
 * (vector arithmetic, masks, Compare/Select, Duplicate, Axpy, Brcb),
 * cast.h (Cast), copy_pad.h (DataCopyPad, atomics) and reduce.h. Written from the public API description, not from
 * CANN's sources. Every call that can fail a check takes a trailing
 * defaulted SrcLoc so that a report names the kernel's own file and line.
 *
 * The high-level Matmul is in npukb_cpusim/matmul.h (lib/matmul_intf.h, as
 * in CANN); the low-level cube instructions (DataCopy GM->L1 with Nd2Nz,
 * LoadData, Mmad, Fixpipe) in npukb_cpusim/cube.h. */
#ifndef NPUKB_CPUSIM_KERNEL_OPERATOR_H
#define NPUKB_CPUSIM_KERNEL_OPERATOR_H

#include <math.h>
#include <stdint.h>
#include <type_traits>
#include <utility>

#include "npukb_cpusim/fp16.h"
#include "npukb_cpusim/runtime.h"
#include "npukb_cpusim/cube_mem.h"

/* Device qualifiers mean nothing on the host. */
#define __global__
#define __aicore__
#define __gm__
#define __ubuf__
#define GM_ADDR uint8_t *

/* Kernel types (KERNEL_TASK_TYPE_DEFAULT). A KERNEL_TYPE_MIX_AIC_1_2
 * kernel's block dim counts AI cores, each running the kernel's vector code
 * on two vector cores: cpusim runs 2 x blockDim vector blocks, GetBlockIdx
 * numbering them 0 .. 2 x blockDim - 1 and GetBlockNum() staying blockDim
 * (GetTaskRation() is 2, so GetBlockNum() * GetTaskRation() vector blocks).
 * Every other type runs blockDim blocks. */
enum KernelMetaType {
	KERNEL_TYPE_AIV_ONLY, KERNEL_TYPE_AIC_ONLY, KERNEL_TYPE_MIX_AIV_1_0, KERNEL_TYPE_MIX_AIC_1_0,
	KERNEL_TYPE_MIX_AIC_1_1, KERNEL_TYPE_MIX_AIC_1_2, KERNEL_TYPE_AICORE, KERNEL_TYPE_VECTORCORE,
	KERNEL_TYPE_MIX_AICORE, KERNEL_TYPE_MIX_VECTOR_CORE, KERNEL_TYPE_MAX
};
namespace npukb_cpusim {
/* The macro sits in the kernel's body, which runs only after the blocks
 * have been counted; naming this template's static member there
 * instantiates it, and its initialiser records the type during static
 * initialisation, before main(). */
template <int type>
struct KernelTaskType {
	static inline const int registered = declare_task_ratio(type == KERNEL_TYPE_MIX_AIC_1_2 ? 2 : 1);
};
} // namespace npukb_cpusim
#define KERNEL_TASK_TYPE_DEFAULT(type) ((void)::npukb_cpusim::KernelTaskType<(int)(type)>::registered)

/* Kernel sources guard their device-only launch wrappers (the <<<>>> call)
 * with #ifndef ASCENDC_CPU_DEBUG, CANN's CPU debug mode: this is one. */
#ifndef ASCENDC_CPU_DEBUG
#define ASCENDC_CPU_DEBUG 1
#endif

/* The device compiler's spellings of the float types. */
using float16_t = half;
using float32_t = float;

/* ASSERT compiles to nothing in a device build: its argument is not even
 * looked up (expert answers rely on that), so it is not evaluated here
 * either. */
#ifndef ASSERT
#define ASSERT(...)
#endif

/* TILING_KEY_IS(k): the launch's tiling key (harness option --tiling-key,
 * 0 by default) is k. */
#define TILING_KEY_IS(k) (::npukb_cpusim::g.tiling_key == (uint64_t)(k))

/* Compiler builtins on the device, hence outside the AscendC namespace. */
enum pipe_t { PIPE_S, PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_ALL, PIPE_FIX };
enum event_t { EVENT_ID0, EVENT_ID1, EVENT_ID2, EVENT_ID3, EVENT_ID4, EVENT_ID5, EVENT_ID6, EVENT_ID7 };

/* The device compiler's builtins count AI cores in a mix kernel (the
 * vector block's core; get_subblockid is which of its vector cores). */
inline int64_t get_block_idx() { return npukb_cpusim::g.core_idx; }
inline int64_t get_block_num() { return npukb_cpusim::g.block_num; }
inline int64_t get_subblockid() { return npukb_cpusim::g.block_idx % npukb_cpusim::g.task_ratio; }
inline int64_t get_subblockdim() { return npukb_cpusim::g.task_ratio; }
/* The device compiler's block_idx and block_num variables: the running
 * block's own (g holds the running block's state). A kernel's local or
 * member of the same name hides them, as on the device. */
inline const int64_t &block_idx = npukb_cpusim::g.core_idx;
inline const int64_t &block_num = npukb_cpusim::g.block_num;
inline void pipe_barrier(pipe_t p)
{
	if (p == PIPE_ALL)
		npukb_cpusim::barrier_all();
}

namespace AscendC {

using npukb_cpusim::SrcLoc;
using TEventID = int8_t;

constexpr int32_t ONE_BLK_SIZE = 32;
constexpr int32_t ONE_REPEAT_BYTE_SIZE = 256;
constexpr int32_t MAX_REPEAT_TIMES = 255;
constexpr int32_t ONE_BLK_FLOAT_NUM = 8;
constexpr int32_t ONE_BLK_HALF_NUM = 16;
constexpr int32_t DEFAULT_REPEAT_STRIDE = 8;

enum class TPosition : uint8_t {
	GM, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC, SPM, TSCM, C2PIPE2GM,
	C2PIPE2LOCAL, MAX,
	LCM = VECCALC,
	SHM = SPM
};
using QuePosition = TPosition;

/* SRC_DST: the flag is set by SRC when it is done and waited for by DST. */
#define NPUKB_EVENTS(X)                                                                      \
	X(MTE2_V, P_MTE2, P_V) X(V_MTE2, P_V, P_MTE2) X(MTE3_V, P_MTE3, P_V)                   \
	X(V_MTE3, P_V, P_MTE3) X(MTE2_MTE3, P_MTE2, P_MTE3) X(MTE3_MTE2, P_MTE3, P_MTE2)       \
	X(S_V, P_S, P_V) X(V_S, P_V, P_S) X(S_MTE2, P_S, P_MTE2) X(MTE2_S, P_MTE2, P_S)        \
	X(S_MTE3, P_S, P_MTE3) X(MTE3_S, P_MTE3, P_S) X(V_V, P_V, P_V) X(M_V, P_M, P_V)        \
	X(V_M, P_V, P_M) X(MTE2_MTE1, P_MTE2, P_MTE1) X(MTE1_MTE2, P_MTE1, P_MTE2)             \
	X(MTE1_M, P_MTE1, P_M) X(M_MTE1, P_M, P_MTE1) X(MTE2_M, P_MTE2, P_M)                   \
	X(M_MTE2, P_M, P_MTE2) X(M_FIX, P_M, P_FIX) X(FIX_M, P_FIX, P_M)                       \
	X(FIX_S, P_FIX, P_S) X(M_S, P_M, P_S) X(S_M, P_S, P_M) X(FIX_MTE2, P_FIX, P_MTE2)      \
	X(MTE2_FIX, P_MTE2, P_FIX) X(MTE3_MTE1, P_MTE3, P_MTE1) X(MTE1_MTE3, P_MTE1, P_MTE3)

#define NPUKB_EV_NAME(n, s, d) n,
enum class HardEvent : uint8_t { NPUKB_EVENTS(NPUKB_EV_NAME) MAX };
#undef NPUKB_EV_NAME

namespace detail {
struct EvPipes {
	npukb_cpusim::Pipe src, dst;
};
#define NPUKB_EV_PIPES(n, s, d) {npukb_cpusim::s, npukb_cpusim::d},
constexpr EvPipes ev_pipes[] = {NPUKB_EVENTS(NPUKB_EV_PIPES)};
#undef NPUKB_EV_PIPES
static_assert(sizeof ev_pipes / sizeof ev_pipes[0] <= npukb_cpusim::EVENT_KINDS, "event table");

inline void check_event_id(int32_t id, const char *what, SrcLoc loc)
{
	if (id < 0 || id >= npukb_cpusim::EVENT_IDS)
		npukb_cpusim::fail("sync-race", loc, "%s: event id %d outside 0..%d", what, id,
				   npukb_cpusim::EVENT_IDS - 1);
}
} // namespace detail
#undef NPUKB_EVENTS

inline int64_t GetBlockIdx() { return npukb_cpusim::g.block_idx; }
inline int64_t GetBlockNum() { return npukb_cpusim::g.block_num; }
/* Vector cores per AI core a mix kernel runs on (1 for other kernels). */
inline int64_t GetTaskRation() { return npukb_cpusim::g.task_ratio; }
inline int64_t GetTaskRatio() { return npukb_cpusim::g.task_ratio; }
inline int64_t GetSubBlockIdx() { return npukb_cpusim::g.block_idx % npukb_cpusim::g.task_ratio; }
/* Scalar conversions of the bfloat16 helpers (ToFloat(bf16) and back). */
inline float ToFloat(bfloat16_t v) { return (float)v; }
inline float ToFloat(half v) { return (float)v; }
inline float ToFloat(float v) { return v; }
inline bfloat16_t ToBfloat16(float v) { return bfloat16_t(v); }

/* Host+device builds reserve the system workspace at the front, as CANN
 * does (the tiling asks GetLibApiWorkSpaceSize() + its own); kernel-only
 * mode hands the user workspace itself. */
#ifndef NPUKB_SYS_WORKSPACE
#define NPUKB_SYS_WORKSPACE 0
#endif
inline GM_ADDR GetUserWorkspace(GM_ADDR workspace)
{
	return workspace ? workspace + NPUKB_SYS_WORKSPACE : workspace;
}
/* No system workspace is reserved: the user workspace is the whole argument. */
inline void SetSysWorkspace(GM_ADDR) {}
inline GM_ADDR GetSysWorkSpacePtr()
{
	for (int i = 0; i < npukb_cpusim::g.ngm; i++)
		if (strcmp(npukb_cpusim::g.gm[i].role, "ws") == 0)
			return (GM_ADDR)npukb_cpusim::g.gm[i].lo;
	return nullptr;
}

template <pipe_t pipe>
inline void PipeBarrier()
{
	/* A pipe executes in order, so only PIPE_ALL changes the timeline. */
	if (pipe == PIPE_ALL)
		npukb_cpusim::barrier_all();
}

namespace detail {
inline npukb_cpusim::Pipe pipe_of(pipe_t p, const char *what, SrcLoc loc)
{
	switch (p) {
	case PIPE_S: return npukb_cpusim::P_S;
	case PIPE_V: return npukb_cpusim::P_V;
	case PIPE_M: return npukb_cpusim::P_M;
	case PIPE_MTE1: return npukb_cpusim::P_MTE1;
	case PIPE_MTE2: return npukb_cpusim::P_MTE2;
	case PIPE_MTE3: return npukb_cpusim::P_MTE3;
	case PIPE_FIX: return npukb_cpusim::P_FIX;
	default: npukb_cpusim::fail("sync-race", loc, "%s: pipe %d cannot set or wait for a flag", what, (int)p);
	}
}
/* The HardEvent kind of a (source pipe, destination pipe) flag. */
inline int event_kind(pipe_t src, pipe_t dst, const char *what, SrcLoc loc)
{
	const npukb_cpusim::Pipe s = pipe_of(src, what, loc), d = pipe_of(dst, what, loc);
	for (int k = 0; k < (int)(sizeof ev_pipes / sizeof ev_pipes[0]); k++)
		if (ev_pipes[k].src == s && ev_pipes[k].dst == d)
			return k;
	npukb_cpusim::fail("sync-race", loc, "%s: no flag between pipes %d and %d", what, (int)src, (int)dst);
}
} // namespace detail

template <HardEvent e>
inline void SetFlag(int32_t id, SrcLoc loc = NPUKB_LOC)
{
	detail::check_event_id(id, "SetFlag", loc);
	const detail::EvPipes p = detail::ev_pipes[(int)e];
	npukb_cpusim::g.event_at[(int)e][id] = npukb_cpusim::pipe_done(p.src);
}

template <HardEvent e>
inline void WaitFlag(int32_t id, SrcLoc loc = NPUKB_LOC)
{
	detail::check_event_id(id, "WaitFlag", loc);
	const detail::EvPipes p = detail::ev_pipes[(int)e];
	npukb_cpusim::wait_until(p.dst, npukb_cpusim::g.event_at[(int)e][id]);
}

} // namespace AscendC

/* The compiler builtins behind SetFlag/WaitFlag, with pipes as arguments. */
inline void set_flag(pipe_t src, pipe_t dst, int32_t id, AscendC::SrcLoc loc = NPUKB_LOC)
{
	AscendC::detail::check_event_id(id, "set_flag", loc);
	const int k = AscendC::detail::event_kind(src, dst, "set_flag", loc);
	npukb_cpusim::g.event_at[k][id] = npukb_cpusim::pipe_done(AscendC::detail::ev_pipes[k].src);
}
inline void wait_flag(pipe_t src, pipe_t dst, int32_t id, AscendC::SrcLoc loc = NPUKB_LOC)
{
	AscendC::detail::check_event_id(id, "wait_flag", loc);
	const int k = AscendC::detail::event_kind(src, dst, "wait_flag", loc);
	npukb_cpusim::wait_until(AscendC::detail::ev_pipes[k].dst, npukb_cpusim::g.event_at[k][id]);
}

#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#endif
#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif

namespace AscendC {

template <class T, class U> struct IsSameType { static constexpr bool value = false; };
template <class T> struct IsSameType<T, T> { static constexpr bool value = true; };

/* ---- tensors -------------------------------------------------------------- */

template <class T>
class LocalTensor {
public:
	using PrimType = T;
	T *addr_ = nullptr;   /* inside npukb_cpusim::ub_arena */
	uint32_t size_ = 0;   /* elements */

	LocalTensor() = default;
	LocalTensor(T *addr, uint32_t size) : addr_(addr), size_(size) {}

	LocalTensor operator[](uint32_t offset) const
	{
		return LocalTensor(addr_ + offset, offset <= size_ ? size_ - offset : 0);
	}
	uint32_t GetSize() const { return size_; }
	void SetSize(uint32_t n) { size_ = n; }
	uint32_t GetLength() const { return size_ * (uint32_t)sizeof(T); }
	/* On the device the UB address, here the host address, so that kernels
	 * casting it to a (__ubuf__ T *) pointer keep working. */
	uint64_t GetPhyAddr() const { return (uint64_t)(uintptr_t)addr_; }

	T GetValue(uint32_t i, SrcLoc loc = NPUKB_LOC) const
	{
		at(i, "LocalTensor::GetValue", loc);
		npukb_cpusim::cost_scalar(npukb_cpusim::g.soc.scalar_cycles);
		return addr_[i];
	}
	template <class U>
	void SetValue(uint32_t i, U value, SrcLoc loc = NPUKB_LOC) const
	{
		at(i, "LocalTensor::SetValue", loc);
		npukb_cpusim::cost_scalar(npukb_cpusim::g.soc.scalar_cycles);
		addr_[i] = (T)value;
	}
	T &operator()(uint32_t i) const
	{
		at(i, "LocalTensor::operator()", NPUKB_LOC);
		return addr_[i];
	}
	/* `dst = a * b` and AscendC's other operator forms: the right-hand side
	 * is an expression object (npukb_cpusim/tensor_ops.h) run into *this. */
	template <class Expr, class = decltype(std::declval<const Expr &>().assign_to(std::declval<const LocalTensor &>()))>
	void operator=(const Expr &e)
	{
		e.assign_to(*this);
	}
	template <class U>
	LocalTensor<U> ReinterpretCast() const
	{
		return LocalTensor<U>((U *)(void *)addr_, (uint32_t)((uint64_t)size_ * sizeof(T) / sizeof(U)));
	}

private:
	void at(uint32_t i, const char *what, SrcLoc loc) const
	{
		if (!addr_)
			npukb_cpusim::fail("out-of-bounds", loc, "%s on a LocalTensor that holds no buffer", what);
		if (i >= size_)
			npukb_cpusim::fail("out-of-bounds", loc, "%s: index %u of a tensor of %u elements", what,
					   i, size_);
		const uintptr_t a = (uintptr_t)(addr_ + i), base = (uintptr_t)npukb_cpusim::ub_arena;
		/* The arena is larger than the SoC's UB so that an
		 * over-allocating InitBuffer can run on: touching past the
		 * SoC's end is what fails on the device. */
		if (a >= base + npukb_cpusim::g.soc.ub_bytes && a < base + npukb_cpusim::UB_ARENA_BYTES)
			npukb_cpusim::fail("ub-overflow", loc, "%s: element at UB 0x%llx, past the %u bytes of %s", what,
					   (unsigned long long)(a - base), npukb_cpusim::g.soc.ub_bytes,
					   npukb_cpusim::g.soc.name);
		if (a >= base && a < base + npukb_cpusim::UB_ARENA_BYTES) {
			npukb_cpusim::ub_owner_check((uint32_t)(a - base), what, "the tensor", loc);
			/* GetValue/SetValue run on the scalar pipe (their cost_scalar
			 * commits the access); operator() has no pipe of its own. */
			if (what[13] == 'G' || what[13] == 'S')
				npukb_cpusim::ub_note_access((uint32_t)(a - base), sizeof(T), what,
							     what[13] == 'S' ? "destination" : "element", loc);
		}
	}
};

/* L2 cache hints (GlobalTensor::SetL2CacheHint). On the device a hint
 * changes only where the data lives between GM and the cores, never the
 * values read or written; cpusim models no L2, so a hint is accepted and
 * changes nothing. */
enum class CacheMode { CACHE_MODE_DISABLE = 0, CACHE_MODE_NORMAL = 1, CACHE_MODE_LAST = 2, CACHE_MODE_PERSISTENT = 4 };
enum class CacheRwMode { READ = 1, WRITE = 2, RW = 3 };

template <class T>
class GlobalTensor {
public:
	using PrimType = T;
	T *addr_ = nullptr;
	uint64_t size_ = 0;

	template <CacheRwMode rwMode = CacheRwMode::RW>
	void SetL2CacheHint(CacheMode)
	{
	}

	void SetGlobalBuffer(T *buffer, uint64_t size)
	{
		addr_ = buffer;
		size_ = size;
	}
	void SetGlobalBuffer(T *buffer)
	{
		addr_ = buffer;
		size_ = 0;
	}
	GlobalTensor operator[](uint64_t offset) const
	{
		GlobalTensor r;
		r.addr_ = addr_ + offset;
		r.size_ = offset <= size_ ? size_ - offset : 0;
		return r;
	}
	uint64_t GetSize() const { return size_; }
	T *GetPhyAddr() const { return addr_; }
	T *GetPhyAddr(uint64_t offset) const { return addr_ + offset; }

	T GetValue(uint64_t i, SrcLoc loc = NPUKB_LOC) const
	{
		npukb_cpusim::gm_check(addr_ + i, sizeof(T), "GlobalTensor::GetValue", loc);
		npukb_cpusim::cost_scalar(npukb_cpusim::g.soc.gm_scalar_cycles);
		return addr_[i];
	}
	template <class U>
	void SetValue(uint64_t i, U value, SrcLoc loc = NPUKB_LOC) const
	{
		npukb_cpusim::gm_check(addr_ + i, sizeof(T), "GlobalTensor::SetValue", loc);
		npukb_cpusim::cost_scalar(npukb_cpusim::g.soc.gm_scalar_cycles);
		addr_[i] = (T)value;
	}
};

/* Barrier across all blocks of the launch. The device needs every block
 * resident at once, so more blocks than cores deadlock there. Blocks run
 * as coroutines in the harness (runtime/harness.cpp), which resumes them
 * together once all have arrived. */
template <bool isAIVOnly = true>
inline void SyncAll(SrcLoc loc = NPUKB_LOC)
{
	npukb_cpusim::State &g = npukb_cpusim::g;
	if ((uint64_t)(g.block_num * g.task_ratio) > g.soc.cores)
		npukb_cpusim::fail("sync-race", loc,
				   "SyncAll with %lld blocks on %u cores: not all blocks can be resident, the device deadlocks",
				   (long long)(g.block_num * g.task_ratio), g.soc.cores);
	npukb_cpusim::barrier_all();
	if (g.sync_all)
		g.sync_all(loc);
	else if (g.block_num > 1)
		npukb_cpusim::fail("sync-race", loc, "SyncAll: this runner cannot suspend blocks");
}
template <bool isAIVOnly = true>
inline void SyncAll(const GlobalTensor<int32_t> &, const LocalTensor<int32_t> &, SrcLoc loc = NPUKB_LOC)
{
	SyncAll<isAIVOnly>(loc);
}

/* Cross-core flags. Mode 0 synchronises every core of the launch: each
 * sets the flag and then waits until all have set it, which cpusim runs as
 * SyncAll (same deadlock checks). Modes 1 and 2 pair vector cores with
 * each other or with the cube core of their AI core, which cpusim does
 * not model: a compile error says so. */
constexpr uint16_t CROSS_CORE_FLAGS = 16;

template <uint8_t modeId, pipe_t pipe>
inline void CrossCoreSetFlag(uint16_t flagId, SrcLoc loc = NPUKB_LOC)
{
	static_assert(modeId == 0, "CrossCoreSetFlag: cpusim models mode 0 (all cores) only");
	if (flagId >= CROSS_CORE_FLAGS)
		npukb_cpusim::fail("sync-race", loc, "CrossCoreSetFlag: flag id %u outside 0..%u", flagId,
				   CROSS_CORE_FLAGS - 1);
	npukb_cpusim::g.cross_core_set |= 1u << flagId;
}

template <uint8_t modeId = 0, pipe_t pipe = PIPE_S>
inline void CrossCoreWaitFlag(uint16_t flagId, SrcLoc loc = NPUKB_LOC)
{
	static_assert(modeId == 0, "CrossCoreWaitFlag: cpusim models mode 0 (all cores) only");
	if (flagId >= CROSS_CORE_FLAGS || !(npukb_cpusim::g.cross_core_set & (1u << flagId)))
		npukb_cpusim::fail("sync-race", loc,
				   "CrossCoreWaitFlag(%u): this block did not set the flag first; mode 0 waits for every "
				   "core, this one included, so the device waits forever",
				   flagId);
	npukb_cpusim::g.cross_core_set &= ~(1u << flagId);
	SyncAll<true>(loc);
}

/* The host has no separate scalar data cache to flush: no-ops. */
enum class CacheLine : uint8_t { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE };
enum class DcciDst : uint8_t { CACHELINE_ALL = 0, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };
template <class T, CacheLine entireType, DcciDst dst>
inline void DataCacheCleanAndInvalid(const GlobalTensor<T> &) {}
template <class T, CacheLine entireType>
inline void DataCacheCleanAndInvalid(const GlobalTensor<T> &) {}

/* ---- queues and the pipe ---------------------------------------------------- */

namespace detail {

/* The pipes a queue hands its tensors between: GM -> L1 (A1, B1, C1) is
 * MTE2's, L1 -> L0A/L0B/BT (A2, B2, C2) MTE1's, the cube reads L0A/L0B/BT
 * and writes L0C (CO1), FIX drains L0C. CO2 (the cube's result in UB) is
 * written by FIX and read by the vector pipe. */
constexpr npukb_cpusim::Pipe producer_of(TPosition src)
{
	switch (src) {
	case TPosition::VECIN:
	case TPosition::A1:
	case TPosition::B1:
	case TPosition::C1: return npukb_cpusim::P_MTE2;
	case TPosition::A2:
	case TPosition::B2:
	case TPosition::C2: return npukb_cpusim::P_MTE1;
	case TPosition::CO1: return npukb_cpusim::P_M;
	case TPosition::CO2: return npukb_cpusim::P_FIX;
	default: return npukb_cpusim::P_V;
	}
}
constexpr npukb_cpusim::Pipe consumer_of(TPosition dst)
{
	switch (dst) {
	case TPosition::VECOUT: return npukb_cpusim::P_MTE3;
	case TPosition::A1:
	case TPosition::B1:
	case TPosition::C1: return npukb_cpusim::P_MTE1;
	case TPosition::A2:
	case TPosition::B2:
	case TPosition::C2: return npukb_cpusim::P_M;
	case TPosition::CO1: return npukb_cpusim::P_FIX;
	default: return npukb_cpusim::P_V;
	}
}
/* The buffer a position's InitBuffer carves from. CO2 is taken as UB (the
 * cube result's vector-side home) [unconfirmed for 910B, where Fixpipe
 * writes GM directly]. */
constexpr npukb_cpusim::Mem mem_of(TPosition pos)
{
	switch (pos) {
	case TPosition::A1:
	case TPosition::B1:
	case TPosition::C1: return npukb_cpusim::M_L1;
	case TPosition::A2: return npukb_cpusim::M_L0A;
	case TPosition::B2: return npukb_cpusim::M_L0B;
	case TPosition::CO1: return npukb_cpusim::M_L0C;
	case TPosition::C2: return npukb_cpusim::M_BT;
	default: return npukb_cpusim::M_UB;
	}
}
inline unsigned char *mem_base(npukb_cpusim::Mem m)
{
	return m == npukb_cpusim::M_UB ? npukb_cpusim::ub_arena : npukb_cpusim::cube_base(m);
}
/* InitBuffer's space: a UB buffer rounded up to 32 bytes, a cube buffer to
 * its operands' alignment. */
inline uint32_t carve(npukb_cpusim::Mem m, uint32_t *len, uint32_t num, SrcLoc loc)
{
	const uint32_t a = npukb_cpusim::mem_align(m);
	*len = (*len + a - 1) / a * a;
	return m == npukb_cpusim::M_UB ? npukb_cpusim::ub_carve(*len * num, "InitBuffer", loc)
				       : npukb_cpusim::cube_carve(m, *len * num, "InitBuffer", loc);
}

enum BufState : uint8_t { B_FREE, B_ALLOC, B_QUEUED, B_DEQUEUED };
constexpr int MAX_QUE_BUFS = 8;

/* The position-independent part of a queue: its buffers, their states, the
 * FIFO of enqueued buffers, and the hand-off times the cycle model uses. */
class QueueState {
public:
	QueueState(npukb_cpusim::Pipe prod, npukb_cpusim::Pipe cons, int32_t depth,
		   npukb_cpusim::Mem mem = npukb_cpusim::M_UB)
		: prod_(prod), cons_(cons), depth_(depth), mem_(mem) {}
	QueueState(const QueueState &) = delete;
	QueueState &operator=(const QueueState &) = delete;
	~QueueState()
	{
		for (int i = 0; i < num_; i++)
			/* The kernel has computed everything by now: on the
			 * device an unfreed buffer changes no output (a defect). */
			if (bufs_[i].state != B_FREE)
				npukb_cpusim::defect("queue-misuse", bufs_[i].loc,
						     "tensor allocated here was never freed (still %s when the kernel ended)",
						     bufs_[i].state == B_QUEUED ? "enqueued" : "in use");
	}

	void init(int num, uint32_t len, SrcLoc loc)
	{
		if (num < 1 || num > MAX_QUE_BUFS)
			npukb_cpusim::fail("queue-misuse", loc, "InitBuffer: %d buffers for a queue (1..%d allowed)",
					   num, MAX_QUE_BUFS);
		if (len == 0)
			npukb_cpusim::fail("queue-misuse", loc, "InitBuffer: buffers of 0 bytes");
		for (int i = 0; i < num_; i++)
			if (bufs_[i].state != B_FREE)
				npukb_cpusim::fail("queue-misuse", loc, "InitBuffer on a queue whose tensors are in use");
		uint32_t rounded = len;
		const uint32_t off = carve(mem_, &rounded, (uint32_t)num, loc);
		num_ = num;
		/* A buffer holds its length rounded up to 32 bytes (InitBuffer's
		 * documented alignment): a 4-byte queue takes a 32-byte DataCopy. */
		len_ = rounded;
		next_ = 0;
		head_ = count_ = 0;
		for (int i = 0; i < num; i++) {
			bufs_[i].off = off + (uint32_t)i * rounded;
			bufs_[i].state = B_FREE;
			bufs_[i].free_at = 0;
			bufs_[i].ready_at = 0;
		}
		owner_set(off, rounded * (uint32_t)num, npukb_cpusim::UB_FREE);
	}

	unsigned char *alloc(uint32_t *len, SrcLoc loc)
	{
		if (num_ == 0)
			npukb_cpusim::fail("queue-misuse", loc, "AllocTensor on a queue that has no buffers (missing pipe.InitBuffer)");
		for (int k = 0; k < num_; k++) {
			const int i = (next_ + k) % num_;
			if (bufs_[i].state == B_FREE) {
				next_ = (uint8_t)((i + 1) % num_);
				bufs_[i].state = B_ALLOC;
				bufs_[i].loc = loc;
				owner_set(bufs_[i].off, len_, npukb_cpusim::UB_IN_USE);
				/* The producer reuses the buffer only after its consumer freed it. */
				npukb_cpusim::wait_until(prod_, bufs_[i].free_at);
				*len = len_;
				return mem_base(mem_) + bufs_[i].off;
			}
		}
		npukb_cpusim::fail("queue-misuse", loc, "AllocTensor: all %d buffers of the queue are in use (missing FreeTensor?)",
				   num_);
	}

	/* A tensor allocated, or dequeued and enqueued again (AscendC allows
	 * both states), handed from pipe `prod` (the queue's producer unless
	 * the kernel names the user positions). */
	void enque(const void *p, SrcLoc loc) { enque(p, loc, prod_); }
	void enque(const void *p, SrcLoc loc, npukb_cpusim::Pipe prod)
	{
		const int i = find(p);
		if (i < 0)
			npukb_cpusim::fail("queue-misuse", loc, "EnQue of a tensor that was not allocated from this queue");
		if (bufs_[i].state != B_ALLOC && bufs_[i].state != B_DEQUEUED)
			npukb_cpusim::fail("queue-misuse", loc, "EnQue of a tensor that is %s", state_name(bufs_[i].state));
		if (count_ >= capacity())
			npukb_cpusim::fail("queue-misuse", loc, "EnQue on a full queue (depth %d)", capacity());
		bufs_[i].state = B_QUEUED;
		bufs_[i].ready_at = npukb_cpusim::pipe_done(prod);
		owner_set(bufs_[i].off, len_, npukb_cpusim::UB_ENQUEUED);
		fifo_[(head_ + count_) % MAX_QUE_BUFS] = (uint8_t)i;
		count_++;
	}

	unsigned char *deque(uint32_t *len, SrcLoc loc) { return deque(len, loc, cons_); }
	unsigned char *deque(uint32_t *len, SrcLoc loc, npukb_cpusim::Pipe cons)
	{
		if (count_ == 0)
			npukb_cpusim::fail("queue-misuse", loc, "DeQue on an empty queue (a tensor was never enqueued; on the device this waits forever)");
		const int i = fifo_[head_];
		head_ = (uint8_t)((head_ + 1) % MAX_QUE_BUFS);
		count_--;
		bufs_[i].state = B_DEQUEUED;
		owner_set(bufs_[i].off, len_, npukb_cpusim::UB_IN_USE);
		npukb_cpusim::wait_until(cons, bufs_[i].ready_at);
		*len = len_;
		return mem_base(mem_) + bufs_[i].off;
	}

	void release(const void *p, SrcLoc loc)
	{
		const int i = find(p);
		if (i < 0)
			npukb_cpusim::fail("queue-misuse", loc, "FreeTensor of a tensor that was not allocated from this queue");
		if (bufs_[i].state == B_FREE)
			npukb_cpusim::fail("queue-misuse", loc, "FreeTensor of a tensor that is not allocated (double free?)");
		if (bufs_[i].state == B_QUEUED)
			npukb_cpusim::fail("queue-misuse", loc, "FreeTensor of a tensor that is still enqueued");
		bufs_[i].state = B_FREE;
		bufs_[i].free_at = npukb_cpusim::pipe_done(cons_);
		owner_set(bufs_[i].off, len_, npukb_cpusim::UB_FREE);
	}

	int queued() const { return count_; }
	bool vacant() const { return count_ < capacity(); }
	npukb_cpusim::Pipe producer() const { return prod_; }
	npukb_cpusim::Pipe consumer() const { return cons_; }
	int32_t depth() const { return depth_; }

private:
	struct Buf {
		uint32_t off = 0;
		BufState state = B_FREE;
		double free_at = 0, ready_at = 0;
		SrcLoc loc;
	};
	int capacity() const { return depth_ > 0 && depth_ < num_ ? depth_ : num_; }
	/* The buffer holding p: a view such as t[16] still names its buffer. */
	int find(const void *p) const
	{
		const unsigned char *q = (const unsigned char *)p;
		for (int i = 0; i < num_; i++) {
			const unsigned char *b = mem_base(mem_) + bufs_[i].off;
			if (q >= b && q < b + (len_ ? len_ : 1))
				return i;
		}
		return -1;
	}
	static const char *state_name(BufState s)
	{
		return s == B_FREE ? "not allocated" : s == B_QUEUED ? "already enqueued" : "already dequeued";
	}

	/* The use-after-free/enqueue shadow covers the UB only [cube buffers:
	 * not yet]. */
	void owner_set(uint32_t off, uint32_t len, npukb_cpusim::UbOwner st) const
	{
		if (mem_ == npukb_cpusim::M_UB)
			npukb_cpusim::ub_owner_set(off, len, st);
	}

	npukb_cpusim::Pipe prod_, cons_;
	int32_t depth_;
	npukb_cpusim::Mem mem_;
	int num_ = 0;
	uint32_t len_ = 0;
	uint8_t next_ = 0, head_ = 0, count_ = 0;
	uint8_t fifo_[MAX_QUE_BUFS] = {};
	Buf bufs_[MAX_QUE_BUFS];
};

/* The queue a TQue object stands for. A copy (a queue passed by value, as
 * ApplyFusedEmaAdam's answer does) is a handle to the same queue, as on the
 * device: it works on the original's state, so the original must outlive it. */
class QueueCore {
public:
	QueueCore(npukb_cpusim::Pipe prod, npukb_cpusim::Pipe cons, int32_t depth, npukb_cpusim::Mem mem)
		: own_(prod, cons, depth, mem) {}
	QueueCore(const QueueCore &o) : own_(o.q().producer(), o.q().consumer(), o.q().depth()), shared_(&o.q()) {}
	QueueCore &operator=(const QueueCore &) = delete;
	QueueState &q() const { return shared_ ? *shared_ : own_; }

private:
	mutable QueueState own_;
	QueueState *shared_ = nullptr;
};

} // namespace detail

using TBufHandle = uint8_t *;

template <TPosition src, TPosition dst, int32_t depth = 1>
class TQueBind : public detail::QueueCore {
public:
	TQueBind() : QueueCore(detail::producer_of(src), detail::consumer_of(dst), depth, detail::mem_of(src)) {}

	template <class T>
	LocalTensor<T> AllocTensor(SrcLoc loc = NPUKB_LOC)
	{
		uint32_t len;
		unsigned char *p = q().alloc(&len, loc);
		return LocalTensor<T>((T *)(void *)p, len / (uint32_t)sizeof(T));
	}
	template <class T>
	bool EnQue(const LocalTensor<T> &t, SrcLoc loc = NPUKB_LOC)
	{
		q().enque(t.addr_, loc);
		return true;
	}
	template <class T>
	LocalTensor<T> DeQue(SrcLoc loc = NPUKB_LOC)
	{
		uint32_t len;
		unsigned char *p = q().deque(&len, loc);
		return LocalTensor<T>((T *)(void *)p, len / (uint32_t)sizeof(T));
	}
	template <class T>
	void FreeTensor(const LocalTensor<T> &t, SrcLoc loc = NPUKB_LOC)
	{
		q().release(t.addr_, loc);
	}
	/* DeQue without a type: the buffer is dequeued, the kernel keeps
	 * using the tensor it enqueued. */
	TBufHandle DeQue(SrcLoc loc = NPUKB_LOC)
	{
		uint32_t len;
		return q().deque(&len, loc);
	}
	/* The forms naming the user positions: the hand-off is between the
	 * pipes those positions imply, as in AscendC (GM as the source: MTE2
	 * brought the data; GM as the destination: MTE3 takes it; a UB
	 * position: the vector pipe), so VECIN -> VECOUT orders vector work
	 * only. */
	template <TPosition srcUser, TPosition dstUser, class T>
	bool EnQue(const LocalTensor<T> &t, SrcLoc loc = NPUKB_LOC)
	{
		static_assert(!(srcUser == TPosition::GM && dstUser == TPosition::GM),
			      "EnQue: the user positions cannot both be GM");
		q().enque(t.addr_, loc, srcUser == TPosition::GM ? npukb_cpusim::P_MTE2 : npukb_cpusim::P_V);
		return true;
	}
	template <TPosition srcUser, TPosition dstUser, class T>
	LocalTensor<T> DeQue(SrcLoc loc = NPUKB_LOC)
	{
		static_assert(!(srcUser == TPosition::GM && dstUser == TPosition::GM),
			      "DeQue: the user positions cannot both be GM");
		uint32_t len;
		unsigned char *p = q().deque(&len, loc, dstUser == TPosition::GM ? npukb_cpusim::P_MTE3 : npukb_cpusim::P_V);
		return LocalTensor<T>((T *)(void *)p, len / (uint32_t)sizeof(T));
	}
	bool VacantInQue() const { return q().vacant(); }
	bool HasTensorInQue() const { return q().queued() > 0; }
	int32_t GetTensorCountInQue() const { return q().queued(); }
};

/* TQueConfig: what CANN's third TQue argument may point to (buffer and
 * layout hints); cpusim's queues do not depend on it [not modelled]. */
struct TQueConfig {
	bool nd2nz = false;
	bool nz2nd = false;
	bool scmBlockGroup = false;
	uint32_t bufferLen = 0;
	uint32_t bufferNumber = 0;
	uint32_t consumerSize = 0;
	TPosition consumer[8] = {};
};

template <TPosition pos, int32_t depth = 1, auto config = 0>
class TQue : public TQueBind<pos, pos, depth> {};

template <TPosition pos = TPosition::VECCALC>
class TBuf {
public:
	uint32_t off_ = 0, len_ = 0;
	bool ready_ = false;

	/* Get on a buffer InitBuffer never gave memory is harmless on the
	 * device until the tensor is used (kernels fetch a temporary they only
	 * use for some dtypes): it gives an empty tensor, whose every use is
	 * out of bounds. */
	template <class T>
	LocalTensor<T> Get(SrcLoc loc = NPUKB_LOC) const
	{
		(void)loc;
		if (!ready_)
			return LocalTensor<T>((T *)(void *)npukb_cpusim::ub_arena, 0);
		return LocalTensor<T>((T *)(void *)(detail::mem_base(detail::mem_of(pos)) + off_), len_ / (uint32_t)sizeof(T));
	}
	template <class T>
	LocalTensor<T> Get(uint32_t count, SrcLoc loc = NPUKB_LOC) const
	{
		return GetWithOffset<T>(count, 0, loc);
	}
	/* A TBuf is a queue without hand-offs: allocating gives the whole
	 * buffer, freeing does nothing. */
	template <class T>
	LocalTensor<T> AllocTensor(SrcLoc loc = NPUKB_LOC) const
	{
		return Get<T>(loc);
	}
	template <class T>
	void FreeTensor(const LocalTensor<T> &) const {}
	template <class T>
	LocalTensor<T> GetWithOffset(uint32_t count, uint32_t offset_bytes, SrcLoc loc = NPUKB_LOC) const
	{
		if (!ready_)
			npukb_cpusim::fail("queue-misuse", loc,
					   "TBuf::Get of %u elements from a buffer that was never given memory (missing pipe.InitBuffer)",
					   count);
		if ((uint64_t)offset_bytes + (uint64_t)count * sizeof(T) > len_)
			npukb_cpusim::fail("out-of-bounds", loc, "TBuf::Get: %u elements at byte %u of a %u-byte buffer",
					   count, offset_bytes, len_);
		return LocalTensor<T>((T *)(void *)(detail::mem_base(detail::mem_of(pos)) + off_ + offset_bytes), count);
	}
};


class TPipe {
public:
	TPipe() : base_(npukb_cpusim::g.ub_used)
	{
		memcpy(cube_base_, npukb_cpusim::g.cube_used, sizeof cube_base_);
		npukb_cpusim::g.cur_pipe = this;
	}
	~TPipe()
	{
		npukb_cpusim::g.ub_used = base_;
		memcpy(npukb_cpusim::g.cube_used, cube_base_, sizeof cube_base_);
		if (npukb_cpusim::g.cur_pipe == this)
			npukb_cpusim::g.cur_pipe = nullptr;
	}
	TPipe(const TPipe &) = delete;
	TPipe &operator=(const TPipe &) = delete;

	/* A position holds at most 8 queue buffers on 910B and 310P, a kernel
	 * 64 in all (InitBuffer's documented limits: beyond them AllocTensor
	 * can fail on the device). TBufs do not count. */
	static constexpr unsigned MAX_QUE_BUFS_PER_POS = 8, MAX_QUE_BUFS = 64;

	template <TPosition s, TPosition d, int32_t depth>
	bool InitBuffer(TQueBind<s, d, depth> &que, uint8_t num, uint32_t len, SrcLoc loc = NPUKB_LOC)
	{
		que_bufs_[(int)s] += num;
		total_bufs_ += num;
		if (que_bufs_[(int)s] > MAX_QUE_BUFS_PER_POS)
			npukb_cpusim::fail("queue-misuse", loc,
					   "InitBuffer: %u queue buffers on position %s, more than the %u one position holds",
					   que_bufs_[(int)s], position_name(s), MAX_QUE_BUFS_PER_POS);
		if (total_bufs_ > MAX_QUE_BUFS)
			npukb_cpusim::fail("queue-misuse", loc, "InitBuffer: %u queue buffers in the kernel, more than %u",
					   total_bufs_, MAX_QUE_BUFS);
		que.q().init(num, len, loc);
		return true;
	}
	template <TPosition p>
	bool InitBuffer(TBuf<p> &buf, uint32_t len, SrcLoc loc = NPUKB_LOC)
	{
		uint32_t rounded = len;
		buf.off_ = detail::carve(detail::mem_of(p), &rounded, 1, loc);
		buf.len_ = rounded;
		buf.ready_ = true;
		return true;
	}
	void Destroy() { Reset(); }
	void Reset()
	{
		npukb_cpusim::g.ub_used = base_;
		memcpy(npukb_cpusim::g.cube_used, cube_base_, sizeof cube_base_);
		memset(que_bufs_, 0, sizeof que_bufs_);
		total_bufs_ = 0;
	}

	/* Ids are not tracked yet: every fetch returns 0. */
	template <HardEvent e>
	TEventID FetchEventID() { return 0; }
	TEventID FetchEventID(HardEvent) { return 0; }
	template <HardEvent e>
	TEventID AllocEventID() { return 0; }
	template <HardEvent e>
	void ReleaseEventID(TEventID) {}

private:
	static const char *position_name(TPosition p)
	{
		switch (p) {
		case TPosition::VECIN: return "VECIN";
		case TPosition::VECOUT: return "VECOUT";
		case TPosition::VECCALC: return "VECCALC";
		case TPosition::A1: return "A1";
		case TPosition::B1: return "B1";
		case TPosition::A2: return "A2";
		case TPosition::B2: return "B2";
		case TPosition::CO1: return "CO1";
		case TPosition::CO2: return "CO2";
		case TPosition::C1: return "C1";
		case TPosition::C2: return "C2";
		default: return "other";
		}
	}

	uint32_t base_;
	uint32_t cube_base_[sizeof npukb_cpusim::g.cube_used / sizeof(uint32_t)];
	unsigned que_bufs_[(int)TPosition::MAX] = {};
	unsigned total_bufs_ = 0;
};

inline TPipe *GetTPipePtr() { return (TPipe *)npukb_cpusim::g.cur_pipe; }

/* PopStackBuffer: the unified buffer the pipe has not given out (from the
 * end of the last InitBuffer to the SoC's UB size) as a temporary tensor;
 * false when none is left. */
template <typename T, TPosition pos>
inline bool PopStackBuffer(LocalTensor<T> &t)
{
	static_assert(pos == TPosition::LCM, "PopStackBuffer: only TPosition::LCM (the unified buffer) is modelled");
	const uint32_t from = (npukb_cpusim::g.ub_used + 31u) & ~31u;
	if (from >= npukb_cpusim::g.soc.ub_bytes) {
		t = LocalTensor<T>((T *)(void *)npukb_cpusim::ub_arena, 0);
		return false;
	}
	t = LocalTensor<T>((T *)(void *)(npukb_cpusim::ub_arena + from),
			   (uint32_t)((npukb_cpusim::g.soc.ub_bytes - from) / sizeof(T)));
	return true;
}

/* num rounded up to a multiple of rnd (0 when rnd is 0), in the two
 * types' common type. A template of two independent types on purpose:
 * beside `using namespace AscendC`, a kernel's own AlignUp (a function,
 * or a template of one type) is preferred whenever its parameters fit the
 * arguments exactly, so that the call is never ambiguous. */
template <class A, class B>
constexpr inline typename std::common_type<A, B>::type AlignUp(A num, B rnd)
{
	using C = typename std::common_type<A, B>::type;
	return rnd ? ((C)num + (C)rnd - 1) / (C)rnd * (C)rnd : 0;
}

/* num divided by div, rounded up, in the two types' common type (0 when
 * div is 0, as CeilDivision documents [unconfirmed for DivCeil]). Kernels
 * call it unqualified with `using namespace AscendC` (StridedSliceAssignV2,
 * TopKV3), some with an int literal divisor; two independent types for the
 * reason AlignUp has them: a kernel's own DivCeil wins. */
template <class A, class B>
constexpr inline typename std::common_type<A, B>::type DivCeil(A num, B div)
{
	using C = typename std::common_type<A, B>::type;
	return div ? ((C)num + (C)div - 1) / (C)div : 0;
}

/* ---- data movement ------------------------------------------------------------ */

struct DataCopyParams {
	uint16_t blockCount = 1;
	uint16_t blockLen = 0;  /* 32-byte blocks */
	uint16_t srcStride = 0; /* gap between blocks, 32-byte blocks */
	uint16_t dstStride = 0;
	DataCopyParams() = default;
	DataCopyParams(uint16_t count, uint16_t len, uint16_t src_stride, uint16_t dst_stride)
		: blockCount(count), blockLen(len), srcStride(src_stride), dstStride(dst_stride) {}
};

namespace detail {
/* The hardware moves whole 32-byte blocks: a count form copy drops the
 * remainder. */
template <class T>
inline uint64_t copy_bytes(uint32_t count) { return ((uint64_t)count * sizeof(T)) & ~31ull; }
} // namespace detail

template <class T>
inline void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const uint32_t count,
		     SrcLoc loc = NPUKB_LOC)
{
	const uint64_t bytes = detail::copy_bytes<T>(count);
	npukb_cpusim::local_check(dst.addr_, bytes, dst.GetLength(), npukb_cpusim::gm_copy_name(dst.addr_), "destination", loc);
	npukb_cpusim::gm_check(src.addr_, bytes, "DataCopy GM->UB reads", loc);
	memcpy(dst.addr_, src.addr_, bytes);
	npukb_cpusim::cost_dma(npukb_cpusim::P_MTE2, bytes);
}

template <class T>
inline void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const uint32_t count,
		     SrcLoc loc = NPUKB_LOC)
{
	const uint64_t bytes = detail::copy_bytes<T>(count);
	npukb_cpusim::ub_check(src.addr_, bytes, src.GetLength(), "DataCopy UB->GM", "source", loc);
	npukb_cpusim::gm_check(dst.addr_, bytes, "DataCopy UB->GM writes", loc);
	npukb_cpusim::gm_store(dst.addr_, src.addr_, bytes, loc);
	npukb_cpusim::cost_dma(npukb_cpusim::P_MTE3, bytes);
}

template <class T>
inline void DataCopy(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint32_t count,
		     SrcLoc loc = NPUKB_LOC)
{
	const uint64_t bytes = detail::copy_bytes<T>(count);
	npukb_cpusim::ub_check(dst.addr_, bytes, dst.GetLength(), "DataCopy UB->UB", "destination", loc);
	npukb_cpusim::ub_check(src.addr_, bytes, src.GetLength(), "DataCopy UB->UB", "source", loc);
	memmove(dst.addr_, src.addr_, bytes);
	npukb_cpusim::cost_vec(bytes, npukb_cpusim::g.soc.vec_repeat_cycles);
}

template <class T>
inline void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const DataCopyParams &p,
		     SrcLoc loc = NPUKB_LOC)
{
	const uint64_t blk = (uint64_t)p.blockLen * 32;
	unsigned char *d = (unsigned char *)dst.addr_;
	const unsigned char *s = (const unsigned char *)src.addr_;
	const uint64_t dspan = p.blockCount ? (p.blockCount - 1) * (blk + p.dstStride * 32ull) + blk : 0;
	npukb_cpusim::local_check(d, dspan, dst.GetLength(), npukb_cpusim::gm_copy_name(d), "destination", loc);
	for (uint32_t i = 0; i < p.blockCount; i++) {
		const unsigned char *si = s + i * (blk + p.srcStride * 32ull);
		npukb_cpusim::gm_check(si, blk, "DataCopy GM->UB reads", loc);
		memcpy(d + i * (blk + p.dstStride * 32ull), si, blk);
	}
	npukb_cpusim::cost_dma(npukb_cpusim::P_MTE2, blk * p.blockCount);
}

/* UB->UB with strides: blocks of blockLen x 32 bytes, gaps in 32-byte blocks. */
template <class T>
inline void DataCopy(const LocalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyParams &p,
		     SrcLoc loc = NPUKB_LOC)
{
	const uint64_t blk = (uint64_t)p.blockLen * 32;
	const uint64_t dspan = p.blockCount ? (p.blockCount - 1) * (blk + p.dstStride * 32ull) + blk : 0;
	const uint64_t sspan = p.blockCount ? (p.blockCount - 1) * (blk + p.srcStride * 32ull) + blk : 0;
	npukb_cpusim::ub_check(dst.addr_, dspan, dst.GetLength(), "DataCopy UB->UB", "destination", loc);
	npukb_cpusim::ub_check(src.addr_, sspan, src.GetLength(), "DataCopy UB->UB", "source", loc);
	unsigned char *d = (unsigned char *)dst.addr_;
	const unsigned char *s = (const unsigned char *)src.addr_;
	for (uint32_t i = 0; i < p.blockCount; i++)
		memmove(d + i * (blk + p.dstStride * 32ull), s + i * (blk + p.srcStride * 32ull), blk);
	npukb_cpusim::cost_vec(blk * p.blockCount, npukb_cpusim::g.soc.vec_repeat_cycles);
}

template <class T>
inline void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyParams &p,
		     SrcLoc loc = NPUKB_LOC)
{
	const uint64_t blk = (uint64_t)p.blockLen * 32;
	unsigned char *d = (unsigned char *)dst.addr_;
	const unsigned char *s = (const unsigned char *)src.addr_;
	const uint64_t sspan = p.blockCount ? (p.blockCount - 1) * (blk + p.srcStride * 32ull) + blk : 0;
	npukb_cpusim::ub_check(s, sspan, src.GetLength(), "DataCopy UB->GM", "source", loc);
	for (uint32_t i = 0; i < p.blockCount; i++) {
		unsigned char *di = d + i * (blk + p.dstStride * 32ull);
		npukb_cpusim::gm_check(di, blk, "DataCopy UB->GM writes", loc);
		npukb_cpusim::gm_store(di, s + i * (blk + p.srcStride * 32ull), blk, loc);
	}
	npukb_cpusim::cost_dma(npukb_cpusim::P_MTE3, blk * p.blockCount);
}

} // namespace AscendC

#include "npukb_cpusim/vec.h"
#include "npukb_cpusim/cast.h"
#include "npukb_cpusim/copy_pad.h"
#include "npukb_cpusim/reduce.h"
#include "npukb_cpusim/list_tensor.h"
#include "npukb_cpusim/math.h"
#include "npukb_cpusim/trans5hd.h"
#include "npukb_cpusim/broadcast.h"
#include "npukb_cpusim/tensor_ops.h"
#include "npukb_cpusim/impl_forms.h"
#include "npukb_cpusim/select_bytes_mask.h"
#include "npukb_cpusim/sort.h"
#include "npukb_cpusim/cce_builtins.h"
#include "npukb_cpusim/softmax_tiling.h"
#include "npukb_cpusim/softmax.h"
#include "npukb_cpusim/cube_tiling.h"
#include "npukb_cpusim/cube.h"
#include "npukb_cpusim/init_const.h"
#include "npukb_cpusim/compat.h"

/* CANN declares these at global scope too: kernels call them unqualified
 * outside any `using namespace AscendC`. */
using AscendC::GetTPipePtr;

/* A host launch in CCE's syntax, `name<<<blockDim, l2ctrl, stream>>>(args)`,
 * which some kernel files keep in a wrapper function, reaches g++ as
 * `npukb_cpusim_chevron_launch(blockDim, l2ctrl, stream), name(args)`
 * (plugins/cpusim/chevron.c rewrites a copy of the file): the launch
 * still type-checks. cpusim launches kernels itself and never calls such
 * a wrapper; one that ran would call the kernel outside the harness, so
 * this stops the program instead. */
template <class B, class L, class S>
[[noreturn]] inline void npukb_cpusim_chevron_launch(B, L, S)
{
	fprintf(stderr, "npukb-cpusim: a kernel<<<...>>> launch wrapper ran; cpusim launches kernels itself\n");
	abort();
}

/* ---- tiling ------------------------------------------------------------------- */

namespace npukb_cpusim {
inline void load_tiling(void *dst, size_t size, const void *tiling, const char *name, SrcLoc loc)
{
	const GmRange *r = gm_find((uintptr_t)tiling);
	if (!r)
		fail("out-of-bounds", loc, "GET_TILING_DATA: the tiling pointer is not a kernel argument");
	if ((uintptr_t)tiling + size > r->hi)
		fail("out-of-bounds", loc, "GET_TILING_DATA: %s is %zu bytes but the tiling argument holds %llu",
		     name, size, (unsigned long long)(r->hi - (uintptr_t)tiling));
	memcpy(dst, tiling, size);
}
template <class T> struct always_false : std::false_type {};
} // namespace npukb_cpusim

#define NPUKB_STR2(x) #x
#define NPUKB_STR(x) NPUKB_STR2(x)
#define GET_TILING_DATA_WITH_STRUCT(type, td, tiling)                                           \
	type td;                                                                                  \
	::npukb_cpusim::load_tiling(&td, sizeof(td), (tiling), NPUKB_STR(type), NPUKB_LOC)
#ifdef NPUKB_TILING_STRUCT
#define GET_TILING_DATA(td, tiling) GET_TILING_DATA_WITH_STRUCT(NPUKB_TILING_STRUCT, td, tiling)
#else
#define GET_TILING_DATA(td, tiling)                                                              \
	static_assert(::npukb_cpusim::always_false<decltype(tiling)>::value,                      \
		      "cpusim: GET_TILING_DATA needs -DNPUKB_TILING_STRUCT=<struct> (kernel-only mode)")
#endif

#endif
