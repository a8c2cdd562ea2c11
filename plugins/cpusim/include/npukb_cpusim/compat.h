/* compat.h - spellings of the kernel language that code written for other
 * CANN generations and samples uses, gathered here rather than spread over
 * the API headers (included at the end of kernel_operator.h). */
#ifndef NPUKB_CPUSIM_COMPAT_H
#define NPUKB_CPUSIM_COMPAT_H

/* Function qualifiers of CANN 8.5+'s SIMD built-in keywords: a kernel
 * marked for the vector (AIV) or the cube (AIC) cores. cpusim runs a
 * kernel's blocks by its KERNEL_TASK_TYPE, so, like __aicore__, they only
 * have to parse. */
#ifndef __vector__
#define __vector__
#endif
#ifndef __cube__
#define __cube__
#endif

#include <cstdarg>
#include <cstdio>

/* CANN's CPU debug mode (kernel_log.h): ASCENDC_ASSERT runs `behavior`
 * (usually a KERNEL_LOG) and aborts when cond is false; the device build
 * drops both. cpusim is a CPU debug build, so it checks, and says which
 * assertion stopped the kernel before the abort the harness reports. */
#ifndef ASCENDC_ASSERT
#define ASCENDC_ASSERT(cond, behavior)                                                         \
	do {                                                                                   \
		if (!(cond)) {                                                                 \
			behavior;                                                              \
			fprintf(stderr, "npukb-cpusim: ASCENDC_ASSERT(%s) failed at %s:%d\n", #cond, \
				__FILE__, __LINE__);                                           \
			abort();                                                               \
		}                                                                              \
	} while (0)
#endif
/* ascendc_assert(cond[, format, args...]), the assert of CANN 8.5's
 * kernels: a false condition prints the message and stops the kernel. */
#ifndef ascendc_assert
namespace npukb_cpusim {
template <typename... Args>
[[noreturn]] inline void assert_failed(const char *cond, const char *file, int line, Args... args)
{
	fprintf(stderr, "npukb-cpusim: ascendc_assert(%s) failed at %s:%d", cond, file, line);
	if constexpr (sizeof...(Args) > 0) {
		fputs(": ", stderr);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#pragma GCC diagnostic ignored "-Wformat-security"
		fprintf(stderr, args...);
#pragma GCC diagnostic pop
	}
	fputc('\n', stderr);
	abort();
}
} // namespace npukb_cpusim
#define ascendc_assert(cond, ...) \
	((cond) ? (void)0 : ::npukb_cpusim::assert_failed(#cond, __FILE__, __LINE__, ##__VA_ARGS__))
#endif
/* KERNEL_LOG(level, format, ...) with level KERNEL_DEBUG, KERNEL_INFO,
 * KERNEL_WARN or KERNEL_ERROR, printf-style, one line per call. */
#ifndef KERNEL_LOG
#define KERNEL_LOG(level, format, ...) NPUKB_KERNEL_LOG_##level(format, ##__VA_ARGS__)
#define NPUKB_KERNEL_LOG_AT(tag, format, ...)                                                 \
	fprintf(stderr, "[" tag "] block %lld %s:%d " format "\n",                            \
		(long long)::npukb_cpusim::g.block_idx, __FILE__, __LINE__, ##__VA_ARGS__)
#define NPUKB_KERNEL_LOG_KERNEL_DEBUG(format, ...) NPUKB_KERNEL_LOG_AT("DEBUG", format, ##__VA_ARGS__)
#define NPUKB_KERNEL_LOG_KERNEL_INFO(format, ...) NPUKB_KERNEL_LOG_AT("INFO", format, ##__VA_ARGS__)
#define NPUKB_KERNEL_LOG_KERNEL_WARN(format, ...) NPUKB_KERNEL_LOG_AT("WARN", format, ##__VA_ARGS__)
#define NPUKB_KERNEL_LOG_KERNEL_ERROR(format, ...) NPUKB_KERNEL_LOG_AT("ERROR", format, ##__VA_ARGS__)
#endif

/* REGISTER_TILING_DEFAULT(Type) in a kernel's body names the struct its
 * GET_TILING_DATA reads (CANN 8.5's kernels, whose op_host registers no
 * tiling class): here a local alias of the name GET_TILING_DATA expands
 * to, which then shadows whatever the build named. */
#ifdef NPUKB_TILING_STRUCT
#define REGISTER_TILING_DEFAULT(type) using NPUKB_TILING_STRUCT = type
#else
#define REGISTER_TILING_DEFAULT(type) static_assert(sizeof(type) > 0, "a complete tiling struct")
#endif

namespace AscendC {

/* printf/PRINTF from kernel code (CANN prints them after the kernel ends,
 * prefixed by the core; in CPU debug mode straight away). To stderr here:
 * the harness keeps stdout for itself. A template, as CANN's is: with
 * `using namespace AscendC` an unqualified printf then picks this one
 * instead of being ambiguous with the C library's. */
namespace detail {
template <typename A> inline A printf_arg(A a) { return a; }
inline double printf_arg(half h) { return (double)(float)h; }
} // namespace detail
template <typename... Args>
inline void printf(const char *fmt, Args... args)
{
	if constexpr (sizeof...(Args) == 0) {
		fputs(fmt, stderr);
	} else {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#pragma GCC diagnostic ignored "-Wformat-security"
		fprintf(stderr, fmt, detail::printf_arg(args)...);
#pragma GCC diagnostic pop
	}
}
#ifndef PRINTF
#define PRINTF AscendC::printf
#endif

/* The system counter a kernel times itself with. cpusim's clock is its
 * cost model: the block's scalar pipe time in modelled cycles, so two
 * readings bracket the modelled cost of the code between them (CANN's
 * counter runs at a fixed system frequency, not the core clock: compare
 * differences, not absolute values). */
inline int64_t GetSystemCycle()
{
	return (int64_t)::npukb_cpusim::g.busy[::npukb_cpusim::P_S];
}

/* The unified buffer's size and the part of it a kernel may take (the
 * top is CANN's reserved scratch), by the core generation the build
 * targets: 910B/910_93 (220) and 310P/910 (200 and below). */
#if defined(__CCE_AICORE__) && __CCE_AICORE__ == 220
const int32_t TOTAL_VEC_LOCAL_SIZE = 184 * 1024;
const uint32_t TOTAL_UB_SIZE = 192 * 1024;
#elif defined(__CCE_AICORE__) && __CCE_AICORE__ <= 200
const int32_t TOTAL_VEC_LOCAL_SIZE = 248 * 1024;
const uint32_t TOTAL_UB_SIZE = 256 * 1024;
#endif

/* Static-tensor programming (CANN 8.3+): a kernel without TPipe/TQue takes
 * its local memory from a LocalMemAllocator and starts with InitSocState.
 * cpusim starts every block with the register state at its defaults
 * (masks, counter mode), which is what InitSocState sets up. */
inline void InitSocState() {}

enum class Hardware : uint8_t { GM, UB, L1, L0A, L0B, L0C, BIAS, FIXBUF, MAX };

/* Hands out consecutive pieces of one local memory, 32-byte aligned, for
 * the rest of the kernel (nothing is given back). UB only: the cube
 * buffers' static form is not emulated. tileSize counts elements. */
template <Hardware hard = Hardware::UB>
class LocalMemAllocator {
	static_assert(hard == Hardware::UB, "cpusim: LocalMemAllocator emulates the unified buffer only");

public:
	LocalMemAllocator() = default;
	uint32_t GetCurAddr() const { return ::npukb_cpusim::g.ub_used; }
	template <class DataType, uint32_t tileSize>
	LocalTensor<DataType> Alloc(SrcLoc loc = NPUKB_LOC)
	{
		return Alloc<DataType>(tileSize, loc);
	}
	template <TPosition pos, class DataType, uint32_t tileSize>
	LocalTensor<DataType> Alloc(SrcLoc loc = NPUKB_LOC)
	{
		return Alloc<DataType>(tileSize, loc);
	}
	template <TPosition pos, class DataType>
	LocalTensor<DataType> Alloc(uint32_t tileSize, SrcLoc loc = NPUKB_LOC)
	{
		return Alloc<DataType>(tileSize, loc);
	}
	template <class DataType>
	LocalTensor<DataType> Alloc(uint32_t tileSize, SrcLoc loc = NPUKB_LOC)
	{
		const uint64_t bytes = ((uint64_t)tileSize * sizeof(DataType) + 31) / 32 * 32;
		const uint32_t off = ::npukb_cpusim::ub_carve((uint32_t)bytes, "LocalMemAllocator::Alloc", loc);
		return LocalTensor<DataType>((DataType *)(void *)(::npukb_cpusim::ub_arena + off), tileSize);
	}
};

/* Clamp (CANN 8.5 math API): dst = min(max(src, lo), hi), lo and hi each a
 * tensor of count elements or a scalar; made of Max/Maxs then Min/Mins, the
 * two vector instructions a device implementation issues. */
namespace detail {
template <typename T>
inline void clamp_lo(const LocalTensor<T> &d, const LocalTensor<T> &s, const LocalTensor<T> &lo, uint32_t n)
{
	Max(d, s, lo, (int32_t)n);
}
template <typename T>
inline void clamp_lo(const LocalTensor<T> &d, const LocalTensor<T> &s, T lo, uint32_t n)
{
	Maxs(d, s, lo, (int32_t)n);
}
template <typename T>
inline void clamp_hi(const LocalTensor<T> &d, const LocalTensor<T> &hi, uint32_t n)
{
	Min(d, d, hi, (int32_t)n);
}
template <typename T>
inline void clamp_hi(const LocalTensor<T> &d, T hi, uint32_t n)
{
	Mins(d, d, hi, (int32_t)n);
}
} // namespace detail
template <typename T, bool isReuseSource = false>
inline void Clamp(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &lo,
		  const LocalTensor<T> &hi, uint32_t count)
{
	detail::clamp_lo(dst, src, lo, count);
	detail::clamp_hi(dst, hi, count);
}
template <typename T, bool isReuseSource = false>
inline void Clamp(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &lo,
		  const T hi, uint32_t count)
{
	detail::clamp_lo(dst, src, lo, count);
	detail::clamp_hi(dst, hi, count);
}
template <typename T, bool isReuseSource = false>
inline void Clamp(const LocalTensor<T> &dst, const LocalTensor<T> &src, const T lo,
		  const LocalTensor<T> &hi, uint32_t count)
{
	detail::clamp_lo(dst, src, lo, count);
	detail::clamp_hi(dst, hi, count);
}
template <typename T, bool isReuseSource = false>
inline void Clamp(const LocalTensor<T> &dst, const LocalTensor<T> &src, const T lo, const T hi,
		  uint32_t count)
{
	detail::clamp_lo(dst, src, lo, count);
	detail::clamp_hi(dst, hi, count);
}

} // namespace AscendC

/* CANN's matmul namespace brings every AscendC name: kernels that say only
 * `using namespace matmul;` call GetBlockIdx, DataCopy ... unqualified. */
namespace matmul {
using namespace AscendC;
}

#endif
