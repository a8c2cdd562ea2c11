/* test_cpusim_mix.cpp - mix kernels on a 910B's split AI cores: one cube
 * core (AIC) and one or two vector cores (AIV) per AI core, run by the
 * scheduler the harness uses (npukb_cpusim/cores.h), with their core-type
 * checks and the cross-core flags of modes 0, 1 and 2. A kernel here is a
 * plain function the scheduler calls on every core; the expected values
 * are worked out by hand in each test's comment. A test of a failing
 * kernel runs it in a child process and reads its one report line. */
#include <criterion/criterion.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "npukb_cpusim/cores.h"
#include "cube_host_block.h"

using namespace AscendC;
namespace rt = npukb_cpusim;

static void setup_910b(void)
{
	cube_host_block_910b();
	rt::g.soc.aiv_per_aic = 2;
	rt::gm_log_n = 0;
}

TestSuite(cpusim_mix, .init = setup_910b);

static void declare(int type)
{
	rt::declare_kernel_type(type, rt::kernel_aic(type), rt::kernel_aiv(type));
}

/* Runs body in a child with stderr captured: its exit status and report. */
struct Outcome {
	int status;
	std::string err;
};

static Outcome run_child(void (*body)(void))
{
	int fds[2];
	cr_assert_eq(pipe(fds), 0);
	fflush(stdout);
	fflush(stderr);
	const pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		close(fds[0]);
		dup2(fds[1], 2);
		body();
		_exit(0);
	}
	close(fds[1]);
	Outcome o{-1, ""};
	char buf[1024];
	ssize_t n;
	while ((n = read(fds[0], buf, sizeof buf)) > 0)
		o.err.append(buf, (size_t)n);
	close(fds[0]);
	int st = 0;
	waitpid(pid, &st, 0);
	o.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	return o;
}

/* ---- the AIC's product ------------------------------------------------------ */

/* C (16 x 16, float) = A (16 x 32) B (32 x 16), all row-major in GM, on
 * the cube core: GM -> L1 (NZ) -> L0A / L0B -> Mmad -> Fixpipe. */
static void cube_product(const GlobalTensor<half> &ga, const GlobalTensor<half> &gb, const GlobalTensor<float> &gc)
{
	constexpr uint16_t M = 16, N = 16, K = 32, M1 = 1, N1 = 1, K1 = 2;
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
	LocalTensor<half> a1 = qa1.AllocTensor<half>(), b1 = qb1.AllocTensor<half>();
	DataCopy(a1, ga, Nd2NzParams(1, M, K, 0, K, M1 * 16, 1, 0));
	DataCopy(b1, gb, Nd2NzParams(1, K, N, 0, N, K1 * 16, 1, 0));
	qa1.EnQue(a1);
	qb1.EnQue(b1);
	a1 = qa1.DeQue<half>();
	b1 = qb1.DeQue<half>();
	LocalTensor<half> a2 = qa2.AllocTensor<half>(), b2 = qb2.AllocTensor<half>();
	LoadData(a2, a1, LoadData2DParams(0, K1, M1, 0, 0, false, 0));
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
	mp.m = M;
	mp.n = N;
	mp.k = K;
	Mmad(c, a2, b2, mp);
	qa2.FreeTensor(a2);
	qb2.FreeTensor(b2);
	qc.EnQue(c);
	c = qc.DeQue<float>();
	FixpipeParamsV220 fp;
	fp.nSize = N;
	fp.mSize = M;
	fp.srcStride = 16;
	fp.dstStride = N;
	fp.quantPre = NoQuant;
	Fixpipe<float, float, CFG_ROW_MAJOR>(gc, c, fp);
	qc.FreeTensor(c);
}

/* ---- a 1:2 mix kernel: the AIC's product, post-processed by both AIVs ----------
 * Two AI cores. A_c (16 x 32) = [(c + 1) I | I], B (32 x 16) = [2 I; e],
 * e the 16 x 16 matrix whose first column is ones, so
 * C_c = 2 (c + 1) I + e: C_c[i][n] = 2 (c + 1) [i == n] + [n == 0].
 * AIC c writes C_c into its workspace and sets mode-2 flag 5; AIV v of
 * AI core c = v / 2 waits for it and writes 3 C + 1 of rows 8 (v % 2) ..
 * 8 (v % 2) + 7 to out[v]. Each core also records its ids. */
static half mixA[2][16 * 32], mixB[32 * 16];
static float mixWs[2][16 * 16], mixOut[4][8 * 16];
static int32_t mixIds[6][5];

static void mix_setup_data(void)
{
	for (int c = 0; c < 2; c++)
		for (int i = 0; i < 16; i++)
			for (int j = 0; j < 32; j++)
				mixA[c][i * 32 + j] = half(j == i ? (float)(c + 1) : j == i + 16 ? 1.0f : 0.0f);
	for (int j = 0; j < 32; j++)
		for (int n = 0; n < 16; n++)
			mixB[j * 16 + n] = half(j < 16 ? (j == n ? 2.0f : 0.0f) : (n == 0 ? 1.0f : 0.0f));
	memset(mixWs, 0xff, sizeof mixWs);
	memset(mixOut, 0, sizeof mixOut);
	memset(mixIds, 0xff, sizeof mixIds);
}

static GlobalTensor<half> gA[2], gB;
static GlobalTensor<float> gWs[2], gOut[4];
static GlobalTensor<int32_t> gIds;

static void mix_register(void)
{
	for (int c = 0; c < 2; c++)
		gA[c] = cube_host_gm(mixA[c], 16 * 32);
	gB = cube_host_gm(mixB, 32 * 16);
	for (int c = 0; c < 2; c++)
		gWs[c] = cube_host_gm(mixWs[c], 16 * 16);
	for (int v = 0; v < 4; v++)
		gOut[v] = cube_host_gm(mixOut[v], 8 * 16);
	gIds = cube_host_gm(&mixIds[0][0], 6 * 5);
}

static void record_ids(int slot)
{
	gIds.SetValue(slot * 5 + 0, (int32_t)GetBlockIdx());
	gIds.SetValue(slot * 5 + 1, (int32_t)GetBlockNum());
	gIds.SetValue(slot * 5 + 2, (int32_t)GetTaskRation());
	gIds.SetValue(slot * 5 + 3, (int32_t)GetSubBlockIdx());
	gIds.SetValue(slot * 5 + 4, (int32_t)GetSubBlockNum());
}

static void vector_post(const GlobalTensor<float> &src, const GlobalTensor<float> &dst)
{
	TPipe pipe;
	TQue<TPosition::VECIN, 1> qin;
	TQue<TPosition::VECOUT, 1> qout;
	pipe.InitBuffer(qin, 1, 8 * 16 * sizeof(float));
	pipe.InitBuffer(qout, 1, 8 * 16 * sizeof(float));
	LocalTensor<float> x = qin.AllocTensor<float>();
	DataCopy(x, src, 8 * 16);
	qin.EnQue(x);
	x = qin.DeQue<float>();
	LocalTensor<float> y = qout.AllocTensor<float>();
	Muls(y, x, 3.0f, 8 * 16);
	Adds(y, y, 1.0f, 8 * 16);
	qin.FreeTensor(x);
	qout.EnQue(y);
	y = qout.DeQue<float>();
	DataCopy(dst, y, 8 * 16);
	qout.FreeTensor(y);
}

static void mix_kernel(uint8_t **)
{
	if ASCEND_IS_AIC {
		const int64_t c = GetBlockIdx();
		record_ids((int)c);
		cube_product(gA[c], gB, gWs[c]);
		CrossCoreSetFlag<2, PIPE_FIX>(5);
	}
	if ASCEND_IS_AIV {
		const int64_t v = GetBlockIdx();
		record_ids(2 + (int)v);
		CrossCoreWaitFlag(5);
		const int64_t c = v / GetTaskRation();
		vector_post(gWs[c][GetSubBlockIdx() * 8 * 16], gOut[v]);
	}
}

Test(cpusim_mix, aic_product_handed_to_both_aivs_by_a_mode_2_flag)
{
	mix_setup_data();
	mix_register();
	declare(KERNEL_TYPE_MIX_AIC_1_2);
	rt::cores::run_launch(mix_kernel, nullptr, 2);
	for (int v = 0; v < 4; v++) {
		const int c = v / 2;
		for (int r = 0; r < 8; r++)
			for (int n = 0; n < 16; n++) {
				const int i = (v % 2) * 8 + r;
				const float cv = (i == n ? 2.0f * (c + 1) : 0.0f) + (n == 0 ? 1.0f : 0.0f);
				cr_expect_eq(mixOut[v][r * 16 + n], 3 * cv + 1, "AIV %d row %d col %d: %f, not %f", v, r, n,
					     mixOut[v][r * 16 + n], 3 * cv + 1);
			}
	}
	/* AIC c: block idx c of 2, ratio 1, sub-block 0 of 1; AIV v: idx v,
	 * ratio 2, sub-block v % 2 of 2. */
	const int32_t want[6][5] = {{0, 2, 1, 0, 1}, {1, 2, 1, 0, 1}, {0, 2, 2, 0, 2},
				    {1, 2, 2, 1, 2}, {2, 2, 2, 0, 2}, {3, 2, 2, 1, 2}};
	for (int s = 0; s < 6; s++)
		for (int k = 0; k < 5; k++)
			cr_expect_eq(mixIds[s][k], want[s][k], "core %d id %d: %d, not %d", s, k, mixIds[s][k], want[s][k]);
	/* Units in launch order: AIC 0, AIV 0, AIV 1, AIC 1, AIV 2, AIV 3. An
	 * AIV waits for its AIC's Fixpipe, so it ends after the AIC. */
	for (int c = 0; c < 2; c++)
		for (int k = 1; k <= 2; k++)
			cr_expect_gt(rt::cores::S->end[c * 3 + k], rt::cores::S->end[c * 3], "AIV %d of AI core %d", k - 1, c);
	/* Each AIV is charged until its AIC is done too: 4 vector cores busy. */
	double cyc[48] = {0};
	rt::cores::charge(cyc, 48);
	for (int v = 0; v < 4; v++)
		cr_expect_eq(cyc[v], rt::cores::S->end[(v / 2) * 3 + 1 + v % 2]);
	cr_expect_eq(cyc[4], 0.0);
}

/* ---- the other direction, and mode 1 -----------------------------------------
 * One AI core, 1:2. Each AIV v writes 10 + v to its word of the
 * workspace and sets mode-2 flag 1; the AIC waits once (for both) and
 * writes their sum, 21, to word 2; then mode 1 among the AIVs: AIV 1 waits
 * until AIV 0 has written 7 to word 3 and copies it to word 4. */
static int32_t hand[8];
static GlobalTensor<int32_t> gHand;

static void back_kernel(uint8_t **)
{
	if ASCEND_IS_AIV {
		const int64_t v = GetBlockIdx();
		gHand.SetValue(v, (int32_t)(10 + v));
		CrossCoreSetFlag<2, PIPE_MTE3>(1);
		if (v == 0)
			gHand.SetValue(3, 7);
		CrossCoreSetFlag<1, PIPE_MTE3>(2);
		CrossCoreWaitFlag(2);
		if (v == 1)
			gHand.SetValue(4, gHand.GetValue(3));
	}
	if ASCEND_IS_AIC {
		CrossCoreWaitFlag(1);
		gHand.SetValue(2, gHand.GetValue(0) + gHand.GetValue(1));
	}
}

Test(cpusim_mix, aic_waits_for_both_aivs_and_mode_1_pairs_the_aivs)
{
	memset(hand, 0, sizeof hand);
	gHand = cube_host_gm(hand, 8);
	declare(KERNEL_TYPE_MIX_AIC_1_2);
	rt::cores::run_launch(back_kernel, nullptr, 1);
	cr_expect_eq(hand[0], 10);
	cr_expect_eq(hand[1], 11);
	cr_expect_eq(hand[2], 21, "the AIC ran before both AIVs had set the flag: %d", hand[2]);
	cr_expect_eq(hand[4], 7, "AIV 1 passed the mode-1 flag before AIV 0 set it: %d", hand[4]);
}

/* ---- mode 0 among the AICs of the launch ---------------------------------------
 * Three AI cores, 1:1. Each AIC writes c + 1 to its word, sets mode-0
 * flag 4 and waits; then each sums all three words: 6. The AIVs do
 * nothing, so only the AICs meet. */
static void aic_mode0_kernel(uint8_t **)
{
	if ASCEND_IS_AIC {
		const int64_t c = GetBlockIdx();
		gHand.SetValue(c, (int32_t)(c + 1));
		CrossCoreSetFlag<0, PIPE_MTE3>(4);
		CrossCoreWaitFlag(4);
		gHand.SetValue(4 + c, gHand.GetValue(0) + gHand.GetValue(1) + gHand.GetValue(2));
	}
}

Test(cpusim_mix, mode_0_meets_every_aic)
{
	memset(hand, 0, sizeof hand);
	gHand = cube_host_gm(hand, 8);
	declare(KERNEL_TYPE_MIX_AIC_1_1);
	rt::cores::run_launch(aic_mode0_kernel, nullptr, 3);
	for (int c = 0; c < 3; c++)
		cr_expect_eq(hand[4 + c], 6, "AIC %d summed %d", c, hand[4 + c]);
}

/* ---- deadlocks ------------------------------------------------------------------ */

/* The AIC never sets flag 3. */
static const int never_set_wait_line = __LINE__ + 4;
static void never_set_kernel(uint8_t **)
{
	if ASCEND_IS_AIV {
		CrossCoreWaitFlag(3);
	}
}

static void run_never_set(void)
{
	declare(KERNEL_TYPE_MIX_AIC_1_2);
	rt::cores::run_launch(never_set_kernel, nullptr, 1);
}

Test(cpusim_mix, aiv_waiting_for_a_flag_the_aic_never_sets_deadlocks)
{
	const Outcome o = run_child(run_never_set);
	cr_assert_eq(o.status, 3, "%s", o.err.c_str());
	cr_expect(o.err.find("sync-race: deadlock") != std::string::npos, "%s", o.err.c_str());
	cr_expect(o.err.find("1 of 3 cores have ended") != std::string::npos, "%s", o.err.c_str());
	const std::string at = std::string("waits for flag 3 at ") + __FILE__ + ":" + std::to_string(never_set_wait_line);
	cr_expect(o.err.find("AIV 0 " + at) != std::string::npos, "%s", o.err.c_str());
	cr_expect(o.err.find("AIV 1 " + at) != std::string::npos, "%s", o.err.c_str());
}

/* The AIC waits for the AIVs' flag 6, the AIVs for the AIC's flag 7. */
static void crossed_kernel(uint8_t **)
{
	if ASCEND_IS_AIC {
		CrossCoreWaitFlag(6);
		CrossCoreSetFlag<2, PIPE_FIX>(7);
	}
	if ASCEND_IS_AIV {
		CrossCoreWaitFlag(7);
		CrossCoreSetFlag<2, PIPE_MTE3>(6);
	}
}

static void run_crossed(void)
{
	declare(KERNEL_TYPE_MIX_AIC_1_1);
	rt::cores::run_launch(crossed_kernel, nullptr, 1);
}

Test(cpusim_mix, aic_and_aiv_waiting_for_each_other_deadlock)
{
	const Outcome o = run_child(run_crossed);
	cr_assert_eq(o.status, 3, "%s", o.err.c_str());
	cr_expect(o.err.find("0 of 2 cores have ended") != std::string::npos, "%s", o.err.c_str());
	cr_expect(o.err.find("AIC 0 waits for flag 6") != std::string::npos, "%s", o.err.c_str());
	cr_expect(o.err.find("AIV 0 waits for flag 7") != std::string::npos, "%s", o.err.c_str());
}

/* Sixteen mode-2 sets that no AIV waits for: the counter holds 15. */
static void overflow_kernel(uint8_t **)
{
	if ASCEND_IS_AIC {
		for (int i = 0; i < 16; i++)
			CrossCoreSetFlag<2, PIPE_FIX>(9);
	}
}

static void run_overflow(void)
{
	declare(KERNEL_TYPE_MIX_AIC_1_1);
	rt::cores::run_launch(overflow_kernel, nullptr, 1);
}

Test(cpusim_mix, sixteen_sets_without_a_wait_overflow_the_counter)
{
	const Outcome o = run_child(run_overflow);
	cr_assert_eq(o.status, 3, "%s", o.err.c_str());
	cr_expect(o.err.find("flag's counter on AIV 0 would pass 15") != std::string::npos, "%s", o.err.c_str());
}

/* ---- core types -------------------------------------------------------------------- */

static void cube_on_aiv_kernel(uint8_t **)
{
	if ASCEND_IS_AIV {
		cube_product(gA[0], gB, gWs[0]);
	}
}

static void run_cube_on_aiv(void)
{
	mix_register();
	declare(KERNEL_TYPE_MIX_AIC_1_2);
	rt::cores::run_launch(cube_on_aiv_kernel, nullptr, 1);
}

Test(cpusim_mix, cube_instruction_on_an_aiv_trips)
{
	mix_setup_data();
	const Outcome o = run_child(run_cube_on_aiv);
	cr_assert_eq(o.status, 3, "%s", o.err.c_str());
	cr_expect(o.err.find("core-type: DataCopy GM->L1 (Nd2Nz): destination is in a cube-core buffer") !=
			  std::string::npos,
		  "%s", o.err.c_str());
	cr_expect(o.err.find("vector core AIV 0") != std::string::npos, "%s", o.err.c_str());
}

static void vector_on_aic_kernel(uint8_t **)
{
	if ASCEND_IS_AIC {
		vector_post(gWs[0], gOut[0]);
	}
}

static void run_vector_on_aic(void)
{
	mix_register();
	declare(KERNEL_TYPE_MIX_AIC_1_1);
	rt::cores::run_launch(vector_on_aic_kernel, nullptr, 1);
}

Test(cpusim_mix, ub_instruction_on_an_aic_trips)
{
	mix_setup_data();
	const Outcome o = run_child(run_vector_on_aic);
	cr_assert_eq(o.status, 3, "%s", o.err.c_str());
	cr_expect(o.err.find("core-type: DataCopy GM->UB: destination is in the unified buffer, but this is cube core "
			     "AIC 0") != std::string::npos,
		  "%s", o.err.c_str());
}

/* An AIC-only kernel runs its product on cube cores; the same on an
 * AIV-only kernel trips. */
static void product_kernel(uint8_t **) { cube_product(gA[GetBlockIdx()], gB, gWs[GetBlockIdx()]); }

Test(cpusim_mix, aic_only_kernel_runs_cube_instructions)
{
	mix_setup_data();
	mix_register();
	declare(KERNEL_TYPE_AIC_ONLY);
	rt::cores::run_launch(product_kernel, nullptr, 2);
	/* C_1[3][3] = 2 * 2, C_1[5][0] = 1, C_0[0][0] = 2 + 1 */
	cr_expect_eq(mixWs[1][3 * 16 + 3], 4.0f);
	cr_expect_eq(mixWs[1][5 * 16 + 0], 1.0f);
	cr_expect_eq(mixWs[0][0], 3.0f);
	cr_expect_eq(mixWs[0][1], 0.0f);
}

static void run_product_on_aiv_only(void)
{
	mix_register();
	declare(KERNEL_TYPE_AIV_ONLY);
	rt::cores::run_launch(product_kernel, nullptr, 1);
}

Test(cpusim_mix, aiv_only_kernel_with_cube_instructions_trips)
{
	mix_setup_data();
	const Outcome o = run_child(run_product_on_aiv_only);
	cr_assert_eq(o.status, 3, "%s", o.err.c_str());
	cr_expect(o.err.find("core-type") != std::string::npos, "%s", o.err.c_str());
}

static void aiv_only_flag_kernel(uint8_t **) { CrossCoreSetFlag<0, PIPE_MTE3>(1); }

static void run_aiv_only_flag(void)
{
	declare(KERNEL_TYPE_AIV_ONLY);
	rt::cores::run_launch(aiv_only_flag_kernel, nullptr, 2);
}

Test(cpusim_mix, cross_core_flag_in_an_aiv_only_kernel_trips)
{
	const Outcome o = run_child(run_aiv_only_flag);
	cr_assert_eq(o.status, 3, "%s", o.err.c_str());
	cr_expect(o.err.find("KERNEL_TYPE_AIV_ONLY kernel has no cross-core synchronisation") != std::string::npos, "%s",
		  o.err.c_str());
}

/* ---- the Matmul API in a mix kernel ---------------------------------------------
 * The AIV calls it and cpusim computes it there; the AIC's part ends at
 * REGIST_MATMUL_OBJ, so its marker write after it never happens.
 * [1 2 3; 4 5 6] x [1 0; 0 1; 1 1] = [4 5; 10 11]. */
using MmA = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using MmC = MatmulType<TPosition::GM, CubeFormat::ND, float>;
static half mmA[6] = {1, 2, 3, 4, 5, 6}, mmB[6] = {1, 0, 0, 1, 1, 1};
static float mmC[4];
static int32_t marker[2];
static GlobalTensor<half> gmmA, gmmB;
static GlobalTensor<float> gmmC;
static GlobalTensor<int32_t> gMarker;

static void matmul_kernel(uint8_t **)
{
	TPipe pipe;
	matmul::Matmul<MmA, MmA, MmC> mm;
	TCubeTiling t;
	t.M = 2;
	t.N = 2;
	t.Ka = 3;
	t.Kb = 3;
	t.singleCoreM = 2;
	t.singleCoreN = 2;
	t.singleCoreK = 3;
	REGIST_MATMUL_OBJ(&pipe, nullptr, mm, &t);
	gMarker.SetValue(g_coreType == AIC ? 0 : 1, 1);
	mm.SetTensorA(gmmA);
	mm.SetTensorB(gmmB);
	mm.IterateAll(gmmC);
	mm.End();
}

Test(cpusim_mix, matmul_api_in_a_mix_kernel_runs_in_the_aiv)
{
	memset(mmC, 0, sizeof mmC);
	memset(marker, 0, sizeof marker);
	gmmA = cube_host_gm(mmA, 6);
	gmmB = cube_host_gm(mmB, 6);
	gmmC = cube_host_gm(mmC, 4);
	gMarker = cube_host_gm(marker, 2);
	declare(KERNEL_TYPE_MIX_AIC_1_1);
	rt::cores::run_launch(matmul_kernel, nullptr, 1);
	cr_expect_eq(mmC[0], 4.0f);
	cr_expect_eq(mmC[1], 5.0f);
	cr_expect_eq(mmC[2], 10.0f);
	cr_expect_eq(mmC[3], 11.0f);
	cr_expect_eq(marker[0], 0, "the AIC went on past REGIST_MATMUL_OBJ");
	cr_expect_eq(marker[1], 1, "the AIV did not reach its Matmul");
}
