/* test_cpusim_compat.cpp - what code written for CANN's CPU debug mode and
 * other generations of CANN's samples needs from cpusim's headers (issue
 * 21): cpu_debug_launch.h, the __vector__ qualifier, DT_* macros beside the
 * host headers, platform/platform_ascendc.h, ASCENDC_ASSERT/KERNEL_LOG,
 * AscendC::printf, GetSystemCycle, Clamp, namespace matmul and the UB size
 * constants. Compiled as a 910B kernel build is (__CCE_AICORE__ 220, the
 * DT_* macros cpusim's forced header defines). No `using namespace
 * AscendC` at file scope: namespace matmul must bring the names itself. */
#define __CCE_AICORE__ 220
#define DT_FLOAT 0
#define DT_FLOAT16 1
#define DT_INT32 3
#define ORIG_DTYPE_X 1
#include <criterion/criterion.h>

#include "kernel_operator.h"
#ifdef ASCENDC_CPU_DEBUG
#include "cpu_debug_launch.h"
#endif
#include "lib/matmul_intf.h"
/* Host headers a kernel translation unit includes (.asc files, kernel-launch
 * projects): ge::DataType's enumerators must survive the macros above. */
#include "tiling/tiling_api.h"
#include "platform/platform_ascendc.h"

/* ... and the kernel's own #if tests after them still see the macros. */
#if !defined(DT_FLOAT16) || ORIG_DTYPE_X != DT_FLOAT16 || DT_INT32 != 3
#error "the host headers lost the kernel build's DT_* macros"
#endif
#ifdef DT_BF16
#error "the host headers left a DT_* macro defined that the build did not define"
#endif

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

namespace rt = npukb_cpusim;
using AscendC::LocalTensor;

#include "block_fixture.h"

TestSuite(cpusim_compat, .init = setup_block);

/* A kernel in the form of CANN 8.5's .asc examples: only has to compile. */
__vector__ __global__ __aicore__ void vector_kernel(GM_ADDR x) { (void)x; }

Test(cpusim_compat, host_headers_keep_ge_datatype)
{
	/* The enum is whole: its enumerators are not the macros' numbers
	 * spelled as identifiers, and the sizes follow. */
	ge::DataType d = static_cast<ge::DataType>(DT_FLOAT16);
	cr_expect_eq(ge::GetSizeByDataType(d), 2u);
	cr_expect_eq(ge::GetSizeByDataType(static_cast<ge::DataType>(DT_INT32)), 4u);
	vector_kernel(nullptr);
}

static const float clamp_in[8] = {-3.0f, -1.0f, -0.5f, 0.0f, 0.5f, 1.0f, 2.0f, 7.0f};

Test(cpusim_compat, clamp_scalar_bounds)
{
	LocalTensor<float> s = ub<float>(8), d = ub<float>(8);
	const float want[8] = {-1.0f, -1.0f, -0.5f, 0.0f, 0.5f, 1.0f, 1.5f, 1.5f};
	memcpy(s.addr_, clamp_in, sizeof clamp_in);
	AscendC::Clamp(d, s, -1.0f, 1.5f, 8);
	for (int i = 0; i < 8; i++)
		cr_expect_eq(d.addr_[i], want[i], "element %d: %g", i, (double)d.addr_[i]);
}

Test(cpusim_compat, clamp_tensor_bounds_mixed)
{
	LocalTensor<float> s = ub<float>(8), lo = ub<float>(8), hi = ub<float>(8), d = ub<float>(8);
	const float lov[8] = {-4, 0, 0, 1, -1, -1, 3, 0}, hiv[8] = {4, 1, 1, 2, 0, 0, 5, 6};
	const float both[8] = {-3, 0, 0, 1, 0, 0, 3, 6};
	const float lo_only[8] = {-3, 0, 0, 1, 0.5f, 1, 2, 2}; /* hi = 2 */
	const float hi_only[8] = {-2, -1, -0.5f, 0, 0, 0, 2, 6}; /* lo = -2 */
	memcpy(s.addr_, clamp_in, sizeof clamp_in);
	memcpy(lo.addr_, lov, sizeof lov);
	memcpy(hi.addr_, hiv, sizeof hiv);
	AscendC::Clamp(d, s, lo, hi, 8);
	for (int i = 0; i < 8; i++)
		cr_expect_eq(d.addr_[i], both[i], "tensor/tensor %d: %g", i, (double)d.addr_[i]);
	AscendC::Clamp(d, s, lo, 2.0f, 8);
	for (int i = 0; i < 8; i++)
		cr_expect_eq(d.addr_[i], lo_only[i], "tensor/scalar %d: %g", i, (double)d.addr_[i]);
	AscendC::Clamp(d, s, -2.0f, hi, 8);
	for (int i = 0; i < 8; i++)
		cr_expect_eq(d.addr_[i], hi_only[i], "scalar/tensor %d: %g", i, (double)d.addr_[i]);
}

Test(cpusim_compat, system_cycle_brackets_modelled_work)
{
	LocalTensor<float> a = ub<float>(2048), b = ub<float>(2048);
	int64_t t0 = AscendC::GetSystemCycle();
	AscendC::Add(b, a, a, 2048);
	int64_t t1 = AscendC::GetSystemCycle();
	cr_expect_gt(t1, t0, "%lld then %lld", (long long)t0, (long long)t1);
}

/* Runs f with stderr going to a file; returns what it wrote. */
static std::string capture_stderr(void (*f)())
{
	char path[] = "/tmp/npukb-compat-XXXXXX";
	int fd = mkstemp(path), saved = dup(2);
	char buf[512] = {0};

	cr_assert(fd >= 0 && saved >= 0);
	fflush(stderr);
	dup2(fd, 2);
	f();
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
	close(fd);
	unlink(path);
	return std::string(buf, n > 0 ? (size_t)n : 0);
}

static void print_forms()
{
	half h = 1.5f;
	AscendC::printf("n=%d s=%s h=%.2f\n", 7, "x", h);
	PRINTF("plain\n");
	{
		/* With the namespace in scope an unqualified printf is CANN's,
		 * not ambiguous with the C library's. */
		using namespace AscendC;
		printf("u=%u\n", 3u);
	}
}

Test(cpusim_compat, printf_prints_its_arguments)
{
	std::string out = capture_stderr(print_forms);
	cr_expect(out.find("n=7 s=x h=1.50\n") != std::string::npos, "%s", out.c_str());
	cr_expect(out.find("plain\n") != std::string::npos, "%s", out.c_str());
	cr_expect(out.find("u=3\n") != std::string::npos, "%s", out.c_str());
}

static int behaviour_runs;

static void assert_holds()
{
	ASCENDC_ASSERT(AscendC::GetBlockNum() != 0, { behaviour_runs++; KERNEL_LOG(KERNEL_ERROR, "never"); });
	KERNEL_LOG(KERNEL_WARN, "tile %d of %d", 2, 5);
}

Test(cpusim_compat, assert_that_holds_runs_nothing_and_log_prints)
{
	std::string out = capture_stderr(assert_holds);
	cr_expect_eq(behaviour_runs, 0);
	cr_expect(out.find("never") == std::string::npos, "%s", out.c_str());
	cr_expect(out.find("[WARN]") != std::string::npos && out.find("tile 2 of 5") != std::string::npos, "%s",
		  out.c_str());
}

Test(cpusim_compat, failed_assert_aborts, .signal = SIGABRT)
{
	int zero = 0;
	ASCENDC_ASSERT(zero != 0, { KERNEL_LOG(KERNEL_ERROR, "zero is %d", zero); });
}

namespace matmul_user {
using namespace matmul;
/* Both an AscendC function and a matmul type, by the one directive. */
static int64_t block() { return GetBlockIdx(); }
using Mm = Matmul<MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>,
		  MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>,
		  MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>>;
} // namespace matmul_user

Test(cpusim_compat, namespace_matmul_brings_ascendc)
{
	matmul_user::Mm mm;
	mm.SetLocalWorkspace(ub<uint8_t>(256));
	cr_expect_eq(matmul_user::block(), 0);
}

Test(cpusim_compat, ub_size_constants_of_a_220_core)
{
	cr_expect_eq(AscendC::TOTAL_UB_SIZE, 192u * 1024);
	cr_expect_eq(AscendC::TOTAL_VEC_LOCAL_SIZE, 184 * 1024);
}

/* SoftMax with sum, max and the caller's scratch, in place as the Ascend
 * samples call it: two rows of 8, the row's max and sum written. */
Test(cpusim_compat, softmax_sum_max_with_shared_tmp_buffer)
{
	LocalTensor<float> x = ub<float>(16), sum = ub<float>(16), mx = ub<float>(16);
	LocalTensor<uint8_t> tmp = ub<uint8_t>(1024);
	for (int i = 0; i < 16; i++)
		x.addr_[i] = (float)(i % 8) + (i < 8 ? 0.0f : 1.0f);
	SoftMaxTiling tiling;
	AscendC::SoftMaxShapeInfo info = {2, 8, 2, 8};
	AscendC::SoftMax<float, true>(x, sum, mx, x, tmp, tiling, info);
	double s = 0;
	for (int j = 0; j < 8; j++)
		s += exp(j - 7.0);
	for (int r = 0; r < 2; r++) {
		for (int j = 0; j < 8; j++)
			cr_expect_eq(x.addr_[r * 8 + j], (float)(exp(j - 7.0) / s), "row %d col %d", r, j);
		cr_expect_eq(sum.addr_[r * 8], (float)s, "row %d sum", r);
		cr_expect_eq(mx.addr_[r * 8], 7.0f + (float)r, "row %d max", r);
	}
}

/* The tiling query of the Ascend samples' Broadcast operator: a range whose
 * maximum holds the whole output (16 x 48 halves) and whose minimum is one
 * repeat, below it. */
Test(cpusim_compat, broadcast_tmp_size_query)
{
	platform_ascendc::PlatformAscendC plat(std::string("ascend910b2"));
	ge::Shape src(std::vector<int64_t>{16, 1}), dst(std::vector<int64_t>{16, 48});
	uint32_t maxv = 0, minv = 0;
	AscendC::GetBroadCastMaxMinTmpSize(plat, src, dst, 2, false, maxv, minv);
	cr_expect_eq(minv, 256u);
	cr_expect_eq(maxv, 16u * 48 * 2);
	AscendC::GetBroadCastMaxMinTmpSize(plat, src, ge::Shape(std::vector<int64_t>{2, 4}), 4, true, maxv, minv);
	cr_expect_eq(maxv, 256u, "the maximum is never below the minimum");
}

/* LeakyRelu, count form and the mask/repeat form of the .asc example
 * (mask 128 of half, 2 repeats): positive values pass, negative ones are
 * scaled by the slope (exact here: a power of two). */
Test(cpusim_compat, leaky_relu_count_and_mask_forms)
{
	LocalTensor<float> s = ub<float>(8), d = ub<float>(8);
	memcpy(s.addr_, clamp_in, sizeof clamp_in);
	AscendC::LeakyRelu(d, s, 0.25f, 8);
	for (int i = 0; i < 8; i++)
		cr_expect_eq(d.addr_[i], clamp_in[i] >= 0 ? clamp_in[i] : clamp_in[i] * 0.25f, "element %d: %g", i,
			     (double)d.addr_[i]);
	LocalTensor<half> hs = ub<half>(256), hd = ub<half>(256);
	for (int i = 0; i < 256; i++)
		hs.addr_[i] = half((float)(i - 128));
	AscendC::LeakyRelu(hd, hs, half(0.5f), 128, 2, {1, 1, 8, 8});
	for (int i = 0; i < 256; i++)
		cr_expect_eq((float)hd.addr_[i], i < 128 ? (float)(i - 128) * 0.5f : (float)(i - 128), "half %d", i);
}

/* Static-tensor programming: InitSocState, then consecutive 32-byte
 * aligned pieces of the UB from a LocalMemAllocator, element counts. */
Test(cpusim_compat, local_mem_allocator_hands_out_consecutive_ub)
{
	AscendC::InitSocState();
	AscendC::LocalMemAllocator<AscendC::Hardware::UB> alloc;
	uint32_t start = alloc.GetCurAddr();
	LocalTensor<float> a = alloc.Alloc<float, 10>();
	LocalTensor<half> b = alloc.Alloc<AscendC::TPosition::VECIN, half>(16);
	cr_expect_eq(a.GetSize(), 10u);
	cr_expect_eq(b.GetSize(), 16u);
	cr_expect_eq((uint8_t *)(void *)a.addr_, rt::ub_arena + start);
	cr_expect_eq((uint8_t *)(void *)b.addr_, rt::ub_arena + start + 64, "40 bytes round up to 64");
	cr_expect_eq(alloc.GetCurAddr(), start + 96);
}

/* ascendc_assert: silent when the condition holds, a message and an abort
 * when it does not. */
Test(cpusim_compat, ascendc_assert_holds)
{
	int n = 3;
	ascendc_assert(n == 3, "n is %d\n", n);
	ascendc_assert(n > 0);
}

Test(cpusim_compat, ascendc_assert_fails, .signal = SIGABRT)
{
	int n = 3;
	ascendc_assert(n == 4, "n is %d\n", n);
}

/* The newest op_host generation: a typed view of the raw tiling buffer
 * (its size becomes the struct's) and SetSimdNumBlocks for the launch's
 * block count. */
Test(cpusim_compat, tiling_context_typed_tiling_and_simd_blocks)
{
	struct Td {
		uint32_t totalLength;
		uint32_t tileNum;
	};
	gert::TilingContext ctx;
	Td *td = ctx.GetTilingData<Td>();
	cr_assert_not_null(td);
	td->totalLength = 4096;
	td->tileNum = 8;
	cr_expect_eq(ctx.GetRawTilingData()->GetDataSize(), sizeof(Td));
	uint32_t words[2];
	memcpy(words, ctx.GetRawTilingData()->GetData(), sizeof words);
	cr_expect(words[0] == 4096 && words[1] == 8);
	cr_expect_eq(ctx.SetSimdNumBlocks(8), ge::GRAPH_SUCCESS);
	cr_expect_eq(ctx.GetBlockDim(), 8u);
	cr_expect_eq(ctx.GetSimdNumBlocks(), 8u);
}

/* GlobalTensor::SetL2CacheHint is a placement hint: with the L2 bypassed
 * for reads, a copy into the UB and a scalar read still see the values in
 * GM, and a write after a WRITE hint lands in GM. */
Test(cpusim_compat, l2_cache_hint_leaves_the_data_as_it_is)
{
	static float gm_data[8] = {1.5f, -2.0f, 3.25f, 0.0f, 8.0f, -0.5f, 6.0f, 7.75f};
	AscendC::GlobalTensor<float> g = gm(gm_data, 8);
	g.SetL2CacheHint(AscendC::CacheMode::CACHE_MODE_DISABLE);
	g.SetL2CacheHint<AscendC::CacheRwMode::READ>(AscendC::CacheMode::CACHE_MODE_LAST);
	LocalTensor<float> u = ub<float>(8);
	AscendC::DataCopy(u, g, 8);
	for (int i = 0; i < 8; i++)
		cr_expect_eq(u.GetValue(i), gm_data[i], "element %d", i);
	cr_expect_eq(g.GetValue(2), 3.25f);
	AscendC::GlobalTensor<float> w = g[4];
	w.SetL2CacheHint<AscendC::CacheRwMode::WRITE>(AscendC::CacheMode::CACHE_MODE_PERSISTENT);
	w.SetValue(1, 9.5f);
	cr_expect_eq(gm_data[5], 9.5f);
	cr_expect_eq((int)AscendC::CacheMode::CACHE_MODE_PERSISTENT, 4);
}
